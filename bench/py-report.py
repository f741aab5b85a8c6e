# SPDX-License-Identifier: GPL-2.0-only
# bench/run.sh's Python figures: eatrace.report(TRACE, MODEL) timed inside
# one interpreter (the call, with the JSON parsed into the Report; the
# interpreter's start and the import are not in it: a notebook pays them
# once), median of REPS; and whether the figures are the CLI's: the
# call's JSON text against CLI_JSON (`eatrace report -f json -m MODEL
# TRACE`'s output) byte for byte, and the parsed Report against it parsed.
# usage: py-report.py TRACE MODEL CLI_JSON REPS
import json
import statistics
import sys
import time

import eatrace


def main():
    trace, model, cli, reps = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    walls = []
    for _ in range(reps):
        t0 = time.perf_counter()
        r = eatrace.report(trace, model)
        walls.append(time.perf_counter() - t0)
    want = open(cli, encoding="utf-8", errors="surrogateescape").read()
    same = eatrace.report_json(trace, model) == want and dict(r) == json.loads(want)
    print("python_report_call_wall_us: %.0f" % (statistics.median(walls) * 1e6))
    print("python_same_as_cli: %s" % ("yes" if same else "no"))


if __name__ == "__main__":
    main()
