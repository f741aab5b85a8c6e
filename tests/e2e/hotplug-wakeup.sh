#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A CPU brought online busy wakes a fully idle cluster (issue 27 item 6;
# SPEC "each time a fully idle cluster gets a busy CPU again costs
# cluster_wakeup of the state the cluster was in"; docs/inference.md
# "Suspend and CPU hotplug"): the cluster wakeup of the shallowest state
# of its other, present, CPUs, or of its deepest state when none is
# present (all offline: powered down); no core wakeup (the CPU left no
# idle state). Hand-made trace tests/fixtures/suspend/hotplug-wake.txt,
# model tests/fixtures/suspend/wake-model.json: cluster c of CPUs 0-1,
# one OPP (core 100, cluster 50 mW busy), WFI (core 10, cluster 20 mW;
# wakeups core 0.5, cluster 1 mW s), off (0, 0; wakeups core 2, cluster
# 3), offline_power 2 mW. Energies in mW x s.
. "$(dirname "$0")/lib.sh"
F=$ROOT/tests/fixtures/suspend
T=$F/hotplug-wake.txt

field() {
	/usr/bin/python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# The trace, 100.0 .. 104.0 s:
#   CPU 0: sh runs 100.0-102.5 (driving CPU 1's take-down at 101.0 and
#          its bring-up's first step at 102.4), idle in off 102.5-103.5,
#          leaves it for sh at 103.5, sh runs to 104.0.
#   CPU 1: WFI 100.0-100.999, busy (cpuhp/1, idle loop) to 101.0, offline
#          101.0-103.0 (take-down: the driver's step on CPU 0 after one on
#          CPU 1), online at 103.0 (its first bring-up step on itself):
#          busy in its idle task to 103.2, WFI 103.2-104.0.
# At 103.0 CPU 1 comes online busy while CPU 0, the only CPU present,
# idles in off: a fully idle cluster in off gets a busy CPU: cluster
# wakeup of off, 3.
#   CPU 0 core: busy (2.5 + 0.5) s x 100 = 300; off 1.0 s x 0 = 0;
#               leaving off at 103.5: core wakeup 2 (the cluster: CPU 1
#               in WFI, all idle, shallowest WFI: cluster wakeup 1)
#   CPU 1 core: WFI 0.999 x 10 = 9.99, leaving it at 100.999: 0.5 (CPU 0
#               busy: no cluster wakeup); busy 0.001 x 100 = 0.1;
#               offline 2.0 x 2 = 4; busy 0.2 x 100 = 20; WFI 0.8 x 10 = 8
#   cluster: busy (2.5 + 0.2 + 0.5) s x 50 = 160 (to 100.999 and
#            101.0-102.5 CPU 0 busy, 103.0-103.2 CPU 1, 103.5- CPU 0);
#            idle 102.5-103.0 (CPU 1 offline, CPU 0 off) x 0 = 0,
#            103.2-103.5 (shallowest WFI) 0.3 x 20 = 6;
#            wakeups 1 (103.5) + 3 (103.0, the CPU brought online) = 4
#   total = 302 + 42.59 + 160 + 6 + 4 = 514.59 (511.59 without the
#   online wakeup)
"$EATRACE" report -q -f json -m "$F/wake-model.json" "$T" >"$TMP/r.json" ||
	fail "report hotplug-wake.txt"
expect_eq "online into an idle cluster: total" "$(field "$TMP/r.json" 'd["energy"]["total"]')" 514.59
expect_eq "online into an idle cluster: cluster wakeup energy (1 + 3)" \
	"$(field "$TMP/r.json" 'd["energy"]["cluster_wakeup"]')" 4
expect_eq "online into an idle cluster: core wakeups (0.5 + 2, none for the online)" \
	"$(field "$TMP/r.json" 'd["energy"]["core_wakeup"]')" 2.5
expect_eq "online into an idle cluster: the cluster's wakeups" \
	"$(field "$TMP/r.json" 'd["clusters"][0]["wakeups"]')" 2
# per state: the cluster left off once (103.0) and WFI once (103.5)
expect_eq "online into an idle cluster: cluster wakeups per state" \
	"$(field "$TMP/r.json" '[s["wakeups"] for s in d["clusters"][0]["cstates"]]')" "[1, 1]"
# CPU 1 = core 42.59 + cluster shares: both busy 100.999-101.0 (0.05/2 =
# 0.025), alone busy 103.0-103.2 (10), WFI 103.2-103.5 (6/2 = 3), its
# online wakeup 3: 58.615; CPU 0 the rest, 455.975
expect_eq "online into an idle cluster: CPU energies" \
	"$(field "$TMP/r.json" '[c["energy"]["total"] for c in d["cpus"]]')" "[455.975, 58.615]"
# with --interval the windows still add up to the total
expect_eq "online into an idle cluster: the windows sum to the total" \
	"$("$EATRACE" report -q -f json --interval 500 -m "$F/wake-model.json" "$T" |
		/usr/bin/python3 -c 'import json, sys
from decimal import Decimal as D
d = json.load(sys.stdin, parse_float=D)
print(sum(w["energy"]["total"] for w in d["windows"]) == d["energy"]["total"])')" True

# --- CPU 1 alone in its cluster b: taken offline, cluster b has no
# present CPU (draws nothing); brought online it wakes from powered down,
# priced as its deepest state: cluster wakeup of off, 3.
#   cluster a (CPU 0): busy 3.0 x 50 = 150; off 102.5-103.5: 0; leaving
#     off at 103.5, cluster a all idle in off: cluster wakeup 3
#   cluster b (CPU 1): WFI 0.999 x 20 = 19.98 and leaving it at 100.999,
#     all of b idle: 1; busy 0.001 x 50 = 0.05; offline: nothing;
#     online at 103.0: 3; busy 0.2 x 50 = 10; WFI 0.8 x 20 = 16
#   cores as above: 302 and 42.59
#   total = 302 + 150 + 3 + 42.59 + 19.98 + 1 + 0.05 + 3 + 10 + 16 = 547.62
# (the model: wake-model.json's cluster c split in a = [0] and b = [1])
sed -e 's/"name": "c",/"name": "a",/' -e 's/"cpus": \[0, 1\],/"cpus": [0],/' "$F/wake-model.json" >"$TMP/a.part"
/usr/bin/python3 - "$TMP/a.part" "$TMP/m2.json" <<'PY'
import sys
t = open(sys.argv[1]).read()
start = t.index('"clusters": [') + len('"clusters": [')
end = t.rindex(']')
cl = t[start:end].strip()
b = cl.replace('"name": "a",', '"name": "b",').replace('"cpus": [0],', '"cpus": [1],')
open(sys.argv[2], 'w').write(t[:start] + ' ' + cl + ', ' + b + ' ' + t[end:])
PY
"$EATRACE" report -q -f json -m "$TMP/m2.json" "$T" >"$TMP/r2.json" ||
	fail "report with CPU 1 alone in its cluster: $(cat "$TMP/m2.json")"
expect_eq "online into a powered-down cluster: total" "$(field "$TMP/r2.json" 'd["energy"]["total"]')" 547.62
expect_eq "online into a powered-down cluster: cluster b's wakeups per state (WFI, off)" \
	"$(field "$TMP/r2.json" '[s["wakeups"] for s in d["clusters"][1]["cstates"]]')" "[1, 1]"
expect_eq "online into a powered-down cluster: cluster wakeup energy (a 3, b 1 + 3)" \
	"$(field "$TMP/r2.json" '[c["energy"]["cluster_wakeup"] for c in d["clusters"]]')" "[3, 4]"
finish
