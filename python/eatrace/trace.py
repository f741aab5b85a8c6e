# SPDX-License-Identifier: GPL-2.0-only
"""A trace read once, asked many times; and `eatrace diff` from Python.

    import eatrace
    t = eatrace.Trace("trace.dat")          # read and checked once
    r = t.report("juno-r0", start=1, end=3) # the same Report as eatrace.report
    t.report("juno-r0", cpus=[0, 1]).cpus   # those CPUs' share
    t.stats(), t.replay(model="juno-r0", policies="feec,cfs")
    df = t.intervals("juno-r0")             # per-CPU state intervals
    d = eatrace.diff(base=[...], new=[...], model="juno-r0")
    d.verdict, d.runs

libeatrace (eatrace/trace.h) keeps the trace's events in memory: each
call rebuilds the CPU states from them with its own options, as the CLI
does from the file, and gives the same figures (the bytes of `eatrace
report -f json` with the same options). docs/python.md has a worked
example.
"""
import ctypes
import json
import operator
import os

import eatrace as _e

__all__ = ["Trace", "Diff", "diff", "diff_json"]

_STATES = ("busy", "idle", "unknown", "suspended", "offline")


def _time(name, v):
    """--start/--end as the CLI reads them: seconds from the trace's first
    event, or "@T" a trace timestamp; to the nanosecond (truncated beyond,
    as the CLI). A number or a string. Returns (ns, absolute)."""
    if isinstance(v, bool):
        raise _e.EatraceError("%s: '%s' is not a time in seconds" % (name, v))
    if isinstance(v, float):
        s = format(v, ".9f")
    elif _index(v) is not None:
        s = str(_index(v))
    else:
        s = str(v)
    t, absolute = (s[1:], True) if s.startswith("@") else (s, False)
    whole, dot, frac = t.partition(".")
    ok = (whole.isdigit() or whole == "") and (frac.isdigit() or frac == "") and \
        (whole or frac) and whole.isascii() and frac.isascii() and \
        len(whole) <= 10 and (whole or dot)
    if not ok:
        raise _e.EatraceError("%s: '%s' is not a time in seconds" % (name, v))
    ns = int(whole or 0) * 1000000000 + int((frac[:9] + "000000000")[:9])
    return ns, absolute


def _index(v):
    """An integer (numpy's too), or None; never a bool."""
    if isinstance(v, bool):
        return None
    try:
        return operator.index(v)
    except TypeError:
        return None


def _cpus(cpus):
    """cpus=: an int, an iterable of ints, or the CLI's "0,2-3"."""
    if cpus is None:
        return None
    if isinstance(cpus, str):
        return cpus.encode()
    if _index(cpus) is not None:
        cpus = [cpus]
    out = []
    for c in cpus:
        if _index(c) is None or _index(c) < 0:
            raise _e.EatraceError("cpus: %r is not a CPU number" % (c,))
        out.append(str(_index(c)))
    if not out:
        raise _e.EatraceError("cpus: an empty list")
    return ",".join(out).encode()


def _int(name, v, lo, hi):
    i = _index(v)
    if i is None or not lo <= i <= hi:
        raise _e.EatraceError("%s: '%s' is not an idle state index (0-63)" % (name, v))
    return i


def _opts(start=None, end=None, cpus=None, idle_state=0, unknown_idle_state=0,
          absent_offline=False, assume_opp=None, no_wakeups=False, interval_ms=None):
    """struct ea_trace_opts from the CLI's options, by name."""
    o = _e._TraceOpts()
    if start is not None:
        o.start_ns, o.start_absolute = _time("--start", start)
    if end is not None:
        o.end_ns, o.end_absolute = _time("--end", end)
        o.has_end = True
    o.idle_state = _int("--idle-state", idle_state, 0, 63)
    o.unknown_idle_state = _int("--unknown-idle-state", unknown_idle_state, 0, 63)
    o.absent_offline = bool(absent_offline)
    if assume_opp is not None:
        khz = _index(assume_opp)
        if khz is None or not 1 <= khz <= 100000000:
            raise _e.EatraceError("--assume-opp: '%s' is not a frequency in kHz "
                                  "(1 to 100000000)" % (assume_opp,))
        o.assume_khz = khz
    o.no_wakeups = bool(no_wakeups)
    if interval_ms is not None:
        o.interval_ns = _e._interval_ns(interval_ms)
    o.cpus = _cpus(cpus)
    return o


