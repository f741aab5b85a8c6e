# SPDX-License-Identifier: GPL-2.0-only
"""Fleets of traces on a Dask distributed cluster.

    from distributed import Client
    import eatrace.fleet
    client = Client("tcp://scheduler:8786")
    df = eatrace.fleet.run(paths, "tc2", client)

The traces are cut into Dask tasks of a few traces each, in input
order and balanced by file size: two tasks per worker thread the
cluster has when the run starts, unless `chunk` (traces per task) says
otherwise. A task runs on a worker through libeatrace
(eatrace.batch_rows): the rows `eatrace batch -f jsonl` writes for its
traces, content hash included; a trace that fails is its error row. The
results come back in input order (one row per trace x model, whichever
worker ran it and however often) and are reduced to one DataFrame with
the batch table's columns (docs/batch.md). A task per trace costs Dask
some milliseconds of scheduling, as much as pricing a small trace:
hence the grouping.

Failures: a task whose worker dies is rescheduled on another worker by
the scheduler (up to its distributed.scheduler.allowed-failures, 3 by
default); a task that raises (a bad model) is retried `retries` times
(Dask's retries), then its exception reaches the caller. Only a task's
final result is kept, so no trace is counted twice.

Workers need the eatrace package and libeatrace.so.0 importable: `make
install` on each, or PYTHONPATH=<clone>/python with the clone built (or
EATRACE_LIB=/path/to/libeatrace.so.0). Paths must name the same files
on every worker (a shared file system).
"""
import contextlib
import ctypes
import os
import sys
import threading
import uuid

import eatrace

__all__ = ["run", "rows_text", "groups", "TASKS_PER_THREAD"]

# Tasks per worker thread when chunk is not given: few enough that Dask's
# per-task cost stays small, enough to even out traces of unequal size.
TASKS_PER_THREAD = 2


# glibc's mallopt() parameters
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
_heap_lock = threading.Lock()
_heap_users = 0


@contextlib.contextmanager
def _kept_heap():
    """Keep freed memory for the next trace while a group runs.

    Dask's nanny starts workers with MALLOC_TRIM_THRESHOLD_=65536 (its
    distributed.nanny.pre-spawn-environ), which also fixes glibc's mmap
    threshold at 128 KiB: every trace's buffers would then be mapped,
    faulted in and given back anew, a quarter more CPU per small trace
    and worse when workers share cores. Within a group the thresholds
    are raised; after it they are set back to the environment's and the
    free memory is given back (malloc_trim), as Dask wants. Nothing is
    changed in a process started without MALLOC_TRIM_THRESHOLD_."""
    global _heap_users
    trim = os.environ.get("MALLOC_TRIM_THRESHOLD_", "")
    libc = None
    if trim.isdigit() and sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None)
            libc.mallopt, libc.malloc_trim  # glibc's
        except (OSError, AttributeError):
            libc = None
    if libc is not None:
        with _heap_lock:
            if _heap_users == 0:
                libc.mallopt(_M_TRIM_THRESHOLD, 256 << 20)
                libc.mallopt(_M_MMAP_THRESHOLD, 32 << 20)
            _heap_users += 1
    try:
        yield
    finally:
        if libc is not None:
            with _heap_lock:
                _heap_users -= 1
                if _heap_users == 0:
                    mmap = os.environ.get("MALLOC_MMAP_THRESHOLD_", "")
                    libc.mallopt(_M_MMAP_THRESHOLD,
                                 int(mmap) if mmap.isdigit() else 128 << 10)
                    libc.mallopt(_M_TRIM_THRESHOLD, int(trim))
                    libc.malloc_trim(0)


def _trace_rows(paths, models, rows):
    """On a worker: the rows of a group of traces for every model, JSON
    lines, trace by trace."""
    with _kept_heap():
        return "".join(eatrace.batch_rows(p, m, "jsonl", rows)
                       for p in paths for m in models)


def _size(path):
    """A trace's weight for the grouping: its size (1 if the client
    cannot see it: the paths need only name files on the workers)."""
    try:
        return max(1, os.stat(path).st_size)
    except OSError:
        return 1


def _threads(client):
    """Worker threads in the cluster now (at least 1)."""
    # (Client.nthreads() asks the scheduler; scheduler_info() lists only
    # the first few workers in later Dask versions)
    try:
        return max(1, sum(int(n) for n in client.nthreads().values()))
    except Exception:  # a client without a live scheduler: still one
        return 1


def groups(paths, ntasks):
    """paths cut into at most ntasks runs of consecutive paths, of about
    equal total size, none empty, in order."""
    ntasks = max(1, min(int(ntasks), len(paths)))
    sizes = [_size(p) for p in paths]
    total = float(sum(sizes))
    out, cur, acc = [], [], 0
    for i, (p, sz) in enumerate(zip(paths, sizes)):
        cur.append(p)
        acc += sz
        left = len(paths) - i - 1           # paths not yet placed
        need = ntasks - len(out) - 1        # groups still to open
        if need > 0 and (acc >= total * (len(out) + 1) / ntasks or left == need):
            out.append(cur)
            cur = []
    if cur:
        out.append(cur)
    return out


def _models(model):
    return [model] if isinstance(model, (str, os.PathLike)) else list(model)


def rows_text(paths, model, client, rows="trace", retries=2, chunk=None):
    """The JSON lines `eatrace batch -f jsonl --rows ROWS -m MODEL... PATHS`
    writes, byte for byte, computed on client's cluster. model: a name or
    file, or a list of them (rows per trace in that order). chunk: traces
    per task (default: TASKS_PER_THREAD tasks per worker thread, balanced
    by size)."""
    paths = [os.fspath(p) for p in paths]
    models = [os.fspath(m) for m in _models(model)]
    if not paths:
        return ""
    if chunk is None:
        parts = groups(paths, TASKS_PER_THREAD * _threads(client))
    else:
        if int(chunk) < 1:
            raise ValueError("chunk: %r traces per task (at least 1)" % (chunk,))
        parts = [paths[i:i + int(chunk)] for i in range(0, len(paths), int(chunk))]
    run_id = uuid.uuid4().hex
    keys = ["eatrace-%s-%d" % (run_id, i) for i in range(len(parts))]
    futures = client.map(_trace_rows, parts, models=models, rows=rows,
                         key=keys, retries=retries, pure=False)
    try:
        return "".join(client.gather(futures))
    except BaseException:
        # a task that failed for good, or the caller interrupted: the
        # others stop (on success the futures are simply released)
        client.cancel(futures)
        raise


def run(paths, model, client, rows="trace", retries=2, chunk=None):
    """Price every trace with model(s) on client's Dask cluster: one
    DataFrame, one row per trace x model (x part, with rows="cluster",
    "cpu" or "task"), the columns and figures of `eatrace batch -f jsonl`."""
    return eatrace.rows_frame(rows_text(paths, model, client, rows, retries, chunk))
