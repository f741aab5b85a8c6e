#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# eatrace model fit and model check --measured on bad input (docs/model-fit.md
# "Errors"): one line naming the file and line, exit 2, no output file
# written (nor an existing one replaced); and the small cases: too few
# windows (the coefficients it cannot determine are held and named), --hold,
# --rail in both orders, --window.
# The trace is tests/fixtures/fit/gen-seed3.txt (two clusters, 100.00 to
# 100.12 s), the model tests/fixtures/fit/two-cluster.json.
. "$(dirname "$0")/lib.sh"
T=$ROOT/tests/fixtures/fit/gen-seed3.txt
M=$ROOT/tests/fixtures/fit/two-cluster.json

# csv FILE: 10 ms windows of both rails over the whole trace, 5 mW x s each
csv() {
	{
		echo "start_s,end_s,rail,energy"
		for i in 0 1 2 3 4 5 6 7 8 9 10 11; do
			printf '100.%02d,100.%02d,little,5\n100.%02d,100.%02d,big,5\n' \
				"$i" "$((i + 1))" "$i" "$((i + 1))"
		done
	} >"$1"
}
csv "$TMP/good.csv"

# bad CSV FILE LINE_CONTENT_FILTER MESSAGE: the fit refuses it
bad() {
	name=$1 file=$2 msg=$3
	echo keep >"$TMP/fitted.json"
	expect_fail "$name" 2 "$msg" -- \
		"$EATRACE" model fit -m "$M" --pair "$T" "$file" -o "$TMP/fitted.json"
	expect_eq "$name: the -o file is left as it was" "$(cat "$TMP/fitted.json")" keep
}

sed 's/^100.05,100.06,little,5$/100.05,100.06,little,-1/' "$TMP/good.csv" >"$TMP/neg.csv"
bad "negative energy" "$TMP/neg.csv" "neg.csv:12: negative energy -1"
sed '/^100.05,100.06,big,5$/d' "$TMP/good.csv" >"$TMP/gap.csv"
bad "a gap in a rail" "$TMP/gap.csv" \
	"gap.csv:14: rail big: the window starts at 100.060000000 s but the previous one ended at 100.050000000 s: a gap"
sed 's/^100.05,100.06,big,5$/100.045,100.06,big,5/' "$TMP/good.csv" >"$TMP/overlap.csv"
bad "an overlap in a rail" "$TMP/overlap.csv" "overlap.csv:13: rail big: the window starts at 100.045000000 s"
{ cat "$TMP/good.csv"; echo "100.12,100.13,little,5"; } >"$TMP/outside.csv"
bad "a window outside the trace" "$TMP/outside.csv" \
	"outside.csv:26: the window 100.120000000..100.130000000 s is outside the trace"
sed 's/,big,/,gpu,/' "$TMP/good.csv" >"$TMP/rail.csv"
bad "an unknown rail" "$TMP/rail.csv" \
	"rail.csv:3: rail 'gpu' feeds no cluster of model fit test SoC: say which with --rail gpu=CLUSTER"
sed 's/^100.03,100.04,little,5$/100.03,100.04,little,5x/' "$TMP/good.csv" >"$TMP/num.csv"
bad "energy not a number" "$TMP/num.csv" "num.csv:8: energy '5x' is not a number"
sed 's/^100.03,100.04,little,5$/100.03,100.04,little/' "$TMP/good.csv" >"$TMP/fields.csv"
bad "three fields" "$TMP/fields.csv" "fields.csv:8: expected 4 fields (start_s,end_s,rail,energy), got 3"
sed 's/^100.03,100.04,little,5$/100.04,100.03,little,5/' "$TMP/good.csv" >"$TMP/back.csv"
bad "end before start" "$TMP/back.csv" "back.csv:8: the window ends (100.030000000 s) before it starts"
sed '1s/.*/start_s,end_s,rail,mJ/' "$TMP/good.csv" >"$TMP/header.csv"
bad "a wrong header" "$TMP/header.csv" "header.csv:1: the header must be start_s,end_s,rail,energy"
echo "# nothing" >"$TMP/empty.csv"
bad "no window" "$TMP/empty.csv" "empty.csv:1: no measurement window in the file"
bad "a missing CSV" "$TMP/nonexistent.csv" "nonexistent.csv"

expect_fail "--hold matching nothing" 2 "--hold big.9.core_power: no coefficient of model fit test SoC has that key" -- \
	"$EATRACE" model fit -m "$M" --pair "$T" "$TMP/good.csv" --hold big.9.core_power
expect_fail "--rail naming no cluster" 2 "--rail VDD_B=huge: model fit test SoC has no cluster 'huge'" -- \
	"$EATRACE" model fit -m "$M" --pair "$T" "$TMP/good.csv" --rail VDD_B=huge
expect_fail "--rail for a rail nobody measures" 2 "--rail VDD_X=big: no measurement names a rail VDD_X" -- \
	"$EATRACE" model fit -m "$M" --pair "$T" "$TMP/good.csv" --rail VDD_X=big
expect_fail "--pair without its CSV" 2 "--pair $T needs its measurements" -- \
	"$EATRACE" model fit -m "$M" --pair "$T"
