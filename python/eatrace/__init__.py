# SPDX-License-Identifier: GPL-2.0-only
"""eatrace: the CPU energy of Linux scheduling from traces (ctypes over
libeatrace.so.0).

    import eatrace
    r = eatrace.report("trace.dat", "juno-r0")
    r["energy"]["total"]        # the JSON of `eatrace report -f json`, as a dict
    r.cpus, r.clusters, r.tasks # pandas DataFrames (energy columns flattened)

The library is found through $EATRACE_LIB (a path), then the build tree
beside this package (../build/libeatrace.so.0), then the system
(libeatrace.so.0 on the loader's path). Errors raise EatraceError with
the one-line message the CLI prints.
"""
import ctypes
import json
import os

__all__ = ["EatraceError", "Report", "report", "stats", "report_json", "stats_json",
           "batch_rows", "rows_frame"]


class EatraceError(Exception):
    """A trace or model eatrace could not read; str() is the one-line message."""


_lib = None


def _load():
    global _lib
    if _lib is not None:
        return _lib
    here = os.path.dirname(os.path.abspath(__file__))
    cands = [os.environ.get("EATRACE_LIB"),
             os.path.join(here, "..", "..", "build", "libeatrace.so.0"),
             "libeatrace.so.0"]
    last = None
    for c in cands:
        if not c or (os.sep in c and not os.path.exists(c)):
            continue
        try:
            lib = ctypes.CDLL(c)
            break
        except OSError as e:
            last = e
    else:
        raise EatraceError("libeatrace.so.0 not found (set EATRACE_LIB): %s" % last)
    pp = ctypes.POINTER(ctypes.c_void_p)
    lib.ea_report_json.argtypes = [ctypes.c_char_p, ctypes.c_char_p, pp, pp]
    lib.ea_report_json.restype = ctypes.c_int
    lib.ea_stats_json.argtypes = [ctypes.c_char_p, pp, pp]
    lib.ea_stats_json.restype = ctypes.c_int
    lib.ea_batch_rows_text.argtypes = [ctypes.c_char_p] * 4 + [pp, pp]
    lib.ea_batch_rows_text.restype = ctypes.c_int
    lib.ea_free.argtypes = [ctypes.c_void_p]
    lib.ea_free.restype = None
    _lib = lib
    return lib


def _take(lib, ptr):
    """The C string at ptr, freed."""
    if not ptr.value:
        return ""
    s = ctypes.string_at(ptr.value).decode("utf-8", "replace")
    lib.ea_free(ptr)
    return s


def _call(fn, *args, ok=(0,)):
    lib = _load()
    out, err = ctypes.c_void_p(), ctypes.c_void_p()
    enc = [a.encode() if isinstance(a, str) else os.fsencode(a) for a in args]
    rc = getattr(lib, fn)(*enc, ctypes.byref(out), ctypes.byref(err))
    if rc not in ok:
        _take(lib, out)
        raise EatraceError(_take(lib, err) or "%s failed" % fn)
    return _take(lib, out)


def report_json(path, model):
    """`eatrace report -f json -m MODEL PATH`, byte for byte, as a string."""
    return _call("ea_report_json", path, model)


def stats_json(path):
    """`eatrace stats -f json PATH`, byte for byte, as a string."""
    return _call("ea_stats_json", path)


def batch_rows(path, model, format="jsonl", rows="trace"):
    """One trace's rows as `eatrace batch -f FORMAT --rows ROWS -m MODEL
    PATH` writes them (no CSV header), as a string. A trace that cannot
    be priced is its error row (as in batch), not an exception; a bad
    model, format or rows raises EatraceError."""
    return _call("ea_batch_rows_text", path, model, format, rows, ok=(0, 1))


def rows_frame(text):
    """A DataFrame of JSON-lines batch rows (`eatrace batch -f jsonl`
    output, or eatrace.fleet's), columns in the table's order."""
    import pandas as pd
    rows = [json.loads(l) for l in text.splitlines() if l.strip()]
    return pd.DataFrame.from_records(rows, columns=list(rows[0]) if rows else None)


def _frame(rows):
    import pandas as pd
    return pd.json_normalize(rows, sep="_")


class Report(dict):
    """The report's JSON as a dict; per-CPU, cluster and task DataFrames."""

    @property
    def cpus(self):
        return _frame(self.get("cpus", []))

    @property
    def clusters(self):
        return _frame(self.get("clusters", []))

    @property
    def tasks(self):
        return _frame(self.get("tasks", []))


def report(path, model):
    """Price the trace at path with model (a file or a bundled name)."""
    return Report(json.loads(report_json(path, model)))


def stats(path):
    """What each CPU and task did (no model): the JSON of `eatrace stats`."""
    return json.loads(stats_json(path))
