#!/bin/sh
# Descriptors in batch and its Python and Dask twins (issue 29 item 5):
# libtracecmd 3.1 keeps the descriptor of a trace.dat whose CPU data it
# cannot read (eatrace abandons the handle, whose close crashes), so each
# such file used to cost a descriptor for good. Under `ulimit -n 128`,
# 150 truncated copies and 3 good traces: every good one is priced, every
# bad one is its "CPU data unreadable" row, nothing says "Too many open
# files", and stdout holds table rows only (libtracecmd's messages, once
# descriptors ran out, landed in it). Before the fix: rows "Too many open
# files", the good traces among them, and a Python process unable to open
# a model.
. "$(dirname "$0")/lib.sh"
cd "$TMP" || exit 1
mkdir bad good
# trappy-idle-2cpu.dat less its last byte: "CPU data unreadable" (the
# handle abandoned after a failed tracecmd_init_data())
head -c "$(($(wc -c <"$ROOT/tests/fixtures/hostile/trappy-idle-2cpu.dat") - 1))" \
	"$ROOT/tests/fixtures/hostile/trappy-idle-2cpu.dat" >bad/c000.dat
i=1
while [ $i -lt 150 ]; do
	ln bad/c000.dat "bad/c$(printf %03d $i).dat"
	i=$((i + 1))
done
cp "$ROOT/traces/vm/wl-busy.dat" good/g1.dat
cp "$ROOT/traces/diff/light-1.dat" good/g2.dat
cp "$ROOT/traces/vm/vm-v7-compressed.dat" good/g3.dat

"$EATRACE" report -m juno-r0 bad/c000.dat >/dev/null 2>err.txt
grep -q "CPU data unreadable" err.txt && ok "the truncated copy is 'CPU data unreadable'" ||
	fail "truncated copy: $(cat err.txt)"

# rows of good traces alone, as the reference
"$EATRACE" batch -q -j 1 -m juno-r0 good >ref.csv
# (an ok row ends power_unit, energy_unit, model_check_errors, no error)
expect_eq "reference: 3 priced rows" "$(grep -c '^good/.*,mW,mW x s,[0-9]*,$' ref.csv)" 3

for j in 1 2; do
	(ulimit -n 128 && exec "$EATRACE" batch -q -j $j -m juno-r0 bad good) >out$j.csv 2>err$j.txt
	expect_eq "batch -j $j: exit 1 (error rows)" "$?" 1
	expect_eq "batch -j $j: 153 rows and a header" "$(wc -l <out$j.csv | tr -d ' ')" 154
	expect_eq "batch -j $j: no 'Too many open files'" "$(grep -c 'Too many open files' out$j.csv err$j.txt | tr '\n' ' ')" "out$j.csv:0 err$j.txt:0 "
	expect_eq "batch -j $j: 150 'CPU data unreadable' rows" \
		"$(grep -c '^bad/c[0-9]*\.dat,juno-r0,.*CPU data unreadable$' out$j.csv)" 150
	grep '^good/' out$j.csv >good$j.csv
	grep '^good/' ref.csv >goodref.csv
	cmp -s good$j.csv goodref.csv && ok "batch -j $j: the good traces priced as alone" ||
		fail "batch -j $j: good rows differ: $(diff goodref.csv good$j.csv | head -n 4)"
	# every line a row of 13 fields (quoted errors may hold commas)
	/usr/bin/python3 -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
bad = [r for r in rows if len(r) != 13 or not r[0].startswith(("bad/", "good/", "path"))]
sys.exit(1 if bad else 0)' out$j.csv && ok "batch -j $j: stdout is table rows only" ||
		fail "batch -j $j: stdout holds something else: $(grep -v '^bad/\|^good/\|^path,' out$j.csv | head -n 2)"
done

# The Python package and eatrace.fleet call the same code in one process
# for every trace: the descriptor must be closed there, not only by
# replacing a worker.
PY=/usr/bin/python3
LIB=$(dirname "$EATRACE")/build/libeatrace.so.0
case "${MAKEFLAGS:-}" in *fsanitize*) finish ;; esac
[ -x "$PY" ] && [ -f "$LIB" ] || { echo "note: no python3 or $LIB: Python part skipped"; finish; }
export PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=$ROOT/python EATRACE_LIB=$LIB \
	EATRACE_MODEL_PATH=$ROOT/models HOME=$TMP TMPDIR=$TMP
"$EATRACE" batch -q -j 1 -f jsonl -m juno-r0 bad/* good/* >ref.jsonl
(ulimit -n 128 && exec $PY -c 'import os, sys, eatrace
paths = sorted("bad/" + f for f in os.listdir("bad")) + sorted("good/" + f for f in os.listdir("good"))
before = len(os.listdir("/proc/self/fd"))
sys.stdout.write("".join(eatrace.batch_rows(p, "juno-r0") for p in paths))
sys.stderr.write("fds %d %d\n" % (before, len(os.listdir("/proc/self/fd"))))') >py.jsonl 2>py.err
expect_eq "python batch_rows: exit 0" "$?" 0
cmp -s py.jsonl ref.jsonl && ok "python batch_rows: the rows of batch -f jsonl" ||
	fail "python rows differ: $(diff ref.jsonl py.jsonl | head -n 4) $(tail -n 2 py.err)"
set -- $(grep '^fds' py.err)
expect_eq "python: no descriptor left behind by 150 bad traces" "${3:-?}" "${2:-!}"

$PY -c 'import importlib.util as u, sys
sys.exit(not (u.find_spec("distributed") and u.find_spec("pandas")))' 2>/dev/null ||
	{ echo "note: no python3-distributed: Dask part skipped"; finish; }
(ulimit -n 256 && exec timeout 120 $PY -c 'import os, sys
from distributed import Client
import eatrace.fleet
paths = sorted("bad/" + f for f in os.listdir("bad")) + sorted("good/" + f for f in os.listdir("good"))
with Client(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None) as c:
    sys.stdout.write(eatrace.fleet.rows_text(paths, "juno-r0", c, chunk=10))') >dask.jsonl 2>dask.err
expect_eq "dask fleet: exit 0" "$?" 0
cmp -s dask.jsonl ref.jsonl && ok "dask fleet: the rows of batch -f jsonl" ||
	fail "dask rows differ: $(diff ref.jsonl dask.jsonl | head -n 4) $(tail -n 3 dask.err)"
finish
