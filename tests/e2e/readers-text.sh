#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The ftrace-text and systrace readers end to end, through `eatrace dump`:
#  - every text trace in $SHARED: event counts per type (counted here
#    independently with grep) and first/last timestamps, sorted output;
#  - the same recording rendered by `trace-cmd report`, `-R` and `-N` (and
#    /sys/kernel/tracing/trace for our own x86 capture) dumps identically;
#  - malformed files exit 2 with a one-line "FILE:line N: cause".
. "$(dirname "$0")/lib.sh"

FIX=$ROOT/tests/fixtures/text
EVENTS="sched_switch sched_wakeup sched_waking sched_wakeup_new sched_migrate_task cpu_frequency cpu_idle"

# grep_count FILE EVENT: event lines of EVENT, outside comments.
grep_count() {
	grep -v '^[[:space:]]*#' "$1" | grep -c "[0-9]: $2: "
}

# dump_count DUMP EVENT
dump_count() {
	awk -v t="$2" '$4 == t { n++ } END { print n + 0 }' "$1"
}

# ts_range FILE: "MIN MAX" ns of the event lines eatrace uses.
ts_range() {
	awk -v evs="$EVENTS" '
	BEGIN { split(evs, e, " "); for (k in e) use[e[k] ":"] = 1 }
	/^[[:space:]]*#/ { next }
	{
		for (i = 1; i < NF; i++) {
			if ($i !~ /^[0-9]+\.[0-9]+:$/ || !($(i + 1) in use))
				continue
			split(substr($i, 1, length($i) - 1), a, ".")
			ns = a[1] * 1000000000 + substr(a[2] "000000000", 1, 9)
			if (!n || ns < min) min = ns
			if (!n || ns > max) max = ns
			n++
			break
		}
	}
	END { printf "%.0f %.0f\n", min, max }' "$1"
}

# check_text FILE [NAME]: dump FILE, compare with what grep finds in it.
check_text() {
	f=$1
	name=${2:-$(basename "$f")}
	if ! "$EATRACE" dump "$f" >"$TMP/dump" 2>"$TMP/dump.err"; then
		fail "$name: dump failed: $(cat "$TMP/dump.err")"
		return
	fi
	for ev in $EVENTS; do
		expect_eq "$name: $ev count" "$(dump_count "$TMP/dump" $ev)" \
			"$(grep_count "$f" $ev)"
	done
	expect_eq "$name: first/last timestamps" \
		"$(head -n 1 "$TMP/dump" | cut -d' ' -f1) $(tail -n 1 "$TMP/dump" | cut -d' ' -f1)" \
		"$(ts_range "$f")"
	if sort -s -n -c -k1,1 "$TMP/dump" 2>/dev/null; then
		ok "$name: sorted"
	else
		fail "$name: timestamps out of order"
	fi
}

# ---- the shared reference traces ----------------------------------------

for f in "$SHARED"/idlestat/Experiments__*.dat "$SHARED"/trappy/tests__trace_sched.txt \
	"$SHARED"/lisa/tests__assets__trace_txt__trace.txt \
	"$SHARED"/trappy/tests__trace_surfaceflinger.html; do
	check_text "$f"
done

# The counts the traces' README gives.
"$EATRACE" dump "$SHARED/trappy/tests__trace_surfaceflinger.html" >"$TMP/sf"
expect_eq "surfaceflinger: README counts" \
	"$(dump_count "$TMP/sf" sched_switch) $(dump_count "$TMP/sf" cpu_idle) $(dump_count "$TMP/sf" sched_wakeup) $(dump_count "$TMP/sf" cpu_frequency)" \
	"715 621 421 104"
expect_eq "surfaceflinger: first event" "$(head -n 1 "$TMP/sf")" \
	"538064659000 6 959 sched_switch prev_comm=kworker/u17:1 prev_pid=959 prev_prio=100 prev_state=S next_comm=swapper/6 next_pid=0 next_prio=120"
