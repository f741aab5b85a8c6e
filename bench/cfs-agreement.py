#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""How close the replay's `cfs` is to the kernel that recorded a trace.

    bench/cfs-agreement.py [--eatrace BIN] [--model-args ARGS] [--json FILE]
                           [--policy NAME] TRACE...

For each trace, with eatrace (default ./eatrace) and ARGS (default
`-m tests/fixtures/models/vm-2cpu.json`, the 2-vCPU VMs as they are):

1. Decisions: `eatrace replay TRACE ARGS --shadow cfs --emit-decisions
   d.csv` gives, at each recorded wakeup the shadow judges, prev_cpu, the
   kernel's CPU (recorded_cpu) and cfs's (policy_cpu). The waker's CPU is
   not in the CSV: it is taken from `eatrace dump TRACE`, as the CPU on
   which the task's last sched_waking before that sched_wakeup was written
   (try_to_wake_up() emits sched_waking on the CPU that runs it, the waker's,
   before select_task_rq()); without a sched_waking, the CPU the
   sched_wakeup was written on. Agreement with the kernel of cfs, of "keep
   prev" (prev_cpu) and of "the waker's CPU", overall and apart for the
   wakeups where the kernel kept prev and where it moved the task (and,
   in --json, how many of each were queued wakeups, see 2).
2. Where sched_wakeup is written: on the waking CPU (the wakeup was done
   there, after select_task_rq()) or on the target CPU only (a queued
   wakeup: ttwu_queue_wakelist(), run by the target in
   sched_ttwu_pending()), over every sched_waking/sched_wakeup pair.
