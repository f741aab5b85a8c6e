#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Compressed text traces: ftrace text, `trace-cmd report` output and
# systrace, gzip'd or zstd'd, recognised by their magic bytes (not by name),
# give exactly what the plain file gives, with no temporary file (they are
# decompressed as they are read: src/input/text-stream.c). A file cut short
# or corrupt: one line naming the file and the compressed offset (and the
# text line reached), exit 2, no output file.
. "$(dirname "$0")/lib.sh"
mkdir -p "$TMP/t"
export TMPDIR="$TMP/t"
has_zstd=1
command -v zstd >/dev/null 2>&1 || has_zstd=0
[ $has_zstd = 1 ] || echo "note: zstd(1) not found: zstd checks skipped"

comp() {	# comp FILE: FILE.gz and (with zstd) FILE.zst beside it in $TMP
	gzip -c "$1" >"$TMP/$(basename "$1").gz"
	[ $has_zstd = 0 ] || zstd -q -c "$1" >"$TMP/$(basename "$1").zst"
}
# same NAME FILE CMD...: the output of CMD FILE, CMD FILE.gz and CMD
# FILE.zst is the same once the file's name is taken out.
same() {
	name=$1 f=$2
	shift 2
	b=$(basename "$f")
	"$@" "$f" >"$TMP/p" 2>"$TMP/p.err"
	rp=$?
	for z in gz zst; do
		[ $z = zst ] && [ $has_zstd = 0 ] && continue
		"$@" "$TMP/$b.$z" >"$TMP/c" 2>"$TMP/c.err"
		rc=$?
		sed "s|[^\"]*$b\.$z|TRACE|g" "$TMP/c" >"$TMP/c2"
		sed "s|[^\"]*$b|TRACE|g" "$TMP/p" >"$TMP/p2"
		if [ $rc -ne $rp ]; then fail "$name .$z: exit $rc, plain $rp ($(head -c 200 "$TMP/c.err"))"
		elif ! [ -s "$TMP/p2" ]; then fail "$name: no output"
		elif cmp -s "$TMP/p2" "$TMP/c2"; then ok "$name .$z"
		else fail "$name .$z: $(diff "$TMP/p2" "$TMP/c2" | head -5)"; fi
	done
}

FTRACE=$ROOT/traces/vm/vm-ftrace.txt	# /sys/kernel/tracing/trace
REPORT=$ROOT/traces/vm/vm-report.txt	# trace-cmd report
SYS=$ROOT/tests/fixtures/text/systrace.txt
HTML=$ROOT/tests/fixtures/text/systrace.html
LOST=$ROOT/tests/fixtures/text/lost-events.txt	# CPUs' first events after LOST
BIG=$ROOT/traces/vm/wl-pingpong-ftrace.txt
for f in "$FTRACE" "$REPORT" "$SYS" "$HTML" "$LOST" "$BIG"; do comp "$f"; done

same "ftrace text report" "$FTRACE" "$EATRACE" report -m tc2 -f json
same "ftrace text stats" "$FTRACE" "$EATRACE" stats -f json
same "trace-cmd report text report" "$REPORT" "$EATRACE" report -m tc2 -f json
same "trace-cmd report text stats" "$REPORT" "$EATRACE" stats -f json
same "systrace text stats" "$SYS" "$EATRACE" stats -f json
same "systrace html stats" "$HTML" "$EATRACE" stats -f json
same "lost events report" "$LOST" "$EATRACE" report -m tc2 -f json
same "dump" "$REPORT" "$EATRACE" dump

# by content, not by name: a .zst named .txt, a plain file named .gz
cp "$TMP/vm-report.txt.gz" "$TMP/named.txt"
"$EATRACE" stats -f json "$TMP/named.txt" >"$TMP/n.json" 2>"$TMP/err" &&
	grep -q '"events"' "$TMP/n.json" && ok "gzip named .txt" || fail "gzip named .txt: $(cat "$TMP/err")"
cp "$REPORT" "$TMP/plain.gz"
"$EATRACE" stats -f json "$TMP/plain.gz" >"$TMP/n.json" 2>"$TMP/err" &&
	ok "plain text named .gz" || fail "plain text named .gz: $(cat "$TMP/err")"