"$EATRACE" dump "$SHARED/lisa/tests__assets__trace_txt__trace.txt" >"$TMP/tt"
expect_eq "lisa trace.txt: README counts" \
	"$(dump_count "$TMP/tt" sched_switch) $(dump_count "$TMP/tt" sched_wakeup)" "1856 1068"
# Numeric prev_state: 0 and 4096 (TASK_STATE_MAX, preempted) are runnable,
# 64 (TASK_DEAD on 4.x) exited, 1, 2 and 130 (D|K) blocked.
T=$SHARED/lisa/tests__assets__trace_txt__trace.txt
expect_eq "lisa trace.txt: prev_state R/S/X" \
	"$(grep -c 'prev_state=R' "$TMP/tt") $(grep -c 'prev_state=S' "$TMP/tt") $(grep -c 'prev_state=X' "$TMP/tt")" \
	"$(grep -c 'prev_state=\(0\|4096\) ' "$T") $(grep -c 'prev_state=\(1\|2\|130\) ' "$T") $(grep -c 'prev_state=64 ' "$T")"

# trappy's shuffled trace ends with a line cut mid-field: an error. Its
# complete lines are read and sorted back into order.
U=$SHARED/trappy/tests__trace_idle_unsorted.txt
# Its last line is an event cut short (a capture copied while being
# written): forgiven as the last line, with a warning.
"$EATRACE" stats -f json "$U" >"$TMP/unsorted.json" 2>"$TMP/unsorted.err"
expect_eq "unsorted: cut last line forgiven" "$?" "0"
grep -q 'the last line (17) is an event cut short' "$TMP/unsorted.json" &&
	ok "unsorted: cut last line reported" || fail "unsorted: cut last line not reported"
for f in cut-last-truncated cut-last-cut-header; do
	"$EATRACE" dump "$FIX/$f.txt" >/dev/null 2>&1
	expect_eq "$f: forgiven as the last line" "$?" "0"
done
head -n 16 "$U" >"$TMP/unsorted16.txt"
check_text "$TMP/unsorted16.txt" "unsorted (16 lines)"

# ---- one recording, every text form ---------------------------------------

# dump_same NAME FILE...: all files dump identically (and not empty).
dump_same() {
	name=$1
	shift
	"$EATRACE" dump "$1" >"$TMP/same.ref" 2>"$TMP/same.err" ||
		fail "$name: $1: $(cat "$TMP/same.err")"
	[ -s "$TMP/same.ref" ] || fail "$name: no events in $1"
	for g in "$@"; do
		"$EATRACE" dump "$g" >"$TMP/same.out" 2>"$TMP/same.err" ||
			fail "$name: $g: $(cat "$TMP/same.err")"
		if cmp -s "$TMP/same.ref" "$TMP/same.out"; then
			ok "$name: $(basename "$g") same as $(basename "$1")"
		else
			fail "$name: $(basename "$g") differs from $(basename "$1"): $(diff "$TMP/same.ref" "$TMP/same.out" | head -n 4)"
		fi
	done
}

if command -v trace-cmd >/dev/null 2>&1; then
	for dat in "$SHARED/trappy/tests__trace_idle.dat" \
		"$SHARED/lisa/tests__assets__sched_load__trace.dat"; do
		n=$(basename "$dat" .dat)
		trace-cmd report "$dat" >"$TMP/$n.plugin.txt" 2>/dev/null
		trace-cmd report -R "$dat" >"$TMP/$n.raw.txt" 2>/dev/null
		trace-cmd report -N "$dat" >"$TMP/$n.nofmt.txt" 2>/dev/null
		dump_same "$n" "$TMP/$n.plugin.txt" "$TMP/$n.raw.txt" "$TMP/$n.nofmt.txt"
		check_text "$TMP/$n.plugin.txt" "$n (report)"
	done
	# Kernel PELT signals: root cfs_rq and task entities only.
	n=tests__assets__sched_load__trace
	"$EATRACE" dump "$TMP/$n.raw.txt" >"$TMP/sl"
	expect_eq "sched_load: root cfs_rq count" "$(dump_count "$TMP/sl" sched_load_cfs_rq)" \
		"$(grep -c 'sched_load_cfs_rq: .*path=/ ' "$TMP/$n.raw.txt")"
	expect_eq "sched_load: task se count" "$(dump_count "$TMP/sl" sched_load_se)" \
		"$(grep 'sched_load_se: ' "$TMP/$n.raw.txt" | grep -c ' pid=[1-9]')"
	expect_eq "sched_load: README counts" \
		"$(dump_count "$TMP/sl" sched_switch) $(dump_count "$TMP/sl" cpu_idle) $(dump_count "$TMP/sl" cpu_frequency) $(dump_count "$TMP/sl" sched_migrate_task)" \
		"399 474 16 28"
