#!/bin/sh
# eatrace diff: the gate's verdict and exit code, its formats, refusals.
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

"$EATRACE" diff -m tc2 --max-increase 5 "$TMP"/light?.txt -- "$TMP"/heavy?.txt > "$TMP/out.txt"
expect_eq "more work fails the gate" "$?" "1"
grep -q '^FAIL: energy +' "$TMP/out.txt" && ok "verdict line with a positive change" || fail "no FAIL line: $(head -1 "$TMP/out.txt")"

"$EATRACE" diff -m tc2 --max-increase 5 "$TMP"/light?.txt -- "$TMP"/lightb?.txt > "$TMP/out.txt"
expect_eq "same workload passes" "$?" "0"
"$EATRACE" diff -m tc2 "$TMP"/light?.txt -- "$TMP"/light?.txt > "$TMP/out.txt"
expect_eq "a set against itself passes" "$?" "0"
# Against itself: no change, an interval symmetric around zero.
sed -n 's/^PASS: energy +0.00% (95% CI -\([0-9.]*\)% .. +\([0-9.]*\)%).*/\1 \2/p' "$TMP/out.txt" > "$TMP/ci"
read lo hi < "$TMP/ci"
[ -n "$lo" ] && [ "$lo" = "$hi" ] && ok "itself: zero change, symmetric interval" || fail "itself: $(head -1 "$TMP/out.txt")"

# JSON: the verdict and the statistics, recomputed here from the per-run values.
"$EATRACE" diff -m tc2 -f json --normalize time "$TMP"/light?.txt -- "$TMP"/heavy?.txt > "$TMP/d.json"
python3 - "$TMP/d.json" <<'PY' && ok "JSON statistics recomputed" || fail "JSON statistics"
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
"$EATRACE" diff -m tc2 -f json "$TMP/light1.txt" -- "$TMP/heavy1.txt" > "$TMP/one.json"
expect_eq "single runs: gate on the point estimate" "$?" "1"
grep -q '"stats_available": false' "$TMP/one.json" && ok "single runs: statistics marked unavailable" || fail "stats_available"

# Markdown and JUnit.
"$EATRACE" diff -m tc2 -f markdown "$TMP"/light?.txt -- "$TMP"/heavy?.txt > "$TMP/d.md"
grep -q '^### eatrace energy gate: FAIL$' "$TMP/d.md" && grep -q '^| base | 3 |' "$TMP/d.md" &&
	grep -q '^|---|---:|---:|---:|$' "$TMP/d.md" && ok "markdown tables" || fail "markdown: $(cat "$TMP/d.md")"
"$EATRACE" diff -m tc2 -f junit -o "$TMP/d.xml" "$TMP"/light?.txt -- "$TMP"/heavy?.txt
expect_eq "junit run exits 1 (gate failed)" "$?" "1"
xmllint --noout --schema "$ROOT/tests/fixtures/diff/junit.xsd" "$TMP/d.xml" 2>"$TMP/xl" && ok "junit valid against the schema" || fail "junit: $(cat "$TMP/xl")"
grep -q '<failure type="energy-increase"' "$TMP/d.xml" && ok "junit failure element" || fail "junit failure"
"$EATRACE" diff -m tc2 -f junit "$TMP"/light?.txt -- "$TMP"/lightb?.txt > "$TMP/p.xml"
xmllint --noout --schema "$ROOT/tests/fixtures/diff/junit.xsd" "$TMP/p.xml" 2>/dev/null && ! grep -q '<failure' "$TMP/p.xml" &&
	ok "junit pass has no failure" || fail "junit pass"

# Two models on the same traces.
"$EATRACE" diff --models tc2 tc2-idlestat -f json "$TMP"/light?.txt > "$TMP/m.json"
rc=$?
[ $rc -le 1 ] && grep -q '"model": "ARM TC2 (idlestat numbering)"' "$TMP/m.json" && ok "--models" || fail "--models (exit $rc)"

# Recorded on a VM with eatrace record (traces/diff/record.sh): a light
# periodic load, and the same with a busy loop beside it. Priced with the
# made-up 2-CPU test model (the VMs have no energy model).
D=$ROOT/traces/diff
VM=$ROOT/tests/fixtures/record/vm-2cpu.json
for norm in none time; do
	"$EATRACE" diff -m "$VM" --normalize $norm "$D"/light-1.dat "$D"/light-2.dat "$D"/light-3.dat \
		-- "$D"/heavy-1.dat "$D"/heavy-2.dat "$D"/heavy-3.dat > "$TMP/rec.txt"
	expect_eq "recorded: busy loop fails the gate ($norm)" "$?" "1"
	grep -q '^FAIL: energy +[0-9]' "$TMP/rec.txt" && ok "recorded: increase has the expected sign ($norm)" ||
		fail "recorded ($norm): $(head -1 "$TMP/rec.txt")"
	"$EATRACE" diff -m "$VM" --normalize $norm "$D"/light-1.dat "$D"/light-2.dat "$D"/light-3.dat \
		-- "$D"/light-4.dat "$D"/light-5.dat "$D"/light-6.dat > "$TMP/rec.txt"
	expect_eq "recorded: two sets of the same workload pass ($norm)" "$?" "0"
	"$EATRACE" diff -m "$VM" --normalize $norm "$D"/light-1.dat "$D"/light-2.dat "$D"/light-3.dat \
		-- "$D"/light-1.dat "$D"/light-2.dat "$D"/light-3.dat > "$TMP/rec.txt"
	expect_eq "recorded: a set against itself passes ($norm)" "$?" "0"
done

# Refusals.
expect_fail "empty new side" 2 "the new side has no traces" -- "$EATRACE" diff -m tc2 "$TMP/light1.txt" --
expect_fail "no model" 2 "no model" -- "$EATRACE" diff "$TMP/light1.txt" -- "$TMP/heavy1.txt"
awk -f "$GEN" -v spec="0:16000:2000" -v freqs="600000,600000,1000000,1000000" -v dur_us=500000 > "$TMP/four.txt"
expect_fail "different CPU counts" 2 "runs to compare must come from the same machine" -- "$EATRACE" diff -m tc2 "$TMP/light1.txt" -- "$TMP/four.txt"
finish
