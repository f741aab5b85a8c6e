#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `eatrace replay --ensemble N --baseline P --seed S --no-sensitivity`
# (docs/replay.md "Ensemble", "Sensitivity"): the JSON keys, the text and
# HTML verdicts, determinism, refused options, and the issue's target: the
# eas-rfc / cfs ratio of the seven-periodic recording and of the same with
# its first 2 ms cut agree within 0.05, each inside the other's interval
# (tc2 at the RFC's fixed frequencies).
. "$(dirname "$0")/lib.sh"
cd "$ROOT" || exit 1
seven=traces/replay/seven-periodic.txt
busy=traces/replay/five-busy.txt
rfc="--governor fixed:A15=600000,A7=1000000"
tc2="--source-capacity 1024 --target-model models/tc2.json -m models/tc2.json $rfc"

# shellcheck disable=SC2086
"$EATRACE" replay $tc2 --policy eas-rfc,cfs -f json "$seven" >"$TMP/d.json" ||
	fail "replay --ensemble default"
# Per policy: keys; the energy interval holds the mean; cfs, the default
# baseline, is 1 exactly with [1, 1]; eas-rfc's interval lies below 1:
# "saves". Sensitivity: the wakeup share and the ratio without wakeups
# recomputed from the policies' own energy objects (wakeup / total, and
# (total - wakeup) / (cfs's total - cfs's wakeup)).
got=$(/usr/bin/python3 - "$TMP/d.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
out = [d["baseline"], str(d["ensemble_config"]["n"]),
       str(d["ensemble_config"]["confidence"])]
pol = {p["name"]: p for p in d["policies"]}
b = pol["cfs"]["energy"]
for name in ("eas-rfc", "cfs"):
    p = pol[name]
    e = p["ensemble"]
    lo, hi = e["energy_ci"]
    rlo, rhi = e["vs_baseline_ci"]
    out.append("%s %s %s %s %s %s" % (
        name, sorted(e), e["n"], lo <= e["energy_mean"] <= hi,
        rlo <= e["vs_baseline_mean"] <= rhi, e["verdict"]))
    s = p["sensitivity"]
    share = p["energy"]["wakeup"] / p["energy"]["total"]
    nowk = ((p["energy"]["total"] - p["energy"]["wakeup"]) /
            (b["total"] - b["wakeup"]))
    out.append("%s %s %s %s" % (
        sorted(s), abs(s["wakeup_share"] - share) < 1e-9,
        abs(s["vs_baseline_no_wakeups"] - nowk) < 1e-9,
        abs(s["vs_baseline"] - p["energy"]["total"] / b["total"]) < 1e-9))
c = pol["cfs"]["ensemble"]
out.append("cfs %s %s" % (c["vs_baseline_mean"], c["vs_baseline_ci"]))
out.append("eas-rfc below 1: %s" % (pol["eas-rfc"]["ensemble"]["vs_baseline_ci"][1] < 1))
print("\n".join(out))
PY
)
keys="['energy_ci', 'energy_mean', 'n', 'verdict', 'vs_baseline_ci', 'vs_baseline_mean']"
skeys="['energy_resimulated', 'vs_baseline', 'vs_baseline_no_wakeups', 'vs_baseline_no_wakeups_resimulated', 'wakeup_share']"
expect_eq "JSON: ensemble and sensitivity per policy" "$got" "cfs
10
0.95
eas-rfc $keys 10 True True saves
$skeys True True True
cfs $keys 10 True True baseline
$skeys True True True
cfs 1 [1, 1]
eas-rfc below 1: True"

