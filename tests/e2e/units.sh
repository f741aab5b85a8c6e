#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# One energy unit, named the same way in every output, and --unit
# (issue 30 item 5; docs/json.md "Units"). Expected figures by hand.
#
# tests/fixtures/state/swapper-idle.txt priced with
# tests/fixtures/energy/two-cpu-shared.json (mW; the derivation is
# tests/unit/test-energy.c's, test_swapper_idle_energy), over 1000 us:
#   core busy     300 mW x 300 us + 300 mW x 600 us = 0.27 mW x s
#   core idle     10 mW x 700 us + 10 mW x 400 us   = 0.011
#   cluster busy  80 mW x 900 us                     = 0.072
#   cluster idle  20 mW x 100 us                     = 0.002
#   wakeups       2 x (0.5 + 2) mW x s               = 5
#   total 5.355 mW x s (busy 0.342, idle 0.013, wakeup 5)
#     = 0.005355 J = 5.355 mJ = 5355 uJ; mean power 5.355 mW x s / 0.001 s
#     = 5355 mW = 5.355 W = 5355000 uW
#   work: CPUs busy 300 + 600 us at 2 GHz (the assumed OPP), capacity 1024:
#     900e-6 s x 1024 = 0.9216 capacity x s; energy per work
#     5.355 / 0.9216 = 5.810546875 mW x s per capacity x s
. "$(dirname "$0")/lib.sh"
export LSAN_OPTIONS="suppressions=$ROOT/tests/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
cd "$TMP" || exit 1
M=$ROOT/tests/fixtures/energy/two-cpu-shared.json
T=$ROOT/tests/fixtures/state/swapper-idle.txt

# json_eq NAME FILE PYEXPR EXPECTED: PYEXPR over the JSON j of FILE, printed.
json_eq() {
	expect_eq "$1" "$(/usr/bin/python3 -c '
import json, sys
from decimal import Decimal
j = json.load(open(sys.argv[1]), parse_float=Decimal)
print(eval(sys.argv[2]))' "$2" "$3")" "$4"
}

# report, native unit: "mW x s" in the text header, JSON, CSV, HTML
"$EATRACE" report -q -m "$M" "$T" >r.txt
head -n 1 r.txt | grep -q ', energy in mW x s$' && ok "text: mW x s" || fail "text header: $(head -n 1 r.txt)"
"$EATRACE" report -q -m "$M" -f json "$T" >r.json
json_eq "json: native" r.json '(j["power_unit"], j["energy_unit"], str(j["energy"]["total"]))' \
	"('mW', 'mW x s', '5.355')"

# --unit J, mJ, uJ: the same energies, the point moved
for u in "J 0.005355 0.000342 0.000013 0.005 W" "mJ 5.355 0.342 0.013 5 mW" \
	"uJ 5355 342 13 5000 uW"; do
	set -- $u
	"$EATRACE" report -q -m "$M" --unit "$1" -f json "$T" >u.json
	json_eq "json --unit $1" u.json \
		'" ".join(str(x) for x in (j["energy"]["total"], j["energy"]["busy"], j["energy"]["idle"], j["energy"]["wakeup"], j["energy_unit"], j["power_unit"]))' \
		"$2 $3 $4 $5 $1 $6"
done
# the exact sums still hold in J: CPUs add up to the total
"$EATRACE" report -q -m "$M" --unit J -f json "$T" >j.json
json_eq "json J: CPUs sum to the total" j.json \
	'sum(c["energy"]["total"] for c in j["cpus"]) == j["energy"]["total"]' True

