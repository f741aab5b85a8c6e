#!/bin/sh
# eatrace diff: the gate's three verdicts (pass, fail, inconclusive) and
# exit codes, its formats, the --base/--new sets and '--', refusals.
# Workloads are synthetic periodic-task traces generated here with
# traces/demo/gen-periodic.awk (deterministic): "light" runs differ only in
# small run-time jitter; "heavy" adds a task running 5 ms every 10 ms.
. "$(dirname "$0")/lib.sh"
GEN=$ROOT/traces/demo/gen-periodic.awk
F=600000,600000,1000000,1000000,1000000
gen() { awk -f "$GEN" -v spec="$1" -v freqs="$F" -v dur_us=500000 > "$2"; }
for i in 1 2 3; do
	j=$((1990 + 10 * i))
	gen "0:16000:$j,1:20000:1500,2:33000:3000,4:8000:500" "$TMP/light$i.txt"
	gen "0:16000:$((j + 5)),1:20000:1500,2:33000:3000,4:8000:500" "$TMP/lightb$i.txt"
	gen "0:16000:$j,1:20000:1500,2:33000:3000,4:8000:500,3:10000:5000" "$TMP/heavy$i.txt"
done

"$EATRACE" diff -m tc2 --max-increase 5 --base "$TMP"/light?.txt --new "$TMP"/heavy?.txt > "$TMP/out.txt"
expect_eq "more work fails the gate" "$?" "1"
grep -q '^FAIL: energy +' "$TMP/out.txt" && ok "verdict line with a positive change" || fail "no FAIL line: $(head -1 "$TMP/out.txt")"

"$EATRACE" diff -m tc2 --max-increase 5 --base "$TMP"/light?.txt --new "$TMP"/lightb?.txt > "$TMP/out.txt"
expect_eq "same workload passes" "$?" "0"
"$EATRACE" diff -m tc2 --base "$TMP"/light?.txt --new "$TMP"/light?.txt > "$TMP/out.txt"
expect_eq "a set against itself passes" "$?" "0"
# Against itself: no change, an interval symmetric around zero.
sed -n 's/^PASS: energy +0.00% (95% CI -\([0-9.]*\)% .. +\([0-9.]*\)%).*/\1 \2/p' "$TMP/out.txt" > "$TMP/ci"
read lo hi < "$TMP/ci"
[ -n "$lo" ] && [ "$lo" = "$hi" ] && ok "itself: zero change, symmetric interval" || fail "itself: $(head -1 "$TMP/out.txt")"

# JSON: the verdict and the statistics, recomputed here from the per-run values.
"$EATRACE" diff -m tc2 -f json --normalize time --base "$TMP"/light?.txt --new "$TMP"/heavy?.txt > "$TMP/d.json"
/usr/bin/python3 - "$TMP/d.json" <<'PY' && ok "JSON statistics recomputed" || fail "JSON statistics"
import json, math, statistics, sys
d = json.load(open(sys.argv[1]))
b = [r["value"] for r in d["base"]["runs"]]
n = [r["value"] for r in d["new"]["runs"]]
for r in d["base"]["runs"] + d["new"]["runs"]:
    assert abs(r["value"] - r["energy"] / r["duration_s"]) < 1e-9 * r["value"]
mb, mn = statistics.mean(b), statistics.mean(n)
assert abs(d["base"]["mean"] - mb) < 1e-9 * mb and abs(d["new"]["sd"] - statistics.stdev(n)) < 1e-9 * mn
assert abs(d["change_pct"] - 100 * (mn - mb) / mb) < 1e-9
v1, v2 = statistics.variance(b) / 3, statistics.variance(n) / 3
df = (v1 + v2) ** 2 / (v1 * v1 / 2 + v2 * v2 / 2)
assert abs(d["welch_df"] - df) < 1e-6 * df
half = d["t"] * math.sqrt(v1 + v2) * 100 / mb
assert abs(d["ci_high_pct"] - d["ci_low_pct"] - 2 * half) < 1e-6
assert d["verdict"] == "fail" and d["normalize"] == "time"
PY