# The same seed, the same bytes; another seed, other members, the same
# single replays.
# shellcheck disable=SC2086
"$EATRACE" replay $tc2 --policy eas-rfc,cfs -f json "$seven" >"$TMP/d2.json"
cmp -s "$TMP/d.json" "$TMP/d2.json" && ok "deterministic" || fail "two runs differ"
# shellcheck disable=SC2086
"$EATRACE" replay $tc2 --policy eas-rfc,cfs --seed 7 -f json "$seven" >"$TMP/s7.json"
got=$(/usr/bin/python3 -c "
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
print([p['energy'] == q['energy'] for p, q in zip(a['policies'], b['policies'])],
      a['policies'][0]['ensemble'] != b['policies'][0]['ensemble'])" "$TMP/d.json" "$TMP/s7.json")
expect_eq "--seed 7: other members, same replays" "$got" "[True, True] True"

# --ensemble 1 --no-sensitivity: the single replay's output, none of the keys.
# shellcheck disable=SC2086
"$EATRACE" replay $tc2 --policy eas-rfc,cfs --ensemble 1 --no-sensitivity -f json "$seven" >"$TMP/one.json"
got=$(/usr/bin/python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
print(sorted(k for k in ('baseline', 'ensemble_config') if k in d),
      [sorted(k for k in ('ensemble', 'sensitivity') if k in p) for p in d['policies']])" "$TMP/one.json")
expect_eq "--ensemble 1 --no-sensitivity: no new keys" "$got" "[] [[], []]"
# shellcheck disable=SC2086
"$EATRACE" replay $tc2 --policy eas-rfc,cfs --ensemble 0 -f json "$seven" >"$TMP/zero.json"
got=$(/usr/bin/python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
print('ensemble_config' in d, d['baseline'], ['ensemble' in p for p in d['policies']])" "$TMP/zero.json")
expect_eq "--ensemble 0: sensitivity only" "$got" "False cfs [False, False]"

# --baseline eas-rfc: eas-rfc is the baseline, cfs costs more.
# shellcheck disable=SC2086
"$EATRACE" replay $tc2 --policy eas-rfc,cfs --baseline eas-rfc --ensemble 4 -f json "$seven" >"$TMP/b.json"
got=$(/usr/bin/python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
print(d['baseline'], [(p['ensemble']['n'], p['ensemble']['verdict']) for p in d['policies']])" "$TMP/b.json")
expect_eq "--baseline eas-rfc" "$got" "eas-rfc [(4, 'baseline'), (4, 'costs')]"

# Inconclusive: five CPU-bound threads, one per CPU, never blocking: feec
# and cfs leave each where it is, the same energy in every member (ratio
# 1 exactly, interval [1, 1], which includes no change).
"$EATRACE" replay -m models/tc2.json $rfc --policy feec,cfs "$busy" >"$TMP/busy.txt" ||
	fail "replay five-busy"
got=$(grep -c '^feec .*inconclusive: the interval includes no change$' "$TMP/busy.txt")
expect_eq "text: a saving whose interval includes 1 is inconclusive" "$got" 1
got=$(grep -c '^ensemble: 10 replays of each policy on perturbed copies (start cut 0-5.000 ms, each wakeup 0-5 us later, seed 1); mean and 95% interval; ratios to cfs paired by copy$' "$TMP/busy.txt")
expect_eq "text: the ensemble's line" "$got" 1
got=$(grep -c '^wakeup energy: ' "$TMP/busy.txt")
expect_eq "text: the sensitivity's table" "$got" 1
# shellcheck disable=SC2086
"$EATRACE" replay $tc2 --policy eas-rfc,cfs --html "$TMP/r.html" "$seven" >"$TMP/t.txt" ||
	fail "replay --html"
got=$(grep -c 'data-table="ensemble"\|data-table="sensitivity"\|<td class="better">saves ' "$TMP/r.html")
expect_eq "HTML: both tables, eas-rfc saves" "$got" 3
grep -q '^eas-rfc .* saves [0-9.]*% ([0-9.]*-[0-9.]*%)$' "$TMP/t.txt" &&
	ok "text: eas-rfc saves, with its interval" || fail "text: no saving line"

# A 1 ms window (--start/--end): the cuts within 1% of it (10 us), every
# member's window non-empty, every policy's mean a number.
# shellcheck disable=SC2086
"$EATRACE" replay $tc2 --policy eas-rfc,cfs --start 0.001 --end 0.002 -f json "$seven" >"$TMP/w.json" ||
	fail "replay a 1 ms window"
got=$(/usr/bin/python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
print(d['ensemble_config']['cut_max_s'], [p['ensemble']['energy_mean'] is not None for p in d['policies']])" "$TMP/w.json")
expect_eq "1 ms window: cuts within 10 us, means" "$got" "1e-05 [True, True]"

# Refused: exit 2, one line.
expect_fail "--ensemble -1" 2 "--ensemble: '-1' is not a count" -- \
	"$EATRACE" replay $tc2 --ensemble -1 "$seven"
expect_fail "--ensemble 1001" 2 "--ensemble: '1001' is not a count" -- \
	"$EATRACE" replay $tc2 --ensemble 1001 "$seven"
expect_fail "--baseline nosuch" 2 "--baseline: 'nosuch' is not a policy" -- \
	"$EATRACE" replay $tc2 --baseline nosuch "$seven"
expect_fail "--baseline not replayed" 2 "--baseline: 'pack' is not among the policies" -- \
	"$EATRACE" replay $tc2 --policy cfs,feec --baseline pack "$seven"
expect_fail "--seed -1" 2 "--seed: '-1' is not a number" -- \
	"$EATRACE" replay $tc2 --seed -1 "$seven"

# The target: the recording, and the same with the events of its first
# 2 ms (19 lines) dropped.
awk '/^#|^cpus=/ { print; next }
{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = substr($i, 1, length($i) - 1) + 0; break }
  if (t >= 100.002) print }' "$seven" >"$TMP/cut2.txt"
# shellcheck disable=SC2086
"$EATRACE" replay $tc2 --policy eas-rfc,cfs -f json "$TMP/cut2.txt" >"$TMP/c.json" ||
	fail "replay the cut recording"
got=$(/usr/bin/python3 -c "
import json, sys
def e(f):
    d = json.load(open(f))
    return [p for p in d['policies'] if p['name'] == 'eas-rfc'][0]['ensemble']
a, b = e(sys.argv[1]), e(sys.argv[2])
print(abs(a['vs_baseline_mean'] - b['vs_baseline_mean']) <= 0.05,
      b['vs_baseline_ci'][0] <= a['vs_baseline_mean'] <= b['vs_baseline_ci'][1],
      a['vs_baseline_ci'][0] <= b['vs_baseline_mean'] <= a['vs_baseline_ci'][1])" "$TMP/d.json" "$TMP/c.json")
expect_eq "eas-rfc / cfs: whole and 2 ms cut agree within 0.05, each in the other's interval" "$got" "True True True"

for o in "--ensemble N" "--baseline POLICY" "--seed N" "--no-sensitivity"; do
	"$EATRACE" replay --help | grep -q -- "$o" && ok "--help documents $o" ||
		fail "--help lacks $o"
done
finish
