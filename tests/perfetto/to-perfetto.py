#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Convert `trace-cmd report -t -R` text into a Perfetto trace (binary
protobuf, wire format written by hand; field numbers from Perfetto's
protos). For tests: docs/perfetto.md.

usage: to-perfetto.py [--compact|--compact-all] [--gzip] [--deflate|--zstd] [--bundle N]
                      IN OUT

Each CPU's events go into FtraceEventBundles of at most N events; every
few thousand events one bundle per CPU is written, as traced_probes does
after each read of the ring buffers. A LOST marker ends the CPU's bundle
and sets lost_events on its next one; the markers' counts, summed per CPU,
are the overrun of an END_OF_TRACE ftrace_stats packet written last. Later bundles of a CPU carry
previous_bundle_end_timestamp (the first ones do not: no crop).

--compact: sched_switch and sched_waking in compact_sched, whenever that
loses nothing (the reader derives a switch's prev task and a waking's
waker from the CPU's previous switch): the others stay per-event, so the
conversion is exact. A bundle is also ended where the reader's order of
equal timestamps (compact switches, compact wakings, then events) would
differ from the recorded one.
--compact-all: every sched_switch and sched_waking (with a target_cpu) in
compact_sched, as traced_probes writes them: a switch's prev task and a
waking's waker are not kept, whatever they were. Where a switch-in was
lost (CPU 1 of the project's VMs never records a switch out of the idle
task) the reader derives the idle task instead, as Perfetto's would. But
a CPU's first switch stays per-event: a compact one gives no event (as in
Perfetto), which would lose what it says of the CPU's start, not what
this form is for.
--gzip: the whole file gzip'd. --deflate: packets grouped into
compressed_packets (zlib), as Perfetto's compress_packets option;
--zstd: the same in zstd_compressed_packets (through the zstd program).
"""
import gzip
import re
import subprocess
import sys
import zlib

M64 = (1 << 64) - 1


def varint(v):
    v &= M64
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
        b = b.encode('utf-8', 'surrogateescape')
    return varint(num << 3 | 2) + varint(len(b)) + b


def f_packed(num, vals):
    return f_bytes(num, b''.join(varint(v) for v in vals))


LINE = re.compile(r'^(?:\S+: )?\s*(.+?)-(\d+)\s+(?:\(\s*[-\d]+\)\s+)?\[(\d+)\]\s+(?:\S+\s+)?'
                  r'(\d+)\.(\d+): (\w+):\s*(.*)$')
LOST = re.compile(r'^(?:\S+: )?\s*CPU:\s*(\d+) \[(?:LOST (?:(\d+) )?EVENTS|(\d+) EVENTS DROPPED)\]')
SW = re.compile(r'prev_comm=(.*) prev_pid=(-?\d+) prev_prio=(-?\d+) prev_state=(\d+) '
                r'next_comm=(.*) next_pid=(-?\d+) next_prio=(-?\d+)$')
WK = re.compile(r'comm=(.*) pid=(-?\d+) prio=(-?\d+)(?: success=\d+)?(?: target_cpu=(\d+))?$')
MG = re.compile(r'comm=(.*) pid=(-?\d+) prio=(-?\d+) orig_cpu=(\d+) dest_cpu=(\d+)$')
PW = re.compile(r'state=(\d+) cpu_id=(\d+)$')
PR = re.compile(r'ip=\S+ buf=(.*)$')
WAKE_IDS = {'sched_wakeup': 17, 'sched_waking': 20, 'sched_wakeup_new': 114}
# suspend_resume and cpuhp in their printed forms (ftrace text): the raw
# form of suspend_resume has only a pointer for its action
SR = re.compile(r'(\w+)\[(\d+)\] (begin|end)$')
HP_ENTER = re.compile(r'cpu(?:: |=)0*(\d+) target(?:: *|=)(-?\d+) (?:step: *|idx=)(-?\d+)')
HP_EXIT = re.compile(r'cpu(?:: |=)0*(\d+)\s+state(?:: *|=)(-?\d+) (?:step: *|idx=)(-?\d+)')
HP_IDS = {'cpuhp_enter': 345, 'cpuhp_multi_enter': 344, 'cpuhp_exit': 343}


def parse(lines):
    """Yield ('cpus', n), ('lost', cpu, count) and ('ev', cpu, ts, pid, name, fields)."""
    for line in lines:
        line = line.rstrip('\n')
        if line.startswith('cpus='):
            yield ('cpus', int(line[5:]))
            continue
        m = LOST.match(line)
        if m:
            yield ('lost', int(m.group(1)), int(m.group(2) or m.group(3) or 0))
            continue
        m = LINE.match(line)
        if not m:
            continue
        _, pid, cpu, sec, frac, name, body = m.groups()
        ts = int(sec) * 10**9 + int(frac.ljust(9, '0')[:9])
        body = body.rstrip()
        if name == 'sched_switch':
            s = SW.match(body)
            if s:
                yield ('ev', int(cpu), ts, int(pid), name, s.groups())
        elif name in WAKE_IDS:
            s = WK.match(body)
            if s:
                yield ('ev', int(cpu), ts, int(pid), name, s.groups())
        elif name == 'sched_migrate_task':
            s = MG.match(body)
            if s:
                yield ('ev', int(cpu), ts, int(pid), name, s.groups())
        elif name in ('cpu_frequency', 'cpu_idle'):
            s = PW.match(body)
            if s:
                yield ('ev', int(cpu), ts, int(pid), name, s.groups())
        elif name == 'print':
            s = PR.match(body)
            if s:
                yield ('ev', int(cpu), ts, int(pid), name, s.groups())
        elif name == 'suspend_resume':
            s = SR.match(body)
            if s:
                yield ('ev', int(cpu), ts, int(pid), name, s.groups())
        elif name in HP_IDS:
            s = (HP_EXIT if name == 'cpuhp_exit' else HP_ENTER).match(body)
            if s:
                yield ('ev', int(cpu), ts, int(pid), name, s.groups())


def full_event(ts, pid, name, g):
    if name == 'sched_switch':
        pay = (f_bytes(1, g[0]) + f_varint(2, int(g[1])) + f_varint(3, int(g[2])) +
               f_varint(4, int(g[3])) + f_bytes(5, g[4]) + f_varint(6, int(g[5])) +
               f_varint(7, int(g[6])))
        num = 4
    elif name in WAKE_IDS:
        pay = f_bytes(1, g[0]) + f_varint(2, int(g[1])) + f_varint(3, int(g[2]))
        if g[3] is not None:
            pay += f_varint(5, int(g[3]))
        num = WAKE_IDS[name]
    elif name == 'sched_migrate_task':
        pay = (f_bytes(1, g[0]) + f_varint(2, int(g[1])) + f_varint(3, int(g[2])) +
               f_varint(4, int(g[3])) + f_varint(5, int(g[4])))
        num = 491
    elif name in ('cpu_frequency', 'cpu_idle'):
        pay = f_varint(1, int(g[0])) + f_varint(2, int(g[1]))
        num = 11 if name == 'cpu_frequency' else 13
    elif name == 'suspend_resume':
        # SuspendResumeFtraceEvent: action 1, val 2, start 3
        pay = f_bytes(1, g[0]) + f_varint(2, int(g[1])) + f_varint(3, g[2] == 'begin')
        num = 113
    elif name in HP_IDS:
        # cpuhp.proto: enter/multi_enter cpu 1, idx 3, target 4;
        # exit cpu 1, idx 2, state 4
        num = HP_IDS[name]
        if name == 'cpuhp_exit':
            pay = f_varint(1, int(g[0])) + f_varint(2, int(g[2])) + f_varint(4, int(g[1]))
        else:
            pay = f_varint(1, int(g[0])) + f_varint(3, int(g[2])) + f_varint(4, int(g[1]))
    else:
        pay = f_varint(1, 0) + f_bytes(2, g[0] + '\n')
        num = 3
    return f_varint(1, ts) + f_varint(2, pid) + f_bytes(num, pay)


class Bundle:
    def __init__(self, cpu, lost, prev_end):
        self.cpu, self.lost, self.prev_end = cpu, lost, prev_end
        self.events = []        # encoded FtraceEvents
        self.sw = []            # (ts, prev_state, next_pid, next_prio, comm)
        self.wk = []            # (ts, pid, target, prio, comm)
        self.n = 0
        self.last = None        # (ts, rank) of the last event added

    def encode(self):
        out = f_varint(1, self.cpu)
        for e in self.events:
            out += f_bytes(2, e)
        if self.lost:
            out += f_varint(3, 1)
        if self.sw or self.wk:
            intern, comms = {}, []

            def idx(c):
                if c not in intern:
                    intern[c] = len(comms)
                    comms.append(c)
                return intern[c]
            cs = b''
            if self.sw:
                ts = [s[0] for s in self.sw]
                cs += f_packed(1, [ts[0]] + [b - a for a, b in zip(ts, ts[1:])])
                cs += f_packed(2, [s[1] for s in self.sw])
                cs += f_packed(3, [s[2] for s in self.sw])
                cs += f_packed(4, [s[3] for s in self.sw])
            swc = [idx(s[4]) for s in self.sw]
            wkc = [idx(w[4]) for w in self.wk]
            for c in comms:
                cs += f_bytes(5, c)
            if self.sw:
                cs += f_packed(6, swc)
            if self.wk:
                ts = [w[0] for w in self.wk]
                cs += f_packed(7, [ts[0]] + [b - a for a, b in zip(ts, ts[1:])])
                cs += f_packed(8, [w[1] for w in self.wk])
                cs += f_packed(9, [w[2] for w in self.wk])
                cs += f_packed(10, [w[3] for w in self.wk])
                cs += f_packed(11, wkc)
            out += f_bytes(4, cs)
        if self.prev_end is not None:
            out += f_varint(10, self.prev_end)
        return out


def comm15(s):
    return s.encode('utf-8', 'surrogateescape')[:15]


def convert(lines, compact, per_bundle, compact_all=False):
    packets = []
    cpus = {}                   # cpu -> list of bundles not yet written
    cur = {}                    # cpu -> (pid, prio, comm15) the reader derives
    last_ts = {}                # cpu -> ts of its last event written
    lost_next = set()
    lost_count = {}             # cpu -> events lost, all markers
    count = 0

    def bundle(cpu, new=False):
        lst = cpus.setdefault(cpu, [])
        if new or not lst or lst[-1].n >= per_bundle:
            b = Bundle(cpu, cpu in lost_next, last_ts.get(cpu))
            lost_next.discard(cpu)
            lst.append(b)
        return lst[-1]

    def flush():
        for cpu in sorted(cpus):
            for b in cpus[cpu]:
                packets.append(f_bytes(1, b.encode()) + f_varint(10, 1))
        cpus.clear()

    for item in parse(lines):
        if item[0] == 'cpus':
            for c in range(item[1]):        # every CPU is known from the start
                bundle(c)
            continue
        if item[0] == 'lost':
            lost_next.add(item[1])
            lost_count[item[1]] = lost_count.get(item[1], 0) + item[2]
            bundle(item[1], new=True)
            continue
        _, cpu, ts, pid, name, g = item
        b = bundle(cpu)
        rank, rec = 2, None
        if compact and name == 'sched_switch':
            c = cur.get(cpu)
            if (c and (compact_all or (c == (int(g[1]), int(g[2]), comm15(g[0]))
                                       and pid == int(g[1])))
                    and (not b.sw or b.sw[-1][0] <= ts)):
                rank, rec = 0, (ts, int(g[3]), int(g[5]), int(g[6]), comm15(g[4]))
        elif compact and name == 'sched_waking':
            c = cur.get(cpu)
            if ((compact_all or (c and c[0] == pid)) and g[3] is not None
                    and (not b.wk or b.wk[-1][0] <= ts)):
                rank, rec = 1, (ts, int(g[1]), int(g[3]), int(g[2]), comm15(g[0]))
        if b.last and b.last[0] == ts and rank < b.last[1]:
            b = bundle(cpu, new=True)       # keep the recorded order of ties
        if rank == 0:
            b.sw.append(rec)
        elif rank == 1:
            b.wk.append(rec)
        else:
            b.events.append(full_event(ts, pid, name, g))
        if name == 'sched_switch':
            cur[cpu] = (int(g[5]), int(g[6]), comm15(g[4]))
        b.n += 1
        b.last = (ts, rank)
        last_ts[cpu] = ts
        count += 1
        if count % 4000 == 0:
            flush()
    flush()
    if lost_count:
        # FtraceStats: phase 1, cpu_stats 2 (FtraceCpuStats: cpu 1, overrun 3)
        st = f_varint(1, 2) + b''.join(
            f_bytes(2, f_varint(1, c) + f_varint(3, n)) for c, n in sorted(lost_count.items()))
        packets.append(f_bytes(34, st))
    return packets


def main(argv):
    compact_all = '--compact-all' in argv
    compact = '--compact' in argv or compact_all
    gz = '--gzip' in argv
    deflate = '--deflate' in argv
    zstd = '--zstd' in argv
    per_bundle = 500
    if '--bundle' in argv:
        per_bundle = int(argv[argv.index('--bundle') + 1])
    args = [a for a in argv if not a.startswith('--') and not a.isdigit()]
    src, dst = args
    with open(src, encoding='utf-8', errors='surrogateescape') as f:
        packets = convert(f, compact, per_bundle, compact_all)
    if deflate or zstd:
        out = b''
        for i in range(0, len(packets), 20):
            chunk = b''.join(f_bytes(1, p) for p in packets[i:i + 20])
            if zstd:
                z = subprocess.run(['zstd', '-q', '-c'], input=chunk, stdout=subprocess.PIPE,
                                   check=True).stdout
                out += f_bytes(1, f_bytes(133, z))
            else:
                out += f_bytes(1, f_bytes(50, zlib.compress(chunk, 9)))
    else:
        out = b''.join(f_bytes(1, p) for p in packets)
    if gz:
        out = gzip.compress(out)
    with open(dst, 'wb') as f:
        f.write(out)


if __name__ == '__main__':
    main(sys.argv[1:])
