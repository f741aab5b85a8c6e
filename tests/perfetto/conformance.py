#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Perfetto's own parser tests (../shared/perfetto/tests/*.py) as eatrace
tests (docs/perfetto.md, "Conformance").

usage: conformance.py EATRACE PERFETTO_DIR SCRATCH

Every test whose trace is an inline text-format proto is encoded with
`protoc --encode=perfetto.protos.Trace` and read by `eatrace dump`: it must
be read without error. The tests about the events eatrace uses are then
compared with the table Perfetto's trace processor derives (the test's
expected CSV, parsed from the test file, never copied here):
 - test_crop_compact_sched_switch: sched slices (cpu, ts, dur, tid, name)
   rebuilt from eatrace's sched_switch events;
 - test_crop_atrace_slice(_legacy_field): the print events kept past the
   crop, with their text made eatrace markers ("eatrace: " prefix), are the
   raw rows from the first slice Perfetto keeps on.
Prints "ok: ..." / "FAIL: ..." lines; exit 1 on any failure.
"""
import csv
import io
import os
import re
import subprocess
import sys

EATRACE, PERFETTO, TMP = sys.argv[1:4]
PROTOS = os.path.join(PERFETTO, 'protos')
TEST = re.compile(r'def (test_\w+)\(self\):(.*?)(?=\n  def |\Z)', re.S)
TRACE = re.compile(r'trace=TextProto\(r"""(.*?)"""\)', re.S)
OUT = re.compile(r'out=Csv\("""(.*?)"""\)', re.S)
nfail = 0


def fail(msg):
    global nfail
    nfail += 1
    print('FAIL: ' + msg)


def encode(name, text):
    path = os.path.join(TMP, name + '.pb')
    with open(path, 'wb') as out:
        r = subprocess.run(['protoc', '-I' + PROTOS, '--encode=perfetto.protos.Trace',
                            os.path.join(PROTOS, 'perfetto/trace/perfetto_trace.proto')],
                           input=text.encode(), stdout=out, stderr=subprocess.PIPE)
    return path if r.returncode == 0 else None


def dump(path):
    r = subprocess.run([EATRACE, 'dump', path], capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def table(text):
    rows = list(csv.reader(io.StringIO('\n'.join(l.strip() for l in text.strip().splitlines()))))
    return rows[0], rows[1:]


def events(out):
    """dump lines: (ts, cpu, cur_pid, name, {key: value}); values may hold spaces."""
    evs = []
    for line in out.splitlines():
        ts, cpu, pid, name, rest = line.split(' ', 4)
        kv = dict(re.findall(r'(\w+)=(.*?)(?= \w+=|$)', rest))
        evs.append((int(ts), int(cpu), int(pid), name, kv))
    return evs


def sched_slices(evs):
    """Perfetto's sched table from switches: a slice per next task, to the CPU's next switch."""
    per_cpu = {}
    for ts, cpu, _, name, kv in evs:
        if name == 'sched_switch':
            per_cpu.setdefault(cpu, []).append((ts, int(kv['next_pid']), kv['next_comm']))
    rows = []
    for cpu in sorted(per_cpu):
        sw = per_cpu[cpu]
        for i, (ts, pid, comm) in enumerate(sw):
            dur = sw[i + 1][0] - ts if i + 1 < len(sw) else -1
            rows.append([str(cpu), str(ts), str(dur), str(pid), comm])
    return rows


def main():
    tests = {}
    for f in sorted(os.listdir(os.path.join(PERFETTO, 'tests'))):
        if f.endswith('.py'):
            src = open(os.path.join(PERFETTO, 'tests', f)).read()
            for name, body in TEST.findall(src):
                t, o = TRACE.search(body), OUT.search(body)
                if t:
                    tests[name] = (t.group(1), o.group(1) if o else None)
    nread = 0
    for name, (text, _) in sorted(tests.items()):
        path = encode(name, text)
        if not path:
            fail(name + ': protoc cannot encode it')
            continue
        rc, _, err = dump(path)
        if rc != 0:
            fail('%s: eatrace dump exit %d: %s' % (name, rc, err.strip()))
        else:
            nread += 1
    print('ok: %d of %d inline Perfetto test traces read without error' % (nread, len(tests)))

    name = 'test_crop_compact_sched_switch'
    text, out = tests[name]
    head, want = table(out)
    assert head == ['cpu', 'ts', 'dur', 'tid', 'name'], head
    got = sched_slices(events(dump(encode(name, text))[1]))
    if got == want:
        print('ok: %s: sched slices as Perfetto (%d)' % (name, len(got)))
    else:
        fail('%s: sched slices %s, Perfetto %s' % (name, got, want))

    for name in ('test_crop_atrace_slice', 'test_crop_atrace_slice_legacy_field'):
        text, out = tests[name]
        head, rows = table(out)
        assert head == ['ts', 'raw_print', 'slice_dur', 'slice_name'], head
        first = min(int(r[0]) for r in rows if r[3] != '[NULL]')
        want = [(int(r[0]), 'eatrace: ' + r[1]) for r in rows if int(r[0]) >= first]
        marked = text.replace('buf: "', 'buf: "eatrace: ')
        got = [(ts, kv['text']) for ts, _, _, n, kv in events(dump(encode(name, marked))[1]) if n == 'print']
        if got == want:
            print('ok: %s: markers kept past the crop as Perfetto (%d)' % (name, len(got)))
        else:
            fail('%s: markers %s, Perfetto %s' % (name, got, want))
    sys.exit(1 if nfail else 0)


main()
