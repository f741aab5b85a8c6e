#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A model that fails 'eatrace model check' is flagged in every output
# (issue 30 item 4): report (text notes, JSON model_check and notes, HTML),
# diff (text, JSON, Markdown, JUnit, HTML; --models too), replay (text,
# JSON, HTML), batch (model_check_errors column), the model fit and model
# check --measured pages, the Python result, and one line on stderr per
# command; a model that passes leaves no trace of it.
. "$(dirname "$0")/lib.sh"
export LSAN_OPTIONS="suppressions=$ROOT/tests/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
cd "$TMP" || exit 1
TR=$ROOT/traces/diff/light-1.dat

# juno-r0 passes model check (no errors, no warnings); the same table with
# A53's idle state 1 (cpu-sleep-0) drawing 5 mW of core power, more than
# state 0 (WFI, 0 mW), has exactly one error, by the rule "a deeper idle
# state draws no more core power than a shallower one".
"$EATRACE" model convert juno-r0 | /usr/bin/python3 -c '
import json, sys
m = json.load(sys.stdin)
assert m["clusters"][0]["name"] == "A53" and m["clusters"][0]["idle_states"][1]["name"] == "cpu-sleep-0"
m["clusters"][0]["idle_states"][1]["core_power"] = 5
json.dump(m, sys.stdout)' >bad.json
ERR="cluster 'A53': idle state 1 'cpu-sleep-0' draws more core power (5) than shallower state 0 'WFI' (0)"
WARN="model bad.json fails 'eatrace model check' (1 error, first: $ERR): the energies rest on it"
"$EATRACE" model check bad.json >check.txt
expect_eq "model check fails" "$?" 1
grep -qxF "bad.json: error: $ERR" check.txt && ok "the error, as model check says it" ||
	fail "model check: $(cat check.txt)"

# stderr_has NAME FILE: FILE holds the warning once.
stderr_has() {
	expect_eq "$1: one warning on stderr" "$(grep -cF "eatrace: warning: $WARN" "$2")" 1
}

# report: text notes, JSON, HTML
"$EATRACE" report -m bad.json "$TR" >r.txt 2>r.err
stderr_has "report" r.err
grep -qF "  warning   $WARN" r.txt && ok "report text: a note" || fail "report text: no note"
"$EATRACE" report -m bad.json -f json "$TR" -o r.json --html r.html 2>r.err
stderr_has "report -f json" r.err
/usr/bin/python3 - r.json "$ERR" "$WARN" <<'PY' && ok "report JSON: model_check and notes" || fail "report JSON"
import json, sys
j = json.load(open(sys.argv[1]))
mc = j["model_check"]
assert mc == {"ok": False, "errors": [{"model": j["model"], "message": sys.argv[2]}],
              "warnings": 0}, mc
assert j["notes"][0] == {"kind": "warning", "message": sys.argv[3]}, j["notes"][0]
PY
# html_warns NAME FILE: the page's red box holds the warning, words for words.
html_warns() {
	/usr/bin/python3 - "$2" "$WARN" <<'PY' && ok "$1: warning box" || fail "$1: no warning box"
import sys, xml.etree.ElementTree as ET
doc = ET.parse(sys.argv[1]).getroot()
box = [p for p in doc.iter('p') if p.get('data-model-check') == 'fail']
assert len(box) == 1, len(box)
assert ''.join(box[0].itertext()) == 'Warning: ' + sys.argv[2] + '.', ''.join(box[0].itertext())
PY
}
html_warns "report HTML" r.html
/usr/bin/python3 - r.html "$WARN" <<'PY' && ok "report HTML: first note" || fail "report HTML: notes"
import sys, xml.etree.ElementTree as ET
doc = ET.parse(sys.argv[1]).getroot()
ul = [u for u in doc.iter('ul') if u.get('id') == 'notes'][0]
assert ''.join(list(ul)[0].itertext()) == 'warning: ' + sys.argv[2]
PY

# diff: every format, and once on stderr
for f in text json markdown junit; do
	"$EATRACE" diff -m bad.json -f "$f" --base "$TR" --new "$TR" >d.$f 2>d.err
	stderr_has "diff -f $f" d.err
done
grep -qxF "warning: $WARN" d.text && ok "diff text" || fail "diff text: $(head -3 d.text)"
grep -qxF "> **warning**: $WARN" d.markdown && ok "diff markdown" || fail "diff markdown"
grep -qF "warning: model bad.json fails" d.junit && xmllint --noout d.junit &&
	ok "diff junit" || fail "diff junit"
/usr/bin/python3 -c '
import json, sys
mc = json.load(open("d.json"))["model_check"]
assert not mc["ok"] and mc["errors"][0]["message"] == sys.argv[1], mc' "$ERR" &&
	ok "diff JSON: model_check" || fail "diff JSON"