expect_fail "no model" 2 "model fit: no model" -- "$EATRACE" model fit --pair "$T" "$TMP/good.csv"
expect_fail "no trace" 2 "model fit: no trace" -- "$EATRACE" model fit -m "$M"
expect_fail "a trace without rails" 2 "the trace has no power rails: give its measurements as a CSV" -- \
	"$EATRACE" model fit -m "$M" "$T"
expect_fail "--format csv" 2 "--format csv is not offered" -- \
	"$EATRACE" model fit -m "$M" --pair "$T" "$TMP/good.csv" -f csv
expect_fail "--measured without --trace" 2 "--measured $TMP/good.csv must follow the --trace it measures" -- \
	"$EATRACE" model check "$M" --measured "$TMP/good.csv"
cp "$TMP/good.csv" "$TMP/in.csv"
expect_fail "-o naming the CSV" 2 "in.csv: is an input of this run; refusing to overwrite it" -- \
	"$EATRACE" model fit -m "$M" --pair "$T" "$TMP/in.csv" -o "$TMP/in.csv"
cmp -s "$TMP/good.csv" "$TMP/in.csv" && ok "-o naming the CSV: the CSV is left as it was" ||
	fail "-o naming the CSV: the CSV changed"
expect_fail "--weights" 2 "--weights: 'squared' is not relative or equal" -- \
	"$EATRACE" model fit -m "$M" --pair "$T" "$TMP/good.csv" --weights squared

# Two windows only (the first 10 ms of each rail) for 34 coefficients: the
# fit holds what it cannot determine and says so; the model it writes
# passes model check.
head -n 3 "$TMP/good.csv" >"$TMP/two.csv"
"$EATRACE" model fit -m "$M" --pair "$T" "$TMP/two.csv" -f json -o "$TMP/f2.json" \
	>"$TMP/two.json" 2>"$TMP/err"
expect_eq "two windows: exit 0" "$?" 0
/usr/bin/python3 - "$TMP/two.json" <<'PY' && ok "two windows: 2 coefficients fitted, the rest held with reasons" || fail "two windows: $(head -c 600 "$TMP/two.json")"
import json, sys
j = json.load(open(sys.argv[1]))
assert j['windows'] == 2, j['windows']
fitted = [c for c in j['coefficients'] if not c['held']]
# one window per rail: at most one free coefficient per rail
assert len(fitted) == 2 and j['coefficients_fitted'] == 2, [c['key'] for c in fitted]
assert {c['cluster'] for c in fitted} == {'little', 'big'}, fitted
held = [c for c in j['coefficients'] if c['held']]
assert all(c['reason'] for c in held)
assert any('combination' in c['reason'] for c in held), [c['reason'] for c in held]
assert j['dof'] == 0 and j['residual_sd'] is None, (j['dof'], j['residual_sd'])
PY
"$EATRACE" model check "$TMP/f2.json" >"$TMP/out" 2>&1
expect_eq "two windows: the fitted model passes model check" "$?" 0

# --hold with a pattern and a list; --rail in the issue's order and in
# report's (CLUSTER=RAIL), both accepted; --window 20 halves the windows.
sed 's/,little,/,VDD_L,/; s/,big,/,VDD_B,/' "$TMP/good.csv" >"$TMP/named.csv"
"$EATRACE" model fit -m "$M" --pair "$T" "$TMP/named.csv" --rail VDD_L=little \
	--rail big=VDD_B --hold 'big.*.core_wakeup,little.WFI.cluster_power' \
	--window 20 -f json >"$TMP/h.json" 2>"$TMP/err"
expect_eq "--hold/--rail/--window: exit 0" "$?" 0
/usr/bin/python3 - "$TMP/h.json" <<'PY' && ok "--hold, --rail both orders, --window" || fail "--hold/--rail/--window: $(head -c 600 "$TMP/h.json")"
import json, sys
j = json.load(open(sys.argv[1]))
c = {x['key']: x for x in j['coefficients']}
for k in ('big.WFI.core_wakeup', 'big.off.core_wakeup', 'little.WFI.cluster_power'):
    assert c[k]['held'] and c[k]['reason'] == '--hold' and c[k]['fitted'] == c[k]['initial'], c[k]
r = {x['name']: x for x in j['rails']}
assert r['VDD_L']['clusters'] == ['little'] and r['VDD_B']['clusters'] == ['big'], r
assert r['VDD_L']['mapped_by'] == 'option', r['VDD_L']
assert j['windows'] == 12 and j['window_ms'] == 20, (j['windows'], j['window_ms'])
assert r['VDD_L']['measured'] == 60, r['VDD_L']['measured']
PY

# model check --measured: exit 1 when a gate fails, 0 when it holds; the
# constant 5 mW x s per window is far from the estimate.
"$EATRACE" model check "$M" --trace "$T" --measured "$TMP/good.csv" --max-error 1 >"$TMP/out" 2>&1
expect_eq "check --measured: a gate over 1% fails (exit 1)" "$?" 1
grep -q "^gate: FAILED" "$TMP/out" && ok "check --measured: says the gate failed" ||
	fail "check --measured gate line: $(tail -n 3 "$TMP/out")"
"$EATRACE" model check "$M" --trace "$T" --measured "$TMP/good.csv" --max-error 1000000 >"$TMP/out" 2>&1
expect_eq "check --measured: a wide gate passes (exit 0)" "$?" 0
finish
