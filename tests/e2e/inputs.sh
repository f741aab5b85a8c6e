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
sed 's|"[^"]*tc2-seven-tasks.txt"|"TRACE"|; s|"trace": "<stdin>"|"trace": "TRACE"|' "$TMP/stdin.json" >"$TMP/b"
cmp -s "$TMP/a" "$TMP/b" && ok "stdin: same report as the file" || fail "stdin: $(diff "$TMP/a" "$TMP/b" | head -5)"
# standard input is <stdin> in every output, as in the errors (README)
expect_eq "stdin: JSON names <stdin>" "$(grep '"trace"' "$TMP/stdin.json")" '  "trace": "<stdin>",'
expect_eq "stdin: report header" "$(cat "$DEMO" | "$EATRACE" report -q -m tc2 - | head -n 1 | cut -d: -f1)" "<stdin>"
expect_eq "stdin: stats header" "$(cat "$DEMO" | "$EATRACE" stats -q - | head -n 1 | cut -d: -f1)" "<stdin>"
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
# the position is the compressed offset: a file cut at 300 bytes ends there
expect_fail "gz cut short" 2 "cut.gz:offset 300: corrupt gzip data: unexpected end of file" \
	-- "$EATRACE" dump "$TMP/cut.gz"
# bytes overwritten at offset 1000: found there or later, not past the end
cp "$TMP/demo.txt.gz" "$TMP/flip.gz"
printf 'UUUUUUUU' | dd of="$TMP/flip.gz" bs=1 seek=1000 conv=notrunc 2>/dev/null
"$EATRACE" dump "$TMP/flip.gz" >"$TMP/out" 2>"$TMP/err"
expect_eq "gz corrupt: exit" "$?" 2
pos=$(sed -n 's/^eatrace: .*flip\.gz:offset \([0-9]*\): corrupt gzip data: .*/\1/p' "$TMP/err")
[ -n "$pos" ] && [ "$pos" -ge 1000 ] && [ "$pos" -le "$(wc -c <"$TMP/flip.gz")" ] &&
	ok "gz corrupt: offset $pos" || fail "gz corrupt: $(cat "$TMP/err")"
# two members (gzip -c a; gzip -c b), then trailing bytes gzip(1) ignores
{ head -c 20000 "$DEMO" | gzip -c; tail -c +20001 "$DEMO" | gzip -c; echo trailing; } >"$TMP/two.gz"
"$EATRACE" dump "$DEMO" >"$TMP/d1"
"$EATRACE" dump "$TMP/two.gz" >"$TMP/d2"
cmp -s "$TMP/d1" "$TMP/d2" && ok "gz: two members as one file" || fail "gz: two members differ"
: >"$TMP/empty"
expect_fail "empty stdin" 2 "<stdin>: empty file" -- sh -c '"$1" stats - <"$2"' sh "$EATRACE" "$TMP/empty"
expect_eq "no temporary file left" "$(ls "$TMP/t" | wc -l)" 0
finish
