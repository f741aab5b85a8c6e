#!/bin/sh
# run.sh: not under sanitize: Dask's scheduling of the batch calls batch.sh runs sanitized
# eatrace.fleet on a real Dask cluster: a dask-scheduler and two
# dask-workers on 127.0.0.1 (ports chosen by the system, state and logs in
# $TMP), one worker killed (SIGKILL) while it holds tasks; the result must
# equal the local `eatrace batch -f jsonl` exactly: the same bytes, the
# same DataFrame, every trace once. Skipped without python3-distributed.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
[ -x "$PY" ] || skip "no /usr/bin/python3"
case "${MAKEFLAGS:-}" in *fsanitize*) skip "library built with sanitizers" ;; esac
LIB=$(dirname "$EATRACE")/build/libeatrace.so.0
[ -f "$LIB" ] || skip "no $LIB (make builds it)"
# Dask and Python write their state under HOME and TMPDIR: both in $TMP
mkdir -p "$TMP/home" "$TMP/tmp"
export HOME=$TMP/home TMPDIR=$TMP/tmp DASK_TEMPORARY_DIRECTORY=$TMP/tmp \
	DASK_CONFIG=$TMP/home/dask PYTHONDONTWRITEBYTECODE=1 \
	PYTHONPATH=$ROOT/python EATRACE_LIB=$LIB EATRACE_MODEL_PATH=$ROOT/models
# (found, not imported: importing them costs seconds)
$PY -c 'import importlib.util as u, sys
sys.exit(not (u.find_spec("distributed") and u.find_spec("pandas")))' 2>/dev/null || skip "python3-distributed or python3-pandas missing"
command -v dask-scheduler >/dev/null && command -v dask-worker >/dev/null ||
	skip "no dask-scheduler / dask-worker"
cd "$TMP" || exit 1

pids=
# every process this script started goes, whatever happens
cleanup() {
	for p in $pids; do kill -9 "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

dask-scheduler --host 127.0.0.1 --port 0 --dashboard-address 127.0.0.1:0 \
	--scheduler-file "$TMP/sched.json" >"$TMP/scheduler.log" 2>&1 &
pids="$!"
# the workers wait for the scheduler file themselves: all three start at
# once (most of this test's time is their start-up)
# (MALLOC_TRIM_THRESHOLD_: what Dask's nanny gives the workers it starts,
# which eatrace.fleet raises while a group of traces runs)
for w in w1 w2; do
	MALLOC_TRIM_THRESHOLD_=65536 dask-worker --scheduler-file "$TMP/sched.json" --host 127.0.0.1 --name $w \
		--nthreads 1 --no-nanny --no-dashboard --local-directory "$TMP/$w" \
		>"$TMP/$w.log" 2>&1 &
	pids="$pids $!"
	eval "pid_$w=$!"
done

# The traces: ten of the bundled trace.dat runs and text traces (each a
# task: enough for a worker to die holding some while others are done;
# scale is bench/dask-fleet.py's), plus one that is not a trace (an error
# row).
mkdir tr
i=0
while [ $i -lt 10 ]; do
	for f in "$ROOT"/traces/diff/*.dat "$ROOT"/traces/replay/*.txt; do
		[ $i -lt 10 ] || break
		i=$((i + 1))
		case $f in *.dat) e=dat ;; *) e=txt ;; esac
		cp "$f" "tr/$(printf %03d $i).$e"
	done
done
echo "not a trace" > tr/zzz.txt
# each file named (as the fleet gets them): batch DIR would skip the
# non-trace (docs/batch.md), a named one is its error row
"$EATRACE" batch -q -j 2 -f jsonl -m tc2 -m juno-r0 tr/* > local.jsonl
expect_eq "local batch: exit 1 (one error row)" "$?" 1

i=0
while [ ! -s "$TMP/sched.json" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
[ -s "$TMP/sched.json" ] || { cat "$TMP/scheduler.log"; fail "scheduler did not start"; finish; }

# shellcheck disable=SC2154
timeout 120 $PY "$ROOT/tests/e2e/fleet-dask.py" "$TMP/sched.json" "$pid_w1" tr local.jsonl \
	>"$TMP/py.out" 2>"$TMP/py.err"
rc=$?
cat "$TMP/py.out"
expect_eq "fleet test: exit 0" "$rc" 0
# (fail() returns 0: test the status itself for the logs)
if [ "$rc" -ne 0 ]; then
	tail -n 20 "$TMP/py.err"
	tail -n 5 "$TMP/w1.log" "$TMP/w2.log" "$TMP/scheduler.log"
fi
grep -q "^FAIL" "$TMP/py.out" && fail "fleet checks"
finish
