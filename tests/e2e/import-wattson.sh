#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# eatrace model import --from wattson on a made-up device ("toy",
# tests/fixtures/import/wattson/: cpu_1d.csv, cpu_2d.csv and a
# device_infos.sql in Wattson's layout): the mapping and the reductions,
# worked out by hand from the CSV rows; format detection; --device;
# one-line FILE:LINE errors with exit 2 and no output file.
. "$(dirname "$0")/lib.sh"
FX=$ROOT/tests/fixtures/import/wattson

has() { grep -qF -- "$2" "$1" && ok "$3" || fail "$3: no '$2' in $1"; }

"$EATRACE" model import --from wattson "$FX/toy" -o "$TMP/toy.json" -q 2>"$TMP/err" ||
	fail "toy: import failed: $(cat "$TMP/err")"
M=$TMP/toy.json
has "$M" '"name": "toy (Wattson)",' "toy: name"
has "$M" '"power_unit": "mW",' "toy: mW, the curves' unit, kept"
# policy 2 (cpu_1d.csv; CPUs 2-3 from _cpu_to_policy_map): core = active,
# cluster = static. Capacities: round(1024 x f / 1500000), 1500000 kHz
# the fastest OPP: 500000 -> 341.33 -> 341, 1000000 -> 682.67 -> 683.
has "$M" '"cpus": [2, 3],' "toy: policy2's CPUs from device_infos.sql"
has "$M" '{ "freq_khz": 500000, "cap": 341, "core_power": 100, "cluster_power": 2 },' "toy: policy2 500 MHz"
has "$M" '{ "freq_khz": 1500000, "cap": 1024, "core_power": 500, "cluster_power": 8 }' "toy: policy2 1.5 GHz"
# idle powers at the median OPP (index (3-1)/2 = 1: 1000000 kHz): idle0
# 20 mW, and its cluster power that OPP's static, 4 mW (Wattson's
# _policy_masks: a CPU in idle0 is on, idle_N != deepest.idle, and a policy
# with a CPU on pays its static; idle1, the deepest, does not: cluster
# power 0). cpuidle state 1 (Wattson idle1, 0 mW) pays the deep-idle exit
# offset of CPUs 2-3, 100000 ns: core 1e-4 s x (250 - 0) mW = 0.025 mW s,
# cluster 1e-4 s x static 4 mW = 0.0004 mW s. State 2 maps to Wattson's
# idle1 (_idle_state_map 2 -> 1) and has no offset (Wattson's offset rule
# is for an exit from state 1 only).
has "$M" '{ "name": "idle0", "core_power": 20, "cluster_power": 4, "core_wakeup": 0, "cluster_wakeup": 0, "target_residency_us": 0 },' "toy: policy2 idle0 at the median OPP, static as its cluster power"
has "$M" '{ "name": "idle1", "core_power": 0, "cluster_power": 0, "core_wakeup": 0.025, "cluster_wakeup": 0.0004, "target_residency_us": 0 },' "toy: policy2 deep-idle exit as wakeup energy"
has "$M" '{ "name": "state2-idle1", "core_power": 0, "cluster_power": 0, "core_wakeup": 0, "cluster_wakeup": 0, "target_residency_us": 0 }' "toy: cpuidle state 2 priced as Wattson's idle1"
# policy 0 exists only in cpu_2d.csv (depends on policy 2): Wattson's
# default vote, the lowest dep_freq of its rows (500000, policy 2). At
# 300000 kHz that row is "1,30,3"; 600000 kHz has no 500000 row, so the
# nearest dep_freq there (1000000: "3,70,6") is used. Capacities 204.8 ->
# 205, 409.6 -> 410. Median OPP index (2-1)/2 = 0: idle0 = 3, its cluster
# power that row's static, 1. Offsets 0.
has "$M" '"cpus": [0, 1],' "toy: policy0's CPUs"
has "$M" '{ "freq_khz": 300000, "cap": 205, "core_power": 30, "cluster_power": 1 },' "toy: 2-D policy0 at the default vote"
has "$M" '{ "freq_khz": 600000, "cap": 410, "core_power": 70, "cluster_power": 3 }' "toy: 2-D OPP without that dependency row"
has "$M" '{ "name": "idle0", "core_power": 3, "cluster_power": 1, "core_wakeup": 0, "cluster_wakeup": 0, "target_residency_us": 0 },' "toy: policy0 idle0"
# what the model cannot say is in its source text
for s in "is only in cpu_2d.csv: its power depends on the frequency of policy 2" \
	"active power spans 70..90 mW over the dependency" "1 OPP has no row at that dependency frequency: the nearest" \
	"Wattson's idle0 spans 10..40 mW, idle1 0 at every OPP, static 2..8 mW" "Apache License 2.0" "L3 hit/miss"; do
	has "$M" "$s" "toy: source says '$s'"
