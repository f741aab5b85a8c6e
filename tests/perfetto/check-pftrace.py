#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Decode an eatrace --perfetto protobuf (.pftrace) with the protos'
Python classes and check it (docs/html.md, "--perfetto FILE").

usage: check-pftrace.py PROTO_PY_DIR PFTRACE [--json EXPORT.json]
                        [--report REPORT.json] [--procs N] [--summary OUT]

PROTO_PY_DIR holds perfetto/trace/perfetto_trace_pb2.py, made by
`protoc --python_out` from ../shared/perfetto/protos. The timestamps are
rebuilt as Perfetto's trace processor reads them, from the proto's own
rules (written out here, not taken from eatrace): a packet's clock is its
timestamp_clock_id, else its sequence's TracePacketDefaults, else BOOTTIME
(6); on a clock a ClockSnapshot marks is_incremental, each timestamp is the
delta from the previous one on that sequence, the first from the
snapshot's. Interned names, default tracks and extra counter tracks come
from the sequence's state, reset by SEQ_INCREMENTAL_STATE_CLEARED.

Checked:
 - the first packet is a ClockSnapshot naming BOOTTIME the trace clock,
   and every incremental clock is BOOTTIME with no offset;
 - every track an event uses is described; the N processes, each track's
   parent is its process, counter tracks have a CounterDescriptor;
 - slices: on each track, in time order, BEGIN and END alternate (no
   nesting, none left open), every BEGIN has a name;
 - with --json (the same run's Chrome JSON): the same slices (start and
   duration in ns, name "comm pid"), and every counter track the same step
   function (consecutive repeats merged) as the JSON's counter of that name;
 - with --report (report -f json of the same run): per cluster, the power
   counter integrated over time plus the wakeup energy counter's values sum
   to the report's cluster energy (relative 1e-9; only without a cap).
