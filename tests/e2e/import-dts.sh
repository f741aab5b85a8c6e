#!/bin/sh
# model import of dts text through cpp and dtc (issue 21): -I for
# #include <dt-bindings/...>, macros in the cells, and a one-line error
# naming the program when cpp or dtc is missing. A dtb needs neither.
. "$(dirname "$0")/lib.sh"
FX=$ROOT/tests/fixtures/import
# cpp and dtc work in a private directory under TMPDIR: keep it in $TMP
mkdir "$TMP/tmpdir"
export TMPDIR="$TMP/tmpdir"

# macro-costs.dts: COST(50, 100) is <CAP_MAX * 50 / 100, 100> = <512 100>
# and KHZ(500) = 500000 (its header and the file itself say so); the
# cluster node's COST(50, 20) gives cluster_power 20.
if "$EATRACE" model import -I "$FX/include" "$FX/macro-costs.dts" -o "$TMP/m.json" -q 2>"$TMP/err"; then
	grep -qF '{ "freq_khz": 500000, "cap": 512, "core_power": 100, "cluster_power": 20 }' "$TMP/m.json" &&
		ok "dts: #include <dt-bindings/...> and macros in busy-cost-data" ||
		fail "dts macros: $(cat "$TMP/m.json")"
else
	fail "dts macros: $(cat "$TMP/err")"
fi
# --include is the long form
"$EATRACE" model import --include "$FX/include" "$FX/macro-costs.dts" -q >"$TMP/m2.json" &&
	cmp -s "$TMP/m.json" "$TMP/m2.json" && ok "--include DIR" || fail "--include DIR"

# no -I: cpp's own message, with file, line and column of the #include
expect_fail "dts: include path missing" 2 "cpp: $FX/macro-costs.dts:10:" -- \
	"$EATRACE" model import "$FX/macro-costs.dts" -o "$TMP/noinc.json"
[ ! -e "$TMP/noinc.json" ] && ok "no output on a cpp error" || fail "output written on a cpp error"

# cpp or dtc missing from PATH: the program and its Debian package named
mkdir "$TMP/bin"
ln -s "$(command -v cpp)" "$TMP/bin/cpp"
expect_fail "dts: no dtc" 2 "needs the program 'dtc', not found in PATH (Debian package device-tree-compiler)" -- \
	env PATH="$TMP/bin" "$EATRACE" model import "$FX/juno-sched-energy.dts"
rm "$TMP/bin/cpp"
expect_fail "dts: no cpp" 2 "needs the program 'cpp', not found in PATH (Debian package cpp)" -- \
	env PATH="$TMP/bin" "$EATRACE" model import "$FX/juno-sched-energy.dts"
# a dtb is read with libfdt alone
env PATH="$TMP/bin" "$EATRACE" model import "$FX/juno-sched-energy.dtb" -q >"$TMP/dtb.json" &&
	ok "dtb: no cpp or dtc needed" || fail "dtb without cpp and dtc"

# the private directories were removed, after success and failure alike
[ -z "$(ls -A "$TMP/tmpdir")" ] && ok "no temporary directory left" ||
	fail "left in TMPDIR: $(ls -A "$TMP/tmpdir")"
finish
