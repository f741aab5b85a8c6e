# SPDX-License-Identifier: GPL-2.0-only
# eatrace.Trace (read once, asked many times: libeatrace's eatrace/trace.h),
# its CPU filter and intervals, and eatrace.diff: figures by hand, and the
# CLI's very bytes for the same options.
import glob
import json
import math
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
import eatrace  # noqa: E402

FIVE = os.path.join(ROOT, "traces", "replay", "five-busy.txt")
SEVEN = os.path.join(ROOT, "traces", "replay", "seven-periodic.txt")
DEMO = os.path.join(ROOT, "traces", "demo", "tc2-seven-tasks.txt")
DIFF = os.path.join(ROOT, "traces", "diff")
JUNO = os.path.join(ROOT, "models", "juno-r0.json")
TC2 = os.path.join(ROOT, "models", "tc2.json")
CLI = os.environ.get("EATRACE", os.path.join(ROOT, "eatrace"))


def cli(*args, ok=(0,)):
    p = subprocess.run([CLI, *args], capture_output=True, text=True)
    assert p.returncode in ok, p.stderr
    return p.stdout


def cli_error(*args):
    p = subprocess.run([CLI, *args], capture_output=True, text=True)
    assert p.returncode == 2
    line, = p.stderr.splitlines()
    return line.split("eatrace: ", 1)[1]


# five-busy.txt: CPUs 0-4 each run one task (busy1..busy5, pids 2001..2005)
# at 1000000 kHz for exactly 1 s. tc2 (its model file): CPUs 0,1 are A15s,
# 1 GHz an OPP: core 3846, cluster 8446 (shared by the two busy CPUs:
# 4223 each); CPUs 2-4 are A7s, core 1024, cluster 4905 (1635 each).
# Without wakeups: CPU 0 = 3846 + 4223 = 8069, CPU 2 = 1024 + 1635 = 2659;
# total 2 x 8069 + 3 x 2659 = 24115 (tests/e2e/batch.sh: the same sum).

def test_cpu_share_by_hand():
    t = eatrace.Trace(FIVE)
    full = t.report(TC2, no_wakeups=True)
    assert full["energy"]["total"] == 24115
    one = t.report(TC2, cpus=[0], no_wakeups=True)
    assert one["energy"]["total"] == 8069
    assert one["cpu_filter"] == [0]
    assert [c["cpu"] for c in one["cpus"]] == [0]
    # the A15 cluster only, its energy CPU 0's share: core 3846 + 4223
    assert [(c["name"], c["energy"]["total"]) for c in one["clusters"]] == [("A15", 8069)]
    assert [(k["comm"], k["energy"]["total"]) for k in one["tasks"]] == [("busy1", 8069)]
    a7 = t.report(TC2, cpus="2-4", no_wakeups=True)
    assert a7["energy"]["total"] == 7977          # 3 x 2659 = 3 x 1024 + 4905
    assert a7["energy"]["cluster_busy"] == 4905
    assert sorted(k["comm"] for k in a7["tasks"]) == ["busy3", "busy4", "busy5"]
    mix = t.report(TC2, cpus=[0, 2], no_wakeups=True, interval_ms=500)
    assert mix["energy"]["total"] == 8069 + 2659
    # constant power over [100, 101) s: two 0.5 s windows of half each
    assert [w["energy"]["total"] for w in mix["windows"]] == [5364, 5364]
    # every breakdown adds up to the filtered total
    assert sum(c["energy"]["total"] for c in mix["cpus"]) == 10728
    assert sum(c["energy"]["total"] for c in mix["clusters"]) == 10728


def test_cpu_share_is_the_cpus_part_of_the_full_report():
    # With wakeups and cluster idle power (the demo's seven tasks on tc2):
    # each CPU's share, priced apart, is that CPU's entry in the full report,
    # and the shares of all CPUs add up to the full total (the accountant's
    # per-CPU figures against its filtered totals: two paths).
    t = eatrace.Trace(DEMO)
    full = t.report(TC2, interval_ms=100)
    parts = []
    for c in full["cpus"]:
        r = t.report(TC2, cpus=[c["cpu"]], interval_ms=100)
        assert r["energy"] == c["energy"]
        assert r.cpus.to_dict("records") == full.cpus[full.cpus["cpu"] == c["cpu"]].to_dict("records")
        w = r.windows["energy_total"]
        assert abs(w.sum() - r["energy"]["total"]) < 1e-6
        parts.append(r)
    tot = sum(p["energy"]["total"] for p in parts)
    assert abs(tot - full["energy"]["total"]) < 1e-6
    # per task, the shares add up to the full report's figure
    share = {}
    for p in parts:
        for k in p["tasks"]:
            share[k["pid"]] = share.get(k["pid"], 0) + k["energy"]["total"]
    for k in full["tasks"]:
        assert abs(share[k["pid"]] - k["energy"]["total"]) < 1e-6, k


