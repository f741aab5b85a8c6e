# SPDX-License-Identifier: GPL-2.0-only
"""Fleets of traces on a Dask distributed cluster.

    from distributed import Client
    import eatrace.fleet
    client = Client("tcp://scheduler:8786")
    df = eatrace.fleet.run(paths, "tc2", client)

Each trace is one Dask task, run on a worker through libeatrace
(eatrace.batch_rows): the rows `eatrace batch -f jsonl` writes for it,
content hash included; a trace that fails is its error row. The results
come back in input order (one per trace x model, whichever worker ran
it and however often) and are reduced to one DataFrame with the batch
table's columns (docs/batch.md).

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
import os
import uuid

import eatrace

__all__ = ["run", "rows_text"]


def _trace_rows(path, models, rows):
    """On a worker: one trace's rows for every model, JSON lines."""
    return "".join(eatrace.batch_rows(path, m, "jsonl", rows) for m in models)


def _models(model):
    return [model] if isinstance(model, (str, os.PathLike)) else list(model)


def rows_text(paths, model, client, rows="trace", retries=2):
    """The JSON lines `eatrace batch -f jsonl --rows ROWS -m MODEL... PATHS`
    writes, byte for byte, computed on client's cluster. model: a name or
    file, or a list of them (rows per trace in that order)."""
    paths = [os.fspath(p) for p in paths]
    models = [os.fspath(m) for m in _models(model)]
    if not paths:
        return ""
    run_id = uuid.uuid4().hex
    keys = ["eatrace-%s-%d" % (run_id, i) for i in range(len(paths))]
    futures = client.map(_trace_rows, paths, models=models, rows=rows,
                         key=keys, retries=retries, pure=False)
    try:
        return "".join(client.gather(futures))
    finally:
        client.cancel(futures)


def run(paths, model, client, rows="trace", retries=2):
    """Price every trace with model(s) on client's Dask cluster: one
    DataFrame, one row per trace x model (x part, with rows="cluster",
    "cpu" or "task"), the columns and figures of `eatrace batch -f jsonl`."""
    return eatrace.rows_frame(rows_text(paths, model, client, rows, retries))
