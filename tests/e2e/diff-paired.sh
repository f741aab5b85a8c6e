#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# diff --models A B TRACE... (issue 30 item 3): the same traces priced by
# two models are compared as pairs, per-trace ratios with a t interval on
# their logarithms, in every output format; and the Markdown report's
# busy/idle/P-state/C-state rows (issue 30 item 10).
#
# The models and traces are made here so that every energy is worked out
# by hand. Two clusters of one CPU each, one OPP (1 GHz), no idle power,
# no wakeup energy: the energy of a trace is busy time x core power.
# Model A: CPU 0 and CPU 1 at 100 mW; model B: CPU 0 at 200 mW, CPU 1 at
# 100 mW. Traces (traces/demo/gen-periodic.awk, 1 s, a task per CPU
# released every 10 ms: 100 runs each):
#   t1: CPU 0 runs 1 ms, CPU 1 3 ms: busy 0.1 s and 0.3 s
#       A: 100 x 0.4 = 40 mW x s; B: 200 x 0.1 + 100 x 0.3 = 50: ratio 1.25
#   t2: 2 ms and 2 ms: A 40, B 200 x 0.2 + 100 x 0.2 = 60: ratio 1.5
#   t3: 3 ms and 1 ms: A 40, B 200 x 0.3 + 100 x 0.1 = 70: ratio 1.75
# Paired, on ln(ratio) (by hand, the same figures as
# tests/unit/test-diff-paired.c "test_three_pairs"):
#   ln 1.25 = 0.223144, ln 1.5 = 0.405465, ln 1.75 = 0.559616
#   mean 0.396075, s = 0.168433, se = s / sqrt 3 = 0.0972446
#   t(0.975, 2) = 4.302653 (table): half-width 0.418410
#   95% CI: exp(-0.022335) - 1 = -2.21%, exp(0.814485) - 1 = +125.80%
#   change: exp(0.396075) - 1 = +48.60% (cube root of 3.28125 = 1.485980)
#   against +100%: straddles; traces needed: gap |0.396075 - ln 2| =
#   0.297072; n = 3: 0.418410 (not below), n = 4: t(0.975, 3) = 3.182446,
#   3.182446 x 0.168433 / 2 = 0.268014 (below): 4 traces.
. "$(dirname "$0")/lib.sh"
GEN=$ROOT/traces/demo/gen-periodic.awk
model() { # NAME CPU0_MW IDLE_MW
	cat >"$TMP/$1.json" <<EOF
{ "eatrace_model": 1, "name": "paired-$1", "source": "tests/e2e/diff-paired.sh", "power_unit": "mW",
  "clusters": [
    { "name": "x", "cpus": [0], "freq_domain": false,
      "cap_states": [ { "freq_khz": 1000000, "cap": 1024, "core_power": $2, "cluster_power": 0 } ],
      "idle_states": [ { "name": "WFI", "core_power": $3, "cluster_power": 0, "core_wakeup": 0, "cluster_wakeup": 0 } ] },
    { "name": "y", "cpus": [1], "freq_domain": false,
      "cap_states": [ { "freq_khz": 1000000, "cap": 1024, "core_power": 100, "cluster_power": 0 } ],
      "idle_states": [ { "name": "WFI", "core_power": $3, "cluster_power": 0, "core_wakeup": 0, "cluster_wakeup": 0 } ] } ] }
EOF
}
model a 100 0
model b 200 0
model c 100 10
gen() { awk -f "$GEN" -v spec="$1" -v freqs=1000000,1000000 -v dur_us=1000000 >"$TMP/$2"; }
gen "0:10000:1000,1:10000:3000" t1.txt
gen "0:10000:2000,1:10000:2000" t2.txt
gen "0:10000:3000,1:10000:1000" t3.txt
T="$TMP/t1.txt $TMP/t2.txt $TMP/t3.txt"

# shellcheck disable=SC2086
"$EATRACE" diff --models "$TMP/a.json" "$TMP/b.json" --max-increase 100 $T >"$TMP/out.txt"
expect_eq "straddling the threshold: exit 3" "$?" 3
expect_eq "verdict line, paired figures" "$(head -1 "$TMP/out.txt")" \
	"INCONCLUSIVE: energy +48.60% (paired, 3 traces: 95% CI -2.21% .. +125.80%) straddles the threshold +100.00%: price more traces; 4 traces would resolve a change of this size at this spread of per-trace ratios"
grep -q "^  .*t2.txt  *40  *60   +50.00%  (0.993 s)$" "$TMP/out.txt" && ok "text: the pair t2, 40 -> 60, +50%" ||
	fail "text pairs: $(grep -A4 '^pairs' "$TMP/out.txt")"
grep -q "^ln(new / base) over 3 traces: mean 0.396075, sd 0.168433; t(2) = 4.30265;" "$TMP/out.txt" &&
	ok "text: mean and sd of the log ratios, t(2)" || fail "text: $(grep '^ln' "$TMP/out.txt")"
