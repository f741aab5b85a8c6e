#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# report's pictures with the timeline on a thread of its own
# (src/output/timeline-thread.c, used with -j 3 or more; not by default):
# the HTML, the Perfetto JSON and the Perfetto protobuf files, stdout,
# stderr and the exit status must be byte for byte those of -j 1 (the
# timeline in the pricing thread), with -j 2 (the state split, the
# timeline in the applying thread) and -j 3 (its thread too), on every
# trace of traces/; with -j 2 and -j 3 the protobuf's packets are also
# encoded during the run on a thread of their own
# (src/output/perfetto-ahead.c; tests/unit/test-perfetto-ahead.c tries
# its early stops and the caps).
. "$(dirname "$0")/lib.sh"
MODEL=tc2

# under make sanitize every sixth trace (sampled_1_in): the threaded
# timeline's memory use is the same on each; tests/fuzz/fuzz-render.c
# runs it sanitized on the fuzz corpus too.
# shellcheck disable=SC2046
set -- $(sampled_1_in 6 $(find "$ROOT/traces" -type f \( -name '*.dat' -o -name '*.txt' \) | sort))
for f in "$@"; do
	n=${f#"$ROOT"/}
	for j in 1 2 3; do
		mkdir -p "$TMP/j$j"
		"$EATRACE" report -j $j -m $MODEL -f json --html "$TMP/j$j/r.html" \
			--perfetto "$TMP/j$j/r.json" "$f" >"$TMP/j$j/out" 2>&1
		echo "exit $?" >>"$TMP/j$j/out"
		"$EATRACE" report -j $j -m $MODEL --perfetto "$TMP/j$j/r.pftrace" \
			"$f" >>"$TMP/j$j/out" 2>&1
		echo "exit $?" >>"$TMP/j$j/out"
	done
	if diff -r "$TMP/j1" "$TMP/j2" >/dev/null &&
		diff -r "$TMP/j1" "$TMP/j3" >/dev/null; then
		ok "pictures $n ($(tail -n 1 "$TMP/j1/out"))"
	else
		fail "pictures $n: -j 2 or -j 3 differs from -j 1"
	fi
	rm -rf "$TMP/j1" "$TMP/j2" "$TMP/j3"
done
exit $((nfail > 0))