Prints one summary line; exits 1 with the failed assertion otherwise.
"""
import collections
import json
import sys
from decimal import Decimal

args = sys.argv[1:]
sys.path.insert(0, args[0])
from perfetto.trace import perfetto_trace_pb2 as pb  # noqa: E402

PATH = args[1]
opt = {}
i = 2
while i < len(args):
    opt[args[i]] = args[i + 1]
    i += 2

BOOTTIME = 6
trace = pb.Trace()
trace.ParseFromString(open(PATH, 'rb').read())
packets = trace.packet
assert packets, 'no packets'
first = packets[0]
assert first.HasField('clock_snapshot'), 'the first packet is no ClockSnapshot'
assert first.clock_snapshot.primary_trace_clock == BOOTTIME, first

seqs = {}
tracks = {}
events = []          # (ts, order, kind, track, value)
for order, p in enumerate(packets):
    sid = p.trusted_packet_sequence_id
    assert sid, 'packet without a sequence: %s' % p
    st = seqs.setdefault(sid, {'clock': BOOTTIME, 'incr': {}, 'names': {},
                               'track': 0, 'extra': []})
    if p.sequence_flags & 1:  # SEQ_INCREMENTAL_STATE_CLEARED
        st.update(clock=BOOTTIME, incr={}, names={}, track=0, extra=[])
    if p.HasField('trace_packet_defaults'):
        d = p.trace_packet_defaults
        if d.HasField('timestamp_clock_id'):
            st['clock'] = d.timestamp_clock_id
        te = d.track_event_defaults
        st['track'] = te.track_uuid
        st['extra'] = list(te.extra_counter_track_uuids)
    if p.HasField('interned_data'):
        for en in p.interned_data.event_names:
            assert en.iid not in st['names'], ('iid interned twice', en)
            st['names'][en.iid] = en.name
    clock = p.timestamp_clock_id if p.HasField('timestamp_clock_id') else st['clock']
    if clock in st['incr']:
        ts = st['incr'][clock] + p.timestamp
        st['incr'][clock] = ts
    else:
        assert clock == BOOTTIME, ('timestamp on unknown clock', clock, p)
        ts = p.timestamp
    if p.HasField('clock_snapshot'):
        cs = {c.clock_id: c for c in p.clock_snapshot.clocks}
        assert BOOTTIME in cs, p
        for cid, c in cs.items():
            if c.is_incremental:
                assert 64 <= cid <= 127, ('incremental clock not sequence-scoped', cid)
                assert c.timestamp == cs[BOOTTIME].timestamp, ('incremental clock offset', p)
                st['incr'][cid] = c.timestamp
    if p.HasField('track_descriptor'):
        td = p.track_descriptor
        assert td.uuid and td.uuid not in tracks, ('track described twice', td)
        tracks[td.uuid] = td
    if p.HasField('track_event'):
        te = p.track_event
        track = te.track_uuid if te.HasField('track_uuid') else st['track']
        if te.type == te.TYPE_SLICE_BEGIN:
            name = te.name if te.HasField('name') else st['names'][te.name_iid]
            events.append((ts, order, 'B', track, name))
        elif te.type == te.TYPE_SLICE_END:
            events.append((ts, order, 'E', track, None))
        elif te.type == te.TYPE_COUNTER:
            v = te.double_counter_value if te.HasField('double_counter_value') else te.counter_value
            events.append((ts, order, 'C', track, v))
        else:
            raise AssertionError('unexpected track event type %d' % te.type)
        uu = list(te.extra_counter_track_uuids) or st['extra']
        assert len(te.extra_counter_values) <= len(uu), te
        for u, v in zip(uu, te.extra_counter_values):
            events.append((ts, order, 'C', u, v))

procs = {u: t for u, t in tracks.items() if t.HasField('process')}
nprocs = int(opt.get('--procs', 1))
assert len(procs) == nprocs, ('processes', [t.process.process_name for t in procs.values()])
for u, t in tracks.items():
    if u not in procs:
        assert t.parent_uuid in procs, ('track without its process', t)
        assert t.name, t
for ts, order, kind, track, v in events:
    assert track in tracks and track not in procs, ('event on an undescribed track', track)
    assert (kind == 'C') == tracks[track].HasField('counter'), ('event kind and track', kind, tracks[track])

events.sort(key=lambda e: (e[0], e[1]))
by_track = collections.defaultdict(list)
for e in events:
    by_track[e[3]].append(e)
nslices = 0
slices = collections.defaultdict(list)   # (process name, track name) -> [(ts, dur, name)]
series = collections.defaultdict(list)   # (process name, track name) -> [(ts, value)]
for u, evs in by_track.items():
    t = tracks[u]
    key = (procs[t.parent_uuid].process.process_name, t.name)
    open_ = None
    for ts, order, kind, track, v in evs:
        if kind == 'B':
            assert open_ is None, ('nested slice', key, ts)
            assert v, ('slice without a name', key, ts)
            open_ = (ts, v)
        elif kind == 'E':
            assert open_ is not None, ('END without BEGIN', key, ts)
            slices[key].append((open_[0], ts - open_[0], open_[1]))
            nslices += 1
            open_ = None
        else:
            s = series[key]
            if not s or s[-1][1] != v:
                s.append((ts, v))
    assert open_ is None, ('slice left open', key)

if '--json' in opt:
    ev = json.load(open(opt['--json']))['traceEvents']
    pname = {e['pid']: e['args']['name'] for e in ev if e['ph'] == 'M' and e['name'] == 'process_name'}
    tname = {(e['pid'], e['tid']): e['args']['name'] for e in ev if e['ph'] == 'M' and e['name'] == 'thread_name'}
    ns = lambda us: int(Decimal(str(us)) * 1000)
    jslices = collections.defaultdict(list)
    jseries = collections.defaultdict(list)
    for e in ev:
        if e['ph'] == 'X':
            p = e['args']['pid']
            name = e['name'] if p <= 0 or e['name'] == 'pid %d' % p else '%s %d' % (e['name'], p)
            jslices[(pname[e['pid']], tname[(e['pid'], e['tid'])])].append((ns(e['ts']), ns(e['dur']), name))
        elif e['ph'] == 'C':
            s = jseries[(pname[e['pid']], e['name'])]
            v = e['args']['value']
            if not s or s[-1][1] != v:
                s.append((ns(e['ts']), v))
    assert set(jslices) == set(slices), (sorted(jslices), sorted(slices))
    for k in slices:
        assert sorted(slices[k]) == sorted(jslices[k]), ('slices differ', k, len(slices[k]), len(jslices[k]))
    assert set(jseries) == set(series), (sorted(set(jseries) ^ set(series)))
    for k in series:
        a, b = series[k], jseries[k]
        assert len(a) == len(b), ('counter steps differ', k, len(a), len(b))
        for (t1, v1), (t2, v2) in zip(a, b):
            assert t1 == t2 and abs(v1 - v2) <= 1e-12 * max(abs(v1), abs(v2), 1e-300), ('counter differs', k, t1, v1, t2, v2)

if '--report' in opt:
    rep = json.load(open(opt['--report']))
    first_proc = procs[min(procs)].process.process_name
    for cl in rep['clusters']:
        pw = [k for k in series if k[0] == first_proc and k[1].startswith('power %s (' % cl['name'])]
        wk = [k for k in series if k[0] == first_proc and k[1].startswith('wakeup energy %s (' % cl['name'])]
        assert len(pw) == 1 and len(wk) == 1, (cl['name'], pw, wk)
        s = series[pw[0]]
        e = sum(v * (b[0] - a[0]) / 1e9 for (a, b), v in zip(zip(s, s[1:]), (x[1] for x in s)))
        # the wakeup counter: every nonzero bucket is written, so the
        # values (not merged) add up to the energy
        w = sum(v for ts, order, kind, track, v in events
                if kind == 'C' and (procs[tracks[track].parent_uuid].process.process_name, tracks[track].name) == wk[0])
        want = float(cl['energy']['total'])
        assert abs(e + w - want) <= 1e-9 * max(abs(want), 1e-9), ('cluster energy', cl['name'], e + w, want)

if '--summary' in opt:
    with open(opt['--summary'], 'w') as f:
        for k in sorted(slices):
            names = sorted({x[2] for x in slices[k]})
            f.write('slices %s|%s %d %s\n' % (k[0], k[1], len(slices[k]), ','.join(names)))
            f.write('first %s|%s %s\n' % (k[0], k[1], ' '.join('%d+%d' % x[:2] for x in sorted(slices[k])[:3])))
        for k in sorted(series):
            f.write('counter %s|%s %s\n' % (k[0], k[1], ' '.join('%d:%r' % x for x in series[k][:6])))
print('ok: %d packets, %d tracks, %d processes, %d slices, %d counter tracks'
      % (len(packets), len(tracks), len(procs), nslices, len(series)))
