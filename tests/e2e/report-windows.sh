#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# --interval windows add up to the total exactly, a wakeup at the trace's
# very last instant included: it is counted in the totals and belongs to
# the last window (closed at that instant), whether the span is a whole
# number of intervals or not. Hand-made trace and model below; then every
# bundled trace and every trace of ../shared.
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

# Every bundled trace and every trace of ../shared (traces/, repro/): at
# 10 ms and at 7 ms (the span then ends inside a window) the windows'
# totals and each of their six parts add up to the report's, exactly (the
# JSON's decimals summed as decimals). juno-r0 has six CPUs; traces with
# more are priced with wattson-tensor (eight).
# sums_ok TRACE: prints "TRACE: ok" or what does not add up
sums_ok() {
	for iv in 10 7; do
		"$EATRACE" report -q -m juno-r0 --interval $iv -f json "$1" >"$TMP/s.json" 2>"$TMP/s.err" ||
			"$EATRACE" report -q -m wattson-tensor --interval $iv -f json "$1" >"$TMP/s.json" 2>"$TMP/s.err" ||
			{ echo "$1: report --interval $iv failed: $(cat "$TMP/s.err")"; return; }
		/usr/bin/python3 -c 'import json, sys
from decimal import Decimal as D
d = json.load(open(sys.argv[1]), parse_float=D)
w = d["windows"]
bad = [p for p in ("total", "core_busy", "cluster_busy", "core_idle", "cluster_idle", "core_wakeup", "cluster_wakeup")
       if sum((x["energy"][p] for x in w), D(0)) != d["energy"][p]]
if not w or bad:
    print("%s --interval %s: %d windows, %s do not add up" % (sys.argv[2], sys.argv[3], len(w), bad))' "$TMP/s.json" "$1" $iv
	done
}
n=0
for f in $(sampled "$ROOT"/traces/*/*.dat "$ROOT"/traces/*/*.txt); do
	sums_ok "$f"
	n=$((n + 1))
done >"$TMP/bundled.out"
expect_eq "bundled traces ($n): the windows sum to the totals" "$(cat "$TMP/bundled.out")" ""
need_shared
n=0
for f in $(sampled "$SHARED"/*/*.dat "$SHARED"/*/*.txt "$SHARED"/*/*.html "$SHARED"/../repro/*.txt); do
	case $(basename "$f") in LICENSE*) continue ;; esac
	sums_ok "$f"
	n=$((n + 1))
done >"$TMP/shared.out"
expect_eq "../shared traces ($n): the windows sum to the totals" "$(cat "$TMP/shared.out")" ""
finish