if [ $has_zstd = 1 ]; then
	# on standard input, and two frames one after the other (zstd -c a; zstd -c b)
	zstd -q -c "$REPORT" | "$EATRACE" dump - >"$TMP/d.stdin" 2>"$TMP/err"
	"$EATRACE" dump "$REPORT" >"$TMP/d.plain"
	cmp -s "$TMP/d.plain" "$TMP/d.stdin" && ok "zstd on stdin" || fail "zstd on stdin: $(cat "$TMP/err")"
	{ head -c 30000 "$REPORT" | zstd -q -c; tail -c +30001 "$REPORT" | zstd -q -c; } >"$TMP/two.zst"
	"$EATRACE" dump "$TMP/two.zst" >"$TMP/d.two" 2>"$TMP/err"
	cmp -s "$TMP/d.plain" "$TMP/d.two" && ok "zstd: two frames as one file" || fail "zstd two frames: $(cat "$TMP/err")"
	# a zstd'd trace.dat is spooled (the dat reader wants a file)
	zstd -q -c "$ROOT/traces/vm/vm-v7.dat" >"$TMP/v7.dat.zst"
	"$EATRACE" dump "$ROOT/traces/vm/vm-v7.dat" >"$TMP/dd.plain"
	"$EATRACE" dump "$TMP/v7.dat.zst" >"$TMP/dd.zst" 2>"$TMP/err"
	cmp -s "$TMP/dd.plain" "$TMP/dd.zst" && ok "zstd: a trace.dat too" || fail "zstd trace.dat: $(cat "$TMP/err")"
fi

# Cut short in the middle: the error comes after events were read, yet no
# output file is written. The offset is the cut file's size (all of it was
# consumed when its end came too early).
for z in gz zst; do
	[ $z = zst ] && [ $has_zstd = 0 ] && continue
	zname=gzip
	[ $z = zst ] && zname=zstd
	full=$TMP/wl-pingpong-ftrace.txt.$z	# 500 KB: several zstd blocks
	half=$(($(wc -c <"$full") / 2))
	head -c $half "$full" >"$TMP/cut.$z"
	expect_fail "$z cut short" 2 "cut.$z:offset $half: corrupt $zname data: unexpected end of file (in line" \
		-- "$EATRACE" report -m tc2 -f json -o "$TMP/cut-$z.json" "$TMP/cut.$z"
	[ -e "$TMP/cut-$z.json" ] && fail "$z cut short: output file written" || ok "$z cut short: no output file"
	line=$(sed -n 's/.*(in line \([0-9]*\))$/\1/p' "$TMP/err")
	# the line reached is past the head (4096 bytes) and before the end
	[ -n "$line" ] && [ "$line" -gt 20 ] && [ "$line" -lt "$(wc -l <"$BIG")" ] &&
		ok "$z cut short: line $line" || fail "$z cut short: line '$line'"
	# bytes overwritten in the middle
	cp "$full" "$TMP/flip.$z"
	printf 'UUUUUUUUUUUUUUUU' | dd of="$TMP/flip.$z" bs=1 seek=$half conv=notrunc 2>/dev/null
	"$EATRACE" stats -f json "$TMP/flip.$z" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	pos=$(sed -n "s/^eatrace: .*flip\.$z:offset \([0-9]*\): corrupt $zname data: .*/\1/p" "$TMP/err")
	if [ $rc -ne 2 ] || [ "$(wc -l <"$TMP/err")" -ne 1 ]; then fail "$z corrupt: exit $rc: $(cat "$TMP/err")"
	elif [ -n "$pos" ] && [ "$pos" -ge $half ]; then ok "$z corrupt: offset $pos"
	elif grep -q "flip\.$z:line [0-9]*: " "$TMP/err"; then
		ok "$z corrupt: garbage decoded as text, caught by the parser: $(cat "$TMP/err")"
	else fail "$z corrupt: $(cat "$TMP/err")"; fi
done
# the magic and nothing more
printf '\037\213' >"$TMP/magic.gz"
expect_fail "gzip magic only" 2 "magic.gz:offset 2: corrupt gzip data: unexpected end of file" \
	-- "$EATRACE" stats "$TMP/magic.gz"

[ -z "$(ls -A "$TMP/t")" ] && ok "no temporary file" || fail "temporary files left: $(ls "$TMP/t")"
finish
