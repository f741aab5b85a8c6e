#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# --html (docs/html.md): the page is well-formed XML (hence its SVG too),
# needs no network or script, and the numbers it draws are the JSON
# report's, exactly: per-window cluster energies (--interval), per-CPU
# P-/C-state energy and residency, tasks; replay and diff pages likewise.
. "$(dirname "$0")/lib.sh"
export LSAN_OPTIONS="suppressions=$ROOT/tests/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
cd "$ROOT" || exit 1

check_report() {	# NAME TRACE MODEL [ARGS...]
	name=$1 tr=$2 m=$3
	shift 3
	if ! "$EATRACE" report -m "$m" "$tr" "$@" -f json -o "$TMP/r.json" --html "$TMP/r.html" 2>"$TMP/err"; then
		fail "$name: report failed: $(head -c 300 "$TMP/err")"; return; fi
	if xmllint --noout "$TMP/r.html" 2>"$TMP/err"; then ok "$name: well-formed"
	else fail "$name: not well-formed: $(head -c 300 "$TMP/err")"; fi
	if grep -qiE '<script|https?://[^"]*\.(js|css)|<link ' "$TMP/r.html"; then fail "$name: not self-contained"
	else ok "$name: self-contained"; fi
	if /usr/bin/python3 - "$TMP/r.html" "$TMP/r.json" >"$TMP/py" 2>&1 <<'PY'
import json, sys, xml.etree.ElementTree as ET
from decimal import Decimal as D
S = '{http://www.w3.org/2000/svg}'
doc = ET.parse(sys.argv[1]).getroot()
j = json.load(open(sys.argv[2]), parse_float=D)
svgs = {s.get('data-chart'): s for s in doc.iter(S + 'svg')}
# time series: each bin's cluster energies sum to the JSON window
cl = svgs['power-clusters']
bins = [r for r in cl.iter(S + 'rect') if r.get('data-e') is not None]
per = [D(0)] * len(j['clusters'])
for r in bins:
    for k, v in enumerate(r.get('data-e').split()):
        per[k] += D(v)
for k, c in enumerate(j['clusters']):
    assert per[k] == D(c['energy']['total']), ('cluster', k, per[k], c['energy']['total'])
if 'windows' in j:
    assert len(bins) == len(j['windows']), (len(bins), len(j['windows']))
    for r, w in zip(bins, j['windows']):
        assert sum(D(v) for v in r.get('data-e').split()) == D(w['energy']['total']), (r.get('data-t0'), w)
cpus = svgs['power-cpus']
per = {}
for r in cpus.iter(S + 'rect'):
    if r.get('data-e') is not None:
        for k, v in enumerate(r.get('data-e').split()):
            per[k] = per.get(k, D(0)) + D(v)
assert sum(per.values()) == D(j['energy']['total'])
# state bars: energy and residency per CPU
def rows(prefix):
    out = {}
    for name, s in svgs.items():
        if name and name.startswith(prefix + '-'):
            for g in s.iter(S + 'g'):
                if g.get('data-cpu') is not None:
                    out[int(g.get('data-cpu'))] = [(r.get('data-kind'), int(r.get('data-index')), D(r.get('data-v'))) for r in g.iter(S + 'rect')]
    return out
en, res = rows('energy'), rows('residency')
n = 0
for c in j['cpus']:
    for kind, idx, v in en[c['cpu']]:
        ref = c[kind + 's'][idx]
        assert v == D(ref['energy']), (c['cpu'], kind, idx, v, ref)
        n += 1
    for kind, idx, v in res[c['cpu']]:
        assert v == D(c[kind + 's'][idx]['time_s']), (c['cpu'], kind, idx)
# tasks
tasks = [g for g in svgs['tasks'].iter(S + 'g') if g.get('data-pid') is not None]
assert tasks, 'no tasks'
for g, t in zip(tasks, j['tasks']):
    assert int(g.get('data-pid')) == t['pid'] and D(g.get('data-energy')) == D(t['energy']['total']), (g.attrib, t['pid'])
print('checked', len(bins), 'bins,', n, 'state bars,', len(tasks), 'tasks')
PY
	then ok "$name: figures match the JSON ($(cat "$TMP/py"))"
	else fail "$name: $(tail -c 400 "$TMP/py")"; fi
}