done

# --dep-freq: policy 0 at its dependency's (policy 2) 1500000 kHz rows
# instead: 300000 kHz "2,45,4", 600000 kHz "4,90,7"
"$EATRACE" model import "$FX/toy" --dep-freq policy0=2:1500000 -o "$TMP/dep.json" -q 2>"$TMP/err" ||
	fail "--dep-freq: $(cat "$TMP/err")"
has "$TMP/dep.json" '{ "freq_khz": 300000, "cap": 205, "core_power": 45, "cluster_power": 2 },' "--dep-freq: 300000 kHz at the dependency's 1500000"
has "$TMP/dep.json" '{ "freq_khz": 600000, "cap": 410, "core_power": 90, "cluster_power": 4 }' "--dep-freq: 600000 kHz at the dependency's 1500000"
has "$TMP/dep.json" '"name": "idle0", "core_power": 4, "cluster_power": 2,' "--dep-freq: idle0 (and its static) of the median OPP's row"
has "$TMP/dep.json" "Reduced at --dep-freq policy0=2:1500000" "--dep-freq: said in the source"
"$EATRACE" model import "$FX/toy" --dep-freq 0=1500000 -q >"$TMP/dep2.json" 2>"$TMP/err"
cmp -s "$TMP/dep.json" "$TMP/dep2.json" && fail "--dep-freq 0=F: the source should name the option as given" ||
	has "$TMP/dep2.json" '{ "freq_khz": 600000, "cap": 410, "core_power": 90, "cluster_power": 4 }' "--dep-freq 0=F: the default vote's dependency policy"
expect_fail "--dep-freq: no such row" 2 "--dep-freq 0=2:700000: no cpu_2d.csv row of policy 0 depends on policy 2 at 700000" -- \
	"$EATRACE" model import --from wattson "$FX/toy" --dep-freq 0=2:700000
expect_fail "--dep-freq: a 1-D policy" 2 "--dep-freq policy2=500000: 'policy2' is not a policy of 'toy' that only cpu_2d.csv has" -- \
	"$EATRACE" model import --from wattson "$FX/toy" --dep-freq policy2=500000
expect_fail "--dep-freq: malformed" 2 "--dep-freq 0=2:x: not POLICY=[DEP_POLICY:]FREQ" -- \
	"$EATRACE" model import --from wattson "$FX/toy" --dep-freq 0=2:x

# the format is detected: a directory holding cpu_1d.csv, a file by its header
"$EATRACE" model import "$FX/toy" -q >"$TMP/a.json" 2>"$TMP/err"
cmp -s "$TMP/a.json" "$M" && ok "toy: directory detected as wattson" ||
	fail "toy: detected import differs: $(cat "$TMP/err")"
# one CSV given: the other one beside it is read too
"$EATRACE" model import "$FX/toy/cpu_1d.csv" -q >"$TMP/b.json" 2>"$TMP/err"
grep -q '"name": "policy0"' "$TMP/b.json" && ok "toy: cpu_1d.csv given, cpu_2d.csv beside it read" ||
	fail "toy: cpu_1d.csv alone: $(cat "$TMP/err")"
# --device matches '_' and case loosely; a device absent is an error
"$EATRACE" model import "$FX/toy" --device TOY -q >"$TMP/c.json" 2>"$TMP/err"
cmp -s "$TMP/c.json" "$M" && ok "toy: --device TOY" || fail "toy: --device TOY: $(cat "$TMP/err")"
expect_fail "--device absent" 2 "--device 'nope': no curves for it (the first row is for 'toy')" -- \
	"$EATRACE" model import --from wattson "$FX/toy" --device nope
expect_fail "--device for another format" 2 "--device, --device-infos and --dep-freq are for --from wattson only" -- \
	"$EATRACE" model import --from lisa "$FX/toy" --device toy

