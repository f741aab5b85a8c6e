#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# --interval windows add up to the total exactly, a wakeup at the trace's
# very last instant included: it is counted in the totals and belongs to
# the last window (closed at that instant), whether the span is a whole
# number of intervals or not. Hand-made trace and model below.
. "$(dirname "$0")/lib.sh"

# One cluster c of CPUs 0-1, one OPP (core 100, cluster 50 mW busy), WFI
# (core 10, cluster 5 mW; wakeups core 0.5, cluster 2 mW s).
cat >"$TMP/m.json" <<'JSON'
{ "eatrace_model": 1, "name": "windows-test", "source": "tests/e2e/report-windows.sh",
  "power_unit": "mW",
  "clusters": [ { "name": "c", "cpus": [0, 1],
    "cap_states": [ { "freq_khz": 1000000, "cap": 1024, "core_power": 100, "cluster_power": 50 } ],
    "idle_states": [ { "name": "WFI", "core_power": 10, "cluster_power": 5,
                       "core_wakeup": 0.5, "cluster_wakeup": 2 } ] } ] }
JSON
# Both CPUs in WFI from 100.000 to 100.020 s; at 100.020, the last
# instant, CPU 0 leaves WFI for task t.
#   idle: cores 2 x 10 x 0.020 = 0.4, cluster 5 x 0.020 = 0.1
#   wakeup at 100.020: core 0.5, cluster 2 (the whole cluster was idle)
#   total 3
#   --interval 10 (two whole windows): [100.000, 100.010) 0.25,
#     [100.010, 100.020] 0.25 + 2.5 = 2.75
#   --interval 15: [100.000, 100.015) 0.375, [100.015, 100.020] 0.125 +
#     2.5 = 2.625
cat >"$TMP/t.txt" <<'TXT'
# tracer: nop
          <idle>-0     [000] d..2.   100.000000: cpu_frequency: state=1000000 cpu_id=0
          <idle>-0     [000] d..2.   100.000000: cpu_idle: state=0 cpu_id=0
          <idle>-0     [001] d..2.   100.000000: cpu_frequency: state=1000000 cpu_id=1
          <idle>-0     [001] d..2.   100.000000: cpu_idle: state=0 cpu_id=1
          <idle>-0     [000] d..2.   100.020000: cpu_idle: state=4294967295 cpu_id=0
          <idle>-0     [000] d..2.   100.020000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=t next_pid=10 next_prio=120
TXT
# windows JSON: "total; window totals" as exact decimals
windows() {
	/usr/bin/python3 -c 'import json, sys
from decimal import Decimal as D
d = json.load(sys.stdin, parse_float=D)
w = [x["energy"]["total"] for x in d["windows"]]
print("%s; %s; sum %s" % (d["energy"]["total"], " ".join(str(x) for x in w), sum(w)))'
}
expect_eq "a wakeup at the last instant, whole windows: in the last" \
	"$("$EATRACE" report -q -f json --interval 10 -m "$TMP/m.json" "$TMP/t.txt" | windows)" "3; 0.25 2.75; sum 3.00"
expect_eq "a wakeup at the last instant, a partial last window: in it" \
	"$("$EATRACE" report -q -f json --interval 15 -m "$TMP/m.json" "$TMP/t.txt" | windows)" "3; 0.375 2.625; sum 3.000"

# the case reported: tests/fixtures/fit/gen-seed3.txt (0.12 s, 12 whole
# 10 ms windows) with its model; a wakeup at its last instant, 0.27 mW s,
# was in no window (the windows summed to 25.725276 of 25.995276)
F=$ROOT/tests/fixtures/fit
"$EATRACE" report -q -f json --interval 10 -m "$F/two-cluster.json" "$F/gen-seed3.txt" >"$TMP/g.json" ||
	fail "report gen-seed3.txt"
expect_eq "gen-seed3: the windows sum to the total" \
	"$(/usr/bin/python3 -c 'import json, sys
from decimal import Decimal as D
d = json.load(open(sys.argv[1]), parse_float=D)
print(len(d["windows"]), sum(x["energy"]["total"] for x in d["windows"]) == d["energy"]["total"], d["energy"]["total"])' "$TMP/g.json")" \
	"12 True 25.995276"
finish
