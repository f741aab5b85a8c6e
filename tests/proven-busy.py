#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""An accountant of each CPU's busy time, independent of eatrace's state
code, for traces whose switch-ins are lost (issue 27: CPU 1 of this
project's VMs never records a switch out of the idle task).

usage: proven-busy.py DUMP [DUMP...]      (DUMP: `eatrace dump TRACE` output)
       eatrace dump TRACE | proven-busy.py -

Prints one line per CPU: `CPU busy_s proven_s unknown_s`, where busy_s =
proven_s + unknown_s, from these rules only (the simplest ones of issue
27's items 1 and 2):

- The window is the first to the last event of the trace.
- A CPU with cpu_idle events (cpu_id = the CPU) is idle from an enter to
  the next exit, busy otherwise; before its first one, idle if that is an
  exit, busy if an enter.
- A CPU without them is busy while its current task is not pid 0. The
  current task is what a sched_switch switched to; before the CPU's first
  record, the task that record shows current (a switch's prev_pid, any
  other record's pid).
- A record showing a task p current (its pid, a switch's prev_pid) while
  the CPU was last switched to the idle task means p's switch-in was lost.
  p ran from the CPU's previous record (of any kind) when that is proven:
  p's latest wakeup targeted this CPU, was recorded on it by the idle task
  after the CPU last switched, and p showed no sign (a record as current,
  a switch to or from it) on another CPU since. Such time is proven busy.
  Otherwise p is proven to run only from its own record on; the time from
  the later of its wakeup or migration (sched_migrate_task) onto this CPU,
  if any since the last switch, and the CPU's previous record is unknown,
  counted busy (an upper bound).
- A record showing p while the CPU was switched to another task q (q's
  switch-out was lost): the CPU is busy either way; p from its record.
- After lost events the CPU keeps its last known task until a record shows
  another (busy as last known).
"""
import re
import sys

KV = re.compile(r'(\w+)=(\S*)')


def account(lines):
    first = last = None
    evs = []
    has_idle = set()
    for line in lines:
        parts = line.split(' ', 4)
        if len(parts) < 4 or not parts[0].isdigit():
            continue
        ts, cpu, cur, name = int(parts[0]), int(parts[1]), int(parts[2]), parts[3]
        rest = parts[4] if len(parts) > 4 else ''
        if name == 'sched_switch':
            # comms may hold spaces: take the pids by name
            f = {'prev_pid': int(re.search(r' prev_pid=(-?\d+)', ' ' + rest).group(1)),
                 'next_pid': int(re.search(r' next_pid=(-?\d+)', ' ' + rest).group(1))}
        elif name in ('sched_waking', 'sched_wakeup', 'sched_wakeup_new'):
            f = {'pid': int(re.search(r' pid=(-?\d+)', ' ' + rest).group(1)),
                 'target': int(re.search(r' target_cpu=(-?\d+)', ' ' + rest).group(1))
                 if 'target_cpu=' in rest else -1}
        elif name == 'sched_migrate_task':
            f = {'pid': int(re.search(r' pid=(-?\d+)', ' ' + rest).group(1)),
                 'target': int(re.search(r' dest_cpu=(-?\d+)', ' ' + rest).group(1))}
        elif name == 'cpu_idle':
            f = {k: int(v) for k, v in KV.findall(rest)}
            has_idle.add(f['cpu_id'])
        else:
            f = {}
        first = ts if first is None else first
        last = ts
        evs.append((ts, cpu, cur, name, f))
    if first is None:
        return {}

    cpus = sorted({e[1] for e in evs} | has_idle)
    res = {c: [0, 0] for c in cpus}          # proven busy ns, unknown ns
    curr = {}                                # cpu -> current task (no cpu_idle)
    since = {}                               # cpu -> when curr started
    last_rec = {}                            # cpu -> ts of its last record
    last_sw = {}                             # cpu -> ts of its last switch
    wake = {}                                # pid -> (ts, cpu, cur, target, woken)
    seen = {}                                # pid -> (ts, cpu) last shown current
    in_idle = {}                             # cpu -> in a cpuidle state (cpu_idle CPUs)
    idle_since = {}

    def run(cpu, pid, t0, t1, proven=True):
        if pid != 0 and t1 > t0:
            res[cpu][0 if proven else 1] += t1 - t0

    for ts, cpu, cur, name, f in evs:
        # cpu_idle CPUs: busy outside cpuidle states
        if name == 'cpu_idle':
            c = f['cpu_id']
            if c not in in_idle:             # its first: the state before it
                in_idle[c] = f['state'] == 4294967295 or f['state'] == -1
                idle_since[c] = first
            entering = not (f['state'] == 4294967295 or f['state'] == -1)
            if not in_idle[c]:
                res[c][0] += ts - idle_since[c]
            in_idle[c] = entering
            idle_since[c] = ts
        shown = f['prev_pid'] if name == 'sched_switch' else cur
        if cpu not in has_idle and name != 'lost_events':
            if cpu not in curr:              # the CPU's first record
                curr[cpu], since[cpu] = shown, first
            elif shown >= 0 and shown != curr[cpu]:
                p, t_in, proven = shown, ts, True
                if curr[cpu] == 0:
                    w = wake.get(p)
                    onto = w and w[3] == cpu and w[0] >= last_sw.get(cpu, first)
                    s = seen.get(p)
                    alone = not (w and s and s[1] != cpu and s[0] >= w[0])
                    if onto and w[4] and w[1] == cpu and w[2] == 0 and alone:
                        t_in = last_rec[cpu]
                    elif onto:
                        t_in, proven = max(w[0], last_rec[cpu]), False
                        run(cpu, p, t_in, ts, proven=False)
                        t_in = ts
                run(cpu, curr[cpu], since[cpu], t_in)
                curr[cpu], since[cpu] = p, t_in
            if name == 'sched_switch':
                run(cpu, curr[cpu], since[cpu], ts)
                curr[cpu], since[cpu] = f['next_pid'], ts
        if name == 'sched_switch':
            last_sw[cpu] = ts
            seen[f['next_pid']] = (ts, cpu)
        if shown > 0:
            seen[shown] = (ts, cpu)
        if name in ('sched_waking', 'sched_wakeup', 'sched_wakeup_new'):
            wake[f['pid']] = (ts, cpu, cur, f['target'], True)
        elif name == 'sched_migrate_task':
            wake[f['pid']] = (ts, cpu, cur, f['target'], False)
        if name != 'lost_events':
            last_rec[cpu] = ts
    for cpu in curr:
        run(cpu, curr[cpu], since[cpu], last)
    for c in in_idle:
        if not in_idle[c]:
            res[c][0] += last - idle_since[c]
    return res


def main(argv):
    for path in argv or ['-']:
        f = sys.stdin if path == '-' else open(path, encoding='utf-8',
                                               errors='surrogateescape')
        res = account(f)
        for cpu in sorted(res):
            p, u = res[cpu]
            print('%d %.9f %.9f %.9f' % (cpu, (p + u) / 1e9, p / 1e9, u / 1e9))


if __name__ == '__main__':
    main(sys.argv[1:])
