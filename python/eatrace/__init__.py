# SPDX-License-Identifier: GPL-2.0-only
"""eatrace: the CPU energy of Linux scheduling from traces (ctypes over
libeatrace.so.0).

    import eatrace
    r = eatrace.report("trace.dat", "juno-r0")
    r["energy"]["total"]        # the JSON of `eatrace report -f json`, as a dict
    r.cpus, r.clusters, r.tasks # pandas DataFrames (energy columns flattened)
    r.pstates, r.cstates        # per CPU x P-state / C-state (cluster_pstates ...)
    r = eatrace.report("trace.dat", "juno-r0", interval_ms=10)
    r.windows                   # per 10 ms window
    p = eatrace.replay("trace.dat", model="juno-r0", policies="feec,cfs")
    p.policies, p.clusters, p.cpus  # per policy (x cluster, x CPU)

    t = eatrace.Trace("trace.dat")  # read once, kept in memory
    t.report("juno-r0", start=1, end=2, cpus=[0, 1])   # any number of times
    t.intervals("juno-r0")      # per-CPU state intervals, a DataFrame
    eatrace.diff(base=[...], new=[...], model="juno-r0").verdict

The library is found through $EATRACE_LIB (a path), then relative to this
package: the copy `make install` put in LIBDIR with it (the path is in
eatrace/_installed.py), or the build tree's (../build/libeatrace.so.0);
then the system (libeatrace.so.0 on the loader's path). Bundled models are
found beside the library (PREFIX/share/eatrace/models, or the tree's
models/). Errors raise EatraceError with the one-line message the CLI
prints.
"""
import ctypes
import json
import os

__all__ = ["EatraceError", "Report", "Replay", "Trace", "Diff", "report", "replay",
           "stats", "diff", "report_json", "replay_json", "stats_json", "diff_json",
           "batch_rows", "rows_frame"]


class _ReplayRequest(ctypes.Structure):
    """struct ea_replay_request (include/eatrace/eatrace.h)."""
    _fields_ = [("model", ctypes.c_char_p), ("target_model", ctypes.c_char_p),
                ("policies", ctypes.c_char_p), ("governor", ctypes.c_char_p),
                ("idle", ctypes.c_char_p), ("work", ctypes.c_char_p),
                ("source_capacity", ctypes.c_ulong), ("auto_pin", ctypes.c_int)]


class _TraceOpts(ctypes.Structure):
    """struct ea_trace_opts (include/eatrace/trace.h)."""
    _fields_ = [("start_ns", ctypes.c_uint64), ("end_ns", ctypes.c_uint64),
                ("start_absolute", ctypes.c_bool), ("end_absolute", ctypes.c_bool),
                ("has_end", ctypes.c_bool), ("idle_state", ctypes.c_int),
                ("unknown_idle_state", ctypes.c_int), ("absent_offline", ctypes.c_bool),
                ("assume_khz", ctypes.c_ulong), ("no_wakeups", ctypes.c_bool),
                ("interval_ns", ctypes.c_uint64), ("cpus", ctypes.c_char_p)]


class _Interval(ctypes.Structure):
    """struct ea_interval (include/eatrace/trace.h)."""
    _fields_ = [("start_ns", ctypes.c_uint64), ("end_ns", ctypes.c_uint64),
                ("power", ctypes.c_double), ("cpu", ctypes.c_int32),
                ("pid", ctypes.c_int32), ("freq_khz", ctypes.c_uint32),
                ("idle_state", ctypes.c_int16), ("state", ctypes.c_uint8),
                ("pad", ctypes.c_uint8), ("comm", ctypes.c_char * 16)]


class _DiffRequest(ctypes.Structure):
    """struct ea_diff_request (include/eatrace/eatrace.h)."""
    _fields_ = [("model", ctypes.c_char_p), ("model_b", ctypes.c_char_p),
                ("base", ctypes.POINTER(ctypes.c_char_p)), ("nbase", ctypes.c_int),
                ("news", ctypes.POINTER(ctypes.c_char_p)), ("nnew", ctypes.c_int),
                ("max_increase_pct", ctypes.c_double), ("confidence", ctypes.c_double),
                ("normalize", ctypes.c_char_p), ("inconclusive", ctypes.c_char_p),
                ("jobs", ctypes.c_int), ("opts", ctypes.POINTER(_TraceOpts))]


