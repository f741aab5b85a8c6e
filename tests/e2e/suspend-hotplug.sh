#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Suspend and CPU hotplug (issue 18, docs/inference.md "Suspend and CPU
# hotplug"), on hand-made traces priced with tests/fixtures/suspend/
# model.json: one cluster c of CPUs 0 and 1 at one OPP (core 100 mW,
# cluster 50 mW busy), one idle state WFI (core 10, cluster 20), no
# wakeup energy, suspend_power 6 mW (the whole system), offline_power
# 2 mW (per CPU). Energies in mW x s.
. "$(dirname "$0")/lib.sh"
F=$ROOT/tests/fixtures/suspend
M=$F/model.json

# field JSON EXPR: a value of the JSON file, printed by Python (floats
# of the exact decimals, compared as text)
field() {
	/usr/bin/python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}
# span JSON: per CPU, busy + idle + unknown + suspended + offline is the
# window to the nanosecond (exact decimals)
span() {
	/usr/bin/python3 - "$1" <<'PY'
import json, sys
from decimal import Decimal as D
d = json.load(open(sys.argv[1]), parse_float=D)
for c in d["cpus"]:
    t = sum(D(c[k]) for k in ("busy_s", "idle_s", "unknown_s", "suspended_s", "offline_s"))
    if t != D(d["duration_s"]):
        print("cpu %d: %s != %s" % (c["cpu"], t, d["duration_s"]))
PY
}

# --- suspend.txt: 100.0 .. 104.0 s. CPU 0 idle (WFI) to 100.5, then sh
# runs; machine_suspend from 101.0 to 103.0 (dpm_suspend/dpm_resume are
# other actions: not suspension); sh runs to 103.5, CPU 0 idle to 104.0.
# CPU 1 idle throughout, apart from the suspension.
#   CPU 0 core: idle 0.5 x 10 + 0.5 x 10 = 10; busy 1.0 x 100 = 100
#   CPU 1 core: idle 2.0 x 10 = 20
#   cluster: busy 1.0 s x 50 = 50 (CPU 0 alone busy: all to CPU 0);
#            all idle 1.0 s x 20 = 20 (shared: 10 each); suspended: 0
#            (the suspend power covers the clusters)
#   suspended: 2.0 s x 6 = 12, 6 to each CPU
#   CPU 0 = 10 + 100 + 50 + 10 + 6 = 176; CPU 1 = 20 + 10 + 6 = 36
#   total = 212
"$EATRACE" report -q -f json --per-task -m "$M" "$F/suspend.txt" >"$TMP/s.json" ||
	fail "report suspend.txt"
expect_eq "suspend: total" "$(field "$TMP/s.json" 'd["energy"]["total"]')" 212
expect_eq "suspend: suspended energy" "$(field "$TMP/s.json" 'd["energy"]["suspended"]')" 12
expect_eq "suspend: suspended time" "$(field "$TMP/s.json" 'd["suspended"]["time_s"]')" 2.0
expect_eq "suspend: CPU energies" "$(field "$TMP/s.json" '[c["energy"]["total"] for c in d["cpus"]]')" "[176, 36]"
expect_eq "suspend: CPU suspended_s" "$(field "$TMP/s.json" '[c["suspended_s"] for c in d["cpus"]]')" "[2.0, 2.0]"
# never deep idle: the C-state time is the unsuspended idle only
expect_eq "suspend: WFI time per CPU" "$(field "$TMP/s.json" '[c["cstates"][0]["time_s"] for c in d["cpus"]]')" "[1.0, 2.0]"
expect_eq "suspend: [suspended] pays it" \
	"$(field "$TMP/s.json" '[(t["comm"], t["energy"]["total"]) for t in d["tasks"] if t["pid"] == -2]')" \
	"[('[suspended]', 12)]"
expect_eq "suspend: span" "$(span "$TMP/s.json")" ""
"$EATRACE" stats -q -f json "$F/suspend.txt" >"$TMP/ss.json" || fail "stats suspend.txt"
expect_eq "suspend: stats span" "$(span "$TMP/ss.json")" ""
expect_eq "suspend: stats suspends" "$(field "$TMP/ss.json" 'd["inferences"]["suspends"]')" 1
"$EATRACE" report -q -m "$M" "$F/suspend.txt" >"$TMP/s.txt"
grep -q "^  suspended 2.000000000 s: 12.000000 " "$TMP/s.txt" &&
	ok "suspend: its own line in the text report" ||
	fail "suspend: no suspended line: $(cat "$TMP/s.txt")"

