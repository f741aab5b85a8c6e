#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# run.sh: exclusive
# The summary 'eatrace record -- COMMAND' prints (issue 17) counts the events
# written and those lost to ring-buffer overruns. Needs root and tracefs
# (CI runs as root); skipped otherwise.
. "$(dirname "$0")/lib.sh"
T=/sys/kernel/tracing
grep -qw tracefs /proc/filesystems || skip "this kernel has no tracefs"
[ "$(id -u)" -eq 0 ] || skip "recording needs root (CI runs as root)"
[ -d "$T/instances" ] || skip "tracefs is not mounted on $T"

# others_cleanup FILE: stderr without the lines saying a tracing instance
# or temporary left by another, killed run was removed (on a shared
# machine another test run may have left one): not this run's output.
others_cleanup() {
	grep -v -E '^eatrace: (record: )?removed (the tracing instance )?.*, left by a killed run \(pid [0-9]+\)$' "$1"
}

"$EATRACE" record -o "$TMP/s.dat" -- sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' \
	>"$TMP/out" 2>"$TMP/err"
expect_eq "record: exit" "$?" 0
# the event count, checked against what 'eatrace dump' reads back
n=$("$EATRACE" dump "$TMP/s.dat" | wc -l)
# exactly one line: the summary
others_cleanup "$TMP/err" >"$TMP/err.own"
[ "$(wc -l <"$TMP/err.own")" -eq 1 ] &&
	grep -q "^eatrace: record: $TMP/s.dat: [0-9.]* s, [0-9]* KB, $n events, 0 lost to overruns, stopped by command$" "$TMP/err.own" &&
	ok "record summary: $n events, 0 lost" || fail "record summary: '$(cat "$TMP/err")' (dump reads $n events)"
"$EATRACE" record -q -o "$TMP/q.dat" -- true >"$TMP/out" 2>"$TMP/err"
expect_eq "record -q: no summary" "$(others_cleanup "$TMP/err" | wc -c)" 0
finish
