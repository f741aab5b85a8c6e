#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The summary 'eatrace record -- COMMAND' prints (issue 17) counts the events
# written and those lost to ring-buffer overruns. Needs root and tracefs
# (CI runs as root); skipped otherwise.
. "$(dirname "$0")/lib.sh"
T=/sys/kernel/tracing
grep -qw tracefs /proc/filesystems || skip "this kernel has no tracefs"
[ "$(id -u)" -eq 0 ] || skip "recording needs root (CI runs as root)"
[ -d "$T/instances" ] || skip "tracefs is not mounted on $T"

"$EATRACE" record -o "$TMP/s.dat" -- sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' \
	>"$TMP/out" 2>"$TMP/err"
expect_eq "record: exit" "$?" 0
# the event count, checked against what 'eatrace dump' reads back
n=$("$EATRACE" dump "$TMP/s.dat" | wc -l)
grep -q "^eatrace: record: $TMP/s.dat: [0-9.]* s, [0-9]* KB, $n events, 0 lost to overruns, stopped by command$" "$TMP/err" &&
	ok "record summary: $n events, 0 lost" || fail "record summary: '$(cat "$TMP/err")' (dump reads $n events)"
"$EATRACE" record -q -o "$TMP/q.dat" -- true >"$TMP/out" 2>"$TMP/err"
expect_eq "record -q: no summary" "$(wc -c <"$TMP/err")" 0
finish
