#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Ground truth for the model-fit tests (docs/model-fit.md "How it is
tested"): a hidden model, and "measurements" of a trace priced with it.

usage: measure.py hide INITIAL.json SEED SPREAD OUT.json
       measure.py csv EATRACE HIDDEN.json TRACE INTERVAL_MS NOISE SEED OUT.csv
       measure.py rails EATRACE HIDDEN.json TRACE INTERVAL_MS NOISE SEED IN.pftrace OUT.pftrace

hide: every coefficient of INITIAL (cap state core and cluster power, idle
state core and cluster power and wakeup energies) times a factor drawn
uniformly in [1 - SPREAD, 1 + SPREAD] (seeded), drawn again until the table
keeps the physical constraints INITIAL has (powers not falling with
frequency, busy core power above idle, deeper idle states drawing no
more), so that the hidden table is a plausible one. Zeros stay zeros. A
table with many close OPPs (tc2) rarely comes out plausible: after 1000
draws the last one is repaired instead (a power lower than the one before
it in a chain the initial table keeps is raised to it).

csv: one rail per cluster, named as the cluster. Each rail's energy per
window is what `eatrace report --interval INTERVAL_MS` gives with HIDDEN
when every other cluster's coefficients are 0 (the accountant alone, not
the fit's features, prices the hidden table), times (1 + NOISE x g), g a
standard normal draw (seeded): the measurement noise of a meter.

rails: the same energies as the counters of Perfetto power rails named
VDD_<CLUSTER> (cumulative, in uWs; the model is in mW: 1 mW x s = 1000
uWs), one sample at each window's bounds (the packets' timestamps, in
ns), appended to IN.pftrace (TracePackets concatenate) into OUT.pftrace.
"""
import copy
import json
import random
import re
import subprocess
import sys
from decimal import Decimal


def load(path):
    return json.loads(re.sub(r'//[^\n]*', '', open(path).read()))


def ok(m, init):
    """The constraints of constraints.c that init has, on m."""
    for cl, ic in zip(m['clusters'], init['clusters']):
        caps, icaps = cl['cap_states'], ic['cap_states']
        idl, iidl = cl.get('idle_states', []), ic.get('idle_states', [])
        for k in range(1, len(caps)):
            for key in ('core_power', 'cluster_power'):
                if icaps[k][key] >= icaps[k - 1][key] and caps[k][key] < caps[k - 1][key]:
                    return False
        for k in range(1, len(idl)):
            for key in ('core_power', 'cluster_power'):
                if iidl[k - 1][key] >= iidl[k][key] and idl[k - 1][key] < idl[k][key]:
                    return False
        for c, i in zip(caps, icaps):
            for s, si in zip(idl, iidl):
                if i['core_power'] >= si['core_power'] and c['core_power'] < s['core_power']:
                    return False
                if i['cluster_power'] >= si['cluster_power'] and c['cluster_power'] < s['cluster_power']:
                    return False
    return True


def repair(m, init):
    """Raise what breaks a chain init keeps, in order, until none does."""
    for _ in range(100):
        changed = False
        for cl, ic in zip(m['clusters'], init['clusters']):
            caps, icaps = cl['cap_states'], ic['cap_states']
            idl, iidl = cl.get('idle_states', []), ic.get('idle_states', [])
            for k in range(len(idl) - 1, 0, -1):
                for key in ('core_power', 'cluster_power'):
                    if iidl[k - 1][key] >= iidl[k][key] and idl[k - 1][key] < idl[k][key]:
                        idl[k - 1][key] = idl[k][key]
                        changed = True
            for c, i in zip(caps, icaps):
                for s, si in zip(idl, iidl):
                    for key in ('core_power', 'cluster_power'):
                        if i[key] >= si[key] and c[key] < s[key]:
                            c[key] = s[key]
                            changed = True
            for k in range(1, len(caps)):
                for key in ('core_power', 'cluster_power'):
                    if icaps[k][key] >= icaps[k - 1][key] and caps[k][key] < caps[k - 1][key]:
                        caps[k][key] = caps[k - 1][key]
                        changed = True
        if not changed:
            return


def hide(init_path, seed, spread, out):
    init = load(init_path)
    rnd = random.Random(seed)
    for _ in range(1000):
        m = copy.deepcopy(init)
        for cl in m['clusters']:
            for s in cl['cap_states']:
                for key in ('core_power', 'cluster_power'):
                    s[key] = round(s[key] * rnd.uniform(1 - spread, 1 + spread), 6)
            for s in cl.get('idle_states', []):
                for key in ('core_power', 'cluster_power', 'core_wakeup', 'cluster_wakeup'):
                    s[key] = round(s.get(key, 0) * rnd.uniform(1 - spread, 1 + spread), 9)
        if ok(m, init):
            break
    else:
        repair(m, init)
        if not ok(m, init):
            sys.exit('hide: no plausible table')
    m['name'] = 'hidden ' + init['name']
    m['source'] = 'tests/fit/measure.py hide %s %d %g' % (init_path.split('/')[-1], seed, spread)
    json.dump(m, open(out, 'w'), indent=1)


def windows(eatrace, hidden, trace, interval_ms, scratch):
    """{cluster: [(start_s, end_s, energy)]} from report --interval with
    only that cluster's coefficients."""
    m = load(hidden)
    out = {}
    for ci, cl in enumerate(m['clusters']):
        alone = copy.deepcopy(m)
        for cj, other in enumerate(alone['clusters']):
            if cj == ci:
                continue
            for s in other['cap_states']:
                s['core_power'] = s['cluster_power'] = 0
            for s in other.get('idle_states', []):
                for key in ('core_power', 'cluster_power', 'core_wakeup', 'cluster_wakeup'):
                    s[key] = 0
            other['offline_power'] = 0
        path = '%s.%s.json' % (scratch, cl['name'])
        json.dump(alone, open(path, 'w'), indent=1)
        r = subprocess.run([eatrace, 'report', '-q', '-f', 'json', '--interval', str(interval_ms),
                            '-m', path, trace], stdout=subprocess.PIPE, check=True)
        j = json.loads(r.stdout, parse_float=Decimal)
        out[cl['name']] = [(w['start_s'], w['end_s'], w['energy']['total']) for w in j['windows']]
    return out


