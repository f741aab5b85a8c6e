# Helpers for end-to-end test scripts (sourced). $EATRACE is the binary.
# Tests read the shared reference traces from $SHARED (../shared/traces).
set -u
: "${EATRACE:=$(cd "$(dirname "$0")/../.." && pwd)/eatrace}"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SHARED=${SHARED:-$ROOT/../shared/traces}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
nfail=0

fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
# skip REASON: the whole script is skipped (exit 77, counted apart by run.sh).
skip() { echo "SKIP: $*"; exit 77; }
# need_shared: skip unless the shared reference traces are beside the clone
# (they exist only beside this project's own CI; see README "Tests").
need_shared() {
	[ -d "$SHARED" ] || skip "needs the shared reference traces ($SHARED is absent)"
}
ok() { echo "ok: $*"; }

# expect_eq NAME ACTUAL EXPECTED
expect_eq() {
	if [ "$2" = "$3" ]; then ok "$1"; else fail "$1: got '$2', expected '$3'"; fi
}

# expect_fail NAME EXIT_CODE MESSAGE_SUBSTRING -- CMD...: the command must
# exit with EXIT_CODE and print exactly one line on stderr containing MESSAGE.
expect_fail() {
	name=$1 code=$2 msg=$3
	shift 4
	"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	lines=$(wc -l <"$TMP/err")
	if [ $rc -ne "$code" ]; then fail "$name: exit $rc, expected $code ($(head -c 300 "$TMP/err"))"
	elif [ "$lines" -ne 1 ]; then fail "$name: $lines stderr lines, expected 1: $(head -c 300 "$TMP/err")"
	elif ! grep -qF -- "$msg" "$TMP/err"; then fail "$name: stderr '$(cat "$TMP/err")' lacks '$msg'"
	else ok "$name"; fi
}

# is_dat FILE: whether FILE is a trace.dat (by its magic).
is_dat() {
	[ "$(head -c 10 "$1" | tail -c 7)" = tracing ]
}

# patch_bytes FILE OFFSET HEXBYTES: overwrite bytes of FILE in place.
patch_bytes() {
	hex=$3 bytes=""
	while [ -n "$hex" ]; do
		bytes="$bytes\\$(printf '%03o' "0x$(echo "$hex" | cut -c1-2)")"
		hex=$(echo "$hex" | cut -c3-)
	done
	printf "$bytes" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# same_runs NAME A B: the two runs just made agree. A's output is in
# $TMP/a and $TMP/a.err, its exit status in $ra; B's in $TMP/b, $TMP/b.err
# and $rb (A, B: what to call each run in a failure).
same_runs() {
	if [ "$ra" -ne "$rb" ]; then
		fail "$1: exit $ra with $2, $rb with $3 ($(head -c 200 "$TMP/b.err"))"
	elif ! cmp -s "$TMP/a" "$TMP/b"; then
		fail "$1: output with $3 differs from $2's: $(diff "$TMP/a" "$TMP/b" | head -n 4)"
	elif ! cmp -s "$TMP/a.err" "$TMP/b.err"; then
		fail "$1: stderr with $3 differs from $2's: $(diff "$TMP/a.err" "$TMP/b.err" | head -n 4)"
	else
		ok "$1"
	fi
}

# same_dat_readers NAME CMD...: CMD's output, stderr and exit status the
# same under libtracecmd (EATRACE_DAT_READER=libtracecmd) as under the own
# trace.dat reader (same_runs).
same_dat_readers() {
	name=$1
	shift
	EATRACE_DAT_READER=libtracecmd "$@" >"$TMP/a" 2>"$TMP/a.err"
	ra=$?
	"$@" >"$TMP/b" 2>"$TMP/b.err"
	rb=$?
	same_runs "$name" "libtracecmd" "the own reader"
}

# $SINGLE_REPLAY: extra options for a replay whose checks read only the
# main run's figures. Empty, but under `make sanitize` "--ensemble 1
# --no-sensitivity": one replay instead of twelve (the ten ensemble members
# and the sensitivity run, which such checks never read). The ensemble and
# sensitivity paths run sanitized in replay-ensemble.sh, whole.
SINGLE_REPLAY=
[ "${EA_SANITIZE:-0}" = 1 ] && SINGLE_REPLAY="--ensemble 1 --no-sensitivity"

# sampled FILE...: prints the files a loop over them should cover, one per
# line: all of them, but under `make sanitize` (EA_SANITIZE=1) only the
# first and then every third. The sanitizer run is there to find memory
# errors, and the files left out take the same code paths, which the plain
# `make check` still checks on every one of them; it keeps CI under 10 min.
# Use: set -- $(sampled "$ROOT"/traces/*/*.dat) (no blanks in the names).
sampled() {
	sampled_1_in 3 "$@"
}

# sampled_1_in N FILE...: as sampled, but every Nth under make sanitize.
sampled_1_in() {
	_n=$1 i=0
	shift
	for f in "$@"; do
		[ "${EA_SANITIZE:-0}" = 1 ] && [ $((i % _n)) -ne 0 ] || echo "$f"
		i=$((i + 1))
	done
}

# lsan_dat: LeakSanitizer settings for scripts reading every trace.dat:
# the project's suppressions plus two leaks inside libtracecmd and
# libtraceevent that only some files trigger (not ours).
lsan_dat() {
	{
		[ -f "$ROOT/tests/fuzz/lsan.supp" ] && cat "$ROOT/tests/fuzz/lsan.supp"
		echo 'leak:tracecmd_parse_trace_clock'
		echo 'leak:libtraceevent.so'
	} >"$TMP/lsan.supp"
	LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$TMP/lsan.supp:print_suppressions=0"
	export LSAN_OPTIONS
}

finish() {
	[ $nfail -eq 0 ] || { echo "$nfail check(s) failed"; exit 1; }
	exit 0
}
