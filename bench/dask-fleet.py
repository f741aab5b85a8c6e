# SPDX-License-Identifier: GPL-2.0-only
# bench/run.sh's Dask figures: eatrace.fleet over a local Dask cluster of
# one, then two worker processes (one thread each), on the traces of
# TRACE_DIR; wall time of rows_text() per run (median of REPS, the
# cluster's start excluded), and whether the rows are the CLI's bytes.
# usage: dask-fleet.py TRACE_DIR MODEL CLI_JSONL REPS
import os
import statistics
import sys
import tempfile
import time

from distributed import Client, LocalCluster

import eatrace.fleet


def main():
    tdir, model, cli, reps = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    paths = [os.path.join(tdir, f) for f in sorted(os.listdir(tdir))]
    want = open(cli).read()
    same = True
    walls = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in (1, 2):
            with LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                              dashboard_address=None, local_directory=tmp) as cl, \
                    Client(cl) as client:
                # the workers import the package and load the library once
                eatrace.fleet.rows_text(paths[:n * 2], model, client)
                t = []
                for _ in range(reps):
                    t0 = time.perf_counter()
                    got = eatrace.fleet.rows_text(paths, model, client)
                    t.append(time.perf_counter() - t0)
                    same &= got == want
                walls[n] = statistics.median(t)
    print("dask_100_1worker_wall_us: %.0f" % (walls[1] * 1e6))
    print("dask_100_2workers_wall_us: %.0f" % (walls[2] * 1e6))
    print("ratio_dask_2workers_vs_1: %.2f" % (walls[1] / walls[2]))
    print("dask_same_as_cli: %s" % ("yes" if same else "no"))


if __name__ == "__main__":
    main()
