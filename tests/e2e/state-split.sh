#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The state stage on two threads (src/state/handoff.c): with a job more
# than the reader takes (-j 2 for text, -j 3 for an uncompressed
# trace.dat, whose pages -j 2 decodes on a thread of their own, -j 4 for
# a compressed one) ea_run() reads the input and runs the look-ahead on
# one thread and applies the events it lets go on another. Every output
# must be byte for byte that of -j 1 (one thread), with the same stderr
# and exit status: report -f json and stats on every trace of traces/
# (every reader: trace.dat, ftrace text; -j 3 splits all but the
# compressed trace.dat, -j 4 those), and traces made here for the
# two points where the look-ahead's thread waits for the applying one:
# the start, and a CPU first seen after it (its first record beyond the
# look-ahead's 32768 events, and a CPU that appears mid-trace); an empty
# trace (the error travels through the hand-over).
. "$(dirname "$0")/lib.sh"
MODEL=$ROOT/tests/fixtures/energy/two-cpu.json
MODEL4=tc2

for f in $(find "$ROOT/traces" -type f \( -name '*.dat' -o -name '*.txt' \) | sort); do
	n=${f#"$ROOT"/}
	"$EATRACE" report -j 1 -m "$MODEL" -f json "$f" >"$TMP/a" 2>&1; ra=$?
	"$EATRACE" report -j 3 -m "$MODEL" -f json "$f" >"$TMP/b" 2>&1; rb=$?
	if [ $ra -ne $rb ] || ! cmp -s "$TMP/a" "$TMP/b"; then fail "report $n"; else ok "report $n (exit $ra)"; fi
	"$EATRACE" stats -j 1 "$f" >"$TMP/a" 2>&1; ra=$?
	"$EATRACE" stats -j 4 "$f" >"$TMP/b" 2>&1; rb=$?
	if [ $ra -ne $rb ] || ! cmp -s "$TMP/a" "$TMP/b"; then fail "stats $n"; else ok "stats $n (exit $ra)"; fi
done

# CPU 1's first record after 40 000 of CPU 0's; CPU 3 appears mid-trace,
# after the start: no "cpus=" header, so the state starts with the one
# CPU the look-ahead saw (cpu_grow(1)) and grows to 4 when CPU 3's event
# is let go, CPUs 1 and 2 then asked of the input (checked with gdb on
# cpu_grow(): both calls on the look-ahead's thread, handoff set).
awk 'BEGIN {
	print "# tracer: nop"; print "#"
	t = 100.0; a = 1001; b = 1002
	for (i = 0; i < 40000; i++) {
		t += 0.00001
		printf "          task%d-%d     [000] d..2. %.6f: sched_switch: prev_comm=task%d prev_pid=%d prev_prio=120 prev_state=S ==> next_comm=task%d next_pid=%d next_prio=120\n", a, a, t, a, a, b, b
		if (i == 35000)
			printf "          <idle>-0     [003] d..2. %.6f: sched_wakeup: comm=task4004 pid=4004 prio=120 target_cpu=003\n", t
		x = a; a = b; b = x
	}
	t += 0.00001
	printf "          task3003-3003     [001] d..2. %.6f: sched_switch: prev_comm=task3003 prev_pid=3003 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n", t
}' >"$TMP/far.txt"
for cmd in "report -m $MODEL4 -f json" "report -m $MODEL4" "stats"; do
	# shellcheck disable=SC2086
	set -- $cmd
	c=$1
	shift
	"$EATRACE" "$c" -j 1 "$@" "$TMP/far.txt" >"$TMP/a" 2>&1; ra=$?
	"$EATRACE" "$c" -j 2 "$@" "$TMP/far.txt" >"$TMP/b" 2>&1; rb=$?
	if [ $ra -ne $rb ] || ! cmp -s "$TMP/a" "$TMP/b"; then fail "$cmd: far CPUs"; else ok "$cmd: far CPUs (exit $ra)"; fi
done

# A new CPU let go right after a full block was put, with the applier
# asleep and fewer than half the ring's blocks queued (it is woken at 4):
# the look-ahead's drain must wake it. Hung on the first version of the
# split (CPU 3's wakeup after switch 32767: the 16th block of 2048 events
# just put, the applier asleep since the 12th). The neighbours cover an
# off-by-one in where the boundary falls. Whether the applier is asleep
# there is timing: the first version hung in 2 of 5 runs at 32767, so
# that one runs 10 times (the trace and its -j 1 output made once).
prev_w=
for w in 32766 32768 32767 32767 32767 32767 32767 32767 32767 32767 32767 32767; do
	[ "$w" = "$prev_w" ] || awk -v W=$w 'BEGIN {
		print "# tracer: nop"; print "#"
		t = 100.0; a = 1001; b = 1002
		for (i = 0; i < 40000; i++) {
			t += 0.00001
			printf "          task%d-%d     [000] d..2. %.6f: sched_switch: prev_comm=task%d prev_pid=%d prev_prio=120 prev_state=S ==> next_comm=task%d next_pid=%d next_prio=120\n", a, a, t, a, a, b, b
			if (i == W)
				printf "          <idle>-0     [003] d..2. %.6f: sched_wakeup: comm=task4004 pid=4004 prio=120 target_cpu=003\n", t
			x = a; a = b; b = x
		}
	}' >"$TMP/edge.txt"
	[ "$w" = "$prev_w" ] || { "$EATRACE" stats -j 1 "$TMP/edge.txt" >"$TMP/a" 2>&1; ra=$?; }
	prev_w=$w
	timeout 30 "$EATRACE" stats -j 2 "$TMP/edge.txt" >"$TMP/b" 2>&1; rb=$?
	if [ $rb -eq 124 ]; then fail "new CPU at a block's end ($w): -j 2 hung"
	elif [ $ra -ne $rb ] || ! cmp -s "$TMP/a" "$TMP/b"; then fail "new CPU at a block's end ($w)"
	else ok "new CPU at a block's end ($w, exit $ra)"; fi
done

# nothing the analysis can use: the error comes through the hand-over
printf '# tracer: nop\n#\n' >"$TMP/empty.txt"
"$EATRACE" stats -j 1 "$TMP/empty.txt" >"$TMP/a" 2>&1; ra=$?
"$EATRACE" stats -j 2 "$TMP/empty.txt" >"$TMP/b" 2>&1; rb=$?
if [ $ra -ne $rb ] || ! cmp -s "$TMP/a" "$TMP/b"; then fail "empty trace: $(cat "$TMP/b")"; else ok "empty trace (exit $ra)"; fi
exit $((nfail > 0))