# shellcheck disable=SC2086
"$EATRACE" diff --models "$TMP/a.json" "$TMP/b.json" --max-increase 150 $T >"$TMP/out.txt"
expect_eq "interval all below +150%: pass" "$?" 0
# shellcheck disable=SC2086
"$EATRACE" diff --models "$TMP/a.json" "$TMP/b.json" --max-increase -5 $T >"$TMP/out.txt"
expect_eq "interval all above -5%: fail" "$?" 1
expect_eq "negative threshold printed with its sign" "$(head -1 "$TMP/out.txt")" \
	"FAIL: energy +48.60% (paired, 3 traces: 95% CI -2.21% .. +125.80%), threshold -5.00%"
# --normalize time: the same trace has the same duration under both
# models, so the ratios, and the verdict, do not change.
# shellcheck disable=SC2086
"$EATRACE" diff --models "$TMP/a.json" "$TMP/b.json" --max-increase 100 --normalize time $T >"$TMP/out.txt"
head -1 "$TMP/out.txt" | grep -qF "INCONCLUSIVE: energy +48.60% (paired, 3 traces: 95% CI -2.21% .. +125.80%)" &&
	ok "--normalize time: the same paired change" || fail "--normalize time: $(head -1 "$TMP/out.txt")"

# JSON: the keys of docs/json.md, the figures above.
# shellcheck disable=SC2086
"$EATRACE" diff --models "$TMP/a.json" "$TMP/b.json" --max-increase 100 -f json $T >"$TMP/d.json"
/usr/bin/python3 - "$TMP/d.json" <<'PY' && ok "JSON: paired keys and figures" || fail "JSON paired"
import json, sys
d = json.load(open(sys.argv[1]))
p = d["paired"]
assert p["n"] == 3 and p["left_out"] == 0, p
assert [x["ratio"] for x in p["pairs"]] == [1.25, 1.5, 1.75], p["pairs"]
assert [(x["base"], x["new"]) for x in p["pairs"]] == [(40, 50), (40, 60), (40, 70)]
assert abs(p["mean_log_ratio"] - 0.396075) < 1e-6 and abs(p["sd_log_ratio"] - 0.168433) < 1e-6
assert abs(p["geomean_ratio"] - 1.485980) < 1e-6
assert abs(d["change_pct"] - 48.598) < 1e-3
assert abs(d["ci_low_pct"] + 2.2087) < 1e-3 and abs(d["ci_high_pct"] - 125.80) < 1e-2
assert d["df"] == 2 and abs(d["t"] - 4.302653) < 1e-6
assert d["verdict"] == "inconclusive" and d["traces_needed"] == 4
assert "welch_df" not in d and "runs_per_side_needed" not in d
PY

# Markdown: the gate word, the pairs, and the rows of the text report:
# busy 40 -> 60 (+50%), idle 0 -> 0, cluster x 20 -> 40, CPU 0 at 1 GHz
# 20.14% of the window (100 x 2 ms / 0.993 s).
# shellcheck disable=SC2086
"$EATRACE" diff --models "$TMP/a.json" "$TMP/b.json" --max-increase 100 -f markdown $T >"$TMP/d.md"
for line in '### eatrace energy gate: INCONCLUSIVE' \
	"| \`$TMP/t1.txt\` | 40 | 50 | +25.00% |" \
	'| busy | 40 | 60 | +50.00% |' '| idle | 0 | 0 | +0.00% |' \
	'| wakeups (energy) | 0 | 0 | +0.00% |' \
	'| cluster x | 20 | 40 | +100.00% |' '| cluster y | 20 | 20 | +0.00% |' \
	'| x at 1000000 kHz, share of time | 20.14% | 20.14% | +0.00 pp |' \
	'| x in WFI, share of time | 79.86% | 79.86% | +0.00 pp |'; do
	grep -qxF "$line" "$TMP/d.md" && ok "markdown: $line" || fail "markdown lacks '$line': $(cat "$TMP/d.md")"
done

# JUnit: valid, the pairs in system-out.
# shellcheck disable=SC2086
"$EATRACE" diff --models "$TMP/a.json" "$TMP/b.json" --max-increase 100 -f junit -o "$TMP/d.xml" $T
xmllint --noout --schema "$ROOT/tests/fixtures/diff/junit.xsd" "$TMP/d.xml" 2>"$TMP/xl" && ok "junit valid" || fail "junit: $(cat "$TMP/xl")"
grep -qF "pair $TMP/t3.txt: base 40, new 70, change +75.00%" "$TMP/d.xml" && ok "junit: pair lines" || fail "junit: $(cat "$TMP/d.xml")"
grep -qF '(paired, 3 traces: 95% CI -2.21% .. +125.80%)' "$TMP/d.xml" && ok "junit: paired interval" || fail "junit interval"