class EatraceError(Exception):
    """A trace or model eatrace could not read; str() is the one-line message."""


_lib = None


def _load():
    global _lib
    if _lib is not None:
        return _lib
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        from ._installed import LIB as installed  # written by make install
    except ImportError:
        installed = None
    cands = [os.environ.get("EATRACE_LIB"),
             installed and os.path.normpath(os.path.join(here, installed)),
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
    lib.ea_report_json_interval.argtypes = [ctypes.c_char_p, ctypes.c_char_p,
                                            ctypes.c_uint64, pp, pp]
    lib.ea_report_json_interval.restype = ctypes.c_int
    lib.ea_replay_json.argtypes = [ctypes.c_char_p, ctypes.POINTER(_ReplayRequest), pp, pp]
    lib.ea_replay_json.restype = ctypes.c_int
    lib.ea_batch_rows_text.argtypes = [ctypes.c_char_p] * 4 + [pp, pp]
    lib.ea_batch_rows_text.restype = ctypes.c_int
    lib.ea_free.argtypes = [ctypes.c_void_p]
    lib.ea_free.restype = None
    vp, opts = ctypes.c_void_p, ctypes.POINTER(_TraceOpts)
    lib.ea_trace_open.argtypes = [ctypes.POINTER(vp), ctypes.c_char_p, pp]
    lib.ea_trace_open.restype = ctypes.c_int
    lib.ea_trace_free.argtypes = [vp]
    lib.ea_trace_free.restype = None
    for fn in ("ea_trace_nevents", "ea_trace_bytes"):
        getattr(lib, fn).argtypes = [vp]
        getattr(lib, fn).restype = ctypes.c_size_t
    lib.ea_trace_report_json.argtypes = [vp, ctypes.c_char_p, opts, pp, pp]
    lib.ea_trace_report_json.restype = ctypes.c_int
    lib.ea_trace_stats_json.argtypes = [vp, ctypes.c_char_p, opts, pp, pp]
    lib.ea_trace_stats_json.restype = ctypes.c_int
    lib.ea_trace_replay_json.argtypes = [vp, ctypes.POINTER(_ReplayRequest), pp, pp]
    lib.ea_trace_replay_json.restype = ctypes.c_int
    lib.ea_trace_intervals.argtypes = [vp, ctypes.c_char_p, opts, pp,
                                       ctypes.POINTER(ctypes.c_size_t), pp]
    lib.ea_trace_intervals.restype = ctypes.c_int
    lib.ea_diff_json.argtypes = [ctypes.POINTER(_DiffRequest), pp,
                                 ctypes.POINTER(ctypes.c_int), pp]
    lib.ea_diff_json.restype = ctypes.c_int
    _lib = lib
    return lib


def _take(lib, ptr):
    """The C string at ptr, freed."""
    if not ptr.value:
        return ""
    # surrogateescape: bytes that are not UTF-8 (a path's, a comm's) come
    # back as s.encode("utf-8", "surrogateescape"), the CLI's exact bytes
    s = ctypes.string_at(ptr.value).decode("utf-8", "surrogateescape")
    lib.ea_free(ptr)
    return s


def _call(fn, *args, ok=(0,)):
    lib = _load()
    out, err = ctypes.c_void_p(), ctypes.c_void_p()
    # os.fsencode: a str path from os.listdir of a name that is not UTF-8
    # (surrogate-escaped) is its own bytes again
    enc = [a if not isinstance(a, (str, bytes, os.PathLike)) else os.fsencode(a)
           for a in args]
    rc = getattr(lib, fn)(*enc, ctypes.byref(out), ctypes.byref(err))
    if rc not in ok:
        _take(lib, out)
        raise EatraceError(_take(lib, err) or "%s failed" % fn)
    return _take(lib, out)


def _interval_ns(interval_ms):
    """--interval MS as the CLI reads it (ms to the nearest ns)."""
    v = float(interval_ms)
    if not (v >= 0.001) or v > 1e9:
        raise EatraceError("--interval: '%s' is not a duration in ms" % interval_ms)
    return int(v * 1e6 + 0.5)


def report_json(path, model, interval_ms=None):
    """`eatrace report -f json -m MODEL [--interval MS] PATH`, byte for
    byte, as a string."""
    if interval_ms is None:
        return _call("ea_report_json", path, model)
    return _call("ea_report_json_interval", path, model, _interval_ns(interval_ms))


def _enc(v):
    return None if v is None else os.fsencode(v)


def _replay_request(model, target_model, policies, governor, idle, work,
                    source_capacity, auto_pin):
    return _ReplayRequest(_enc(model), _enc(target_model), _enc(policies), _enc(governor),
                          _enc(idle), _enc(work), int(source_capacity or 0),
                          int(bool(auto_pin)))


def replay_json(path, model=None, target_model=None, policies=None, governor=None,
                idle=None, work=None, source_capacity=0, auto_pin=False):
    """`eatrace replay -f json PATH` with those options (--policy, ...),
    byte for byte, as a string."""
    rq = _replay_request(model, target_model, policies, governor, idle, work,
                         source_capacity, auto_pin)
    return _call("ea_replay_json", path, ctypes.byref(rq))


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


def _drop(rows, *keys):
    return [{k: v for k, v in r.items() if k not in keys} for r in rows]


def _states(parts, key, keep):
    """One row per part x state: the part's keep columns, then the state's."""
    out = []
    for p in parts:
        for st in p.get(key, []):
            row = {k: p[k] for k in keep}
            row.update(st)
            out.append(row)
    return out


class Report(dict):
    """The report's JSON as a dict (docs/json.md), and DataFrames of it:
    cpus, clusters (without their state lists), pstates and cstates (per
    CPU x state), cluster_pstates and cluster_cstates (per cluster x
    state), tasks, windows (with interval_ms). Energy columns flattened
    (energy_total, energy_busy, ...)."""

    @property
    def cpus(self):
        return _frame(_drop(self.get("cpus", []), "pstates", "cstates"))

    @property
    def clusters(self):
        return _frame(_drop(self.get("clusters", []), "pstates", "cstates"))

    @property
    def pstates(self):
        return _frame(_states(self.get("cpus", []), "pstates", ("cpu", "cluster")))

    @property
    def cstates(self):
        return _frame(_states(self.get("cpus", []), "cstates", ("cpu", "cluster")))

    @property
    def cluster_pstates(self):
        return _frame(_states(self.get("clusters", []), "pstates", ("name",)))

    @property
    def cluster_cstates(self):
        return _frame(_states(self.get("clusters", []), "cstates", ("name",)))

    @property
    def tasks(self):
        return _frame(self.get("tasks", []))

    @property
    def windows(self):
        return _frame(self.get("windows", []))


def report(path, model, interval_ms=None):
    """Price the trace at path with model (a file or a bundled name), as
    `eatrace report` does; interval_ms: also per window (--interval)."""
    return Report(json.loads(report_json(path, model, interval_ms)))


class Replay(dict):
    """The replay's JSON as a dict (docs/replay.md), and DataFrames of it:
    policies (one row per policy, without its lists), clusters and cpus
    (per policy x cluster / CPU, a "policy" column first), actual_clusters
    (the recorded run's, with a model)."""

    @property
    def policies(self):
        return _frame(_drop(self.get("policies", []), "clusters", "cpus"))

    def _per_policy(self, key):
        rows = []
        for p in self.get("policies", []):
            for part in p.get(key, []):
                row = {"policy": p["name"]}
                row.update(part)
                rows.append(row)
        return _frame(rows)

    @property
    def clusters(self):
        return self._per_policy("clusters")

    @property
    def cpus(self):
        return self._per_policy("cpus")

    @property
    def actual_clusters(self):
        return _frame((self.get("actual") or {}).get("clusters", []))


def replay(path, model=None, target_model=None, policies=None, governor=None,
           idle=None, work=None, source_capacity=0, auto_pin=False):
    """Replay the trace's workload under policies (`eatrace replay`: model
    is -m, target_model --target-model, policies --policy "all" or
    "feec,cfs", governor, idle, work, source_capacity, auto_pin the
    options of those names)."""
    return Replay(json.loads(replay_json(path, model, target_model, policies, governor,
                                         idle, work, source_capacity, auto_pin)))


def stats(path):
    """What each CPU and task did (no model): the JSON of `eatrace stats`."""
    return json.loads(stats_json(path))


from eatrace.trace import Trace, Diff, diff, diff_json  # noqa: E402,F401