# --- bad input: one line naming FILE:LINE, exit 2, no output file ---
mkdir -p "$TMP/sql"
cp "$FX/sql/device_infos.sql" "$TMP/sql/"
# bad DIR 1D-CONTENT [2D-CONTENT]: a device directory in $TMP
bad() {
	rm -rf "$TMP/d"
	mkdir -p "$TMP/d"
	printf '%b' "$1" >"$TMP/d/cpu_1d.csv"
	[ $# -gt 1 ] && printf '%b' "$2" >"$TMP/d/cpu_2d.csv"
	:
}
H='device,policy,freq_khz,static,active,idle0,idle1\n'
H2='device,policy,freq_khz,dep_policy,dep_freq,static,active,idle0,idle1,interconnect\n'
ROWS='toy,2,500000,2,100,10,0\n'
ROW0=${H2}'toy,0,300000,2,500000,1,30,3,0,0\n'
check_bad() {
	name=$1 msg=$2
	expect_fail "bad: $name" 2 "$msg" -- "$EATRACE" model import --from wattson "$TMP/d" -o "$TMP/out.json"
	[ -e "$TMP/out.json" ] && fail "bad: $name: an output file was written"
	rm -f "$TMP/out.json"
}
D=$TMP/d
bad "${H}toy,2,500000,2,abc,10,0\n" "$ROW0"
check_bad "not a number" "$D/cpu_1d.csv:2: active: 'abc' is not a number"
bad "${H}${ROWS}toy,2,1000000,4,250,20\n" "$ROW0"
check_bad "field count" "$D/cpu_1d.csv:3: 6 fields, the header has 7"
bad "device,policy,freq_khz,static,active,idle0\n${ROWS}" "$ROW0"
check_bad "missing column" "$D/cpu_1d.csv:1: no 'idle1' column: not a Wattson curve file"
bad "${H}${ROWS}${ROWS}" "$ROW0"
check_bad "duplicate OPP" "$D/cpu_1d.csv:3: policy 2 at 500000 kHz given again (first at $D/cpu_1d.csv:2)"
bad "${H}toy,2,500000,2,-100,10,0\n" "$ROW0"
check_bad "negative power" "$D/cpu_1d.csv:2: active: -100 mW is negative"
bad "${H}toy,2,500000.5,2,100,10,0\n" "$ROW0"
check_bad "fractional frequency" "$D/cpu_1d.csv:2: freq_khz: '500000.5' is not an integer"
bad "${H}toy,2,500000,2,1e99,10,0\n" "$ROW0"
check_bad "absurd power" "$D/cpu_1d.csv:2: active: 1e+99 is beyond the sanity limit 1e9 mW"
bad "${H}${ROWS}toy,5,500000,2,100,10,0\n" "$ROW0"
check_bad "policy not in device_infos" "$D/cpu_1d.csv:3: policy 5 is not a cpufreq policy of 'toy'"
bad "${H}${ROWS}"
check_bad "policy without a curve" "device 'toy': policy 0 (CPUs 0-1) has no curve in cpu_1d.csv or cpu_2d.csv"
bad "${H}${ROWS}" "${H2}toy,0,300000,2,500000,1,30,3\n"
check_bad "2-D field count" "$D/cpu_2d.csv:2: 8 fields, the header has 10"
bad "${H}${ROWS}other,2,500000,2,100,10,0\n" "$ROW0"
check_bad "several devices" "$D/cpu_1d.csv:3: curves for several devices ('toy' and 'other'): choose one with --device"
bad "${H}moon,2,500000,2,100,10,0\n"
check_bad "device unknown to device_infos.sql" "no CPU-to-policy map for device 'moon' in _cpu_to_policy_map"
bad "${H}\"toy\",2,500000,2,100,10,0\n" "$ROW0"
check_bad "quoted field" "$D/cpu_1d.csv:2: quoted fields are not supported"
bad "$H" "$H2"
check_bad "no rows" "$D/cpu_1d.csv: no curve rows, only a header"
bad "" "$ROW0"
check_bad "empty file" "$D/cpu_1d.csv:1: empty: no header line"
# device_infos.sql damaged: a row of a table eatrace reads cut short
rm -rf "$TMP/e" && mkdir -p "$TMP/e/toy" && cp "$FX/toy/"*.csv "$TMP/e/toy/"
sed 's/("toy", 3, 2)/("toy", 3 2)/' "$FX/sql/device_infos.sql" >"$TMP/e/device_infos.sql"
expect_fail "bad: device_infos.sql row" 2 "$TMP/e/device_infos.sql:38: expected (\"DEVICE\", N, N): ',' after 3" -- \
	"$EATRACE" model import --from wattson "$TMP/e/toy"
sed 's/("toy", 3, 2)/("toy", 1, 2)/' "$FX/sql/device_infos.sql" >"$TMP/e/device_infos.sql"
expect_fail "bad: CPU mapped twice" 2 "$TMP/e/device_infos.sql:38: CPU 1 of 'toy' mapped again (first at line 37)" -- \
	"$EATRACE" model import --from wattson "$TMP/e/toy"
rm "$TMP/e/device_infos.sql"
expect_fail "no device_infos.sql" 2 "no Wattson device_infos.sql beside it (nor in sql/, ../sql/ or ..): give --device-infos FILE" -- \
	"$EATRACE" model import --from wattson "$TMP/e/toy"
"$EATRACE" model import --from wattson "$TMP/e/toy" --device-infos "$FX/sql/device_infos.sql" -q \
	>"$TMP/f.json" 2>"$TMP/err" && ok "--device-infos FILE" || fail "--device-infos: $(cat "$TMP/err")"
finish