"$EATRACE" diff -m bad.json --base "$TR" --new "$TR" --html d.html >/dev/null 2>&1
html_warns "diff HTML" d.html
# --models: the base model passes, the new one fails: both in JSON
"$EATRACE" diff --models juno-r0 bad.json -f json "$TR" >dm.json 2>dm.err
stderr_has "diff --models" dm.err
/usr/bin/python3 -c '
import json
mc = json.load(open("dm.json"))["model_check"]
assert not mc["ok"] and len(mc["errors"]) == 1, mc' && ok "diff --models: the failing one" ||
	fail "diff --models JSON"
# ... and the paired Markdown and HTML
"$EATRACE" diff --models juno-r0 bad.json -f markdown "$TR" --html dm.html >dm.md 2>/dev/null
grep -qxF "> **warning**: $WARN" dm.md && ok "diff --models markdown" || fail "diff --models markdown"
grep -q 'data-table="pairs"' dm.html && html_warns "diff --models HTML" dm.html ||
	fail "diff --models HTML: no pairs table"

# model check --measured and model fit (their JSON has the check itself):
# a CSV of what bad.json says the clusters drew (tests/fit/measure.py)
/usr/bin/python3 "$ROOT/tests/fit/measure.py" csv "$EATRACE" bad.json "$TR" 10 0 1 m.csv ||
	fail "measure.py"
"$EATRACE" model check bad.json --trace "$TR" --measured m.csv --html mc.html >/dev/null 2>&1
html_warns "model check --measured HTML" mc.html
"$EATRACE" model fit -m bad.json --pair "$TR" m.csv --html mf.html >/dev/null 2>&1
html_warns "model fit HTML: the initial model" mf.html

# replay: text, JSON, HTML, stderr
"$EATRACE" replay -m bad.json --policy cfs "$TR" >p.txt 2>p.err
stderr_has "replay" p.err
sed -n 2p p.txt | grep -qxF "warning: $WARN" && ok "replay text: under the header" ||
	fail "replay text: $(sed -n 2p p.txt)"
"$EATRACE" replay -q -m bad.json --policy cfs -f json "$TR" --html p.html >p.json 2>p.err
expect_eq "replay -q: nothing on stderr" "$(wc -c <p.err)" 0
/usr/bin/python3 -c '
import json
mc = json.load(open("p.json"))["model_check"]
assert not mc["ok"] and len(mc["errors"]) == 1, mc' && ok "replay JSON" || fail "replay JSON"
html_warns "replay HTML" p.html

# batch: a column, one warning per failing model
"$EATRACE" batch -m juno-r0 -m bad.json "$TR" >b.csv 2>b.err
stderr_has "batch" b.err
expect_eq "batch: model_check_errors column" \
	"$(/usr/bin/python3 -c '
import csv
print(" ".join(r["model"] + "=" + r["model_check_errors"] for r in csv.DictReader(open("b.csv"))))')" \
	"juno-r0=0 bad.json=1"
"$EATRACE" batch -q -m bad.json "$TR" >/dev/null 2>b.err
expect_eq "batch -q: no warning" "$(wc -c <b.err)" 0

# Python: the result is the CLI's JSON (not under the sanitizers: an
# instrumented library does not load into python, tests/e2e/python.sh)
LIB=$(dirname "$EATRACE")/build/libeatrace.so.0
case "${MAKEFLAGS:-}" in *fsanitize*) LIB= ;; esac
if [ -f "$LIB" ] && /usr/bin/python3 -c 'import pandas' 2>/dev/null; then
	PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=$ROOT/python EATRACE_LIB=$LIB \
	EATRACE_MODEL_PATH=$ROOT/models /usr/bin/python3 -c '
import sys, eatrace
r = eatrace.report(sys.argv[1], "bad.json")
assert r["model_check"]["ok"] is False, r["model_check"]
assert r["notes"][0]["kind"] == "warning" and "fails" in r["notes"][0]["message"]
r = eatrace.report(sys.argv[1], "juno-r0")
assert r["model_check"] == {"ok": True, "errors": [], "warnings": 0}, r["model_check"]
' "$TR" && ok "python: model_check" || fail "python: model_check"
fi

# A model that passes: no warning anywhere.
"$EATRACE" report -m juno-r0 -f json "$TR" --html ok.html >ok.json 2>ok.err
grep -c "model check" ok.err ok.html | grep -v ':0$' && fail "passing model: a warning" ||
	ok "passing model: no warning"
/usr/bin/python3 -c '
import json
j = json.load(open("ok.json"))
assert j["model_check"]["ok"] and not any("model check" in n["message"] for n in j["notes"])' &&
	ok "passing model: model_check ok" || fail "passing model JSON"
finish