3. Replay on the recorded platform: `eatrace replay TRACE ARGS --policy
   recorded,POLICY -f json`: each CPU's task busy time under POLICY against
   `recorded`'s (the recording's), and migrations: POLICY's, `recorded`'s
   (the simulator's count under the recorded placement), the trace's own
   (a task switched in on another CPU than its previous switch-in, pid 0
   excluded) and its sched_migrate_task events.

Prints one Markdown table of all traces; --json FILE writes every figure.
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from collections import defaultdict

RE_WAKE = re.compile(r' pid=(\d+) prio=(-?\d+) target_cpu=(\d+)$')
RE_SWITCH = re.compile(r' next_pid=(\d+) next_prio=(-?\d+)$')
RE_MIGRATE = re.compile(r' pid=(\d+) orig_cpu=(\d+) dest_cpu=(\d+)$')


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if r.returncode not in (0,):
        sys.exit('cfs-agreement: %s: exit %d: %s' %
                 (' '.join(map(shlex.quote, cmd)), r.returncode,
                  r.stderr.strip()))
    return r.stdout


def read_dump(eatrace, trace):
    """Per pid, the sched_waking / sched_wakeup records; migrations."""
    wakeups = {}           # (pid, ts_ns) -> (record cpu, waker cpu or None)
    last_waking = {}       # pid -> cpu of its latest sched_waking
    order = defaultdict(int)
    last_run_cpu = {}
    run_migrations = 0
    migrate_events = 0
    for line in run([eatrace, 'dump', trace]).splitlines():
        parts = line.split(' ', 4)
        if len(parts) < 5:
            continue
        ts, cpu, ev = int(parts[0]), int(parts[1]), parts[3]
        if ev == 'sched_waking':
            m = RE_WAKE.search(line)
            if m:
                last_waking[int(m.group(1))] = cpu
        elif ev in ('sched_wakeup', 'sched_wakeup_new'):
            m = RE_WAKE.search(line)
            if not m:
                continue
            pid, target = int(m.group(1)), int(m.group(3))
            waker = last_waking.pop(pid, None)
            wakeups[(pid, ts)] = (cpu, waker)
            if ev == 'sched_wakeup' and waker is not None:
                if cpu == waker:
                    order['on_waking_cpu'] += 1
                    if cpu == target:
                        order['on_waking_cpu_is_target'] += 1
                elif cpu == target:
                    order['on_target_cpu_only'] += 1
                else:
                    order['elsewhere'] += 1
            elif ev == 'sched_wakeup':
                order['no_waking'] += 1
        elif ev == 'sched_switch':
            m = RE_SWITCH.search(line)
            if not m:
                continue
            pid = int(m.group(1))
            if pid == 0:
                continue
            if pid in last_run_cpu and last_run_cpu[pid] != cpu:
                run_migrations += 1
            last_run_cpu[pid] = cpu
        elif ev == 'sched_migrate_task':
            if RE_MIGRATE.search(line):
                migrate_events += 1
    return wakeups, dict(order), run_migrations, migrate_events


def ts_ns(s):
    """'8137.466498009' -> 8137466498009 without going through a float."""
    sec, _, frac = s.partition('.')
    return int(sec) * 1000000000 + int((frac + '000000000')[:9])


def decisions(eatrace, trace, model_args, policy, wakeups, tmp):
    csv = os.path.join(tmp, 'd.csv')
    run([eatrace, 'replay', trace] + model_args +
        ['-q', '--shadow', policy, '--emit-decisions', csv])
    n = defaultdict(int)
    with open(csv) as f:
        head = f.readline().rstrip('\n').split(',')
        col = {k: i for i, k in enumerate(head)}
        for line in f:
            # comm is the only free-text column; it may hold commas
            cells = line.rstrip('\n').split(',')
            extra = len(cells) - len(head)
            if extra > 0:
                c = col['comm']
                cells[c:c + extra + 1] = [','.join(cells[c:c + extra + 1])]
            pid = int(cells[col['pid']])
            prev = int(cells[col['prev_cpu']])
            rec = int(cells[col['recorded_cpu']])
            pol = int(cells[col['policy_cpu']])
            w = wakeups.get((pid, ts_ns(cells[col['time_s']])))
            if w is None:
                n['unmatched'] += 1
                waker = None
            else:
                waker = w[1] if w[1] is not None else w[0]
                if w[1] is None:
                    n['waker_from_wakeup_record'] += 1
            group = 'stayed' if rec == prev else 'moved'
            if w is not None and w[1] is not None and w[0] != w[1]:
                # written by the target: a queued (wake-list) wakeup
                n[group + '_queued'] += 1
            for g in ('all', group):
                n[g] += 1
                n[g + '_policy'] += pol == rec
                n[g + '_prev'] += prev == rec
                n[g + '_waker'] += waker == rec
            n['waker_is_prev'] += waker == prev
    return dict(n)


def replay(eatrace, trace, model_args, policy):
    out = run([eatrace, 'replay', trace] + model_args +
              ['-q', '--policy', 'recorded,' + policy, '-f', 'json'])
    d = json.loads(out)
    p = {x['name']: x for x in d['policies']}
    busy = lambda name: {c['cpu']: float(c['task_busy_s'])
                         for c in p[name]['cpus']}
    return {
        'duration_s': float(d['duration_s']),
        'busy_recorded': busy('recorded'),
        'busy_policy': busy(policy),
        'migr_recorded_sim': int(p['recorded']['migrations']),
        'migr_policy': int(p[policy]['migrations']),
    }


def pct(a, b):
    return '%d/%d (%.0f%%)' % (a, b, 100.0 * a / b) if b else '0/0'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--eatrace', default='./eatrace')
    ap.add_argument('--model-args',
                    default='-m tests/fixtures/models/vm-2cpu.json')
    ap.add_argument('--policy', default='cfs')
    ap.add_argument('--json')
    ap.add_argument('traces', nargs='+')
    a = ap.parse_args()
    margs = shlex.split(a.model_args)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for t in a.traces:
            wakeups, order, run_migr, migr_ev = read_dump(a.eatrace, t)
            r = {'trace': t, 'order': order, 'trace_run_migrations': run_migr,
                 'trace_migrate_events': migr_ev}
            r['decisions'] = decisions(a.eatrace, t, margs, a.policy,
                                       wakeups, tmp)
            r.update(replay(a.eatrace, t, margs, a.policy))
            rows.append(r)
    P = a.policy
    print('| trace | decisions (kept prev / moved) | %s | keep prev | '
          "waker's CPU | %s when moved | waker when moved | "
          'wakeup on waker / target CPU |' % (P, P))
    print('|---|---|---|---|---|---|---|---|')
    for r in rows:
        d = r['decisions']
        o = r['order']
        print('| %s | %d (%d / %d) | %s | %s | %s | %s | %s | %d / %d |' % (
            os.path.basename(r['trace']), d.get('all', 0),
            d.get('stayed', 0), d.get('moved', 0),
            pct(d.get('all_policy', 0), d.get('all', 0)),
            pct(d.get('all_prev', 0), d.get('all', 0)),
            pct(d.get('all_waker', 0), d.get('all', 0)),
            pct(d.get('moved_policy', 0), d.get('moved', 0)),
            pct(d.get('moved_waker', 0), d.get('moved', 0)),
            o.get('on_waking_cpu', 0), o.get('on_target_cpu_only', 0)))
    print()
    print('| trace | span s | CPU busy s recorded | CPU busy s %s | '
          'worst busy diff | migr %s | migr recorded (sim) | '
          'migr trace (runs) | sched_migrate_task |' % (P, P))
    print('|---|---|---|---|---|---|---|---|---|')
    for r in rows:
        br, bp = r['busy_recorded'], r['busy_policy']
        worst = max(abs(bp[c] - br[c]) / br[c] * 100 if br[c] else 0
                    for c in br)
        print('| %s | %.3f | %s | %s | %.1f%% | %d | %d | %d | %d |' % (
            os.path.basename(r['trace']), r['duration_s'],
            ' / '.join('%.3f' % br[c] for c in sorted(br)),
            ' / '.join('%.3f' % bp[c] for c in sorted(bp)), worst,
            r['migr_policy'], r['migr_recorded_sim'],
            r['trace_run_migrations'], r['trace_migrate_events']))
    if a.json:
        with open(a.json, 'w') as f:
            json.dump(rows, f, indent=1, sort_keys=True)
            f.write('\n')


if __name__ == '__main__':
    main()
