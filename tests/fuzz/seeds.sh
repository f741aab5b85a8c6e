#!/bin/sh
# Each libFuzzer target over its committed corpus and crash files, once,
# without fuzzing: tests/fuzz/seeds.sh BINDIR TARGET...
#
# make test replays the corpora through plain builds of the targets
# (replay.sh); this runs the libFuzzer builds (make fuzz-seeds: clang,
# ASan, UBSan), with the flags tests/fuzz/run.sh gives them and their
# tests/fuzz/T.options, which is how make fuzz starts: a seed that crashes
# here stops make fuzz in its first seconds. (A libFuzzer thread left
# running made dat-guard.c open every trace.dat without its rehearsal
# child, and the dat target died on a seed the CLI rejects cleanly:
# tests/fuzz/pipeline.h.) Nothing is written to tests/fuzz/: the output
# corpus goes to a scratch directory, the log and any crash artifact to
# BINDIR/T.seeds.log and BINDIR/T.seeds/. One line per target; the exit
# status is non-zero when any target failed.
set -u
dir=$1
shift
top=$(cd "$(dirname "$0")" && pwd)
export LSAN_OPTIONS="suppressions=$top/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
scratch=$(mktemp -d "$dir/seeds.XXXXXX") || exit 1
trap 'rm -rf "$scratch"' EXIT
rc=0
for t in "$@"; do
	bin=$dir/fuzz-$t
	art=$dir/$t.seeds
	rm -rf "$art"
	mkdir -p "$scratch/$t" "$art"
	set -- "$top/corpus/$t"
	[ -d "$top/crashes/$t" ] && set -- "$@" "$top/crashes/$t"
	extra=""
	[ -f "$top/$t.dict" ] && extra="-dict=$top/$t.dict"
	[ -f "$top/$t.options" ] && extra="$extra $(cat "$top/$t.options")"
	# -runs=0: the seeds are run (libFuzzer's INITED line), then it stops
	if "$bin" -runs=0 -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="$art/" $extra "$scratch/$t" "$@" \
		>"$dir/$t.seeds.log" 2>&1; then
		echo "seeds: $t: $(grep -E '^#[0-9]+.*DONE' "$dir/$t.seeds.log" | tail -n 1)"
	else
		# (a crash inside a trace.dat open prints nothing: stderr is
		# /dev/null there, dat-guard.c's quiet_begin(); the artifact
		# is the seed)
		echo "FAIL: seeds: $t (see $dir/$t.seeds.log):"
		grep -E '^fuzz:|==ERROR|^SUMMARY' "$dir/$t.seeds.log" | tail -n 5
		for a in "$art"/*; do
			[ -f "$a" ] && echo "  artifact $a ($(wc -c <"$a") bytes)"
		done
		rc=1
	fi
done
exit $rc
