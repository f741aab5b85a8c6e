#!/bin/sh
# eatrace model import / convert end to end: every format from its fixture
# (format detected), the idlestat TC2 model from ../shared/traces, atomic
# output, round trips through convert, one-line errors with exit 2.
. "$(dirname "$0")/lib.sh"
FX=$ROOT/tests/fixtures/import

# jq-free JSON probes: the value after a key on the line that holds both
has() { grep -qF -- "$2" "$1"; }

# --- every fixture, format detected from the content ---
for src in idlestat-model debugfs-ps debugfs-cs juno-sched-energy.dts \
	juno-sched-energy.dtb power_profile.xml power_profile-policy.xml; do
	out=$TMP/$(echo "$src" | tr -c 'a-z0-9\n' _).json
	opts=
	[ "$src" = idlestat-model ] && opts="--ncpus 2,2"
	# shellcheck disable=SC2086
	if "$EATRACE" model import "$FX/$src" $opts -o "$out" -q 2>"$TMP/err"; then
		# the file loads (model check exits 0 or 1, never 2) and converts
		# to itself: the writer's layout is stable
		"$EATRACE" model check "$out" -q >/dev/null 2>&1
		rc=$?
		[ $rc -le 1 ] || fail "$src: model check of the import exits $rc"
		"$EATRACE" model convert "$out" -o "$out.2" -q ||
			fail "$src: convert of the import fails"
		cmp -s "$out" "$out.2" && ok "$src: imports, loads, converts to itself" ||
			fail "$src: convert of the import differs"
	else
		fail "$src: import failed: $(cat "$TMP/err")"
	fi
done

# --- values ---
"$EATRACE" model import "$FX/debugfs-ps" -o "$TMP/ps.json" -q
has "$TMP/ps.json" '"power_unit": "uW"' && ok "debugfs ps: uW from flags" || fail "debugfs ps: unit"
has "$TMP/ps.json" '{ "freq_khz": 1100000, "cap": 1024, "core_power": 583000, "cluster_power": 0 }' &&
	ok "debugfs ps: performance = capacity" || fail "debugfs ps: top A57 OPP"
has "$TMP/ps.json" '"cpus": [0, 3, 4, 5]' && ok "debugfs ps: cpus file" || fail "debugfs ps: cpus"
"$EATRACE" model import --from debugfs "$FX/debugfs-cs" --capacity pd0=446 -o "$TMP/cs.json" -q
has "$TMP/cs.json" '{ "freq_khz": 450000, "cap": 236, "core_power": 42, "cluster_power": 0 }' &&
	ok "debugfs cs: --capacity scales by frequency" || fail "debugfs cs: capacities"
has "$TMP/cs.json" '"power_unit": "mW"' && ok "debugfs cs: mW" || fail "debugfs cs: unit"

"$EATRACE" model import "$FX/juno-sched-energy.dts" -o "$TMP/dts.json" -q
"$EATRACE" model import "$FX/juno-sched-energy.dtb" -o "$TMP/dtb.json" -q
grep -v '"source"' "$TMP/dts.json" >"$TMP/dts.nosrc"
grep -v '"source"' "$TMP/dtb.json" >"$TMP/dtb.nosrc"
if cmp -s "$TMP/dts.nosrc" "$TMP/dtb.nosrc"; then
	ok "dt: dts and dtb give the same model"
else
	fail "dt: dts and dtb differ"
fi
has "$TMP/dts.json" '{ "freq_khz": 450000, "cap": 417, "core_power": 168, "cluster_power": 24 }' &&
	ok "dt: busy-cost-data with OPP frequencies" || fail "dt: first A57 state"

"$EATRACE" model import "$FX/power_profile.xml" --voltage 3.8 -o "$TMP/pp.json" -q
has "$TMP/pp.json" '"power_unit": "mW"' && ok "power-profile: --voltage gives mW" || fail "power-profile: unit"
has "$TMP/pp.json" '"cpus": [4, 5, 6, 7]' && ok "power-profile: cpu.clusters.cores" || fail "power-profile: cpus"

