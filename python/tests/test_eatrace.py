# SPDX-License-Identifier: GPL-2.0-only
# The Python package over libeatrace: the CLI's figures, DataFrames, errors.
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
import eatrace  # noqa: E402

FIVE = os.path.join(ROOT, "traces", "replay", "five-busy.txt")
JUNO = os.path.join(ROOT, "models", "juno-r0.json")
TC2 = os.path.join(ROOT, "models", "tc2.json")
DAT = os.path.join(ROOT, "traces", "diff", "light-1.dat")
CLI = os.environ.get("EATRACE", os.path.join(ROOT, "eatrace"))


def test_total_by_hand():
    # five-busy.txt on juno-r0, 1 s: CPUs 0,3,4 (A53) at their top OPP,
    # 119 mW; CPUs 1,2 (A57) at 1100000 kHz, 583 mW: 3*119 + 2*583 = 1523.
    r = eatrace.report(FIVE, JUNO)
    assert r["energy"]["total"] == 1523
    assert r["power_unit"] == "mW"


def test_same_bytes_as_cli():
    cli = subprocess.run([CLI, "report", "-f", "json", "-m", TC2, DAT],
                         check=True, capture_output=True, text=True).stdout
    assert eatrace.report_json(DAT, TC2) == cli


def test_frames():
    pd = pytest.importorskip("pandas")
    r = eatrace.report(FIVE, JUNO)
    cpus = r.cpus
    assert isinstance(cpus, pd.DataFrame)
    assert list(cpus["cpu"]) == [0, 1, 2, 3, 4]
    # the same hand figures per CPU: A53s 119, A57s 583
    assert list(cpus["energy_total"]) == [119, 583, 583, 119, 119]
    cl = r.clusters.set_index("name")["energy_total"]
    assert cl.sum() == 1523


def test_stats():
    s = eatrace.stats(FIVE)
    assert len(s["cpus"]) == 5


def test_error():
    with pytest.raises(eatrace.EatraceError) as e:
        eatrace.report(os.path.join(ROOT, "no-such-trace.dat"), JUNO)
    assert "no-such-trace.dat" in str(e.value)


def cli(*args):
    """The CLI's stdout (exit 0 expected)."""
    return subprocess.run([CLI, *args], check=True, capture_output=True,
                          text=True).stdout


def cli_error(*args):
    """The CLI's one-line error, without its "eatrace: " prefix (exit 2)."""
    p = subprocess.run([CLI, *args], capture_output=True, text=True)
    assert p.returncode == 2
    line, = p.stderr.splitlines()
    return line.split("eatrace: ", 1)[1]


SEVEN = os.path.join(ROOT, "traces", "replay", "seven-periodic.txt")


@pytest.mark.parametrize("kw,args", [
    (dict(model=JUNO), ["-m", JUNO]),
    (dict(model=JUNO, policies="feec,cfs", work="demand"),
     ["-m", JUNO, "--policy", "feec,cfs", "--work", "demand"]),
    (dict(target_model=TC2, source_capacity=512, governor="performance", idle="menu",
          policies="eas-rfc"),
     ["--target-model", TC2, "--source-capacity", "512", "--governor", "performance",
      "--idle", "menu", "--policy", "eas-rfc"]),
])
def test_replay_same_bytes_as_cli(kw, args):
    for path in (FIVE, SEVEN):
        assert eatrace.replay_json(path, **kw) == cli("replay", "-f", "json", *args, path)


def test_replay_by_hand():
    # five-busy.txt on juno-r0 under "recorded" (each task stays on its CPU,
    # the recorded frequencies): the report's 3 x 119 + 2 x 583 = 1523 mW
    # for 1 s; per cluster A53 3 x 119 = 357, A57 2 x 583 = 1166.
    r = eatrace.replay(FIVE, model=JUNO, policies="recorded")
    assert r.policies.set_index("name").loc["recorded", "energy_total"] == 1523
    cl = r.clusters.set_index("name")["energy_total"]
    assert (cl["A53"], cl["A57"]) == (357, 1166)
    assert list(r.cpus["policy"]) == ["recorded"] * 5
    assert r.actual_clusters["energy_total"].sum() == 1523


def test_replay_frames_are_the_cli_json():
    want = json.loads(cli("replay", "-f", "json", "-m", JUNO, SEVEN))
    r = eatrace.replay(SEVEN, model=JUNO)
    assert r == want
    assert list(r.policies["energy_total"]) == [p["energy"]["total"] for p in want["policies"]]
    assert list(r.cpus["energy"]) == [c["energy"] for p in want["policies"] for c in p["cpus"]]


