#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# --perfetto (docs/html.md): Chrome trace-event JSON. It parses; every event
# has the fields its phase needs; the expected counter tracks and CPU
# threads are there, named by metadata; timestamps are monotonic per track
# and slices do not overlap on a CPU; per cluster, the sum of power x dt
# equals the report's energy within 0.1%; replay runs are separate processes.
. "$(dirname "$0")/lib.sh"
export LSAN_OPTIONS="suppressions=$ROOT/tests/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
cd "$ROOT" || exit 1

check() {	# NAME JSON-REPORT PERFETTO NPROCS
	if /usr/bin/python3 - "$2" "$3" "$4" >"$TMP/py" 2>&1 <<'PY'
import json, sys
from collections import defaultdict
rep = json.load(open(sys.argv[1]))
tr = json.load(open(sys.argv[2]))
nproc = int(sys.argv[3])
ev = tr['traceEvents']
assert isinstance(ev, list) and ev
need = {'M': ('name', 'pid', 'args'), 'C': ('name', 'pid', 'ts', 'args'),
        'X': ('name', 'pid', 'tid', 'ts', 'dur')}
for e in ev:
    assert e['ph'] in need, e
    for k in need[e['ph']]:
        assert k in e, (k, e)
    if 'ts' in e:
        assert isinstance(e['ts'], (int, float)) and e['ts'] >= 0, e
    if e['ph'] == 'X':
        assert e['dur'] >= 0, e
    if e['ph'] == 'C':
        assert all(isinstance(v, (int, float)) for v in e['args'].values()), e
procs = {e['pid']: e['args']['name'] for e in ev if e['ph'] == 'M' and e['name'] == 'process_name'}
assert len(procs) == nproc, procs
threads = {(e['pid'], e['tid']) for e in ev if e['ph'] == 'M' and e['name'] == 'thread_name'}
tracks = defaultdict(list)
for e in ev:
    if e['ph'] == 'C':
        tracks[(e['pid'], e['name'])].append((e['ts'], e['args']['value']))
for k, v in tracks.items():
    assert all(a[0] <= b[0] for a, b in zip(v, v[1:])), ('not monotonic', k)
slices = defaultdict(list)
for e in ev:
    if e['ph'] == 'X':
        assert (e['pid'], e['tid']) in threads, e
        slices[(e['pid'], e['tid'])].append((e['ts'], e['dur']))
for k, v in slices.items():
    v.sort()
    assert all(a[0] + a[1] <= b[0] + 1e-3 for a, b in zip(v, v[1:])), ('overlap', k)
pid1 = min(procs)
names = {n for (p, n) in tracks if p == pid1}
for c in rep['cpus']:
    for t in ('power CPU %d (%s)' % (c['cpu'], rep['power_unit']), 'OPP CPU %d (kHz)' % c['cpu'], 'idle state CPU %d' % c['cpu']):
        assert t in names, (t, sorted(names))
for cl in rep['clusters']:
    # power (busy + idle) integrated over time, plus the wakeup energy
    # drawn apart, bucket by bucket, is the cluster's energy
    v = tracks[(pid1, 'power %s (%s)' % (cl['name'], rep['power_unit']))]
    w = tracks[(pid1, 'wakeup energy %s (%s x s)' % (cl['name'], rep['power_unit']))]
    e = sum(p * (b[0] - a[0]) / 1e6 for a, b in zip(v, v[1:]) for p in [a[1]])
    e += sum(x[1] for x in w)
    ref = float(cl['energy']['total'])
    assert abs(e - ref) <= 1e-3 * max(ref, 1e-12), (cl['name'], e, ref)
print(len(ev), 'events,', len(tracks), 'counter tracks,', sum(map(len, slices.values())), 'slices')
PY
	then ok "$1: $(cat "$TMP/py")"
	else fail "$1: $(tail -c 500 "$TMP/py")"; fi
}

# the suspend and hotplug fixtures: their suspended and offline energy is
# in the CPUs' power tracks too
for t in traces/demo/tc2-seven-tasks.txt:tc2 "$SHARED/lisa/tests__assets__sched_load__trace.dat:juno-r0" \
	tests/fixtures/suspend/suspend.txt:tests/fixtures/suspend/model.json \
	tests/fixtures/suspend/hotplug.txt:tests/fixtures/suspend/model.json; do
	tr=${t%%:*} m=${t#*:}
	[ -f "$tr" ] || { echo "skip: $tr"; continue; }
	if "$EATRACE" report -m "$m" "$tr" -f json -o "$TMP/r.json" --perfetto "$TMP/p.json" 2>"$TMP/err"; then
		check "report $(basename "$tr")" "$TMP/r.json" "$TMP/p.json" 1
	else
		fail "report --perfetto $tr: $(head -c 300 "$TMP/err")"
	fi
done

# replay: actual + 2 policies = 3 processes on one time axis
if "$EATRACE" replay -m tc2 --policy eas-rfc,cfs traces/demo/tc2-seven-tasks.txt \
	--perfetto "$TMP/rp.json" >"$TMP/rp.out" 2>"$TMP/err" &&
   "$EATRACE" report -m tc2 traces/demo/tc2-seven-tasks.txt -f json -o "$TMP/r.json" 2>>"$TMP/err"; then
	check "replay, 2 policies" "$TMP/r.json" "$TMP/rp.json" 3
	n=$(/usr/bin/python3 -c "
import json,sys; ev=json.load(open(sys.argv[1]))['traceEvents']
print(sorted(e['args']['name'] for e in ev if e['ph']=='M' and e['name']=='process_name'))" "$TMP/rp.json")
	expect_eq "replay process names" "$n" "['actual (recorded trace)', 'replay: cfs', 'replay: eas-rfc']"
else
	fail "replay --perfetto: $(head -c 300 "$TMP/err")"
fi
finish