# One run per side: no statistics, the point estimate decides.
"$EATRACE" diff -m tc2 -f json --base "$TMP/light1.txt" --new "$TMP/heavy1.txt" > "$TMP/one.json"
expect_eq "single runs: gate on the point estimate" "$?" "1"
grep -q '"stats_available": false' "$TMP/one.json" && ok "single runs: statistics marked unavailable" || fail "stats_available"

# Markdown and JUnit.
"$EATRACE" diff -m tc2 -f markdown --base "$TMP"/light?.txt --new "$TMP"/heavy?.txt > "$TMP/d.md"
grep -q '^### eatrace energy gate: FAIL$' "$TMP/d.md" && grep -q '^| base | 3 |' "$TMP/d.md" &&
	grep -q '^|---|---:|---:|---:|$' "$TMP/d.md" && ok "markdown tables" || fail "markdown: $(cat "$TMP/d.md")"
"$EATRACE" diff -m tc2 -f junit -o "$TMP/d.xml" --base "$TMP"/light?.txt --new "$TMP"/heavy?.txt
expect_eq "junit run exits 1 (gate failed)" "$?" "1"
xmllint --noout --schema "$ROOT/tests/fixtures/diff/junit.xsd" "$TMP/d.xml" 2>"$TMP/xl" && ok "junit valid against the schema" || fail "junit: $(cat "$TMP/xl")"
grep -q '<failure type="energy-increase"' "$TMP/d.xml" && ok "junit failure element" || fail "junit failure"
"$EATRACE" diff -m tc2 -f junit --base "$TMP"/light?.txt --new "$TMP"/lightb?.txt > "$TMP/p.xml"
xmllint --noout --schema "$ROOT/tests/fixtures/diff/junit.xsd" "$TMP/p.xml" 2>/dev/null && ! grep -q '<failure' "$TMP/p.xml" &&
	ok "junit pass has no failure" || fail "junit pass"

# Two models on the same traces.
"$EATRACE" diff --models tc2 tc2-idlestat -f json "$TMP"/light?.txt > "$TMP/m.json" 2>"$TMP/m.err"
rc=$?
[ $rc -le 1 ] && grep -q '"model": "ARM TC2 (idlestat numbering)"' "$TMP/m.json" && ok "--models" || fail "--models (exit $rc)"

# Recorded on a VM with eatrace record (traces/diff/record.sh): a light
# periodic load, and the same with a busy loop beside it. Priced with the
# made-up 2-CPU test model (the VMs have no energy model).
D=$ROOT/traces/diff
VM=$ROOT/tests/fixtures/record/vm-2cpu.json
for norm in none time; do
	"$EATRACE" diff -m "$VM" --normalize $norm --base "$D"/light-1.dat "$D"/light-2.dat "$D"/light-3.dat \
		--new "$D"/heavy-1.dat "$D"/heavy-2.dat "$D"/heavy-3.dat > "$TMP/rec.txt"
	expect_eq "recorded: busy loop fails the gate ($norm)" "$?" "1"
	grep -q '^FAIL: energy +[0-9]' "$TMP/rec.txt" && ok "recorded: increase has the expected sign ($norm)" ||
		fail "recorded ($norm): $(head -1 "$TMP/rec.txt")"
	"$EATRACE" diff -m "$VM" --normalize $norm --base "$D"/light-1.dat "$D"/light-2.dat "$D"/light-3.dat \
		--new "$D"/light-4.dat "$D"/light-5.dat "$D"/light-6.dat > "$TMP/rec.txt"
	# The recorded runs spread by about +-10% (sd): three runs a side give
	# an interval of about +-27% around the change, which straddles +1%.
	expect_eq "recorded: two sets of the same workload: inconclusive ($norm)" "$?" "3"
	grep -q '^INCONCLUSIVE: energy .* straddles the threshold +1.00%: run more iterations; [0-9]* runs per side would resolve a change of this size$' \
		"$TMP/rec.txt" && ok "recorded: inconclusive says how many runs ($norm)" ||
		fail "recorded ($norm): $(head -1 "$TMP/rec.txt")"
	"$EATRACE" diff -m "$VM" --normalize $norm --base "$D"/light-1.dat "$D"/light-2.dat "$D"/light-3.dat \
		--new "$D"/light-1.dat "$D"/light-2.dat "$D"/light-3.dat > "$TMP/rec.txt"
	expect_eq "recorded: a set against itself: inconclusive ($norm)" "$?" "3"
