#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Invariants at the edges of what a trace shows (issue 15), on every trace
# of traces/, ../shared/traces and ../shared/repro (those two when present):
#  1. stats and report: per CPU, busy_s + idle_s + unknown_s +
#     suspended_s + offline_s = duration_s, exactly (decimal text of the
#     JSON); also on tests/fixtures/suspend's traces;
#  2. report: every task's busy energy (core and cluster busy) is at most
#     the model's highest busy power (core + cluster, max over clusters and
#     OPPs, read here from the model file) times its runtime_s: a task
#     charged for time it did not run (on two CPUs at once, after it left a
#     CPU) would exceed it; busy energy without runtime fails too. This
#     holds for [idle] (its busy time outside cpuidle states) and
#     [unknown] as well;
#  3. idlestat's topology header is reported and checked against the model.
. "$(dirname "$0")/lib.sh"

# An 8-CPU model with two clusters of different powers and nonzero
# cluster power, so a task's share of cluster power is exercised.
cat >"$TMP/m8.json" <<'EOF'
{ "eatrace_model": 1, "name": "edges8", "source": "tests/e2e/edges.sh", "power_unit": "mW",
  "clusters": [
    { "name": "L", "cpus": [0, 3, 4, 5], "freq_domain": true,
      "cap_states": [
        { "freq_khz": 500000, "cap": 200, "core_power": 40, "cluster_power": 10 },
        { "freq_khz": 1000000, "cap": 400, "core_power": 110, "cluster_power": 25 } ],
      "idle_states": [
        { "name": "wfi", "core_power": 5, "cluster_power": 8, "core_wakeup": 0.01, "cluster_wakeup": 0.05 },
        { "name": "off", "core_power": 0, "cluster_power": 0, "core_wakeup": 0.02, "cluster_wakeup": 0.1 } ] },
    { "name": "B", "cpus": [1, 2, 6, 7], "freq_domain": false,
      "cap_states": [
        { "freq_khz": 800000, "cap": 600, "core_power": 300, "cluster_power": 60 },
        { "freq_khz": 2000000, "cap": 1024, "core_power": 900, "cluster_power": 120 } ],
      "idle_states": [
        { "name": "wfi", "core_power": 20, "cluster_power": 30, "core_wakeup": 0.05, "cluster_wakeup": 0.2 },
        { "name": "off", "core_power": 0, "cluster_power": 0, "core_wakeup": 0.1, "cluster_wakeup": 0.4 } ] } ] }
EOF

# check TRACE: both invariants; prints one line per failure.
check() {
	"$EATRACE" stats -q -f json "$1" >"$TMP/s.json" 2>"$TMP/err" ||
		{ fail "$1: stats: $(head -c 300 "$TMP/err")"; return; }
	"$EATRACE" report -q -f json -m "$TMP/m8.json" "$1" >"$TMP/r.json" 2>"$TMP/err" ||
		{ fail "$1: report: $(head -c 300 "$TMP/err")"; return; }
	/usr/bin/python3 - "$1" "$TMP/s.json" "$TMP/r.json" "$TMP/m8.json" >"$TMP/out" 2>&1 <<'EOF' ||
import json, sys
from decimal import Decimal as D
name, sj, rj, mj = sys.argv[1:]
s = json.load(open(sj), parse_float=D)
r = json.load(open(rj), parse_float=D)
m = json.load(open(mj), parse_float=D)
maxpow = max(D(c["core_power"]) + D(c["cluster_power"])
             for cl in m["clusters"] for c in cl["cap_states"])
errs = []
for what, d in (("stats", s), ("report", r)):
    for c in d["cpus"]:
        tot = (D(c["busy_s"]) + D(c["idle_s"]) + D(c.get("unknown_s", "missing")) +
               D(c.get("suspended_s", "missing")) + D(c.get("offline_s", "missing")))
        if tot != D(d["duration_s"]):
            errs.append("%s cpu %d: busy + idle + unknown + suspended + offline = %s, span %s"
                        % (what, c["cpu"], tot, d["duration_s"]))
for t in r["tasks"]:
    busy = D(t["energy"]["busy"])
    rt = D(t["runtime_s"])
    # energy in mW s, runtime in s: busy <= maxpow x runtime
    if busy > maxpow * rt:
        errs.append("pid %d: busy energy %s over runtime_s %s is above %s mW"
                    % (t["pid"], busy, rt, maxpow))
    # [idle] and [unknown] gather every CPU's time
    if rt > D(r["duration_s"]) * (len(r["cpus"]) if t["pid"] <= 0 else 1):
        errs.append("pid %d: runtime_s %s longer than the trace" % (t["pid"], rt))
for e in errs[:5]:
    print(e)
EOF
		echo "the check itself failed" >>"$TMP/out"
	if [ -s "$TMP/out" ]; then
		fail "$1: $(cat "$TMP/out")"
	else
		ok "$1: busy + idle + unknown + suspended + offline = span; task busy power within the model's"
	fi
}

for f in $(sampled "$ROOT"/traces/*/*.txt "$ROOT"/traces/*/*.dat "$ROOT"/tests/fixtures/suspend/*.txt); do
	check "$f"
done
if [ -d "$SHARED" ]; then
	for f in "$SHARED"/*/*.dat "$SHARED"/*/*.txt "$SHARED"/*/*.html; do
		case $f in */LICENSE*) continue ;; esac
		[ -f "$f" ] && check "$f"
	done
	REPRO=$(dirname "$SHARED")/repro
	if [ -d "$REPRO" ]; then
		for f in "$REPRO"/*.txt; do
			check "$f"
		done
		sh "$REPRO/gen-lookahead.sh" 40000 >"$TMP/la.txt"
		check "$TMP/la.txt"
	fi
	# idlestat's topology header, checked against the model. trace_test's
	# header: clusterA = cpu1, cpu2; clusterB = cpu0, cpu3, cpu4.
	# models/tc2.json: A15 = CPUs 0, 1, A7 = 2, 3, 4, so CPUs 0 and 1
	# disagree; tc2-idlestat.json (A15 = 1, 2, A7 = 0, 3, 4) agrees.
	# test03's header: clusterA = cpu0, cpu1 (TC2's own numbering):
	# against tc2-idlestat, CPUs 0 and 1 disagree.
	I=$SHARED/idlestat
	topo() {	# topo TRACE MODEL EXPECTED-SUBSTRING
		"$EATRACE" report -q -f json -m "$2" "$1" >"$TMP/t.json" 2>"$TMP/err"
		if grep -qF -- "$3" "$TMP/t.json"; then
			ok "topology: $(basename "$1") with $2"
		else
			fail "topology: $(basename "$1") with $2: no '$3' in the notes: $(grep -i topology "$TMP/t.json")"
		fi
	}
	topo "$I/Experiments__trace_test.dat" tc2 "puts CPUs 0 and 1 in different clusters, model 'ARM TC2' in one"
	topo "$I/Experiments__trace_test.dat" tc2-idlestat "groups its CPUs as model"
	topo "$I/Experiments__trace_test.dat" tc2-idlestat "cluster 1 = CPUs 1 2; cluster 2 = CPUs 0 3 4"
	topo "$I/Experiments__test03.dat" tc2-idlestat "puts CPUs 0 and 1 in one cluster"
else
	echo "note: $SHARED absent: only the project's own traces checked"
fi
finish