# ... and in the CSV and HTML reports
"$EATRACE" report -q -f csv -m "$M" "$F/suspend.txt" >"$TMP/s.csv"
expect_eq "suspend: CSV row" "$(grep '^suspended,' "$TMP/s.csv")" 'suspended,,,,2.000000000,12,,,,,"mW x s"'
"$EATRACE" report -q -m "$M" --html "$TMP/s.html" "$F/suspend.txt" >"$TMP/out" 2>&1
grep -q '<p class="note" id="suspended">Suspended 2.000000000 s ' "$TMP/s.html" &&
	ok "suspend: HTML line" || fail "suspend: no suspended line in the HTML report"

# --- hotplug.txt: 100.0 .. 104.0 s. sh runs on CPU 0 throughout. CPU 1
# idle to 100.999, then its hotplug thread and idle task (busy, outside
# cpuidle) to 101.0, where the take-down's first step on CPU 0 after one
# on CPU 1 takes it offline; back online at 103.0 (its bring-up's first
# step on itself), idle to 104.0.
#   CPU 0 core busy 4.0 x 100 = 400; CPU 1 core busy 0.001 x 100 = 0.1
#   CPU 1 core idle 0.999 x 10 + 1.0 x 10 = 19.99
#   cluster busy throughout: 4.0 x 50 = 200; the 0.001 s with both busy
#     (0.05) shared: 0.025 to CPU 1, the rest (199.975) to CPU 0
#   CPU 1 offline 2.0 s x 2 = 4
#   CPU 0 = 400 + 199.975 = 599.975; CPU 1 = 0.1 + 19.99 + 0.025 + 4 = 24.115
#   total = 624.09
"$EATRACE" report -q -f json --per-task -m "$M" "$F/hotplug.txt" >"$TMP/h.json" ||
	fail "report hotplug.txt"
expect_eq "hotplug: total" "$(field "$TMP/h.json" 'd["energy"]["total"]')" 624.09
expect_eq "hotplug: offline energy" "$(field "$TMP/h.json" 'd["energy"]["offline"]')" 4
expect_eq "hotplug: CPU energies" "$(field "$TMP/h.json" '[c["energy"]["total"] for c in d["cpus"]]')" "[599.975, 24.115]"
expect_eq "hotplug: CPU offline_s" "$(field "$TMP/h.json" '[c["offline_s"] for c in d["cpus"]]')" "[0.0, 2.0]"
expect_eq "hotplug: CSV row" "$("$EATRACE" report -q -f csv -m "$M" "$F/hotplug.txt" | grep '^offline,')" \
	'offline,,,,2.000000000,4,,,,,"mW x s"'
expect_eq "hotplug: CPU 1 busy_s" "$(field "$TMP/h.json" 'd["cpus"][1]["busy_s"]')" 0.001
expect_eq "hotplug: span" "$(span "$TMP/h.json")" ""
"$EATRACE" stats -q -f json "$F/hotplug.txt" >"$TMP/hs.json" || fail "stats hotplug.txt"
expect_eq "hotplug: stats span" "$(span "$TMP/hs.json")" ""
expect_eq "hotplug: offlined, onlined" \
	"$(field "$TMP/hs.json" '(d["inferences"]["cpus_offlined"], d["inferences"]["cpus_onlined"])')" "(1, 1)"

# --- a CPU with no event at all: the same suspend trace with cpus=3 and
# the model's cluster given CPU 2 too. With --absent-offline CPU 2 is
# offline, apart from the suspension (suspended wins):
#   suspended 12 now shared by 3: 4 each
#   CPU 2 offline 2.0 s x 2 = 4, + 4 = 8; it shares no cluster idle
#   CPU 0 = 176 - 6 + 4 = 174; CPU 1 = 36 - 6 + 4 = 34; total 216
# Without it CPU 2 is unknown time (2.0 s), not offline.
(echo "cpus=3"; cat "$F/suspend.txt") >"$TMP/s3.txt"
sed 's/"cpus": \[0, 1\]/"cpus": [0, 1, 2]/' "$M" >"$TMP/m3.json"
"$EATRACE" report -q -f json --absent-offline -m "$TMP/m3.json" "$TMP/s3.txt" >"$TMP/a.json" ||
	fail "report --absent-offline"
expect_eq "absent-offline: CPU energies" "$(field "$TMP/a.json" '[c["energy"]["total"] for c in d["cpus"]]')" "[174, 34, 8]"
expect_eq "absent-offline: total" "$(field "$TMP/a.json" 'd["energy"]["total"]')" 216
expect_eq "absent-offline: CPU 2 offline_s" "$(field "$TMP/a.json" 'd["cpus"][2]["offline_s"]')" 2.0
expect_eq "absent-offline: span" "$(span "$TMP/a.json")" ""
"$EATRACE" report -q -f json -m "$TMP/m3.json" "$TMP/s3.txt" >"$TMP/u.json"
expect_eq "absent, no option: CPU 2 unknown, not offline" \
	"$(field "$TMP/u.json" '(d["cpus"][2]["unknown_s"], d["cpus"][2]["offline_s"])')" "(2.0, 0.0)"