class Trace:
    """A trace file read once (any format `eatrace report` reads), kept in
    memory (about 30 to 80 bytes an event: nbytes), asked as often as
    wanted with any options: report(), stats(), replay(), intervals().
    The file is not read again. Methods may be called from several
    threads at once. close() (or `with`) frees the memory at once."""

    def __init__(self, path):
        lib = _e._load()
        h, err = ctypes.c_void_p(), ctypes.c_void_p()
        if lib.ea_trace_open(ctypes.byref(h), os.fsencode(path), ctypes.byref(err)):
            raise _e.EatraceError(_e._take(lib, err) or "cannot read %s" % path)
        self._lib, self._h = lib, h
        self.path = path

    def close(self):
        if getattr(self, "_h", None):
            self._lib.ea_trace_free(self._h)
            self._h = None

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _handle(self):
        if not self._h:
            raise _e.EatraceError("%s: the Trace is closed" % self.path)
        return self._h

    def __repr__(self):
        if not self._h:
            return "<eatrace.Trace %r, closed>" % (self.path,)
        return "<eatrace.Trace %r: %d events, %.1f MiB>" % (
            self.path, self.nevents, self.nbytes / 1048576)

    @property
    def nevents(self):
        """Events kept."""
        return self._lib.ea_trace_nevents(self._handle())

    @property
    def nbytes(self):
        """Memory they take."""
        return self._lib.ea_trace_bytes(self._handle())

    def _json(self, fn, *args):
        out, err = ctypes.c_void_p(), ctypes.c_void_p()
        if getattr(self._lib, fn)(self._handle(), *args, ctypes.byref(out), ctypes.byref(err)):
            _e._take(self._lib, out)
            raise _e.EatraceError(_e._take(self._lib, err) or "%s failed" % fn)
        return _e._take(self._lib, out)

    def report_json(self, model, start=None, end=None, cpus=None, idle_state=0,
                    unknown_idle_state=0, absent_offline=False, assume_opp=None,
                    no_wakeups=False, interval_ms=None):
        """`eatrace report -f json -m MODEL` with those options (--start,
        --end, --idle-state, --unknown-idle-state, --absent-offline,
        --assume-opp, --no-wakeups, --interval), byte for byte, as a string.
        cpus: only those CPUs' share (an int, a list, or "0,2-3")."""
        o = _opts(start, end, cpus, idle_state, unknown_idle_state, absent_offline,
                  assume_opp, no_wakeups, interval_ms)
        return self._json("ea_trace_report_json", os.fsencode(model), ctypes.byref(o))

    def report(self, model, start=None, end=None, cpus=None, idle_state=0,
               unknown_idle_state=0, absent_offline=False, assume_opp=None,
               no_wakeups=False, interval_ms=None):
        """The energy, priced with model (a file or bundled name): the
        Report eatrace.report() gives, with the CLI's options by name.
        start, end: seconds from the first event (a number or "2.5"), or
        "@T" a trace timestamp. cpus: only those CPUs' share: the total,
        clusters, tasks and windows count only their energy (their own,
        and their shares of cluster power), so the total is the sum of
        their energies in the full report."""
        return _e.Report(json.loads(self.report_json(
            model, start, end, cpus, idle_state, unknown_idle_state, absent_offline,
            assume_opp, no_wakeups, interval_ms)))

    def stats_json(self, model=None, start=None, end=None, idle_state=0,
                   unknown_idle_state=0, absent_offline=False):
        """`eatrace stats -f json [-m MODEL]` with those options."""
        o = _opts(start, end, None, idle_state, unknown_idle_state, absent_offline)
        return self._json("ea_trace_stats_json", _e._enc(model), ctypes.byref(o))

    def stats(self, model=None, start=None, end=None, idle_state=0,
              unknown_idle_state=0, absent_offline=False):
        """What each CPU and task did: the dict eatrace.stats() gives (a
        model only lends its frequency domains and capacities)."""
        return json.loads(self.stats_json(model, start, end, idle_state,
                                          unknown_idle_state, absent_offline))

    def replay_json(self, model=None, target_model=None, policies=None, governor=None,
                    idle=None, work=None, source_capacity=0, auto_pin=False):
        """`eatrace replay -f json` with those options, as a string."""
        rq = _e._replay_request(model, target_model, policies, governor, idle, work,
                                source_capacity, auto_pin)
        return self._json("ea_trace_replay_json", ctypes.byref(rq))

    def replay(self, model=None, target_model=None, policies=None, governor=None,
               idle=None, work=None, source_capacity=0, auto_pin=False):
        """The Replay eatrace.replay() gives (same options)."""
        return _e.Replay(json.loads(self.replay_json(
            model, target_model, policies, governor, idle, work, source_capacity,
            auto_pin)))

    def intervals(self, model=None, start=None, end=None, cpus=None, idle_state=0,
                  unknown_idle_state=0, absent_offline=False, assume_opp=None):
        """A pandas DataFrame, one row per stretch of one CPU's state as
        report reconstructs it (within the window; sorted by start, then
        CPU): cpu, start_s, end_s (trace seconds), state ("busy", "idle",
        "unknown" where the trace does not show it, "suspended",
        "offline"), pid (0 idle, -1 unknown task), comm, freq_khz (0 not
        reported), idle_state (idle or unknown idle; else -1), power (the
        CPU's own power in that state in the model's power_unit, without
        cluster power or wakeups: busy at the OPP charged, idle in its
        C-state; NaN without a model)."""
        import numpy as np
        import pandas as pd
        o = _opts(start, end, cpus, idle_state, unknown_idle_state, absent_offline,
                  assume_opp)
        ptr, n, err = ctypes.c_void_p(), ctypes.c_size_t(), ctypes.c_void_p()
        if self._lib.ea_trace_intervals(self._handle(), _e._enc(model), ctypes.byref(o),
                                        ctypes.byref(ptr), ctypes.byref(n),
                                        ctypes.byref(err)):
            raise _e.EatraceError(_e._take(self._lib, err) or "intervals failed")
        try:
            size = ctypes.sizeof(_Interval) * n.value
            a = np.frombuffer(ctypes.string_at(ptr.value, size) if size else b"",
                              dtype=_interval_dtype(np))
        finally:
            self._lib.ea_free(ptr)
        comm = [c.decode("utf-8", "surrogateescape") for c in a["comm"]]
        return pd.DataFrame({
            "cpu": a["cpu"].astype(np.int64),
            "start_s": a["start_ns"] / 1e9,
            "end_s": a["end_ns"] / 1e9,
            "state": pd.Categorical.from_codes(a["state"].astype(np.int8),
                                               categories=list(_STATES)),
            "pid": a["pid"].astype(np.int64),
            "comm": comm,
            "freq_khz": a["freq_khz"].astype(np.int64),
            "idle_state": a["idle_state"].astype(np.int64),
            "power": a["power"],
        })


