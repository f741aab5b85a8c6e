#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The ftrace-text and systrace readers end to end, through `eatrace dump`
# (the shared reference traces: readers-text-shared.sh):
#  - our own x86 capture as /sys/kernel/tracing/trace and the three
#    `trace-cmd report` forms dumps identically;
#  - malformed files exit 2 with a one-line "FILE:line N: cause".
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/readers-text.inc"

# ---- one recording, every text form ---------------------------------------

# Our own x86 capture (kernel 6.18): /sys/kernel/tracing/trace and the three
# trace-cmd report forms of the same buffer.
dump_same "x86 capture" "$FIX/x86-6.18-trace.txt" "$FIX/x86-6.18-report.txt" \
	"$FIX/x86-6.18-report-raw.txt" "$FIX/x86-6.18-report-nofmt.txt"
check_text "$FIX/x86-6.18-trace.txt"

# ---- fixtures ---------------------------------------------------------------

for f in "$FIX"/*; do
	case $(basename "$f") in
	bad-*) continue ;;
	esac
	if "$EATRACE" dump "$f" >"$TMP/fx" 2>"$TMP/fx.err" && [ -s "$TMP/fx" ] &&
		sort -s -n -c -k1,1 "$TMP/fx" 2>/dev/null; then
		ok "fixture $(basename "$f")"
	else
		fail "fixture $(basename "$f"): $(cat "$TMP/fx.err")"
	fi
done

expect_fail "bad: truncated" 2 \
	"bad-truncated.txt:line 3: malformed sched_switch event: 'prev_comm=bash prev_pid=12 prev_prio=120 prev_st'" \
	-- "$EATRACE" dump "$FIX/bad-truncated.txt"
expect_fail "bad: cut header" 2 "bad-cut-header.txt:line 3: truncated event line" \
	-- "$EATRACE" dump "$FIX/bad-cut-header.txt"
expect_fail "bad: number" 2 \
	"bad-number.txt:line 3: malformed cpu_frequency event: 'state=12x00 cpu_id=0'" \
	-- "$EATRACE" dump "$FIX/bad-number.txt"
expect_fail "bad: timestamp" 2 "bad-timestamp.txt:line 3: bad timestamp in event line" \
	-- "$EATRACE" dump "$FIX/bad-timestamp.txt"
expect_fail "bad: backwards" 2 \
	"bad-backwards.txt:line 4: timestamp 99.000000000 goes backwards beyond the reorder window" \
	-- "$EATRACE" dump "$FIX/bad-backwards.txt"
expect_fail "bad: binary" 2 "bad-binary.txt:line 3: binary data in text trace" \
	-- "$EATRACE" dump "$FIX/bad-binary.txt"
expect_fail "bad: NUL" 2 "bad-nul.txt:line 3: NUL byte: binary data in text trace" \
	-- "$EATRACE" dump "$FIX/bad-nul.txt"
# An idlestat energy model (text, but no trace).
expect_fail "not a trace" 2 "idlestat-model: not a trace.dat, Perfetto trace, ftrace text or systrace file" \
	-- "$EATRACE" dump "$ROOT/tests/fixtures/import/idlestat-model"

# An over-long line (> 64 KiB) in ftrace text.
{
	head -n 3 "$FIX/ftrace-noflags.txt"
	printf '# '
	head -c 70000 /dev/zero | tr '\0' y
	printf '\n'
	tail -n 3 "$FIX/ftrace-noflags.txt"
} >"$TMP/long.txt"
expect_fail "bad: long line" 2 "long.txt:line 4: line longer than 65536 bytes" \
	-- "$EATRACE" dump "$TMP/long.txt"

finish