# text and CSV in J
"$EATRACE" report -q -m "$M" --unit J "$T" >j.txt
head -n 1 j.txt | grep -q ', energy in J$' && ok "text: J" || fail "text --unit J: $(head -n 1 j.txt)"
expect_eq "text J: total row" "$(awk '$1 == "total" { print $2 }' j.txt)" 0.005355
"$EATRACE" report -q -m "$M" --unit uJ -f csv "$T" >u.csv
expect_eq "csv: energy_unit column" "$(head -n 1 u.csv | cut -d, -f11)" energy_unit
# (quoted, as every name from the model is in this CSV)
expect_eq "csv uJ: total row" "$(grep '^total,' u.csv | cut -d, -f6-9,11)" '5355,342,13,5000,"uJ"'
expect_eq "csv: every row names its unit" "$(tail -n +2 u.csv | cut -d, -f11 | sort -u)" '"uJ"'
"$EATRACE" report -q -m "$M" -f csv "$T" >n.csv
expect_eq "csv native: mW x s" "$(grep '^total,' n.csv | cut -d, -f6,11)" '5.355,"mW x s"'
if /usr/bin/python3 -c 'import pandas' 2>/dev/null; then
	expect_eq "csv: pandas reads it as it is" "$(/usr/bin/python3 -c '
import pandas as pd, sys
d = pd.read_csv(sys.argv[1])
print(d.loc[d.scope == "total", "total"].iloc[0], d.energy_unit.iloc[0])' u.csv)" "5355 uJ"
fi

# HTML: the unit named, the exact total in J, mean power in W
"$EATRACE" report -q -m "$M" --unit J "$T" --html j.html >/dev/null
/usr/bin/python3 - j.html <<'PY' && ok "html J: unit, total, mean power" || fail "html --unit J"
import sys, xml.etree.ElementTree as ET
doc = ET.parse(sys.argv[1]).getroot()
div = [d for d in doc.iter('div') if d.get('data-total-energy') is not None][0]
assert (div.get('data-total-energy'), div.get('data-energy-unit')) == ('0.005355', 'J')
cards = [''.join(d.itertext()) for d in doc.iter('div') if d.get('class') == 'card']
assert cards[0] == '0.00536 Jenergy, all CPUs', cards[0]
assert cards[1] == '5.36 Wmean power', cards[1]
PY
"$EATRACE" report -q -m "$M" "$T" --html n.html >/dev/null
grep -q 'data-energy-unit="mW x s"' n.html && ! grep -q ' mJ' n.html &&
	ok "html native: mW x s, not mJ" || fail "html native unit"

# batch: uJ, mean power in uW
"$EATRACE" batch -q -m "$M" --unit uJ "$T" >b.csv
expect_eq "batch uJ" "$(tail -n 1 b.csv | cut -d, -f5-8,10-12)" "5355,342,13,5000,uW,uJ,0"
expect_eq "batch uJ: mean power 5355000 uW" \
	"$(/usr/bin/python3 -c 'import sys; print(float(sys.argv[1]) == 5355000)' "$(tail -n 1 b.csv | cut -d, -f9)")" True
"$EATRACE" batch -q -m "$M" -f jsonl "$T" >b.jsonl
json_eq "batch native jsonl" b.jsonl '(str(j["total_energy"]), j["mean_power"] == 5355, j["power_unit"], j["energy_unit"])' \
	"('5.355', True, 'mW', 'mW x s')"
# --resume with another unit prices the row again, in this one
"$EATRACE" batch -q -m "$M" -o res.csv "$T"
"$EATRACE" batch -q -m "$M" --unit J -o res.csv --resume "$T"
expect_eq "batch --resume --unit J: repriced" "$(tail -n +2 res.csv | cut -d, -f5,11)" "0.005355,J"

# diff: energies and work, --normalize work per capacity x s
"$EATRACE" diff -m "$M" --unit mJ -f json --normalize work --base "$T" --new "$T" >d.json
json_eq "diff json: units" d.json '(j["energy_unit"], j["value_unit"], j["work_unit"])' \
	"('mJ', 'mJ per capacity x s', 'capacity x s')"
json_eq "diff json: energy and work of a run" d.json \
	'(j["base"]["runs"][0]["energy"], j["base"]["runs"][0]["work"])' "(Decimal('5.355'), Decimal('0.9216'))"
json_eq "diff json: energy per capacity x s" d.json \
	'abs(j["base"]["runs"][0]["value"] / Decimal("5.810546875") - 1) < Decimal("1e-12")' True
"$EATRACE" diff -m "$M" --unit J --normalize time --base "$T" --new "$T" >d.txt
grep -q '^normalised by time: values in W$' d.txt && ok "diff text: W" || fail "diff text: $(sed -n 3p d.txt)"
grep -q '5.355  (0.005355 J in 0.001 s)' d.txt && ok "diff text: run in J, mean power in W" ||
	fail "diff text runs: $(grep swapper d.txt)"

