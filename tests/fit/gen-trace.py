#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Generate a synthetic ftrace text trace for the model-fit tests
(docs/model-fit.md "How it is tested"), deterministic for a seed.

usage: gen-trace.py [--end-exits] MODEL.json SEED DURATION_S OUT

The CPUs, clusters, OPPs and idle states come from MODEL.json (an eatrace
model). Per cluster, the frequency changes every few ms to a random OPP
(cpu_frequency on every CPU of the cluster at once) and a load level
changes every 50-200 ms (0.03 to 0.9 of the time busy), so that windows
see one, several or no busy CPUs at each OPP and whole clusters idle.
Per CPU, busy and idle stretches alternate (exponential lengths for the
load level); an idle stretch longer than 1.5 ms is spent in the deepest
idle state (most of the time), a shorter one in state 0. Each busy
stretch starts with a sched_wakeup of its task on that CPU, the cpu_idle
exit and the switch in, and ends with the switch out and cpu_idle entry.

Every CPU has an event at the end, so that the CPUs end together: a
cpu_frequency event (its cluster's frequency), or with --end-exits a
cpu_idle exit (a wakeup at the trace's last instant, which the
accountant's --interval windows treat specially: tests/unit/test-fit.c).

The lines are in `trace-cmd report -R` form (numeric prev_state, no
"==>"), which eatrace reads and tests/perfetto/to-perfetto.py converts.
Times start at 100 s (whole microseconds)."""
import json
import random
import re
import sys


def load_model(path):
    text = open(path).read()
    text = re.sub(r'//[^\n]*', '', text)
    return json.loads(text)


def main(argv):
    end_exits = '--end-exits' in argv
    argv = [a for a in argv if a != '--end-exits']
    model_path, seed, dur_s, out = argv[0], int(argv[1]), float(argv[2]), argv[3]
    m = load_model(model_path)
    rnd = random.Random(seed)
    t0 = 100_000_000  # us
    end = t0 + int(dur_s * 1e6)
    lines = []        # (t_us, seq, text)
    seq = [0]

    def emit(t, cpu, comm, pid, ev):
        seq[0] += 1
        lines.append((t, seq[0], '%16s-%-5d [%03d] %6d.%06d: %s' %
                      (comm, pid, cpu, t // 1000000, t % 1000000, ev)))

    ncpus = 1 + max(c for cl in m['clusters'] for c in cl['cpus'])
    last_freq = {}
    for cl in m['clusters']:
        freqs = [s['freq_khz'] for s in cl['cap_states']]
        nidle = max(1, len(cl.get('idle_states', [])))
        deep = nidle - 1
        # load phases: (start, busy fraction)
        phases, t = [], t0
        while t < end:
            phases.append((t, rnd.choice([0.03, 0.1, 0.25, 0.5, 0.75, 0.9])))
            t += int(rnd.uniform(50000, 200000))

        def load_at(x):
            u = phases[0][1]
            for s, v in phases:
                if s <= x:
                    u = v
            return u
        busy_at = {}    # cpu -> [(wake, end, pid, comm)]
        for c in cl['cpus']:
            tasks = [(1000 + 10 * c + j, 'w%d_%d' % (c, j)) for j in range(3)]
            busy_at[c] = []
            t = t0
            state = 0
            emit(t, c, '<idle>', 0, 'cpu_idle: state=%d cpu_id=%d' % (state, c))
            while True:
                u = load_at(t)
                mean_busy = rnd.choice([80, 300, 1000, 3000])
                mean_idle = mean_busy * (1 - u) / u
                idle = max(20, int(rnd.expovariate(1 / mean_idle)))
                wake = t + idle
                busy = max(20, int(rnd.expovariate(1 / mean_busy)))
                if wake + busy >= end - 10:
                    break
                pid, comm = rnd.choice(tasks)
                emit(wake, c, '<idle>', 0,
                     'sched_wakeup: comm=%s pid=%d prio=120 target_cpu=%03d' % (comm, pid, c))
                emit(wake, c, '<idle>', 0, 'cpu_idle: state=4294967295 cpu_id=%d' % c)
                emit(wake, c, '<idle>', 0,
                     'sched_switch: prev_comm=swapper/%d prev_pid=0 prev_prio=120 prev_state=0 '
                     'next_comm=%s next_pid=%d next_prio=120' % (c, comm, pid))
                t = wake + busy
                busy_at[c].append((wake, t, pid, comm))
                emit(t, c, comm, pid,
                     'sched_switch: prev_comm=%s prev_pid=%d prev_prio=120 prev_state=1 '
                     'next_comm=swapper/%d next_pid=0 next_prio=120' % (comm, pid, c))
                # the idle state: deep for long idle, mostly
                nxt = load_at(t)
                long_idle = mean_busy * (1 - nxt) / nxt > 1500
                state = deep if (long_idle and rnd.random() < 0.85) or rnd.random() < 0.1 else 0
                emit(t, c, '<idle>', 0, 'cpu_idle: state=%d cpu_id=%d' % (state, c))

        def running(c, x):
            """The task CPU c runs at x, as its events at x order it: a
            frequency event at x comes before the switches at x."""
            for w, e, pid, comm in busy_at[c]:
                if w < x <= e:
                    return pid, comm
            return 0, '<idle>'
        # frequency changes, for the whole cluster, each recorded on its
        # CPU with the task running there
        t = t0
        while t < end:
            f = rnd.choice(freqs)
            for c in cl['cpus']:
                pid, comm = running(c, t)
                emit(t, c, comm, pid, 'cpu_frequency: state=%d cpu_id=%d' % (f, c))
                last_freq[c] = f
            t += int(rnd.uniform(2000, 30000))
    # the last event of every CPU at the end: the traces all end together
    for c in range(ncpus):
        if end_exits:
            emit(end, c, '<idle>', 0, 'cpu_idle: state=4294967295 cpu_id=%d' % c)
        else:
            emit(end, c, '<idle>', 0, 'cpu_frequency: state=%d cpu_id=%d' % (last_freq[c], c))
    lines.sort(key=lambda x: (x[0], x[2].find('cpu_frequency') < 0, x[1]))
    with open(out, 'w') as f:
        f.write('# tracer: nop\n#\n# synthetic: tests/fit/gen-trace.py %s%s %d %g\n'
                % ('--end-exits ' if end_exits else '', model_path.split('/')[-1], seed, dur_s))
        f.write('cpus=%d\n' % ncpus)
        for _, _, s in lines:
            f.write(s + '\n')


if __name__ == '__main__':
    main(sys.argv[1:])
