#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Measured energy beside the estimate (docs/perfetto.md, "Power rails"):
# tests/fixtures/perfetto/rails.txtpb, encoded with protoc and the subset
# proto beside it, priced with juno-r0 (mW). Expected figures by hand:
#  - window: first to last event, 1.0 s to 2.0 s;
#  - estimate A57: CPU 1 busy 1.0 s at 583 mW = 583 mW x s (juno-r0's
#    A57 at 1100000 kHz; idle and cluster powers are 0);
#    A53: CPU 0 busy 0.5 s at 119 mW (850000 kHz) = 59.5 mW x s;
#  - VDD_A57 (index 0; times from the packets' timestamps): counter
#    1000000 uWs at 0.5 s, 1300000 at 1.5 s, 1900000 at 2.5 s. Linear
#    interpolation: at 1.0 s 1000000 + 300000 x 0.5 = 1150000, at 2.0 s
#    1300000 + 600000 x 0.5 = 1600000: 450000 uWs = 450 mW x s;
#    difference (583 - 450) / 450 = +29.555...%;
#  - S2M_VDD_CPUCL0 (index 1, timestamp_ms): 5000 uWs at 1000 ms, 75000
#    at 2000 ms: 70000 uWs = 70 mW x s, fed cluster 0 (A53) by its
#    "CPUCL0" token; difference (59.5 - 70) / 70 = -15%;
#  - VDD_GPU (index 2): 100 at 1.2 s, 700 at 1.8 s: covers 1.2 s to
#    1.8 s only, 600 uWs = 0.6 mW x s; feeds no cluster: no difference.
. "$(dirname "$0")/lib.sh"
command -v protoc >/dev/null || skip "needs protoc (protobuf-compiler)"
F=$ROOT/tests/fixtures/perfetto
protoc -I"$F" --encode=perfetto.protos.Trace "$F/subset.proto" <"$F/rails.txtpb" >"$TMP/r.pb" ||
	{ fail "protoc"; finish; }

"$EATRACE" report -m juno-r0 -f json "$TMP/r.pb" >"$TMP/r.json" 2>"$TMP/err" || fail "report: $(cat "$TMP/err")"
/usr/bin/python3 - "$TMP/r.json" <<'PY' && ok "rails: JSON figures" || fail "rails: JSON figures"
import json, sys
j = json.load(open(sys.argv[1]))
assert (j['start_s'], j['end_s']) == (1.0, 2.0), (j['start_s'], j['end_s'])
r = {x['name']: x for x in j['rails']}
assert list(r) == ['VDD_A57', 'S2M_VDD_CPUCL0', 'VDD_GPU'], list(r)
a = r['VDD_A57']
assert a['clusters'] == ['A57'] and a['mapped_by'] == 'name', a
assert a['covers_window'] and a['measured_uws'] == 450000 and a['measured'] == 450, a
assert a['estimate'] == 583 and abs(a['difference_pct'] - 133 / 450 * 100) < 1e-9, a
b = r['S2M_VDD_CPUCL0']
assert b['clusters'] == ['A53'] and b['measured'] == 70 and b['estimate'] == 59.5, b
assert abs(b['difference_pct'] - -15) < 1e-9 and b['subsys'] == 'CPU(LITTLE)', b
g = r['VDD_GPU']
assert g['clusters'] == [] and g['mapped_by'] == 'none' and not g['covers_window'], g
assert (g['from_s'], g['to_s'], g['measured_uws']) == (1.2, 1.8, 600), g
assert g['estimate'] is None and g['difference_pct'] is None, g
PY

"$EATRACE" report -m juno-r0 "$TMP/r.pb" >"$TMP/r.txt" 2>&1 || fail "report text"
grep -Eq '^VDD_A57 +A57 +450\.000000 +583\.000000 +\+29\.6%$' "$TMP/r.txt" &&
	grep -Eq '^S2M_VDD_CPUCL0 +A53 +70\.000000 +59\.500000 +-15\.0%$' "$TMP/r.txt" &&
	grep -q 'samples cover only 1.200000000 s to 1.800000000 s' "$TMP/r.txt" &&
	ok "rails: text section" || fail "rails: text: $(grep -A5 'power rails' "$TMP/r.txt")"

# --rail: VDD_GPU said to feed A57 (the option, whatever the name says);
# it still does not cover the window, so no difference is given.
"$EATRACE" report -m juno-r0 -f json --rail A57=VDD_GPU "$TMP/r.pb" >"$TMP/o.json" || fail "--rail"
/usr/bin/python3 - "$TMP/o.json" <<'PY' && ok "--rail maps a rail" || fail "--rail maps a rail"
import json, sys
r = {x['name']: x for x in json.load(open(sys.argv[1]))['rails']}
g = r['VDD_GPU']
assert g['clusters'] == ['A57'] and g['mapped_by'] == 'option', g
assert g['estimate'] == 583 and g['difference_pct'] is None, g
assert r['VDD_A57']['clusters'] == ['A57'], r['VDD_A57']
PY
expect_fail "--rail unknown cluster" 2 "model Arm Juno r0 has no cluster big" -- \
	"$EATRACE" report -m juno-r0 --rail big=VDD_A57 "$TMP/r.pb"
