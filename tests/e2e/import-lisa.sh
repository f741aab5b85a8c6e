#!/bin/sh
# eatrace model import --from lisa: LISA plat_info.yml read with libyaml.
# The hand-made fixture (legacy cluster/core form), format detection, and
# hostile or malformed files (one line naming file and line, exit 2).
# The Juno plat_info from ../shared is in import-lisa-juno.sh.
. "$(dirname "$0")/lib.sh"
FX=$ROOT/tests/fixtures/import
has() { grep -qF -- "$2" "$1"; }

# --- the fixture, format detected from its "platform-info:" line ---
if "$EATRACE" model import "$FX/lisa-plat_info.yml" -o "$TMP/toy.json" -q 2>"$TMP/err"; then
	ok "lisa: fixture imports"
else
	fail "lisa: fixture import failed: $(cat "$TMP/err")"
fi
# Expected values, read off the fixture by hand:
# - conf name 'toy'; cluster nodes carry power: legacy form, power_unit bogo.
# - clusters in the order of their lowest CPU: conf freq-domains [[2],[0,1]]
#   gives cluster0 = CPUs 0,1 and cluster1 = CPU 2.
# - cluster0 500 MHz: capacity 100.4 -> 100, cpu power 10, cluster node
#   power 5; 1 GHz: 200.6 -> 201, 30, 8. Idle WFI: cpu 2, cluster 4;
#   cluster-sleep-0: 0, 1.
# - cluster1 (CPU 2 named by cpus: [2], cpu: null) 500 MHz: 511.7 -> 512,
#   100, 20; 1 GHz: 1024, 300, 40. Idle WFI: 10, 30.
has "$TMP/toy.json" '"name": "toy"' && ok "lisa: name from conf" || fail "lisa: name"
has "$TMP/toy.json" '"power_unit": "bogo"' && ok "lisa: legacy form is bogo" || fail "lisa: unit"
has "$TMP/toy.json" '"cpus": [0, 1],' && ok "lisa: cluster0 CPUs" || fail "lisa: cluster0 CPUs"
has "$TMP/toy.json" '"cpus": [2],' && ok "lisa: cluster1 CPUs" || fail "lisa: cluster1 CPUs"
for want in \
	'{ "freq_khz": 500000, "cap": 100, "core_power": 10, "cluster_power": 5 }' \
	'{ "freq_khz": 1000000, "cap": 201, "core_power": 30, "cluster_power": 8 }' \
	'{ "freq_khz": 500000, "cap": 512, "core_power": 100, "cluster_power": 20 }' \
	'{ "freq_khz": 1000000, "cap": 1024, "core_power": 300, "cluster_power": 40 }' \
	'{ "name": "WFI", "core_power": 2, "cluster_power": 4,' \
	'{ "name": "cluster-sleep-0", "core_power": 0, "cluster_power": 1,' \
	'{ "name": "WFI", "core_power": 10, "cluster_power": 30,'; do
	has "$TMP/toy.json" "$want" && ok "lisa: $want" || fail "lisa: missing $want"
done
"$EATRACE" model convert "$TMP/toy.json" -o "$TMP/toy2.json" -q &&
	cmp -s "$TMP/toy.json" "$TMP/toy2.json" && ok "lisa: import converts to itself" ||
	fail "lisa: convert of the import differs"
# --power-unit relabels; --from plat_info is an alias
"$EATRACE" model import --from plat_info "$FX/lisa-plat_info.yml" --power-unit mW -o "$TMP/mw.json" -q &&
	has "$TMP/mw.json" '"power_unit": "mW"' && ok "lisa: --from plat_info, --power-unit" ||
	fail "lisa: --from plat_info / --power-unit"

# --- malformed and hostile files ---
printf 'platform-info:\n    conf: [1, 2\n' >"$TMP/syntax.yml"
expect_fail "lisa: YAML syntax error" 2 "syntax.yml:3: YAML:" -- \
	"$EATRACE" model import --from lisa "$TMP/syntax.yml" -o "$TMP/o1.json"
