# SPDX-License-Identifier: GPL-2.0-only
"""eatrace.fleet's grouping of traces into Dask tasks (no cluster needed):
consecutive runs of about equal total size, in order, none empty, every
path once; and the heap setting around a group put back as it was."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import pytest  # noqa: E402

import eatrace.fleet as fleet  # noqa: E402 (imports nothing of Dask)


def files(tmp_path, sizes):
    paths = []
    for i, n in enumerate(sizes):
        p = tmp_path / ("%03d.dat" % i)
        p.write_bytes(b"x" * n)
        paths.append(str(p))
    return paths


def test_groups_keep_order_and_cover_once(tmp_path):
    paths = files(tmp_path, [100] * 10)
    for n in range(1, 13):
        g = fleet.groups(paths, n)
        assert [p for grp in g for p in grp] == paths
        assert all(g)
        assert len(g) == min(n, len(paths))


def test_groups_balance_by_size(tmp_path):
    # sizes 1..8 x 1000, total 36000, 3 groups: a cut after the first
    # path whose running total reaches 12000, then 24000. By hand: 1+2+3+4
    # = 10000, +5 = 15000 (cut); +6 = 21000, +7 = 28000 (cut); 8 is left:
    # 1-5 | 6-7 | 8
    paths = files(tmp_path, [1000 * k for k in range(1, 9)])
    g = fleet.groups(paths, 3)
    assert [len(x) for x in g] == [5, 2, 1]


def test_groups_paths_the_client_cannot_see():
    # weight 1 each: by count, 7 paths in 3 groups (cuts at 7/3 and 14/3)
    paths = ["/nonexistent/eatrace-%d.dat" % i for i in range(7)]
    g = fleet.groups(paths, 3)
    assert [len(x) for x in g] == [3, 2, 2]


def test_groups_more_tasks_than_paths(tmp_path):
    paths = files(tmp_path, [5, 500000, 5])
    assert fleet.groups(paths, 8) == [[p] for p in paths]


class FakeLibc:
    """glibc's mallopt/malloc_trim, recorded instead of called."""

    def __init__(self):
        self.calls = []

    def mallopt(self, param, value):
        self.calls.append(("mallopt", param, value))
        return 1

    def malloc_trim(self, pad):
        self.calls.append(("malloc_trim", pad))
        return 1


def test_kept_heap_raises_then_restores(monkeypatch):
    # Dask's nanny setting: raised once on the outermost entry, set back
    # to 65536 (trim) and glibc's default 128 KiB (mmap) and trimmed once
    # on the outermost exit, also when the task raises.
    libc = FakeLibc()
    monkeypatch.setenv("MALLOC_TRIM_THRESHOLD_", "65536")
    monkeypatch.delenv("MALLOC_MMAP_THRESHOLD_", raising=False)
    monkeypatch.setattr(fleet.ctypes, "CDLL", lambda name: libc)
    M_TRIM, M_MMAP = -1, -3    # glibc's malloc.h
    with fleet._kept_heap():
        with fleet._kept_heap():
            assert fleet._heap_users == 2
        assert libc.calls == [("mallopt", M_TRIM, 256 << 20),
                              ("mallopt", M_MMAP, 32 << 20)]
    assert fleet._heap_users == 0
    assert libc.calls[2:] == [("mallopt", M_MMAP, 128 << 10),
                              ("mallopt", M_TRIM, 65536), ("malloc_trim", 0)]
    libc.calls.clear()
    with pytest.raises(KeyError):
        with fleet._kept_heap():
            raise KeyError("a task's exception passes through")
    assert fleet._heap_users == 0
    assert [c[0] for c in libc.calls] == ["mallopt"] * 4 + ["malloc_trim"]


def test_kept_heap_leaves_a_plain_process_alone(monkeypatch):
    # no MALLOC_TRIM_THRESHOLD_ (not a nanny's worker): nothing is called
    libc = FakeLibc()
    monkeypatch.delenv("MALLOC_TRIM_THRESHOLD_", raising=False)
    monkeypatch.setattr(fleet.ctypes, "CDLL", lambda name: libc)
    with fleet._kept_heap():
        pass
    assert libc.calls == []
