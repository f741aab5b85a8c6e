#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Inputs users have (issue 17): '-' reads a trace from standard input
# (`trace-cmd report | eatrace stats -`) and gzip-compressed traces are read
# by content; both give exactly what the plain file gives, errors name the
# original ("<stdin>", the .gz), and no temporary file is left behind.
. "$(dirname "$0")/lib.sh"
DEMO=$ROOT/traces/demo/tc2-seven-tasks.txt
DAT=$ROOT/traces/vm/vm-v7.dat
FIX=$ROOT/tests/fixtures/text
mkdir -p "$TMP/t"
export TMPDIR="$TMP/t"

"$EATRACE" report -m tc2 -f json "$DEMO" >"$TMP/plain.json" 2>"$TMP/err"
cat "$DEMO" | "$EATRACE" report -m tc2 -f json - >"$TMP/stdin.json" 2>"$TMP/err"
expect_eq "stdin: exit" "$?" 0
# the same figures; only the trace's name differs
sed 's|"[^"]*tc2-seven-tasks.txt"|"TRACE"|; s|"trace": "-"|"trace": "TRACE"|' "$TMP/plain.json" >"$TMP/a"
sed 's|"[^"]*tc2-seven-tasks.txt"|"TRACE"|; s|"trace": "-"|"trace": "TRACE"|' "$TMP/stdin.json" >"$TMP/b"
cmp -s "$TMP/a" "$TMP/b" && ok "stdin: same report as the file" || fail "stdin: $(diff "$TMP/a" "$TMP/b" | head -5)"
"$EATRACE" dump "$DAT" >"$TMP/dat.plain"
"$EATRACE" dump - <"$DAT" >"$TMP/dat.stdin"
cmp -s "$TMP/dat.plain" "$TMP/dat.stdin" && ok "stdin: a trace.dat too" || fail "stdin: trace.dat differs"

gzip -c "$DEMO" >"$TMP/demo.txt.gz"
"$EATRACE" report -m tc2 -f json "$TMP/demo.txt.gz" >"$TMP/gz.json"
expect_eq "gz: exit" "$?" 0
sed 's|"[^"]*demo.txt.gz"|"TRACE"|' "$TMP/gz.json" >"$TMP/c"
cmp -s "$TMP/a" "$TMP/c" && ok "gz: same report as the file" || fail "gz: $(diff "$TMP/a" "$TMP/c" | head -5)"
gzip -c "$DAT" >"$TMP/v7.dat.gz"
"$EATRACE" dump "$TMP/v7.dat.gz" >"$TMP/dat.gz"
cmp -s "$TMP/dat.plain" "$TMP/dat.gz" && ok "gz: a trace.dat too" || fail "gz: trace.dat differs"
gzip -c "$DEMO" | "$EATRACE" dump - >"$TMP/gzstdin" && [ -s "$TMP/gzstdin" ] &&
	ok "gz on stdin" || fail "gz on stdin"

# errors name the original
expect_fail "stdin: error names <stdin>" 2 \
	"<stdin>:line 3: malformed sched_switch event" -- sh -c '"$1" dump - <"$2"' sh "$EATRACE" "$FIX/bad-truncated.txt"
gzip -c "$FIX/bad-truncated.txt" >"$TMP/bad.txt.gz"
expect_fail "gz: error names the .gz" 2 "bad.txt.gz:line 3: malformed sched_switch event" \
	-- "$EATRACE" dump "$TMP/bad.txt.gz"
head -c 300 "$TMP/demo.txt.gz" >"$TMP/cut.gz"
expect_fail "gz cut short" 2 "cut.gz: corrupt gzip data" -- "$EATRACE" dump "$TMP/cut.gz"
: >"$TMP/empty"
expect_fail "empty stdin" 2 "<stdin>: empty file" -- sh -c '"$1" stats - <"$2"' sh "$EATRACE" "$TMP/empty"
expect_eq "no temporary file left" "$(ls "$TMP/t" | wc -l)" 0
finish
