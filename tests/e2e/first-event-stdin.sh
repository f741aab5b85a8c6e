#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A CPU whose first record lies beyond the look-ahead (EA_LOOKAHEAD,
# 32768 events) is started from its first record, read ahead by a second
# reader of the input (ea_input_first_event()). On stdin that reader reads
# the spooled copy of stdin, so a trace piped in is priced as the file is.
# Systrace text is read ahead by input.c itself (its reader has no
# first-event skim of its own).
. "$(dirname "$0")/lib.sh"

# 40 000 switches on CPU 0 every 10 us from 100.00001 s, then CPU 1's
# first record: task 3003 switching out at 100.40001 s, then one more
# switch on CPU 0 at 100.40101 s (the end). CPU 1 ran task 3003 from the
# start (its first record shows it current): busy 100.40001 - 100.00001 =
# 0.4 s, idle 0.001 s after, no unknown time.
awk 'BEGIN {
	print "# tracer: nop"; print "#"; print "cpus=2"
	t = 100.0; a = 1001; b = 1002
	for (i = 0; i < 40000; i++) {
		t += 0.00001
		printf "          task%d-%d     (-----) [000] d..2. %.6f: sched_switch: prev_comm=task%d prev_pid=%d prev_prio=120 prev_state=S ==> next_comm=task%d next_pid=%d next_prio=120\n", a, a, t, a, a, b, b
		x = a; a = b; b = x
	}
	t += 0.00001
	printf "          task3003-3003     (-----) [001] d..2. %.6f: sched_switch: prev_comm=task3003 prev_pid=3003 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n", t
	t += 0.001
	printf "          task%d-%d     (-----) [000] d..2. %.6f: sched_switch: prev_comm=task%d prev_pid=%d prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n", a, a, t, a, a
}' >"$TMP/far.txt"

"$EATRACE" stats "$TMP/far.txt" >"$TMP/file.txt" || fail "stats on the file"
"$EATRACE" stats - <"$TMP/far.txt" >"$TMP/stdin.txt" || fail "stats on stdin"
for f in file stdin; do
	expect_eq "$f: CPU 1 busy, idle, unknown" \
		"$(awk '$1 == "1" { print $2, $3, $4; exit }' "$TMP/$f.txt")" \
		"0.400000000 0.001000000 0.000000000"
done
gzip -c "$TMP/far.txt" >"$TMP/far.txt.gz"
"$EATRACE" stats - <"$TMP/far.txt.gz" >"$TMP/stdin-gz.txt" || fail "stats on gzip'd stdin"
expect_eq "gzip'd stdin: CPU 1 busy, idle, unknown" \
	"$(awk '$1 == "1" { print $2, $3, $4; exit }' "$TMP/stdin-gz.txt")" \
	"0.400000000 0.001000000 0.000000000"
tail -n +2 "$TMP/file.txt" >"$TMP/file.rest"
tail -n +2 "$TMP/stdin.txt" >"$TMP/stdin.rest"
if cmp -s "$TMP/file.rest" "$TMP/stdin.rest"; then ok "stdin: all but the name line as on the file"
else fail "stdin: differs from the file: $(diff "$TMP/file.rest" "$TMP/stdin.rest" | head -5)"; fi
exit $((nfail > 0))