done

# Inconclusive, in detail: the runs per side, recomputed here with scipy's t
# distribution from the per-run values (the smallest n at which the Welch
# half-width with both sides' observed sd is below |change - threshold|).
R="--base $D/light-1.dat $D/light-2.dat $D/light-3.dat --new $D/light-4.dat $D/light-5.dat $D/light-6.dat"
"$EATRACE" diff -m "$VM" -f json $R > "$TMP/inc.json"
expect_eq "inconclusive: exit 3" "$?" "3"
/usr/bin/python3 - "$TMP/inc.json" <<'PY' && ok "inconclusive: runs per side recomputed" || fail "inconclusive JSON: $(head -c 600 "$TMP/inc.json")"
import json, math, statistics, sys
from scipy.stats import t
d = json.load(open(sys.argv[1]))
b = [r["value"] for r in d["base"]["runs"]]
n = [r["value"] for r in d["new"]["runs"]]
mb, sb, sn = statistics.mean(b), statistics.stdev(b), statistics.stdev(n)
gap = abs(d["change_pct"] - d["max_increase_pct"])
assert d["verdict"] == "inconclusive" and d["counted_as"] == "inconclusive"
assert d["ci_low_pct"] <= 1 < d["ci_high_pct"], d
def half(k):
    v1, v2 = sb * sb / k, sn * sn / k
    df = (v1 + v2) ** 2 / (v1 * v1 / (k - 1) + v2 * v2 / (k - 1))
    return 100 * t.ppf(0.975, df) * math.sqrt(v1 + v2) / mb
k = 2
while not half(k) < gap:
    k += 1
assert d["runs_per_side_needed"] == k, (d["runs_per_side_needed"], k)
PY
"$EATRACE" diff -m "$VM" --inconclusive pass $R > "$TMP/inc.txt"
expect_eq "inconclusive counted as pass: exit 0" "$?" "0"
grep -q '^INCONCLUSIVE (counted as pass): ' "$TMP/inc.txt" && ok "counted as pass: said so" || fail "counted as pass: $(head -1 "$TMP/inc.txt")"
"$EATRACE" diff -m "$VM" --inconclusive fail $R > "$TMP/inc.txt"
expect_eq "inconclusive counted as fail: exit 1" "$?" "1"
"$EATRACE" diff -m "$VM" -f junit -o "$TMP/inc.xml" $R
expect_eq "inconclusive junit: exit 3" "$?" "3"
xmllint --noout --schema "$ROOT/tests/fixtures/diff/junit.xsd" "$TMP/inc.xml" 2>"$TMP/xl" &&
	grep -q '<skipped type="energy-inconclusive" message="INCONCLUSIVE: ' "$TMP/inc.xml" &&
	grep -q 'skipped="1"' "$TMP/inc.xml" && ! grep -q '<failure' "$TMP/inc.xml" &&
	ok "inconclusive junit: a skipped case" || fail "inconclusive junit: $(cat "$TMP/xl" "$TMP/inc.xml")"
"$EATRACE" diff -m "$VM" -f junit --inconclusive fail $R > "$TMP/incf.xml"
grep -q '<failure type="energy-inconclusive"' "$TMP/incf.xml" && grep -q 'failures="1"' "$TMP/incf.xml" &&
	ok "inconclusive junit counted as fail: a failure" || fail "inconclusive junit fail: $(cat "$TMP/incf.xml")"
expect_fail "--inconclusive value" 2 "--inconclusive: 'maybe' is not pass or fail" -- \
	"$EATRACE" diff -m "$VM" --inconclusive maybe $R

# A run that cannot read a trace still writes the JUnit file, one error case.
"$EATRACE" diff -m tc2 -f junit -o "$TMP/err.xml" --base "$TMP/light1.txt" "$TMP/nonexistent.txt" \
	--new "$TMP/heavy1.txt" 2>"$TMP/err"
