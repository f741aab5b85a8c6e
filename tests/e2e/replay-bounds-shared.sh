#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# tests/e2e/replay-bounds.sh's sweep on the shared reference traces
# (../shared/traces): every policy, on tc2 from an unknown source and on
# each trace's own platform, whole and windowed; no latency, wait or work
# figure outside what is physically possible.
. "$(dirname "$0")/lib.sh"
need_shared
export LSAN_OPTIONS="suppressions=$ROOT/tests/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
lsan_dat
check() { /usr/bin/python3 "$ROOT/tests/e2e/replay-bounds-check.py" "$@"; }
n=0
for t in "lisa/tests__assets__sched_load__trace.dat:juno-r0" \
	 "lisa/tests__assets__trace_txt__trace.txt:juno-r0" \
	 "lisa/ipynb__deprecated__tutorial__example_rtapp__trace.dat:juno-r0" \
	 "trappy/tests__trace_idle.dat:juno-r0" \
	 "trappy/tests__trace_surfaceflinger.html:" \
	 "trappy/tests__trace_sched.txt:" \
	 "idlestat/Experiments__test01.dat:tc2-idlestat" \
	 "idlestat/Experiments__test03.dat:tc2-idlestat"; do
	tr=$SHARED/${t%:*} m=${t##*:}
	[ -f "$tr" ] || { fail "missing $tr"; continue; }
	set -- "--target-model tc2 --source-capacity 1024" \
	       "--target-model tc2 --source-capacity 1024 --start 0.1 --end 0.3"
	[ -n "$m" ] && set -- "$@" "-m $m"
	# Under make sanitize the three traces over 1 MB (lisa's two .dat,
	# trappy's idle .dat: ~2.5 s of CPU a replay sanitized) are replayed
	# once, on their own platform: tc2 from an unknown source, whole and
	# windowed, is replayed sanitized on the five smaller ones here and
	# on traces/ by replay-bounds.sh.
	if [ "${EA_SANITIZE:-0}" = 1 ] && [ "$(wc -c <"$tr")" -gt 1048576 ]; then
		shift $(($# - 1))
	fi
	for args in "$@"; do
		"$EATRACE" replay $args -f json "$tr" >"$TMP/s.json" 2>"$TMP/err" ||
			{ fail "replay $tr $args: $(cat "$TMP/err")"; continue; }
		check "$TMP/s.json" "$(basename "$tr") $args" || fail "bounds: $tr $args"
		n=$((n + 1))
	done
done
ok "sweep: $n replays of the shared traces within physical bounds"
finish