def noisy(rnd, e, noise):
    return float(e) * (1 + noise * rnd.gauss(0, 1))


def csv(eatrace, hidden, trace, interval_ms, noise, seed, out):
    rnd = random.Random(seed)
    ws = windows(eatrace, hidden, trace, interval_ms, out)
    with open(out, 'w') as f:
        f.write('start_s,end_s,rail,energy\n')
        for name, rows in ws.items():
            for s, e, energy in rows:
                f.write('%s,%s,%s,%.9g\n' % (s, e, name, max(0.0, noisy(rnd, energy, noise))))


def varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7f) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def f_varint(num, v):
    return varint(num << 3) + varint(v)


def f_bytes(num, b):
    if isinstance(b, str):
        b = b.encode()
    return varint(num << 3 | 2) + varint(len(b)) + b


def rails(eatrace, hidden, trace, interval_ms, noise, seed, pf_in, pf_out):
    """Trace.packet (1) = TracePacket: timestamp (8), power_rails (40) =
    PowerRails: rail_descriptor (1) {index 1, rail_name 2, subsys_name 3},
    energy_data (2) {index 1, timestamp_ms 2 (left out: the packet's
    timestamp is used), energy 3} (tests/fixtures/perfetto/subset.proto)."""
    rnd = random.Random(seed)
    ws = windows(eatrace, hidden, trace, interval_ms, pf_out)
    names = list(ws)
    data = bytearray(open(pf_in, 'rb').read())
    desc = b''.join(f_bytes(1, f_varint(1, i) + f_bytes(2, 'VDD_' + n.upper()) +
                            f_bytes(3, 'cpu'))
                    for i, n in enumerate(names))
    first = int(Decimal(ws[names[0]][0][0]) * 10**9)
    data += f_bytes(1, f_varint(8, first) + f_bytes(40, desc))
    for i, n in enumerate(names):
        counter = 5_000_000.0     # uWs since boot at the first sample
        rows = ws[n]
        samples = [(int(Decimal(rows[0][0]) * 10**9), counter)]
        for s, e, energy in rows:
            counter += max(0.0, noisy(rnd, energy, noise)) * 1000     # mW x s -> uWs
            samples.append((int(Decimal(e) * 10**9), counter))
        for t, c in samples:
            ed = f_varint(1, i) + f_varint(3, int(round(c)))
            data += f_bytes(1, f_varint(8, t) + f_bytes(40, f_bytes(2, ed)))
    open(pf_out, 'wb').write(bytes(data))


def main(argv):
    if argv[0] == 'hide':
        hide(argv[1], int(argv[2]), float(argv[3]), argv[4])
    elif argv[0] == 'csv':
        csv(argv[1], argv[2], argv[3], argv[4], float(argv[5]), int(argv[6]), argv[7])
    elif argv[0] == 'rails':
        rails(argv[1], argv[2], argv[3], argv[4], float(argv[5]), int(argv[6]), argv[7], argv[8])
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main(sys.argv[1:])