# --- the same traces as Perfetto (per-event and compact_sched): the same
# report JSON, apart from the input's name and format
for f in suspend hotplug; do
	for mode in "" --compact; do
		/usr/bin/python3 "$ROOT/tests/perfetto/to-perfetto.py" $mode "$F/$f.txt" "$TMP/$f.pftrace" ||
			{ fail "to-perfetto $f"; continue; }
		"$EATRACE" report -q -f json --per-task -m "$M" "$F/$f.txt" | grep -v '"trace"\|"format"' >"$TMP/a"
		"$EATRACE" report -q -f json --per-task -m "$M" "$TMP/$f.pftrace" | grep -v '"trace"\|"format"' >"$TMP/b"
		cmp -s "$TMP/a" "$TMP/b" && ok "perfetto $f $mode: same report" ||
			fail "perfetto $f $mode: report differs: $(diff "$TMP/a" "$TMP/b" | head -5)"
	done
done

# --- systrace (HTML): the same lines in a trace-data script block, the
# same report
for f in suspend hotplug; do
	{ printf '<!DOCTYPE html>\n<html>\n<body>\n  <script class="trace-data" type="application/text">\n'
	  cat "$F/$f.txt"; printf '  </script>\n<!-- END TRACE -->\n</body>\n</html>\n'; } >"$TMP/$f.html"
	"$EATRACE" report -q -f json --per-task -m "$M" "$F/$f.txt" | grep -v '"trace"\|"format"' >"$TMP/a"
	"$EATRACE" report -q -f json --per-task -m "$M" "$TMP/$f.html" | grep -v '"trace"\|"format"' >"$TMP/b"
	cmp -s "$TMP/a" "$TMP/b" && ok "systrace $f: same report" ||
		fail "systrace $f: report differs: $(diff "$TMP/a" "$TMP/b" | head -5)"
done

# --- the replay never places work on an offline CPU. hotplug-work.txt is
# hotplug.txt with a task w woken twice on CPU 0 while CPU 1 is offline
# (101.5 and 102.0, 0.1 s each, sh preempted): CPU 0 stays busy
# throughout, so the energy is hotplug.txt's, 624.09. spread puts a
# waking task on an idle CPU: CPU 1 looks idle, but it is offline then.
"$EATRACE" replay -q -m "$M" --policy spread --emit-trace "$TMP/spread.txt" \
	"$F/hotplug-work.txt" >"$TMP/r.txt" || fail "replay spread"
n=$(awk '$3 == "[001]" && /next_comm=w / { split($5, a, ":"); t = a[1] + 0;
	if (t >= 101 && t < 103) n++ } END { print n + 0 }' "$TMP/spread.txt")
expect_eq "replay spread: no task on offline CPU 1" "$n" 0
expect_eq "replay spread: w still runs (on CPU 0)" \
	"$(grep -c '\[000\].*next_comm=w ' "$TMP/spread.txt" | awk '{ print ($1 > 0) }')" 1
"$EATRACE" report -q -f json -m "$M" "$TMP/spread.txt" >"$TMP/rs.json" || fail "report of the replayed trace"
expect_eq "replayed trace: CPU 1 offline 2 s" "$(field "$TMP/rs.json" '[c["offline_s"] for c in d["cpus"]]')" "[0.0, 2.0]"
"$EATRACE" replay -q -m "$M" --policy recorded "$F/hotplug-work.txt" >"$TMP/r.txt"
grep -q '^recorded  *624\.090000  *+0\.00' "$TMP/r.txt" && ok "replay recorded: the actual energy" ||
	fail "replay recorded: $(grep '^recorded' "$TMP/r.txt")"
"$EATRACE" replay -q -m "$M" --policy recorded --emit-trace "$TMP/rsus.txt" "$F/suspend.txt" >"$TMP/r.txt"
grep -q '^recorded  *212\.000000  *+0\.00' "$TMP/r.txt" && ok "replay recorded suspend: the actual energy" ||
	fail "replay recorded suspend: $(grep '^recorded' "$TMP/r.txt")"

# --- bad input: one line naming the place, exit 2
printf '          sh-1     [000]   1.000000: cpu_idle: state=0 cpu_id=0\n          sh-1     [000]   1.000000: suspend_resume: machine_suspend[x] begin\n' >"$TMP/bad1.txt"
expect_fail "malformed suspend_resume" 2 "bad1.txt:line 2: malformed suspend_resume" -- "$EATRACE" stats "$TMP/bad1.txt"
printf '          sh-1     [000]   1.000000: cpuhp_enter: cpu: 9999 target: 0 step: 3 (f)\n' >"$TMP/bad2.txt"
expect_fail "cpuhp for a CPU out of range" 2 "bad2.txt" -- "$EATRACE" stats "$TMP/bad2.txt"
finish