# --- idlestat TC2 from the shared traces ---
TC2=$SHARED/idlestat/energy_model_TC2
if [ -f "$TC2" ]; then
	"$EATRACE" model import --from idlestat "$TC2" --trace "$SHARED/idlestat/Experiments__test01.dat" \
		-o "$TMP/tc2.json" 2>"$TMP/err"
	expect_eq "idlestat TC2: exit" "$?" 0
	has "$TMP/err" "note: 'eatrace model check' finds" && ok "idlestat TC2: check note" ||
		fail "idlestat TC2: no check note: $(cat "$TMP/err")"
	has "$TMP/tc2.json" '"cpus": [1, 2]' && ok "idlestat TC2: topology from --trace" || fail "idlestat TC2: cpus"
	has "$TMP/tc2.json" '{ "freq_khz": 1200000, "cap": 1024, "core_power": 6997, "cluster_power": 15200 }' &&
		ok "idlestat TC2: A15 top OPP" || fail "idlestat TC2: A15 top OPP"
	has "$TMP/tc2.json" '"core_wakeup": 0.233115234375, "cluster_wakeup": 9.79083984375' &&
		ok "idlestat TC2: wakeups converted" || fail "idlestat TC2: wakeups"
	"$EATRACE" model import "$TC2" --cpus A=0-1 --cpus B=2-4 --capacity A=2015 --capacity B=1024 \
		--name "TC2 from idlestat" -o "$TMP/tc2b.json" -q
	has "$TMP/tc2b.json" '{ "freq_khz": 500000, "cap": 840, "core_power": 2021, "cluster_power": 7920 }' &&
		ok "idlestat TC2: --capacity reproduces the RFC capacities" || fail "idlestat TC2: --capacity"
	has "$TMP/tc2b.json" '"name": "TC2 from idlestat"' && ok "idlestat TC2: --name" || fail "idlestat TC2: --name"
	expect_fail "idlestat TC2 without topology" 2 "energy_model_TC2:5: cluster 'clusterA': which CPUs it has is not known" -- \
		"$EATRACE" model import "$TC2"
else
	echo "skip: $TC2 not found"
fi

# --- convert: native models, normalised ---
"$EATRACE" model convert tc2 -o "$TMP/tc2n.json" -q
expect_eq "convert of a bundled model" "$?" 0
"$EATRACE" model convert "$TMP/tc2n.json" -q >"$TMP/tc2n2.json"
cmp -s "$TMP/tc2n.json" "$TMP/tc2n2.json" && ok "convert: stdout, idempotent" || fail "convert: not idempotent"
"$EATRACE" model convert --from power-profile "$FX/power_profile.xml" -q -o "$TMP/ppc.json"
expect_eq "convert reads other formats too" "$?" 0

# --- atomic output: a failed run leaves the old file alone ---
echo old >"$TMP/keep.json"
printf 'clusterA:\nP-states:\n500 x 1\n' >"$TMP/bad"
expect_fail "failed import" 2 "bad:3: cluster power: 'x' is not a number" -- \
	"$EATRACE" model import --from idlestat "$TMP/bad" --ncpus 1 -o "$TMP/keep.json"
expect_eq "old output kept" "$(cat "$TMP/keep.json")" old
expect_eq "no temporary files left" "$(ls "$TMP" | grep -c 'keep.json.tmp')" 0

# --- errors: one line, exit 2 ---
expect_fail "missing source" 2 "/nonexistent/x: No such file or directory" -- \
	"$EATRACE" model import /nonexistent/x
expect_fail "unknown --from" 2 "--from: 'csv' is not" -- \
	"$EATRACE" model import --from csv "$FX/power_profile.xml"
expect_fail "native model to import" 2 "already a native eatrace model" -- \
	"$EATRACE" model import "$ROOT/models/tc2.json"
expect_fail "no source" 2 "expected one SRC" -- "$EATRACE" model import
expect_fail "bad --cpus" 2 "--cpus: 'A' is not CLUSTER=VALUE" -- \
	"$EATRACE" model import "$FX/idlestat-model" --cpus A
expect_fail "--cpus of no cluster" 2 "--cpus: no cluster 'Q'" -- \
	"$EATRACE" model import "$FX/idlestat-model" --ncpus 2,2 --cpus Q=1
expect_fail "bad --voltage" 2 "--voltage: 'abc'" -- \
	"$EATRACE" model import "$FX/power_profile.xml" --voltage abc
expect_fail "--voltage on a bogo model" 2 "--voltage converts mA to mW" -- \
	"$EATRACE" model import "$FX/juno-sched-energy.dts" --voltage 3.8
printf 'what is this\n' >"$TMP/what"
expect_fail "undetectable format" 2 "cannot tell its format" -- \
	"$EATRACE" model import "$TMP/what"
printf '<device>\n<array name="cpu.core_speeds.cluster0"><value>1</value><value>2</value></array>\n<array name="cpu.core_power.cluster0"><value>1</value></array>\n</device>\n' >"$TMP/len.xml"
expect_fail "mismatched array lengths" 2 "len.xml:3: cpu.core_power.cluster0 has 1 values, cpu.core_speeds.cluster0 has 2" -- \
	"$EATRACE" model import "$TMP/len.xml"
mkdir -p "$TMP/em/cpu0/ps:1000"
echo 0 >"$TMP/em/cpu0/cpus"
echo 1000 >"$TMP/em/cpu0/ps:1000/frequency"
expect_fail "debugfs missing file" 2 "em/cpu0/ps:1000/power: No such file or directory" -- \
	"$EATRACE" model import "$TMP/em"

# --- help ---
"$EATRACE" model import --help >"$TMP/help"
expect_eq "help exits 0" "$?" 0
for w in idlestat debugfs power-profile sched-energy-costs CAPACITIES 47742 --trace --ncpus --cpus --capacity --freqs; do
	has "$TMP/help" "$w" || fail "help lacks $w"
done
ok "help documents the formats and options"

finish
