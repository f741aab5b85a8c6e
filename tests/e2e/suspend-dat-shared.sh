#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# suspend_resume in trace.dat (issue 18): its action is a pointer to a
# tracepoint string, resolved from the file's printk formats. Two of
# CPU 0's sched_switch records of trappy's tests__trace_idle.dat (which
# has suspend_resume's format and "machine_suspend" among its printk
# strings) become machine_suspend begin and end (tests/e2e/suspend-dat.py,
# which prints their timestamps from the pages, not through eatrace).
# Every CPU is then suspended for exactly end - begin; the span holds.
. "$(dirname "$0")/lib.sh"
need_shared
IN=$SHARED/trappy/tests__trace_idle.dat
[ -f "$IN" ] || skip "no $IN"
/usr/bin/python3 "$ROOT/tests/e2e/suspend-dat.py" "$IN" "$TMP/s.dat" 3 7 >"$TMP/ts" ||
	{ fail "suspend-dat.py"; finish; }
t1=$(sed -n 1p "$TMP/ts")
t2=$(sed -n 2p "$TMP/ts")
"$EATRACE" dump "$TMP/s.dat" >"$TMP/dump" || fail "dump"
expect_eq "dump: begin" "$(grep -c "^$t1 0 [0-9]* suspend_resume action=machine_suspend val=3 begin$" "$TMP/dump")" 1
expect_eq "dump: end" "$(grep -c "^$t2 0 [0-9]* suspend_resume action=machine_suspend val=3 end$" "$TMP/dump")" 1
"$EATRACE" stats -q -f json "$TMP/s.dat" >"$TMP/s.json" || fail "stats"
/usr/bin/python3 - "$TMP/s.json" "$t1" "$t2" >"$TMP/out" 2>&1 <<'PY' || echo "the check failed" >>"$TMP/out"
import json, sys
from decimal import Decimal as D
d = json.load(open(sys.argv[1]), parse_float=D)
want = (D(sys.argv[3]) - D(sys.argv[2])) / D(10**9)
if d["inferences"]["suspends"] != 1:
    print("suspends", d["inferences"]["suspends"])
for c in d["cpus"]:
    if D(c["suspended_s"]) != want:
        print("cpu %d suspended_s %s, want %s" % (c["cpu"], c["suspended_s"], want))
    t = sum(D(c[k]) for k in ("busy_s", "idle_s", "unknown_s", "suspended_s", "offline_s"))
    if t != D(d["duration_s"]):
        print("cpu %d: %s != span %s" % (c["cpu"], t, d["duration_s"]))
PY
if [ -s "$TMP/out" ]; then
	fail "trace.dat suspension: $(cat "$TMP/out")"
else
	ok "trace.dat: every CPU suspended end - begin = $((t2 - t1)) ns; span holds"
fi
finish