# diff --models: a uW copy of the model (every power and wakeup energy x
# 1000) prices the same energy, 5.355 mW x s = 5355 uW x s = 5.355 mJ:
# with --unit mJ, both sides 5.355 and no change, the unit in every form
"$EATRACE" model convert "$M" | /usr/bin/python3 -c '
import json, sys
m = json.load(sys.stdin)
m["power_unit"] = "uW"
for c in m["clusters"]:
    for s in c["cap_states"] + c["idle_states"]:
        for k in ("core_power", "cluster_power", "core_wakeup", "cluster_wakeup"):
            if k in s:
                s[k] *= 1000
json.dump(m, sys.stdout)' >uw.json
"$EATRACE" diff --models "$M" uw.json --unit mJ -f json "$T" >dm.json
json_eq "diff --models json: both sides in mJ" dm.json \
	'(j["energy_unit"], str(j["base"]["runs"][0]["value"]), str(j["new"]["runs"][0]["value"]), j["change_pct"])' \
	"('mJ', '5.355', '5.355', 0)"
"$EATRACE" diff --models "$M" uw.json --unit mJ -f markdown "$T" --html dm.html >dm.md
grep -q '^| trace (paired) | base (mJ) | new (mJ) | change |$' dm.md &&
	grep -q '^| where (mean per run, in mJ) |' dm.md && grep -q '^| | runs | mean (mJ, by none) |' dm.md &&
	ok "diff --models markdown: mJ in each table" || fail "diff --models markdown: $(grep '^| ' dm.md | grep -v -- '---')"
grep -q '<th>base (mJ)</th><th>new (mJ)</th>' dm.html && ok "diff --models html: pairs in mJ" ||
	fail "diff --models html: $(grep -o '<table data-table="pairs">.\{0,120\}' dm.html)"
"$EATRACE" diff --models "$M" uw.json --unit mJ -f junit "$T" >dm.xml
grep -qx 'normalised by none: values in mJ' dm.xml && ok "diff junit: the unit" || fail "diff junit: $(cat dm.xml)"

# replay: the recorded policy reproduces the report's energy, here in uJ;
# work in capacity x s
"$EATRACE" replay -q -m "$M" --policy recorded --unit uJ -f json "$T" >p.json
json_eq "replay json" p.json \
	'(j["energy_unit"], j["work_unit"], str(j["actual"]["energy"]["total"]), str(j["policies"][0]["energy"]["total"]), j["policies"][0]["work"] == Decimal("0.9216"))' \
	"('uJ', 'capacity x s', '5355', '5355', True)"
json_eq "replay json: energy per work in uJ" p.json \
	'abs(Decimal(j["policies"][0]["energy_per_work"]) / Decimal("5810.546875") - 1) < Decimal("1e-12")' True
"$EATRACE" replay -q -m "$M" --policy recorded "$T" >p.txt
head -n 1 p.txt | grep -q 'energy in mW x s, work in capacity x s$' && ok "replay text header" ||
	fail "replay text: $(head -n 1 p.txt)"

# A unitless model: --unit refused, exit 2, one line, nothing written
for cmd in "report -m tc2 $T" "replay -m tc2 $T" "diff -m tc2 --base $T --new $T" "batch -m tc2 $T"; do
	expect_fail "${cmd%% *} --unit J with a bogo model" 2 \
		"--unit J: model ARM TC2's power_unit 'bogo' is not a unit of power (W, mW, uW or nW)" \
		-- "$EATRACE" $cmd --unit J -o never.out
done
[ ! -e never.out ] && ok "refused: no output" || fail "never.out written"
expect_fail "--unit kJ" 2 "--unit: 'kJ' is not J, mJ or uJ" -- "$EATRACE" report -m "$M" --unit kJ "$T"
"$EATRACE" report -q -m tc2 -f json "$ROOT/traces/demo/tc2-seven-tasks.txt" >tc2.json
json_eq "bogo model: bogo x s" tc2.json 'j["energy_unit"]' "bogo x s"
finish