def test_intervals_by_hand():
    # five-busy on juno-r0: one busy interval per CPU over [100, 101) s, its
    # task, 1 GHz reported; the core's power at the OPP charged: A53s
    # (CPUs 0,3,4) at their top OPP 850000 kHz, 119 mW (1 GHz is above it),
    # A57s (1,2) at 1100000 kHz, 583 mW (tests/e2e/batch.sh).
    df = eatrace.Trace(FIVE).intervals(JUNO)
    assert list(df["cpu"]) == [0, 1, 2, 3, 4]
    assert list(df["state"]) == ["busy"] * 5
    assert list(df["start_s"]) == [100.0] * 5 and list(df["end_s"]) == [101.0] * 5
    assert list(df["pid"]) == [2001, 2002, 2003, 2004, 2005]
    assert list(df["comm"]) == ["busy1", "busy2", "busy3", "busy4", "busy5"]
    assert list(df["freq_khz"]) == [1000000] * 5
    assert list(df["idle_state"]) == [-1] * 5
    assert list(df["power"]) == [119, 583, 583, 119, 119]
    # no model: no power; cpus and a window keep a part
    df = eatrace.Trace(FIVE).intervals(cpus=[1], start=0.25, end=0.5)
    assert len(df) == 1 and math.isnan(df["power"][0])
    assert (df["cpu"][0], df["start_s"][0], df["end_s"][0]) == (1, 100.25, 100.5)


def test_intervals_tile_the_window_and_price_the_report():
    # seven-periodic on juno-r0, whose model has no cluster power: each
    # CPU's intervals tile the report's window without gap or overlap, their
    # busy time is the report's busy_s, and power x time summed is the
    # report's energy without wakeups (the accountant against the intervals).
    t = eatrace.Trace(SEVEN)
    rep = t.report(JUNO, no_wakeups=True)
    assert rep["energy"]["cluster_busy"] == 0 and rep["energy"]["cluster_idle"] == 0
    df = t.intervals(JUNO)
    for c in rep["cpus"]:
        iv = df[df["cpu"] == c["cpu"]].sort_values("start_s")
        assert iv["start_s"].iloc[0] == rep["start_s"]
        assert iv["end_s"].iloc[-1] == rep["end_s"]
        assert (iv["start_s"].values[1:] == iv["end_s"].values[:-1]).all()
        busy = iv[iv["state"] == "busy"]
        assert abs((busy["end_s"] - busy["start_s"]).sum() - c["busy_s"]) < 1e-6
        e = ((iv["end_s"] - iv["start_s"]) * iv["power"]).sum()
        assert abs(e - c["energy"]["total"]) < 1e-6 * max(1, c["energy"]["total"])
    # an idle interval names its C-state and no task
    idle = df[df["state"] == "idle"]
    assert (idle["pid"] == 0).all() and (idle["idle_state"] >= 0).all()
    assert (idle["comm"] == "").all()


OPTS = [
    ({}, []),
    (dict(start=0.1, end=0.5, interval_ms=10),
     ["--start", "0.1", "--end", "0.5", "--interval", "10"]),
    (dict(idle_state=1, unknown_idle_state=1, assume_opp=600000, no_wakeups=True,
          absent_offline=True),
     ["--idle-state", "1", "--unknown-idle-state", "1", "--assume-opp", "600000",
      "--no-wakeups", "--absent-offline"]),
]


@pytest.mark.parametrize("path", sorted(
    glob.glob(os.path.join(ROOT, "traces", "*", "*.dat")) +
    glob.glob(os.path.join(ROOT, "traces", "*", "*.txt"))))
def test_same_bytes_as_cli(path):
    # Read once, asked with each option set: the bytes `eatrace report -f
    # json` writes for the same options, or the same one-line error.
    t = eatrace.Trace(path)
    for kw, args in OPTS:
        p = subprocess.run([CLI, "report", "-q", "-f", "json", "-m", TC2, *args, path],
                           capture_output=True, text=True)
        if p.returncode == 0:
            assert t.report_json(TC2, **kw) == p.stdout, kw
        else:
            with pytest.raises(eatrace.EatraceError) as e:
                t.report_json(TC2, **kw)
            assert "eatrace: " + str(e.value) == p.stderr.strip()
    p = subprocess.run([CLI, "stats", "-f", "json", "--start", "0.01", path],
                       capture_output=True, text=True)
    if p.returncode == 0:
        assert t.stats_json(start=0.01) == p.stdout
    else:
        with pytest.raises(eatrace.EatraceError) as e:
            t.stats_json(start=0.01)
        assert "eatrace: " + str(e.value) == p.stderr.strip()
    assert t.replay_json(model=TC2, policies="feec,recorded") == \
        cli("replay", "-f", "json", "-m", TC2, "--policy", "feec,recorded", path)


