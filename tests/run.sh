#!/bin/bash
# Run unit test binaries and end-to-end scripts; print one summary line.
# Usage: EATRACE=/path/to/eatrace tests/run.sh BIN_OR_SCRIPT...
# Every test must pass; the exit status is non-zero when any fails.
# A test that exits 77 (the Automake convention) was skipped: its last
# output line says why (e.g. "SKIP: no ../shared/traces"), and it is
# counted apart, never as a pass.
#
# Tests run TEST_JOBS at a time (default: the CPU count; TEST_JOBS=1 runs
# them one after the other, in the order given). A script whose first 30
# lines hold the line "# run.sh: exclusive" runs with nothing else beside
# it: those that use tracefs, time themselves, or run `make install`.
# A script whose first 30 lines hold "# run.sh: not under sanitize: WHY"
# is not run by `make sanitize` (EA_SANITIZE=1) and counts as skipped,
# with WHY: tests whose work is another program's (a browser, make install,
# Dask) or a text check, which the sanitized binary would only repeat.
# A test still running after TEST_TIMEOUT seconds (default 900: the
# longest takes under 60 s of wall time alone on a 2-vCPU VM) is stopped,
# with its children (timeout(1) signals its process group), and fails as
# "timed out": a hang fails the run instead of blocking CI.
# Results are printed as tests finish, each with its wall time and its
# CPU time (user + system of the test and its children), which says
# what a test costs however loaded the machine is.
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
limit=${TEST_TIMEOUT:-900}
pass=0
cpu_total=0
fail=0
skip=0
failed=""
logs=$(mktemp -d)
run_t0=$(date +%s)
trap 'rm -rf "$logs"' EXIT
# Under make sanitize, a trace.dat opened without trouble is not rehearsed
# again in a child by later tests while unchanged (src/input/dat-rehearsed.c)
if [ "${EA_SANITIZE:-0}" = 1 ]; then
	mkdir -p "$logs/rehearsed"
	export EATRACE_REHEARSED="$logs/rehearsed"
fi

# An exclusive test also holds a lock on the tracing directory (flock -o:
# not passed on to the test), for the whole machine: another test run here
# (two CIs at once) runs its exclusive tests before or after, never beside
# (record.sh's killed run leaves an instance that any eatrace record or top
# starting meanwhile removes). No lock without flock(1).
lock=
command -v flock >/dev/null 2>&1 && [ -d /sys/kernel/tracing ] && lock=/sys/kernel/tracing

exclusive() {
	case "$1" in
	*.sh) head -n 30 "$1" 2>/dev/null | grep -qx '# run.sh: exclusive' ;;
	*) return 1 ;;
	esac
}

# unsanitized T: why T is not run under make sanitize (empty: it is)
unsanitized() {
	[ "${EA_SANITIZE:-0}" = 1 ] || return 0
	case "$1" in
	*.sh) head -n 30 "$1" 2>/dev/null | sed -n 's/^# run\.sh: not under sanitize: //p' | head -n 1 ;;
	esac
}

# launch I: run test I in the background; its exit status and wall time
# land in $logs/I.rc and $logs/I.dt, its output in $logs/I.log.
launch() {
	local t=${tests[$1]}
	(
		t0=$(date +%s)
		case "$t" in
		*.sh)
			if [ -n "$lock" ] && exclusive "$t"; then
				flock -o -w "$limit" "$lock" timeout -k 10 "$limit" sh "$t"
			else
				timeout -k 10 "$limit" sh "$t"
			fi >"$logs/$1.log" 2>&1 ;;
		*) timeout -k 10 "$limit" "$t" >"$logs/$1.log" 2>&1 ;;
		esac
		rc=$?
		# CPU seconds of the test and its children (user + system):
		# what it costs whatever else the machine is doing
		# (times itself, not in a pipe: a pipe's subshell has no children)
		times >"$logs/$1.times"
		awk 'NR == 2 { gsub(/[ms]/, " "); print int($1 * 60 + $2 + $3 * 60 + $4 + 0.5) }' \
			"$logs/$1.times" >"$logs/$1.cpu"
		echo $(($(date +%s) - t0)) >"$logs/$1.dt"
		echo $rc >"$logs/$1.rc"
	) &
	running[$!]=$1
}

# report I: count and print the result of finished test I.
report() {
	local t=${tests[$1]} rc dt cpu
	rc=$(cat "$logs/$1.rc")
	dt=$(cat "$logs/$1.dt")
	cpu=$(cat "$logs/$1.cpu")
	cpu_total=$((cpu_total + cpu))
	if [ "$rc" -eq 0 ]; then
		pass=$((pass + 1))
		echo "PASS $t (${dt}s, cpu ${cpu}s)"
	elif [ "$rc" -eq 77 ]; then
		skip=$((skip + 1))
		echo "SKIP $t ($(grep -i 'skip' "$logs/$1.log" | tail -n 1 | cut -c1-200))"
	else
		fail=$((fail + 1))
		failed="$failed $t"
		if [ "$dt" -ge "$limit" ]; then
			echo "FAIL $t (timed out after ${dt}s: TEST_TIMEOUT=$limit)"
		else
			echo "FAIL $t (exit $rc, ${dt}s)"
		fi
		sed 's/^/    /' "$logs/$1.log" | tail -n 40
	fi
}

# reap: wait for at least one running test to end, report those ended.
reap() {
	local pid
	wait -n 2>/dev/null
	for pid in "${!running[@]}"; do
		if [ -f "$logs/${running[$pid]}.rc" ]; then
			wait "$pid" 2>/dev/null
			report "${running[$pid]}"
			unset "running[$pid]"
		fi
	done
}

tests=("$@")
declare -A running=()
i=0
while [ $i -lt ${#tests[@]} ]; do
	why=$(unsanitized "${tests[$i]}")
	if [ -n "$why" ]; then
		skip=$((skip + 1))
		echo "SKIP ${tests[$i]} (not under make sanitize: $why)"
	elif exclusive "${tests[$i]}"; then
		while [ ${#running[@]} -gt 0 ]; do reap; done
		launch $i
		while [ ${#running[@]} -gt 0 ]; do reap; done
	else
		while [ ${#running[@]} -ge "$jobs" ]; do reap; done
		launch $i
	fi
	i=$((i + 1))
done
while [ ${#running[@]} -gt 0 ]; do reap; done

# No test may write to a system path: after the run, /dev/null must still
# be a character device and /dev/stdout a symlink (issue 16: an atomic
# rename once turned /dev/null into a regular file for the whole machine).
for sys in "/dev/null -c a character device" "/dev/stdout -L a symlink"; do
	set -- $sys
	if [ ! "$2" "$1" ]; then
		fail=$((fail + 1))
		failed="$failed $1"
		echo "FAIL $1 is no longer $3 $4 $5 (a test wrote over it)"
	fi
done
[ $fail -eq 0 ] || echo "failed:$failed"
echo "tests: CPU time ${cpu_total}s (user + system, all tests), wall time $(($(date +%s) - run_t0))s"
echo "tests: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
