#!/bin/sh
# Run libFuzzer targets: tests/fuzz/run.sh BINDIR SECONDS TARGET...
#
# Each target runs SECONDS seconds on a scratch corpus (BINDIR/corpus/T)
# seeded from tests/fuzz/corpus/T; what it found that adds coverage is then
# merged back into tests/fuzz/corpus/T (commit it), and crashing inputs land
# in tests/fuzz/crashes/T/ (commit them too, once fixed: make test replays
# them). The last line of each run (cov:, ft:, exec/s) goes to
# BINDIR/T.log and to stdout. FUZZ_ARGS adds libFuzzer options, e.g.
# FUZZ_ARGS="-fork=1 -ignore_crashes=1" to go on after a crash.
set -u
dir=$1 secs=$2
shift 2
top=$(cd "$(dirname "$0")" && pwd)
export LSAN_OPTIONS="suppressions=$top/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
rc=0
for t in "$@"; do
	bin=$dir/fuzz-$t
	work=$dir/corpus/$t
	mkdir -p "$work" "$top/corpus/$t" "$top/crashes/$t"
	extra=""
	[ -f "$top/$t.dict" ] && extra="-dict=$top/$t.dict"
	# Per-target libFuzzer options (one line), after the defaults.
	[ -f "$top/$t.options" ] && extra="$extra $(cat "$top/$t.options")"
	echo "fuzz: $t for ${secs}s"
	"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$top/crashes/$t/" $extra ${FUZZ_ARGS:-} \
		"$work" "$top/corpus/$t" >"$dir/$t.log" 2>&1 || rc=1
	grep -E '^#[0-9]+.*cov:' "$dir/$t.log" | tail -n 1
	grep -E '^stat::number_of_executed_units|^SUMMARY' "$dir/$t.log"
	# Keep only inputs that add coverage in the committed corpus.
	# (its timeout artifacts, if any, into BINDIR: not the working directory;
	# with the target's options, as its inputs ran: -rss_limit_mb=0 for
	# those that open trace.dat files, tests/fuzz/pipeline.h)
	"$bin" -merge=1 -timeout=10 -artifact_prefix="$dir/" $extra \
		"$top/corpus/$t" "$work" \
		>"$dir/$t.merge.log" 2>&1 ||
		echo "fuzz: $t: merge failed, see $dir/$t.merge.log"
done
[ $rc -eq 0 ] || echo "fuzz: a target crashed: see tests/fuzz/crashes/ and build-fuzz/fuzz/*.log"
exit $rc