def test_absolute_window_and_errors():
    t = eatrace.Trace(FIVE)
    assert t.report_json(JUNO, start="@100.25", end="@100.75") == \
        cli("report", "-q", "-f", "json", "-m", JUNO, "--start", "@100.25", "--end", "@100.75", FIVE)
    # half the second: 1523 / 2
    assert t.report(JUNO, start="@100.25", end="@100.75")["energy"]["total"] == 761.5
    for kw, args in [(dict(start=5), ["--start", "5"]),
                     (dict(start=0.5, end="@100.9"), ["--start", "0.5", "--end", "@100.9"]),
                     (dict(start=0.5, end=0.2), ["--start", "0.5", "--end", "0.2"]),
                     (dict(assume_opp=5000000), ["--assume-opp", "5000000"])]:
        with pytest.raises(eatrace.EatraceError) as e:
            t.report(JUNO, **kw)
        assert str(e.value) == cli_error("report", "-m", JUNO, *args, FIVE), kw
    with pytest.raises(eatrace.EatraceError, match="is not a list of CPUs"):
        t.report(JUNO, cpus="0,x")
    with pytest.raises(eatrace.EatraceError, match="CPU 9 is not in model"):
        t.report(JUNO, cpus=[9])
    with pytest.raises(eatrace.EatraceError) as e:
        eatrace.Trace(os.path.join(ROOT, "README.md"))
    assert str(e.value) == cli_error("stats", os.path.join(ROOT, "README.md"))


def test_parsed_once(tmp_path):
    # The events are kept: the file may change or go away after the open.
    p = tmp_path / "t.txt"
    shutil.copy(FIVE, p)
    t = eatrace.Trace(str(p))
    assert t.nevents == 20 and t.nbytes > 0
    want = t.report_json(JUNO)
    p.write_text("not a trace\n")
    assert t.report_json(JUNO) == want
    os.unlink(p)
    assert t.report(JUNO)["energy"]["total"] == 1523
    t.close()
    with pytest.raises(eatrace.EatraceError, match="closed"):
        t.report(JUNO)


def test_threads_share_one_trace():
    from concurrent.futures import ThreadPoolExecutor
    t = eatrace.Trace(os.path.join(DIFF, "light-1.dat"))
    jobs = [dict(), dict(start=0.1), dict(cpus=[0]), dict(no_wakeups=True)] * 4
    want = [t.report_json(TC2, **kw) for kw in jobs]
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda kw: t.report_json(TC2, **kw), jobs))
    assert got == want


def test_diff_is_the_cli():
    light = sorted(glob.glob(os.path.join(DIFF, "light-*.dat")))[:3]
    heavy = sorted(glob.glob(os.path.join(DIFF, "heavy-*.dat")))
    p = subprocess.run([CLI, "diff", "-f", "json", "-m", JUNO, "--normalize", "time",
                        "--base", *light, "--new", *heavy], capture_output=True, text=True)
    text, status = eatrace.diff_json(light, heavy, model=JUNO, normalize="time")
    assert (text, status) == (p.stdout, p.returncode)
    d = eatrace.diff([eatrace.Trace(x) for x in light], heavy, model=JUNO, normalize="time")
    assert d.verdict == json.loads(p.stdout)["verdict"] and d.status == p.returncode
    assert list(d.runs["side"]) == ["base"] * 3 + ["new"] * 3
    assert list(d.runs["trace"]) == light + heavy
    # normalised by work: per capacity x s, as the CLI's
    p = subprocess.run([CLI, "diff", "-f", "json", "-m", JUNO, "--normalize", "work",
                        "--base", *light, "--new", *heavy], capture_output=True, text=True)
    assert eatrace.diff_json(light, heavy, model=JUNO, normalize="work") == (p.stdout, p.returncode)
    # --models A B on the same traces
    p = subprocess.run([CLI, "diff", "-f", "json", "--models", JUNO, TC2, "--start", "0.1", *light],
                       capture_output=True, text=True)
    assert eatrace.diff_json(light, models=(JUNO, TC2), start=0.1) == (p.stdout, p.returncode)
    with pytest.raises(eatrace.EatraceError) as e:
        eatrace.diff(light, [], model=JUNO)
    assert str(e.value) == "diff: the new side has no traces (usage: --base BASE... --new NEW...)"


def test_docs_python_md_runs_as_written(monkeypatch):
    # docs/python.md's examples are a doctest: its outputs are the real ones.
    import doctest
    import re
    pytest.importorskip("pandas")
    text = open(os.path.join(ROOT, "docs", "python.md")).read()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("EATRACE_MODEL_PATH", os.path.join(ROOT, "models"))
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {"eatrace": eatrace},
                                               "docs/python.md", "docs/python.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0 and runner.tries > 15
