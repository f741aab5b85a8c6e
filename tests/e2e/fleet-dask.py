# SPDX-License-Identifier: GPL-2.0-only
# Driven by fleet-dask.sh: SCHED_FILE KILL_PID TRACE_DIR LOCAL_JSONL.
# Runs eatrace.fleet over the cluster in a thread and kills worker "w1"
# (process KILL_PID) once some rows are done and it holds tasks; checks the result
# against the local batch's JSON lines. Prints ok:/FAIL: lines.
import os
import signal
import sys
import threading
import time

from distributed import Client

import eatrace
import eatrace.fleet

sched, kill_pid, tdir, local = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
paths = [os.path.join(tdir, f) for f in sorted(os.listdir(tdir))]
models = ["tc2", "juno-r0"]
nfail = 0


def check(name, cond, detail=""):
    global nfail
    print(("ok: %s" if cond else "FAIL: %s " + detail) % name)
    nfail += not cond


client = Client(scheduler_file=sched, timeout=60)
client.wait_for_workers(2, timeout=60)
workers = client.scheduler_info()["workers"]
victim = [a for a, w in workers.items() if w.get("name") == "w1"]
check("two workers, the victim among them", len(workers) == 2 and len(victim) == 1)


def counts(dask_scheduler=None):
    """(tasks of ours in memory, tasks of ours processing per worker)."""
    s = dask_scheduler
    mem = sum(1 for k, t in s.tasks.items() if str(k).startswith("eatrace-") and
              t.state == "memory")
    proc = {w.address: sum(1 for t in w.processing if str(t.key).startswith("eatrace-"))
            for w in s.workers.values()}
    return mem, proc


out = {}


def work():
    try:
        # a task per trace: the worker dies holding some while others
        # are done (the default groups them, checked below)
        out["text"] = eatrace.fleet.rows_text(paths, models, client, chunk=1)
    except Exception as e:  # reported below
        out["exc"] = e


th = threading.Thread(target=work)
th.start()
killed_at = None
t0 = time.time()
while th.is_alive() and time.time() - t0 < 60:
    mem, proc = client.run_on_scheduler(counts)
    if mem >= 3 and proc.get(victim[0], 0) >= 1:
        os.kill(kill_pid, signal.SIGKILL)
        killed_at = (mem, proc[victim[0]])
        break
    time.sleep(0.02)
th.join(90)
check("worker killed mid-run (rows done, tasks held)", killed_at is not None and
      killed_at[0] < len(paths), "killed_at=%s" % (killed_at,))
check("run finished", "text" in out, repr(out.get("exc")))
text = out.get("text", "")
want = open(local).read()
check("same bytes as eatrace batch -f jsonl", text == want,
      "%d vs %d bytes" % (len(text), len(want)))
df = eatrace.rows_frame(text)
ref = eatrace.rows_frame(want)
check("same DataFrame", df.equals(ref))
# every trace x model exactly once, in input order
check("each trace once per model",
      list(df["path"]) == [p for p in paths for _ in models] and
      list(df["model"]) == models * len(paths))
check("one error row per model for the non-trace",
      list(df[df["error"].notna()]["path"]) == [paths[-1]] * 2)
# grouped into tasks of several traces: by default (two tasks per worker
# thread, by size) and three traces a task; the same bytes
for chunk in (None, 3):
    got = eatrace.fleet.rows_text(paths, models, client, chunk=chunk)
    check("chunk=%s: same bytes as eatrace batch" % chunk, got == want,
          "%d vs %d bytes" % (len(got), len(want)))
# a bad model fails every task: its one-line error reaches the caller
try:
    eatrace.fleet.rows_text(paths[:2], "no-such-model", client, retries=0)
    check("a bad model raises", False, "no exception")
except eatrace.EatraceError as e:
    check("a bad model raises EatraceError naming it", "no-such-model" in str(e)
          and "\n" not in str(e), repr(str(e)))
left = client.scheduler_info()["workers"]
check("the killed worker is gone", len(left) == 1 and victim[0] not in left)
# the DataFrame reduction: run() is rows_frame(rows_text())
df2 = eatrace.fleet.run(paths[:3], "tc2", client)
check("run(): a DataFrame with batch's columns", list(df2.columns) == list(ref.columns)
      and len(df2) == 3 and df2["total_energy"].tolist() ==
      ref[ref["model"] == "tc2"]["total_energy"].tolist()[:3])
client.close()
sys.exit(1 if nfail else 0)
