#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `eatrace replay` idle exit and the latency floor (docs/replay.md "Idle
# exit and the latency floor") on tests/fixtures/replay/exit-latency.txt:
# p, woken at 100 us on CPU0 in WFI, switched in at 300 us (the
# recording's gap: 200 us), runs 100 us; woken again at 600 us, events
# lost before its switch-in at 900 us, runs 50 us. CPU1 in OFF.
. "$(dirname "$0")/lib.sh"
cd "$ROOT" || exit 1
fx=tests/fixtures/replay/exit-latency.txt
two=tests/fixtures/energy/two-cpu.json
ex=tests/fixtures/models/two-cpu-exit.json
# per policy: "name latency_p50 latency_max floor_p50 floor_max
# activations wait_s wait_floor_s energy"
figs() { /usr/bin/python3 -c "
import json,sys; d=json.load(open(sys.argv[1]))
for p in d['policies']:
    l = p['latency']; f = l['floor']
    print(p['name'], l['p50'], l['max'], f['p50'], f['max'], l['activations'],
          p['wait_s'], p['wait_floor_s'], p['energy']['total'])" "$TMP/r.json"; }
field() { /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($1)" "$TMP/r.json"; }

# Energy by hand (two-cpu.json and two-cpu-exit.json price alike: the exit
# latency only delays): CPU0 busy 100 + 50 us x (300 + 80) mW = 0.057;
# idle in WFI 850 us x (10 + 20) = 0.0255; CPU1 in OFF, 0; two exits from
# WFI, each core 0.5 + cluster 2: 5. Total 5.0825 mW x s, in every run
# (the work is the same and the CPU only leaves idle later).
#
# 1. A model without exit latencies, on the recorded platform: `recorded`
# runs p at 300 us as recorded, cfs wakes CPU0 at 100 us and runs p after
# the recording's own gap (no model figure to use instead): latency
# 200 us, all of it the floor, in both. The second wakeup crossed lost
# events: no latency sample (1 activation measured, lost_span 1); its wait
# is not known either: wait 200 us, all floor.
"$EATRACE" replay -m $two --policy recorded,cfs -f json "$fx" >"$TMP/r.json" || fail "replay two-cpu"
expect_eq "no exit latencies: the recording's gaps, as the floor" "$(figs)" \
"recorded 0.0002 0.0002 0.0002 0.0002 1 0.0002 0.0002 5.0825
cfs 0.0002 0.0002 0.0002 0.0002 1 0.0002 0.0002 5.0825"
expect_eq "lost events: one activation without a latency" "$(field "d['workload']['lost_span']")" "1"
expect_eq "report = replay (5.0825 by hand)" "$(field "d['actual']['energy']['total']")" "5.0825"

# 2. The model's exit latency, WFI 50 us: cfs runs p 50 us after each
# wakeup (100 -> 150, 600 -> 650): latency 50 us, no floor; it waited
# 2 x 50 us = 100 us, none of it the recording's. `recorded` keeps the
# recording's timeline (200 us, all floor).
"$EATRACE" replay -m $ex --policy recorded,cfs -f json "$fx" >"$TMP/r.json" || fail "replay two-cpu-exit"
expect_eq "the target model's exit latency replaces the gap" "$(figs)" \
"recorded 0.0002 0.0002 0.0002 0.0002 1 0.0002 0.0002 5.0825
cfs 5e-05 5e-05 0.0 0.0 1 0.0001 0.0 5.0825"
"$EATRACE" replay -m $ex --policy recorded,cfs "$fx" >"$TMP/r.txt" || fail "text"
grep -q "^latency floor .* recorded p50 0.200 p99 0.200 ms wait 0.000200 s;$" "$TMP/r.txt" &&
	ok "text: the floor of recorded, not of cfs (none)" || fail "text floor: $(grep floor "$TMP/r.txt")"

# 3. Another platform (--target-model): the recording's gaps are not its
# exits. Without exit latencies cfs runs p at once (latency 0); with
# them after 50 us. No floor in either.
for m in "$two 0.0 0.0" "$ex 5e-05 0.0001"; do
	set -- $m
	"$EATRACE" replay --target-model $1 --source-capacity 1024 --governor performance \
		--idle menu --policy cfs -f json "$fx" >"$TMP/r.json" || fail "replay --target-model $1"
	expect_eq "another platform ($1): latency, floor, wait, wait floor" \
		"$(field "*[d['policies'][0][k] for k in ('latency', 'wait_s', 'wait_floor_s')][1:], d['policies'][0]['latency']['max'], d['policies'][0]['latency']['floor']['max']")" \
		"$3 0.0 $2 0.0"
done
finish
