#!/bin/sh
# Run unit test binaries and end-to-end scripts; print one summary line.
# Usage: EATRACE=/path/to/eatrace tests/run.sh BIN_OR_SCRIPT...
# Every test must pass; the exit status is non-zero when any fails.
pass=0
fail=0
failed=""
log=$(mktemp)
for t in "$@"; do
	case "$t" in
	*.sh) sh "$t" >"$log" 2>&1 ;;
	*) "$t" >"$log" 2>&1 ;;
	esac
	rc=$?
	if [ $rc -eq 0 ]; then
		pass=$((pass + 1))
		echo "PASS $t"
	else
		fail=$((fail + 1))
		failed="$failed $t"
		echo "FAIL $t (exit $rc)"
		sed 's/^/    /' "$log" | tail -n 40
	fi
done
rm -f "$log"
[ $fail -eq 0 ] || echo "failed:$failed"
echo "tests: $pass passed, $fail failed"
[ $fail -eq 0 ]