def test_replay_errors_carry_the_cli_line():
    with pytest.raises(eatrace.EatraceError) as e:
        eatrace.replay(FIVE, model=JUNO, policies="bogus")
    assert str(e.value) == cli_error("replay", "-m", JUNO, "--policy", "bogus", FIVE)
    with pytest.raises(eatrace.EatraceError) as e:
        eatrace.replay(FIVE, target_model=JUNO, source_capacity=512, governor="recorded")
    assert str(e.value) == cli_error("replay", "--target-model", JUNO, "--source-capacity",
                                     "512", "--governor", "recorded", FIVE)
    with pytest.raises(eatrace.EatraceError) as e:
        eatrace.replay(os.path.join(ROOT, "no-such.dat"), model=JUNO)
    assert str(e.value) == cli_error("replay", "-m", JUNO, os.path.join(ROOT, "no-such.dat"))


def test_report_interval_and_state_frames():
    assert eatrace.report_json(FIVE, JUNO, interval_ms=500) == \
        cli("report", "-f", "json", "-m", JUNO, "--interval", "500", FIVE)
    r = eatrace.report(FIVE, JUNO, interval_ms=500)
    # constant 1523 mW over [100, 101] s: two 0.5 s windows of 761.5 each
    assert list(r.windows["energy_total"]) == [761.5, 761.5]
    assert list(r.windows["start_s"]) == [100.0, 100.5]
    # P-states per CPU: CPU 0 (A53) spent the second at its top OPP,
    # 850000 kHz (1 GHz is above it), all its 119 mW x 1 s there
    ps = r.pstates
    top = ps[(ps["cpu"] == 0) & (ps["time_s"] > 0)]
    assert list(top["freq_khz"]) == [850000] and list(top["energy"]) == [119]
    # every CPU's P-state rows add up to its time in the trace (1 s busy)
    assert all(ps.groupby("cpu")["time_s"].sum() == 1.0)
    # C-states: no idle time, so none with time or energy
    assert (r.cstates["time_s"] == 0).all() and (r.cstates["energy"] == 0).all()
    assert set(r.cluster_pstates["name"]) == {"A53", "A57"}
    assert len(r.cluster_cstates) > 0
    assert "pstates" not in r.cpus.columns


def test_stats_same_bytes_as_cli():
    assert eatrace.stats_json(DAT) == cli("stats", "-f", "json", DAT)


def test_report_error_carries_the_cli_line():
    bad = os.path.join(ROOT, "README.md")
    with pytest.raises(eatrace.EatraceError) as e:
        eatrace.report(bad, JUNO)
    assert str(e.value) == cli_error("report", "-m", JUNO, bad)


def test_rows_of_a_path_not_utf8_are_the_cli_bytes(tmp_path):
    # a file name with a Latin-1 byte (0xe9), as os.listdir gives it (str,
    # surrogate-escaped): batch_rows' text encodes back to the CLI's bytes
    # (decoded with "replace" it became U+FFFD, 3 other bytes)
    d = os.fsencode(str(tmp_path))
    name = os.path.join(d, b"caf\xe9.txt")
    with open(FIVE, "rb") as src, open(name, "wb") as dst:
        dst.write(src.read())
    path = os.fsdecode(name)
    cli = subprocess.run([CLI, "batch", "-q", "-f", "jsonl", "-m", TC2, name],
                         check=True, capture_output=True).stdout
    text = eatrace.batch_rows(path, TC2, "jsonl")
    assert b"caf\xe9.txt" in cli
    assert text.encode("utf-8", "surrogateescape") == cli
    assert eatrace.rows_frame(text)["path"].tolist() == [path]


def test_threads_open_traces_at_once():
    # A host (a Dask worker with --nthreads 4) prices traces from several
    # threads at once: ctypes lets go of the GIL, so the trace.dat opens
    # (run under a guard of process-wide signal handlers) overlap. Each
    # result must be the one a lone call gives.
    from concurrent.futures import ThreadPoolExecutor
    import glob
    paths = sorted(glob.glob(os.path.join(ROOT, "traces", "diff", "*.dat"))) * 4
    want = {p: eatrace.report_json(p, TC2) for p in set(paths)}
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda p: eatrace.report_json(p, TC2), paths))
    assert got == [want[p] for p in paths]