# HTML: the pairs table and the paired interval card.
# shellcheck disable=SC2086
"$EATRACE" diff --models "$TMP/a.json" "$TMP/b.json" --max-increase 100 --html "$TMP/d.html" $T >"$TMP/out.txt"
grep -o 'data-ratio="[0-9.]*"' "$TMP/d.html" | tr '\n' ' ' >"$TMP/ratios"
expect_eq "html: per-trace ratios" "$(cat "$TMP/ratios")" 'data-ratio="1.25" data-ratio="1.5" data-ratio="1.75" '
grep -q 'confidence interval (paired: t on the log ratios of 3 traces)' "$TMP/d.html" && ok "html: paired card" || fail "html card"

# A trace of 0 s (all CPUs idle from the first event on): zero energy
# under both models, no ratio: left out, the figures unchanged.
gen "" z.txt
# shellcheck disable=SC2086
"$EATRACE" diff --models "$TMP/a.json" "$TMP/b.json" --max-increase 100 $T "$TMP/z.txt" >"$TMP/out.txt"
expect_eq "zero under both: same verdict" "$(head -1 "$TMP/out.txt" | cut -c1-90)" \
	"INCONCLUSIVE: energy +48.60% (paired, 3 traces: 95% CI -2.21% .. +125.80%) straddles the t"
grep -q "z.txt  *0  *0       n/a  (0.000 s; zero energy under both models: left out)$" "$TMP/out.txt" &&
	ok "zero under both: n/a, with the reason" || fail "zero pair: $(grep z.txt "$TMP/out.txt")"
# shellcheck disable=SC2086
"$EATRACE" diff --models "$TMP/a.json" "$TMP/b.json" -f json $T "$TMP/z.txt" >"$TMP/z.json"
/usr/bin/python3 - "$TMP/z.json" <<'PY' && ok "JSON: left_out, null ratio with a reason" || fail "JSON left out"
import json, sys
p = json.load(open(sys.argv[1]))["paired"]
z = p["pairs"][3]
assert p["n"] == 3 and p["left_out"] == 1
assert z["ratio"] is None and z["change_pct"] is None and z["reason"] == "zero energy under both models", z
PY

# All idle for 0.5 s: model A prices it at 0, model C (10 mW per idle
# CPU) at 10 x 0.5 x 2 = 10: no finite ratio, refused.
printf '# tracer: nop\n          <idle>-0     [000] d..2.   100.000000: cpu_idle: state=0 cpu_id=0\n          <idle>-0     [001] d..2.   100.000000: cpu_idle: state=0 cpu_id=1\n          <idle>-0     [000] d..2.   100.500000: cpu_idle: state=0 cpu_id=0\n' >"$TMP/idle.txt"
expect_fail "zero under one model only: refused" 2 \
	"idle.txt: zero energy under one model only: no finite ratio: 0 under model paired-a, 10 under model paired-c" \
	-- "$EATRACE" diff --models "$TMP/a.json" "$TMP/c.json" "$TMP/t1.txt" "$TMP/idle.txt"

# One trace: no interval, the point estimate decides (+25% > +1%).
"$EATRACE" diff --models "$TMP/a.json" "$TMP/b.json" "$TMP/t1.txt" >"$TMP/out.txt"
expect_eq "one trace: exit 1" "$?" 1
expect_eq "one trace: point estimate" "$(head -1 "$TMP/out.txt")" \
	"FAIL: energy +25.00%, threshold +1.00% (paired, one trace with a ratio: no confidence interval)"
# The recorded VM traces (traces/vm, 7 of them) priced by juno-r0 and
# juno-r0-eas: the paired figures recomputed here from the per-trace values
# (t(0.975, 6) = 2.446912 from a table).
"$EATRACE" diff --models juno-r0 juno-r0-eas -f json "$ROOT"/traces/vm/*.dat >"$TMP/vm.json"
expect_eq "VM traces: exit 1 (the interval is all above +1%)" "$?" 1
/usr/bin/python3 - "$TMP/vm.json" <<'PY' && ok "VM traces: paired figures recomputed" || fail "VM traces paired"
import json, math, statistics, sys
d = json.load(open(sys.argv[1]))
b = [r["value"] for r in d["base"]["runs"]]
n = [r["value"] for r in d["new"]["runs"]]
logs = [math.log(y / x) for x, y in zip(b, n)]
m, s = statistics.mean(logs), statistics.stdev(logs)
half = 2.446912 * s / math.sqrt(len(logs))
assert len(logs) == 7 and d["paired"]["n"] == 7
assert abs(d["change_pct"] - 100 * math.expm1(m)) < 1e-6
assert abs(d["ci_low_pct"] - 100 * math.expm1(m - half)) < 1e-4
assert abs(d["ci_high_pct"] - 100 * math.expm1(m + half)) < 1e-4
assert d["ci_low_pct"] > 1 and d["verdict"] == "fail"
PY
finish
