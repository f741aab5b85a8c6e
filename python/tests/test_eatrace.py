# SPDX-License-Identifier: GPL-2.0-only
# The Python package over libeatrace: the CLI's figures, DataFrames, errors.
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
