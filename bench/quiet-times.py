#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Wall and CPU times of commands, interleaved, at millisecond resolution.

    bench/quiet-times.py [--fresh PATH]... REPS LABEL=CMD ...

Like /work/bench-data/measure.sh (whose /usr/bin/time rounds to 10 ms),
but each run starts once both CPUs have been 93 % idle for 150 ms (up to
20 s of waiting: other sessions share the machine), and prints per label
the median wall time (with the range) and the median CPU time (user +
system of the command and its threads), in ms.

--fresh PATH (repeatable) removes PATH before each run, before the wait
for quiet, so that no run replaces an output an earlier one left. On a
file system mounted with `discard` (this VM's ext4), replacing a 52 MB
file frees its blocks inside the command's rename(), 12-27 ms of the
run's wall time that are the old file's, not the command's work
(bench/README.md, the eleventh round merged).
"""
import os
import shlex
import statistics
import sys
import time


def cpu_idle():
    v = list(map(int, open('/proc/stat').readline().split()[1:]))
    return sum(v), v[3] + v[4]


def wait_quiet():
    end = time.time() + 20
    while time.time() < end:
        a = cpu_idle()
        time.sleep(0.15)
        b = cpu_idle()
        if b[0] > a[0] and (b[1] - a[1]) / (b[0] - a[0]) > 0.93:
            return True
    return False


def main():
    args = sys.argv[1:]
    fresh = []
    while len(args) > 1 and args[0] == '--fresh':
        fresh.append(args[1])
        args = args[2:]
    reps = int(args[0])
    items = [a.split('=', 1) for a in args[1:]]
    res = {label: [] for label, _ in items}
    devnull = os.open(os.devnull, os.O_WRONLY)
    noisy = 0
    for _ in range(reps):
        for label, cmd in items:
            for f in fresh:
                try:
                    os.unlink(f)
                except FileNotFoundError:
                    pass
            noisy += not wait_quiet()
            t0 = time.perf_counter()
            pid = os.fork()
            if pid == 0:
                os.dup2(devnull, 1)
                os.dup2(devnull, 2)
                argv = shlex.split(cmd)
                os.execvp(argv[0], argv)
            _, _, ru = os.wait4(pid, 0)
            res[label].append((time.perf_counter() - t0,
                               ru.ru_utime + ru.ru_stime))
    for label, _ in items:
        ws = sorted(x[0] for x in res[label])
        cs = sorted(x[1] for x in res[label])
        print(f"{label:10s} wall {statistics.median(ws) * 1000:6.1f} ms "
              f"({ws[0] * 1000:.0f}-{ws[-1] * 1000:.0f})  "
              f"cpu {statistics.median(cs) * 1000:6.1f} ms")
    print(f"runs started without a quiet moment: {noisy}")


if __name__ == '__main__':
    main()