expect_eq "junit, unreadable trace: exit 2" "$?" "2"
expect_eq "junit, unreadable trace: one line on stderr" "$(wc -l < "$TMP/err")" "1"
xmllint --noout --schema "$ROOT/tests/fixtures/diff/junit.xsd" "$TMP/err.xml" 2>"$TMP/xl" &&
	grep -q '<error type="input" message="[^"]*nonexistent.txt: No such file or directory"' "$TMP/err.xml" &&
	grep -q 'errors="1"' "$TMP/err.xml" &&
	ok "junit, unreadable trace: an error case" || fail "junit error: $(cat "$TMP/xl" "$TMP/err.xml" 2>&1)"

# '--' ends the options (GNU convention): after it, traces only, even one
# named like an option; options may follow the traces.
cp "$TMP/heavy1.txt" "$TMP/-m"
(cd "$TMP" && "$EATRACE" diff -m tc2 --base light1.txt --new -- -m) > "$TMP/dash.txt"
expect_eq "'--' ends the options: a trace named -m" "$?" "1"
"$EATRACE" diff --base "$TMP/light1.txt" --new "$TMP/heavy1.txt" -m tc2 > "$TMP/dash.txt"
expect_eq "options after the traces" "$?" "1"
expect_fail "the old BASE -- NEW form" 2 "give the two sets of runs as --base BASE... --new NEW..." -- \
	"$EATRACE" diff -m tc2 "$TMP/light1.txt" -- "$TMP/heavy1.txt"
expect_fail "the old form with -m last" 2 "no model: give -m MODEL (or --models A B); '-m' after '--' is a trace, not an option" -- \
	"$EATRACE" diff "$TMP/light1.txt" -- "$TMP/heavy1.txt" -m tc2

# The report options: a window (each run priced from 0.1 to 0.3 s after its
# first event: 0.2 s), wakeups at zero (the JSON's energy then equals
# busy + idle), --idle-state and --assume-opp accepted as in report.
"$EATRACE" diff -m tc2 -f json --start 0.1 --end 0.3 --no-wakeups --idle-state 1 --assume-opp 1000000 \
	--base "$TMP"/light?.txt --new "$TMP"/heavy?.txt >"$TMP/win.json"
[ $? -le 3 ] && /usr/bin/python3 - "$TMP/win.json" <<'PY' && ok "diff --start/--end/--no-wakeups" || fail "diff window: $(head -c 400 "$TMP/win.json")"
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["base"]["runs"] + d["new"]["runs"]:
    assert abs(r["duration_s"] - 0.2) < 1e-9, r
    assert r["wakeup"] == 0 and abs(r["energy"] - r["busy"] - r["idle"]) < 1e-9 * r["energy"], r
PY
expect_fail "diff: window outside a run" 2 "light1.txt: the window (--start/--end) is outside the trace" \
	-- "$EATRACE" diff -m tc2 --start 100 --base "$TMP/light1.txt" --new "$TMP/heavy1.txt"
# --models across platforms: clusters paired by index, said on stderr.
"$EATRACE" diff --models tc2 juno-r0 -f json "$TMP/light1.txt" >"$TMP/m2.json" 2>"$TMP/err"
grep -q "warning: models ARM TC2 and .* differ: cluster 0 is A15 (CPUs 0,1) in one, A53 (CPUs 0,3,4,5) in the other; the per-cluster rows pair clusters by index" "$TMP/err" &&
	ok "--models across platforms: warned" || fail "--models warning: $(cat "$TMP/err")"
"$EATRACE" diff --models tc2 tc2 -f json "$TMP/light1.txt" >"$TMP/m2.json" 2>"$TMP/err"
expect_eq "--models, same clusters: no warning" "$(wc -c <"$TMP/err")" 0

# Refusals.
expect_fail "empty new side" 2 "the new side has no traces" -- "$EATRACE" diff -m tc2 --base "$TMP/light1.txt" --new
expect_fail "no model" 2 "no model" -- "$EATRACE" diff --base "$TMP/light1.txt" --new "$TMP/heavy1.txt"
awk -f "$GEN" -v spec="0:16000:2000" -v freqs="600000,600000,1000000,1000000" -v dur_us=500000 > "$TMP/four.txt"
expect_fail "different CPU counts" 2 "runs to compare must come from the same machine" -- "$EATRACE" diff -m tc2 --base "$TMP/light1.txt" --new "$TMP/four.txt"
finish