_Interval = _e._Interval


def _interval_dtype(np):
    """struct ea_interval as a numpy dtype (its ctypes offsets; comm S16)."""
    names = [f for f, _ in _Interval._fields_ if f != "pad"]
    fmt = {"start_ns": "<u8", "end_ns": "<u8", "power": "<f8", "cpu": "<i4", "pid": "<i4",
           "freq_khz": "<u4", "idle_state": "<i2", "state": "u1", "comm": "S16"}
    return np.dtype({"names": names, "formats": [fmt[f] for f in names],
                     "offsets": [getattr(_Interval, f).offset for f in names],
                     "itemsize": ctypes.sizeof(_Interval)})


class Diff(dict):
    """The diff's JSON as a dict (docs/json.md, `eatrace diff -f json`):
    verdict ("pass", "fail", "inconclusive"), change_pct, its interval...;
    status the CLI's exit status for it (0, 1, 3); runs a DataFrame of
    every run (side, trace, energy, busy, idle, wakeup, duration_s,
    work, value): energies in the dict's energy_unit, work in its
    work_unit (capacity x s), value in its value_unit."""

    status = None

    @property
    def verdict(self):
        return self["verdict"]

    @property
    def runs(self):
        rows = []
        for side in ("base", "new"):
            for r in self[side]["runs"]:
                row = {"side": side}
                row.update(r)
                rows.append(row)
        return _e._frame(rows)


