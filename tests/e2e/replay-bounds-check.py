#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
# Physical bounds of `eatrace replay --format json` figures (used by
# tests/e2e/replay-bounds*.sh). Reads one replay JSON; prints one line per
# violation and exits 1 if there is any. D is the window (duration_s):
#  - latency: p50 <= p90 <= p99 <= max <= D; null (not available) exactly
#    when no activation was measured (activations 0);
#  - late_activations <= latency.activations (the same activations), null
#    with the latency;
#  - 0 <= wait_s <= tasks x D (each task waits at most the whole window);
#  - 0 <= overutilised_s <= D;
#  - per CPU: task_busy_s <= D, work <= capacity x task_busy_s (a CPU does
#    at most its top capacity per second busy); the policy's work is the
#    sum of its CPUs'.
import json
import sys

EPS = 1e-9
d = json.load(open(sys.argv[1]))
D = float(d["duration_s"])
tasks = int(d["workload"]["tasks"])
bad = []


def check(cond, what):
    if not cond:
        bad.append(what)


for p in d["policies"]:
    n = p["name"]
    lat = p["latency"]
    if lat["activations"] == 0:
        check(all(lat[k] is None for k in ("p50", "p90", "p99", "max")),
              f"{n}: latency without activations is not null: {lat}")
        check(p["late_activations"] is None,
              f"{n}: late_activations without activations: {p['late_activations']}")
    else:
        v = [float(lat[k]) for k in ("p50", "p90", "p99", "max")]
        check(v == sorted(v) and v[0] >= 0, f"{n}: latency not ordered: {lat}")
        check(v[3] <= D + EPS, f"{n}: max latency {v[3]} > duration {D}")
        check(0 <= p["late_activations"] <= lat["activations"],
              f"{n}: late {p['late_activations']} of {lat['activations']}")
    w = float(p["wait_s"])
    check(0 <= w <= tasks * D + EPS, f"{n}: wait_s {w} outside [0, {tasks} x {D}]")
    o = float(p["overutilised_s"])
    check(0 <= o <= D + EPS, f"{n}: overutilised_s {o} > {D}")
    total = 0.0
    for c in p["cpus"]:
        b = float(c["task_busy_s"])
        wk = float(c["work"])
        total += wk
        check(0 <= b <= D + EPS, f"{n}: CPU {c['cpu']} busy {b} > {D}")
        check(0 <= wk <= c["capacity"] * b * (1 + 1e-9) + 1e-6,
              f"{n}: CPU {c['cpu']} work {wk} > {c['capacity']} x {b}")
    check(abs(total - float(p["work"])) <= 1e-6 * max(1.0, total),
          f"{n}: work {p['work']} is not its CPUs' {total}")
for b in bad:
    print(f"{sys.argv[2] if len(sys.argv) > 2 else sys.argv[1]}: {b}")
sys.exit(1 if bad else 0)
