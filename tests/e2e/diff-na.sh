#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# diff: figures that do not exist are "n/a" with the reason, never "inf"
# or "-nan%" (issue 29 item 8): the idle exits per second of a run that
# lasts 0 s, and a change in percent from a base of 0. JSON: null and a
# *_reason key (docs/json.md).
. "$(dirname "$0")/lib.sh"
GEN=$ROOT/traces/demo/gen-periodic.awk
TWO=$ROOT/tests/fixtures/energy/two-cpu.json
# whether FILE says inf or nan (outside the scratch directory's name)
infnan() { sed "s|$TMP||g" "$1" | grep -Eiq 'inf|nan'; }
gen() { awk -f "$GEN" -v spec="$1" -v freqs=1000000,1000000 -v dur_us=1000000 >"$TMP/$2"; }
gen "0:10000:1000,1:10000:3000" t1.txt
gen "0:10000:2000,1:10000:2000" t2.txt
# No task: every event at the first timestamp, a run of 0 s.
gen "" z.txt

for fmt in text markdown; do
	"$EATRACE" diff -m "$TWO" -f $fmt --base "$TMP/t1.txt" "$TMP/z.txt" --new "$TMP/t2.txt" "$TMP/z.txt" >"$TMP/o.$fmt"
	rc=$?
	[ $rc -le 3 ] && [ $rc -ne 2 ] && ok "$fmt: priced (exit $rc)" || fail "$fmt: exit $rc"
	infnan "$TMP/o.$fmt" && fail "$fmt: inf or nan: $(grep -Ei 'inf|nan' "$TMP/o.$fmt")" || ok "$fmt: no inf, no nan"
	grep -qF "n/a: idle exits per s, base: run $TMP/z.txt lasts 0 s: it has no rate" "$TMP/o.$fmt" &&
		grep -qF "n/a: idle exits per s, new: run $TMP/z.txt lasts 0 s: it has no rate" "$TMP/o.$fmt" &&
		ok "$fmt: the reason, for each side" || fail "$fmt: reason: $(cat "$TMP/o.$fmt")"
done
grep -Eq '^idle exits per s +n/a +n/a +n/a$' "$TMP/o.text" && ok "text: n/a cells" || fail "text row: $(grep '^idle exits' "$TMP/o.text")"
grep -qxF '| idle exits per s | n/a | n/a | n/a |' "$TMP/o.markdown" && ok "markdown: n/a cells" || fail "markdown row: $(grep 'idle exits' "$TMP/o.markdown")"

"$EATRACE" diff -m "$TWO" -f json --base "$TMP/t1.txt" "$TMP/z.txt" --new "$TMP/t2.txt" >"$TMP/o.json"
/usr/bin/python3 - "$TMP/o.json" "$TMP/z.txt" <<'PY' && ok "json: null and a reason on the side with the 0 s run" || fail "json rates"
import json, sys
e = json.load(open(sys.argv[1]))["attribution"]["energy"]
assert e["wakeups_per_s_base"] is None, e
assert e["wakeups_per_s_base_reason"] == "run %s lasts 0 s: it has no rate" % sys.argv[2], e
# the new side has no run of 0 s: t2.txt, 200 idle exits (100 per CPU)
# in its 0.993 s
assert "wakeups_per_s_new_reason" not in e and 200 < e["wakeups_per_s_new"] < 202, e
PY

# A base of 0: idle energy under a model whose idle states cost nothing,
# against one where they cost 10 mW (--models: the same traces).
sed 's/"core_power": 10, "cluster_power": 20/"core_power": 0, "cluster_power": 0/; s/"core_power": 0, "cluster_power": 5/"core_power": 0, "cluster_power": 0/' "$TWO" >"$TMP/noidle.json"
"$EATRACE" diff --models "$TMP/noidle.json" "$TWO" "$TMP/t1.txt" "$TMP/t2.txt" >"$TMP/z.text"
grep -Eq '^idle +0 +[0-9.]+ +n/a$' "$TMP/z.text" && grep -qxF '  n/a: idle: the base is 0: no change in percent' "$TMP/z.text" &&
	ok "base 0: n/a, with the reason" || fail "base 0: $(cat "$TMP/z.text")"
infnan "$TMP/z.text" && fail "base 0: inf or nan" || ok "base 0: no inf, no nan"
finish
