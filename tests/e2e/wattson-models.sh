#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# contrib/wattson-models.sh on the made-up Wattson device of
# tests/fixtures/import/wattson ("toy"), all paths relative to a scratch
# dir: a relative EATRACE still names the binary after the script cd's
# into PERFETTO_DIR, and a step that fails (a SoC whose CSV is garbage)
# exits non-zero, leaves the model already there untouched, and leaves no
# temporary file behind.
. "$(dirname "$0")/lib.sh"
FX=$ROOT/tests/fixtures/import/wattson
[ -f "$FX/toy/cpu_1d.csv" ] || skip "no Wattson fixture ($FX/toy)"
[ -x "$EATRACE" ] || skip "no eatrace binary ($EATRACE)"

# what the script must write for toy: the import, run from PERFETTO_DIR
# as the script runs it, after its 5-line provenance comment
mkdir -p "$TMP/w/perf/wattson" "$TMP/w/bin" "$TMP/w/out"
cp -R "$FX/toy" "$FX/sql" "$TMP/w/perf/wattson/"
ln -s "$EATRACE" "$TMP/w/bin/eatrace"
(cd "$TMP/w/perf" && "$EATRACE" model import --from wattson -q wattson/toy) >"$TMP/want" 2>"$TMP/err" ||
	fail "import of toy: $(cat "$TMP/err")"

# relative EATRACE, PERFETTO_DIR and OUTDIR
(cd "$TMP/w" && sh "$ROOT/contrib/wattson-models.sh" perf bin/eatrace out) >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_eq "relative EATRACE: exit status" "$rc ($(head -c 200 "$TMP/err"))" "0 ()"
expect_eq "relative EATRACE: the file it names" "$(cat "$TMP/out")" "out/wattson-toy.json"
tail -n +6 "$TMP/w/out/wattson-toy.json" >"$TMP/got" 2>/dev/null
cmp -s "$TMP/got" "$TMP/want" && [ -s "$TMP/want" ] && ok "relative EATRACE: the model is the import" ||
	fail "relative EATRACE: wattson-toy.json is not the import: $(diff "$TMP/got" "$TMP/want" | head -n 4)"
expect_eq "relative EATRACE: its provenance comment" \
	"$(head -n 1 "$TMP/w/out/wattson-toy.json" | cut -c1-46)" "// Perfetto Wattson CPU power curves for toy ("

# a failing step: zbad (after toy in the glob's order) cannot be imported
mkdir "$TMP/w/perf/wattson/zbad"
echo "not,a,wattson,curve" >"$TMP/w/perf/wattson/zbad/cpu_1d.csv"
echo old >"$TMP/w/out/wattson-zbad.json"
rm "$TMP/w/out/wattson-toy.json"
(cd "$TMP/w" && sh "$ROOT/contrib/wattson-models.sh" perf bin/eatrace out) >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -ne 0 ] && ok "failing step: exit $rc" || fail "failing step: exit 0"
expect_eq "failing step: the models before it written" "$(cat "$TMP/out")" "out/wattson-toy.json"
expect_eq "failing step: its old model untouched" "$(cat "$TMP/w/out/wattson-zbad.json")" old
expect_eq "failing step: no temporary file left" "$(ls -A "$TMP/w/out" | grep -c 'tmp')" 0
finish
