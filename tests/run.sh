#!/bin/sh
# Run unit test binaries and end-to-end scripts; print one summary line.
# Usage: EATRACE=/path/to/eatrace tests/run.sh BIN_OR_SCRIPT...
# Every test must pass; the exit status is non-zero when any fails.
# A test that exits 77 (the Automake convention) was skipped: its last
# output line says why (e.g. "SKIP: no ../shared/traces"), and it is
# counted apart, never as a pass.
pass=0
fail=0
skip=0
failed=""
log=$(mktemp)
for t in "$@"; do
	t0=$(date +%s)
	case "$t" in
	*.sh) sh "$t" >"$log" 2>&1 ;;
	*) "$t" >"$log" 2>&1 ;;
	esac
	rc=$?
	dt=$(($(date +%s) - t0))
	if [ $rc -eq 0 ]; then
		pass=$((pass + 1))
		echo "PASS $t (${dt}s)"
	elif [ $rc -eq 77 ]; then
		skip=$((skip + 1))
		echo "SKIP $t ($(grep -i 'skip' "$log" | tail -n 1 | cut -c1-200))"
	else
		fail=$((fail + 1))
		failed="$failed $t"
		echo "FAIL $t (exit $rc, ${dt}s)"
		sed 's/^/    /' "$log" | tail -n 40
	fi
done
rm -f "$log"
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
echo "tests: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
