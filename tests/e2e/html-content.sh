#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# What the --html pages say, against the other outputs (issue 30 item 6;
# docs/html.md): the report page's inference headline and notes are the
# text report's, task labels are whole; the diff page lists every run by
# name with its value (the JSON's) and rings the outlier (Tukey fences,
# computed here); the replay page has the work and energy-per-work
# columns (the JSON's). tests/e2e/html-browser.sh looks at the pages in a
# browser.
. "$(dirname "$0")/lib.sh"
export LSAN_OPTIONS="suppressions=$ROOT/tests/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
cd "$TMP" || exit 1
T=$ROOT/traces/diff

# report: light-3 has unknown time (a headline) and memfd:sealed-91 (32476)
# among its top 15 tasks
"$EATRACE" report -m juno-r0 "$T/light-3.dat" >r.txt 2>/dev/null
"$EATRACE" report -q -m juno-r0 "$T/light-3.dat" --html r.html >/dev/null
if /usr/bin/python3 - r.html r.txt >py.out 2>&1 <<'PY'
import re, sys, xml.etree.ElementTree as ET
doc = ET.parse(sys.argv[1]).getroot()
text = open(sys.argv[2]).read().split('\nNotes:\n')[1]
notes = [re.match(r'  (\S+) +(.*)$', l).groups() for l in text.splitlines() if l.strip()]
text_of = lambda e: ''.join(e.itertext())
# the notes: the text's, in its order
ul = [u for u in doc.iter('ul') if u.get('id') == 'notes'][0]
html_notes = [(li.get('data-kind'), text_of(li)) for li in ul]
assert len(html_notes) == len(notes), (len(html_notes), len(notes))
for (k, m), (hk, hm) in zip(notes, html_notes):
    assert hk == k and hm == k + ': ' + m, (k, m, hk, hm)
# the headline: the text's inference note
head = [p for p in doc.iter('p') if p.get('id') == 'inference'][0]
first = [m for k, m in notes if 'rests on inference' in m][0]
assert text_of(head) == first + '.', (text_of(head), first)
assert re.match(r'\d+\.\d% of this energy rests on inference', first)
# task labels whole, the label column wide enough for them
tasks = [s for s in doc.iter('{http://www.w3.org/2000/svg}svg') if s.get('data-chart') == 'tasks'][0]
labels = [text_of(g.find('{http://www.w3.org/2000/svg}text')) for g in tasks.iter('{http://www.w3.org/2000/svg}g')]
assert 'memfd:sealed-91 (32476)' in labels, labels
rect = tasks.find('.//{http://www.w3.org/2000/svg}g/{http://www.w3.org/2000/svg}rect')
# 23 characters of 13 px text need more than the old 150 px column
assert float(rect.get('x')) > 150, rect.get('x')
print(len(notes), 'notes')
PY
then ok "report page: headline, $(cat py.out), labels"; else fail "report page: $(tail -n 3 py.out)"; fi

# diff: 5 base runs, one of them heavy; Tukey fences by hand below
"$EATRACE" diff -m juno-r0 -f json --base "$T"/light-1.dat "$T"/light-2.dat "$T"/light-3.dat \
	"$T"/light-4.dat "$T"/heavy-1.dat --new "$T"/heavy-2.dat "$T"/heavy-3.dat \
	--html d.html >d.json 2>/dev/null
if /usr/bin/python3 - d.html d.json >py.out 2>&1 <<'PY'
import json, sys, xml.etree.ElementTree as ET
doc = ET.parse(sys.argv[1]).getroot()
j = json.load(open(sys.argv[2]))
S = '{http://www.w3.org/2000/svg}'
table = [t for t in doc.iter('table') if t.get('data-table') == 'runs'][0]
rows = [tr for tr in table.iter('tr') if tr.get('data-run') is not None]
want = [(side, r['trace'], r['value']) for side in ('base', 'new') for r in j[side]['runs']]
got = [(tr.get('data-side'), ''.join(tr.find('td').itertext()),
        float(tr.findall('td')[2].get('data-value'))) for tr in rows]
assert got == want, (got, want)
# outliers: outside [Q1 - 1.5 IQR, Q3 + 1.5 IQR], quartiles by linear
# interpolation, for sides of 4 runs or more
def fences(x):
    x = sorted(x)
    q = lambda p: x[int((len(x) - 1) * p)] + ((len(x) - 1) * p - int((len(x) - 1) * p)) * (
        x[min(int((len(x) - 1) * p) + 1, len(x) - 1)] - x[int((len(x) - 1) * p)])
    q1, q3 = q(0.25), q(0.75)
    return q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)
expect = set()
for side in ('base', 'new'):
    v = [r['value'] for r in j[side]['runs']]
    if len(v) >= 4:
        lo, hi = fences(v)
        expect |= {r['trace'] for r in j[side]['runs'] if not lo <= r['value'] <= hi}
marked = {''.join(tr.find('td').itertext()) for tr in rows if tr.get('data-outlier')}
assert marked == expect and any('heavy-1' in t for t in marked), (marked, expect)
dots = [c for c in doc.iter(S + 'circle') if c.get('data-run') is not None]
assert len(dots) == len(want)
assert {c.get('data-run') + c.get('data-side') for c in dots if c.get('data-outlier')} == \
    {tr.get('data-run') + tr.get('data-side') for tr in rows if tr.get('data-outlier')}
# each side's mean and sd drawn are the JSON's
for side in ('base', 'new'):
    line = [l for l in doc.iter(S + 'line') if l.get('data-side') == side][0]
    assert float(line.get('data-mean')) == j[side]['mean']
print(len(rows), 'runs,', len(marked), 'outlier')
PY
then ok "diff page: $(cat py.out)"; else fail "diff page: $(tail -n 3 py.out)"; fi

# replay: work and energy per work, as the JSON says them
"$EATRACE" replay -q -m juno-r0 -f json "$T/light-1.dat" --html p.html >p.json
if /usr/bin/python3 - p.html p.json >py.out 2>&1 <<'PY'
import json, sys, xml.etree.ElementTree as ET
from decimal import Decimal
doc = ET.parse(sys.argv[1]).getroot()
j = json.load(open(sys.argv[2]), parse_float=Decimal)
table = [t for t in doc.iter('table') if t.get('data-table') == 'performance'][0]
heads = [''.join(th.itertext()) for th in table.find('tr')]
assert heads[3:5] == ['work', 'energy / work'], heads
work = [Decimal(td.get('data-work')) for td in table.iter('td') if td.get('data-work')]
epw = [float(td.get('data-energy-per-work')) for td in table.iter('td') if td.get('data-energy-per-work')]
assert work == [p['work'] for p in j['policies']], (work, [p['work'] for p in j['policies']])
assert epw == [float(p['energy_per_work']) for p in j['policies']]
print(len(work), 'policies')
PY
then ok "replay page: work and energy / work of $(cat py.out)"; else fail "replay page: $(tail -n 3 py.out)"; fi
finish