check_report "tc2 demo, --interval 50" traces/demo/tc2-seven-tasks.txt tc2 --interval 50
check_report "tc2 demo, automatic bins" traces/demo/tc2-seven-tasks.txt tc2
LISA=$SHARED/lisa/tests__assets__sched_load__trace.dat
if [ -f "$LISA" ]; then
	check_report "lisa sched_load, --interval 10" "$LISA" juno-r0 --interval 10
else
	echo "skip: $LISA not present"
fi

# replay: the page's per-run energies are the replay JSON's, and each run's
# power-over-time sums to its energy (the plots' second pricing agrees).
if "$EATRACE" replay -m tc2 traces/demo/tc2-seven-tasks.txt -f json -o "$TMP/rp.json" --html "$TMP/rp.html" 2>"$TMP/err" &&
   xmllint --noout "$TMP/rp.html" 2>>"$TMP/err"; then
	if /usr/bin/python3 - "$TMP/rp.html" "$TMP/rp.json" >"$TMP/py" 2>&1 <<'PY'
import json, sys, xml.etree.ElementTree as ET
from decimal import Decimal as D
S = '{http://www.w3.org/2000/svg}'
doc = ET.parse(sys.argv[1]).getroot()
j = json.load(open(sys.argv[2]), parse_float=D)
svgs = {s.get('data-chart'): s for s in doc.iter(S + 'svg')}
ref = [D(j['actual']['energy']['total'])] + [D(p['energy']['total']) for p in j['policies']]
bars = [D(g.get('data-energy')) for g in svgs['compare'].iter(S + 'g') if g.get('data-run') is not None]
assert bars == ref, (bars, ref)
for i, e in enumerate(ref):
    s = svgs['run%d-clusters' % i]
    tot = sum(D(v) for r in s.iter(S + 'rect') if r.get('data-e') is not None for v in r.get('data-e').split())
    assert tot == e, (i, tot, e)
print(len(ref), 'runs')
PY
	then ok "replay page: energies and timelines match the JSON ($(cat "$TMP/py"))"
	else fail "replay page: $(tail -c 400 "$TMP/py")"; fi
else
	fail "replay --html: $(head -c 300 "$TMP/err")"
fi

# diff: well-formed, the change shown is the JSON's
"$EATRACE" diff -m tc2 --html "$TMP/d.html" -f json -o "$TMP/d.json" \
	--base traces/demo/tc2-seven-tasks.txt --new traces/replay/seven-periodic.txt 2>"$TMP/err"
if [ $? -le 1 ] && xmllint --noout "$TMP/d.html" 2>>"$TMP/err"; then
	got=$(/usr/bin/python3 -c "
import json,re,sys
h=open(sys.argv[1]).read(); j=json.load(open(sys.argv[2]))
c=float(re.search(r'data-change-pct=\"([^\"]+)\"', h).group(1))
print('same' if abs(c - j['change_pct']) <= 1e-9 * max(1, abs(c)) else 'differ %r %r' % (c, j['change_pct']))" "$TMP/d.html" "$TMP/d.json" 2>&1)
	expect_eq "diff page: change matches the JSON" "$got" same
else
	fail "diff --html: $(head -c 300 "$TMP/err")"
fi

# atomic: a failing run leaves an existing page alone
echo keep >"$TMP/keep.html"
"$EATRACE" report -m tc2 /nonexistent --html "$TMP/keep.html" >/dev/null 2>&1
expect_eq "failed run leaves the old page" "$(cat "$TMP/keep.html")" keep
finish
