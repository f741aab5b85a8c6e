#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The sanitizer build opens every trace.dat first in a rehearsal child
# (src/input/dat-guard.c: libtracecmd crashes on some corrupt files). Its
# limit is CPU time, not wall-clock time: a loaded machine that keeps the
# child waiting must not turn a good trace into "libtracecmd looped on it"
# (seen once: test-first-event under parallel ASan tests, a 10 s alarm).
# EATRACE_REHEARSE=CPU_S:WALL_S:SLEEP_MS makes the child sleep first (no
# CPU used), a stand-in for a starved child. Other builds have no child
# and ignore the variable: the checks that need one are skipped there.
. "$(dirname "$0")/lib.sh"
DAT=$ROOT/traces/vm/vm-v7.dat
"$EATRACE" stats -f json "$DAT" >"$TMP/plain.json" 2>"$TMP/err" || fail "plain: $(cat "$TMP/err")"
# 1.5 s asleep against a 1 s CPU limit: the open goes through, the same
# figures as without the limit
EATRACE_REHEARSE=1:300:1500 "$EATRACE" stats -f json "$DAT" >"$TMP/slow.json" 2>"$TMP/err"
expect_eq "starved child: exit" "$?" 0
cmp -s "$TMP/plain.json" "$TMP/slow.json" && ok "starved child: same stats" ||
	fail "starved child: $(head -c 300 "$TMP/err")"
# report: a second reader of the file (each CPU's first event) is not
# rehearsed again; the same report
"$EATRACE" report -m tc2 -f json "$DAT" >"$TMP/r1.json" 2>/dev/null
EATRACE_REHEARSE=1:300:1500 "$EATRACE" report -m tc2 -f json "$DAT" >"$TMP/r2.json" 2>"$TMP/err"
cmp -s "$TMP/r1.json" "$TMP/r2.json" && ok "starved child: same report" ||
	fail "starved child report: $(head -c 300 "$TMP/err")"
if ldd "$EATRACE" 2>/dev/null | grep -q libasan; then
	# no progress at all for longer than the wall-clock backstop: its own
	# message, not "corrupt" nor "looped"
	expect_fail "stalled child" 2 \
		"vm-v7.dat: opening the trace.dat did not finish in 1 s, with little CPU time used" -- \
		env EATRACE_REHEARSE=10:1:3000 "$EATRACE" stats "$DAT"
else
	ok "stalled child: no rehearsal child in this build (skipped)"
fi
finish