[ -e "$TMP/o1.json" ] && fail "lisa: output written on error" || ok "lisa: no output on error"
printf 'platform-info:\n    conf:\n        name: x\n' >"$TMP/noem.yml"
expect_fail "lisa: no nrg-model" 2 "noem.yml:1: no nrg-model" -- \
	"$EATRACE" model import "$TMP/noem.yml"
# an alias bomb: nine levels of nine aliases would be 9^9 nodes if expanded;
# libyaml's document keeps them as references, so this fails at once
{
	echo 'a: &a ["x","x","x","x","x","x","x","x","x"]'
	prev=a
	for n in b c d e f g h i; do
		echo "$n: &$n [*$prev,*$prev,*$prev,*$prev,*$prev,*$prev,*$prev,*$prev,*$prev]"
		prev=$n
	done
	echo 'nrg-model:'
	echo '    cpu_nodes: *i'
	echo '    freq_domains: [[0]]'
} >"$TMP/bomb.yml"
expect_fail "lisa: alias bomb" 2 "bomb.yml:" -- \
	"$EATRACE" model import "$TMP/bomb.yml"
# a CPU of a frequency domain whose states differ from the first CPU's
sed '0,/- 30$/s//- 31/' "$FX/lisa-plat_info.yml" >"$TMP/differ.yml"
expect_fail "lisa: CPUs of one domain differ" 2 "CPU 1: its states differ from those of the first CPU" -- \
	"$EATRACE" model import --from lisa "$TMP/differ.yml"
sed 's/- 511.7$/- lots/' "$FX/lisa-plat_info.yml" >"$TMP/nan.yml"
expect_fail "lisa: capacity not a number" 2 "nan.yml:60: capacity: 'lots' is not a number" -- \
	"$EATRACE" model import --from lisa "$TMP/nan.yml"
# more than 1 MiB: refused before libyaml builds a node per value
{
	echo 'nrg-model:'
	echo '    freq_domains:'
	i=0
	while [ $i -lt 20000 ]; do
		echo '    - [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]'
		i=$((i + 1))
	done
} >"$TMP/big.yml"
expect_fail "lisa: size limit" 2 "big.yml: larger than 1048576 bytes" -- \
	"$EATRACE" model import --from lisa "$TMP/big.yml"
# deep nesting (issue 29 item 4): 100 000 nested '[' and their ']' (200 KB)
# kept libyaml busy 24 s (its time grows with the square of the depth);
# refused at level 65 by the event pass, before the document is built
# (timeout 10: the old code cannot finish in time, this takes a fraction
# of a second). 64 levels pass that check (and fail later: no CPU nodes).
nest() {
	printf 'platform-info:\n    conf:\n        nrg-model:\n            cpu_nodes: '
	/usr/bin/python3 -c "import sys; n = int(sys.argv[1]); print('[' * n + ']' * n)" "$1"
}
nest 100000 >"$TMP/deep.yml"
expect_fail "lisa: 100000 nested sequences refused" 2 \
	"deep.yml:4: YAML nested deeper than 64 levels: not a plat_info" -- \
	timeout 10 "$EATRACE" model import --from lisa "$TMP/deep.yml" -o "$TMP/deep.json"
[ -e "$TMP/deep.json" ] && fail "lisa: output written for a deep file" || ok "lisa: no output for a deep file"
# the root mapping and three below it are 4 levels: 60 '[' make 64, 61 make 65
nest 60 >"$TMP/d64.yml"
"$EATRACE" model import --from lisa "$TMP/d64.yml" >/dev/null 2>"$TMP/d64.err"
grep -q "nested deeper" "$TMP/d64.err" && fail "lisa: 64 levels refused as too deep" ||
	ok "lisa: 64 levels pass the depth check ($(cat "$TMP/d64.err"))"
nest 61 >"$TMP/d65.yml"
expect_fail "lisa: 65 levels refused" 2 "d65.yml:4: YAML nested deeper than 64 levels" -- \
	"$EATRACE" model import --from lisa "$TMP/d65.yml"
printf '\377\376garbage: [\n' >"$TMP/bin.yml"
expect_fail "lisa: not UTF-8" 2 "bin.yml:" -- \
	"$EATRACE" model import --from lisa "$TMP/bin.yml"
finish
