#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
# Physical bounds of `eatrace replay --format json` figures (used by
# tests/e2e/replay-bounds*.sh). Reads one replay JSON; prints one line per
# violation and exits 1 if there is any. D is the time priced (priced_s:
# the window, and past the trace's end until every policy's work was done
# when the window reaches it; docs/replay.md "Work"):
#  - duration_s <= priced_s; each policy's extra_s >= 0, and when priced_s
#    goes past the window the latest policy's extra_s is that difference;
#  - latency: p50 <= p90 <= p99 <= max <= the policy's end_s (its work
#    done, from the window's start; the window's activations may first run
#    after the window); null (not available) exactly
#    when no activation was measured (activations 0);
#  - late_activations <= latency.activations (the same activations), null
#    with the latency;
#  - 0 <= wait_s <= tasks x D (each task waits at most the whole window);
#  - 0 <= overutilised_s <= D;
#  - per CPU: task_busy_s <= D, work <= capacity x task_busy_s (a CPU does
#    at most its top capacity per second busy); the policy's work is the
#    sum of its CPUs'.
#  - the latency floor (the recording's part of each latency) is below the
#    latency, percentile by percentile, and wait_floor_s <= wait_s.
import json
import sys

EPS = 1e-9
d = json.load(open(sys.argv[1]))
W = float(d["duration_s"])
D = float(d["priced_s"])
tasks = int(d["workload"]["tasks"])
bad = []


def check(cond, what):
    if not cond:
        bad.append(what)


check(W <= D + EPS, f"priced_s {D} < duration_s {W}")
extra = [float(p["extra_s"]) for p in d["policies"]]
check(all(x >= 0 for x in extra), f"negative extra_s: {extra}")
if D > W + EPS:
    check(abs(max(extra) - (D - W)) <= 2e-9 + EPS,
          f"priced_s - duration_s {D - W} is not the largest extra_s {max(extra)}")

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
        E = float(p["end_s"])
        check(v[3] <= E + EPS, f"{n}: max latency {v[3]} > its end {E}")
        f = [float(lat["floor"][k]) for k in ("p50", "p90", "p99", "max")]
        check(all(0 <= a <= b for a, b in zip(f, v)),
              f"{n}: latency floor {f} above the latency {v}")
        check(0 <= p["late_activations"] <= lat["activations"],
              f"{n}: late {p['late_activations']} of {lat['activations']}")
    w = float(p["wait_s"])
    check(0 <= w <= tasks * D + EPS, f"{n}: wait_s {w} outside [0, {tasks} x {D}]")
    check(0 <= float(p["wait_floor_s"]) <= w + EPS,
          f"{n}: wait_floor_s {p['wait_floor_s']} > wait_s {w}")
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