def _paths(v):
    if v is None:
        return []
    if isinstance(v, (str, bytes, os.PathLike, Trace)):
        v = [v]
    return [os.fsencode(p.path if isinstance(p, Trace) else p) for p in v]


def diff_json(base, new=None, model=None, models=None, max_increase=1.0, confidence=0.95,
              normalize="none", inconclusive=None, start=None, end=None, idle_state=0,
              assume_opp=None, no_wakeups=False, jobs=1):
    """`eatrace diff -f json`: (the JSON string, the CLI's exit status for
    the verdict). base, new: paths (or Traces: their files are read);
    model: -m; models=(A, B): --models A B on base's traces (no new)."""
    lib = _e._load()
    b, n = _paths(base), _paths(new)
    arr = lambda xs: (ctypes.c_char_p * max(1, len(xs)))(*xs)  # noqa: E731
    rq = _e._DiffRequest()
    if models is not None:
        if model is not None:
            raise _e.EatraceError("diff: --models takes TRACE... alone (no -m, no --base/--new)")
        a, m2 = models
        rq.model, rq.model_b = os.fsencode(a), os.fsencode(m2)
    elif model is not None:
        rq.model = os.fsencode(model)
    ba, na = arr(b), arr(n)
    rq.base, rq.nbase = ctypes.cast(ba, ctypes.POINTER(ctypes.c_char_p)), len(b)
    rq.news, rq.nnew = ctypes.cast(na, ctypes.POINTER(ctypes.c_char_p)), len(n)
    rq.max_increase_pct = float(max_increase)
    rq.confidence = float(confidence)
    rq.normalize = _e._enc(normalize)
    rq.inconclusive = _e._enc(inconclusive)
    rq.jobs = int(jobs)
    o = _opts(start, end, None, idle_state, 0, False, assume_opp, no_wakeups)
    rq.opts = ctypes.pointer(o)
    out, err, status = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_int()
    if lib.ea_diff_json(ctypes.byref(rq), ctypes.byref(out), ctypes.byref(status),
                        ctypes.byref(err)):
        _e._take(lib, out)
        raise _e.EatraceError(_e._take(lib, err) or "diff failed")
    return _e._take(lib, out), status.value


def diff(base, new=None, model=None, models=None, max_increase=1.0, confidence=0.95,
         normalize="none", inconclusive=None, start=None, end=None, idle_state=0,
         assume_opp=None, no_wakeups=False, jobs=1):
    """Did energy go up from the base runs to the new ones, with
    confidence (`eatrace diff`, options by name)? A Diff; a failed or
    inconclusive gate is a verdict, not an exception. jobs: processes
    pricing at once (1: in this one)."""
    text, status = diff_json(base, new, model, models, max_increase, confidence,
                             normalize, inconclusive, start, end, idle_state,
                             assume_opp, no_wakeups, jobs)
    d = Diff(json.loads(text))
    d.status = status
    return d