else
	echo "skip: trace-cmd not installed, report forms not compared"
fi

# Our own x86 capture (kernel 6.18): /sys/kernel/tracing/trace and the three
# trace-cmd report forms of the same buffer.
dump_same "x86 capture" "$FIX/x86-6.18-trace.txt" "$FIX/x86-6.18-report.txt" \
	"$FIX/x86-6.18-report-raw.txt" "$FIX/x86-6.18-report-nofmt.txt"
check_text "$FIX/x86-6.18-trace.txt"

# ---- fixtures ---------------------------------------------------------------

for f in "$FIX"/*; do
	case $(basename "$f") in
	bad-*) continue ;;
	esac
	if "$EATRACE" dump "$f" >"$TMP/fx" 2>"$TMP/fx.err" && [ -s "$TMP/fx" ] &&
		sort -s -n -c -k1,1 "$TMP/fx" 2>/dev/null; then
		ok "fixture $(basename "$f")"
	else
		fail "fixture $(basename "$f"): $(cat "$TMP/fx.err")"
	fi
done

expect_fail "bad: truncated" 2 \
	"bad-truncated.txt:line 3: malformed sched_switch event: 'prev_comm=bash prev_pid=12 prev_prio=120 prev_st'" \
	-- "$EATRACE" dump "$FIX/bad-truncated.txt"
expect_fail "bad: cut header" 2 "bad-cut-header.txt:line 3: truncated event line" \
	-- "$EATRACE" dump "$FIX/bad-cut-header.txt"
expect_fail "bad: number" 2 \
	"bad-number.txt:line 3: malformed cpu_frequency event: 'state=12x00 cpu_id=0'" \
	-- "$EATRACE" dump "$FIX/bad-number.txt"
expect_fail "bad: timestamp" 2 "bad-timestamp.txt:line 3: bad timestamp in event line" \
	-- "$EATRACE" dump "$FIX/bad-timestamp.txt"
expect_fail "bad: backwards" 2 \
	"bad-backwards.txt:line 4: timestamp 99.000000000 goes backwards beyond the reorder window" \
	-- "$EATRACE" dump "$FIX/bad-backwards.txt"
expect_fail "bad: binary" 2 "bad-binary.txt:line 3: binary data in text trace" \
	-- "$EATRACE" dump "$FIX/bad-binary.txt"
expect_fail "bad: NUL" 2 "bad-nul.txt:line 3: NUL byte: binary data in text trace" \
	-- "$EATRACE" dump "$FIX/bad-nul.txt"
expect_fail "not a trace" 2 "energy_model_TC2: not a trace.dat, Perfetto trace, ftrace text or systrace file" \
	-- "$EATRACE" dump "$SHARED/idlestat/energy_model_TC2"

# An over-long line (> 64 KiB) in ftrace text.
{
	head -n 3 "$FIX/ftrace-noflags.txt"
	printf '# '
	head -c 70000 /dev/zero | tr '\0' y
	printf '\n'
	tail -n 3 "$FIX/ftrace-noflags.txt"
} >"$TMP/long.txt"
expect_fail "bad: long line" 2 "long.txt:line 4: line longer than 65536 bytes" \
	-- "$EATRACE" dump "$TMP/long.txt"

finish