expect_fail "--rail unknown rail" 2 "the trace has no power rail VDD_X (3 rails)" -- \
	"$EATRACE" report -m juno-r0 --rail A57=VDD_X "$TMP/r.pb"
expect_fail "--rail not CLUSTER=RAIL" 2 "--rail: 'A57' is not CLUSTER=RAIL" -- \
	"$EATRACE" report -m juno-r0 --rail A57 "$TMP/r.pb"
# A power_unit that is no unit of power (tc2: bogo): the counter in uWs,
# no measured figure in the model's unit, no difference.
"$EATRACE" report -m tc2 -f json "$TMP/r.pb" >"$TMP/t.json" 2>/dev/null || fail "tc2"
/usr/bin/python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['rails'][0]
assert r['measured_uws'] == 450000 and r['measured'] is None and r['difference_pct'] is None, r
" "$TMP/t.json" && ok "bogo power_unit: uWs only" || fail "bogo power_unit"
# CSV (docs/json.md): per rail a "rail" row (covered time, measured energy,
# from) and, for a rail that feeds clusters, a "rail_estimate" row (the
# window, the fed clusters' energy with its breakdown); figures as above:
# VDD_A57 450 over 1.0 s from 1.0 s, A57 583 (all busy: idle and cluster
# powers 0, no wakeups priced); CPUCL0 70, A53 59.5; VDD_GPU 0.6 over
# 1.8 - 1.2 = 0.6 s from 1.2 s, no estimate row (feeds nothing).
"$EATRACE" report -m juno-r0 -f csv "$TMP/r.pb" >"$TMP/r.csv" 2>"$TMP/err" || fail "csv: $(cat "$TMP/err")"
printf '%s\n' \
	'rail,0,"VDD_A57",,1.000000000,450,,,,1.000000000,"mW x s"' \
	'rail_estimate,0,"A57",,1.000000000,583,583,0,0,,"mW x s"' \
	'rail,1,"S2M_VDD_CPUCL0",,1.000000000,70,,,,1.000000000,"mW x s"' \
	'rail_estimate,1,"A53",,1.000000000,59.5,59.5,0,0,,"mW x s"' \
	'rail,2,"VDD_GPU",,0.600000000,0.6,,,,1.200000000,"mW x s"' >"$TMP/want.csv"
grep '^rail' "$TMP/r.csv" | cmp -s - "$TMP/want.csv" && ok "rails: CSV rows" ||
	fail "rails: CSV: $(grep '^rail' "$TMP/r.csv" | diff "$TMP/want.csv" - | head -5)"
# --unit J: 450 mW x s = 0.45 J measured, 583 mW x s = 0.583 J estimated
"$EATRACE" report -m juno-r0 -f csv --unit J "$TMP/r.pb" 2>/dev/null | grep '^rail[_a-z]*,0,' >"$TMP/j.csv"
expect_eq "rails: CSV in J" "$(cat "$TMP/j.csv" | tr '\n' ' ')" \
	'rail,0,"VDD_A57",,1.000000000,0.45,,,,1.000000000,"J" rail_estimate,0,"A57",,1.000000000,0.583,0.583,0,0,,"J" '
# a rail said to feed both clusters: their sum, 59.5 + 583 = 642.5, the
# clusters named in the model's order
"$EATRACE" report -m juno-r0 -f csv --rail A53=VDD_GPU --rail A57=VDD_GPU "$TMP/r.pb" >"$TMP/r2.csv" || fail "csv --rail"
expect_eq "rails: CSV estimate of two clusters" "$(grep '^rail_estimate,2,' "$TMP/r2.csv")" \
	'rail_estimate,2,"A53+A57",,1.000000000,642.5,642.5,0,0,,"mW x s"'
# tc2's power_unit (bogo) is no unit of power: no measured figure
"$EATRACE" report -m tc2 -f csv "$TMP/r.pb" >"$TMP/t.csv" 2>/dev/null || fail "csv tc2"
expect_eq "rails: CSV without a unit of power" "$(grep '^rail,0,' "$TMP/t.csv")" \
	'rail,0,"VDD_A57",,1.000000000,,,,,1.000000000,"bogo x s"'
"$EATRACE" report -m tc2 -f csv "$ROOT/traces/demo/tc2-seven-tasks.txt" 2>/dev/null | grep -q '^rail' &&
	fail "rail rows without rails" || ok "no rail rows without power_rails"
# A trace without rails: no "rails" key.
"$EATRACE" report -m tc2 -f json "$ROOT/traces/demo/tc2-seven-tasks.txt" 2>/dev/null | grep -q '"rails"' &&
	fail "rails key without rails" || ok "no rails key without power_rails"
finish
