#!/bin/sh
# Replay every fuzz corpus and crash file through its target, built as a
# plain program (tests/fuzz/replay.c) in $FUZZ_BIN. Any crash, sanitizer
# report or hang (timeout: 300 s for a whole corpus, generous for a loaded
# machine under ASan) fails the test.
set -u
cd "$(dirname "$0")"
: "${FUZZ_BIN:?FUZZ_BIN: directory of the replay-TARGET programs}"
# Leaks inside libtraceevent/libtracecmd on corrupt files are known
# limitations (lsan.supp); leaks in eatrace fail the replay.
export LSAN_OPTIONS="suppressions=$(pwd)/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
rc=0
for src in fuzz-*.c; do
	t=${src#fuzz-}
	t=${t%.c}
	bin=$FUZZ_BIN/replay-$t
	if [ ! -x "$bin" ]; then
		echo "FAIL: $bin missing"
		rc=1
		continue
	fi
	set --
	[ -d "corpus/$t" ] && set -- "$@" "corpus/$t"
	[ -d "crashes/$t" ] && set -- "$@" "crashes/$t"
	if [ $# -eq 0 ]; then
		echo "FAIL: $t: no corpus"
		rc=1
		continue
	fi
	if ! timeout 300 "$bin" "$@" 2>"$FUZZ_BIN/replay-$t.log"; then
		echo "FAIL: $t"
		tail -n 30 "$FUZZ_BIN/replay-$t.log"
		rc=1
	fi
done
# fuzz-debugfs writes its tree under $TMPDIR, one directory per input,
# removed after it: an absent $TMPDIR fails it, a scratch one is left empty
s=$(mktemp -d)
if [ -x "$FUZZ_BIN/replay-debugfs" ]; then
	if TMPDIR=$s/absent "$FUZZ_BIN/replay-debugfs" corpus/debugfs >/dev/null 2>&1; then
		echo "FAIL: debugfs: ran with TMPDIR absent (writes elsewhere)"
		rc=1
	fi
	TMPDIR=$s timeout 60 "$FUZZ_BIN/replay-debugfs" corpus/debugfs >/dev/null \
		2>"$FUZZ_BIN/replay-debugfs.log" || { echo "FAIL: debugfs under TMPDIR"; rc=1; }
	[ -z "$(ls -A "$s")" ] || { echo "FAIL: debugfs left $(ls "$s")"; rc=1; }
fi
rm -rf "$s"
exit $rc
