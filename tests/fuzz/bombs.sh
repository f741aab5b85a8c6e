#!/bin/sh
# Decompression-bomb seeds for the fuzz corpora (issue 29 item 9): small
# files that inflate to far more than they are, so that a reader that
# inflates everything before it looks at it, or keeps what it inflated,
# meets the fuzzers' memory limit (-rss_limit_mb=2048, TARGET.options).
#
#   tests/fuzz/bombs.sh                 write the committed seeds (below)
#   tests/fuzz/bombs.sh --perfetto DIR  also the Perfetto bomb, into DIR
#
# Committed (33 KB each, in tests/fuzz/corpus/T/bomb-*, T = text, render;
# textz's get a leading 0x00, its "bytes as they are" mode):
#   bomb-zstd-1g-nul    zstd of 1 GiB of NUL bytes: the text reader stops
#                       at the first ("NUL byte")
#   bomb-zstd-1g-line   zstd of an ftrace header line and 1 GiB without a
#                       newline: stops at 64 KiB ("line longer than")
#   bomb-gzip-32m-line  the same in gzip, 32 MiB (gzip's ratio is ~1000)
# Not committed: the Perfetto bomb, four zstd_compressed_packets of 1 GiB
# of zeros each (135 KB), which the Perfetto reader still inflates whole
# (issue 29 item 1: the fuzz target dies on its memory limit with it).
set -eu
top=$(cd "$(dirname "$0")" && pwd)
GIB=1073741824

line() {
	printf '# tracer: nop\n'
	head -c "$1" /dev/zero | tr '\0' x
}

seed() {	# NAME: stdin to text/NAME, render/NAME, textz/NAME (0x00 first)
	f=$(mktemp)
	cat >"$f"
	cat "$f" >"$top/corpus/text/$1"
	cat "$f" >"$top/corpus/render/$1"
	{ printf '\0'; cat "$f"; } >"$top/corpus/textz/$1"
	rm -f "$f"
}

head -c $GIB /dev/zero | zstd -q -19 -c | seed bomb-zstd-1g-nul
line $GIB | zstd -q -19 -c | seed bomb-zstd-1g-line
line $((32 << 20)) | gzip -9 -n -c | seed bomb-gzip-32m-line

if [ "${1:-}" = --perfetto ]; then
	# Trace { packet (1) { zstd_compressed_packets (133) = frame } } x 4;
	# 133 << 3 | 2 = 1066: varint aa 08
	out=$2/bomb-zstd-4x1g.pftrace
	frame=$(mktemp)
	head -c $GIB /dev/zero | zstd -q -19 -c >"$frame"
	/usr/bin/python3 - "$frame" "$out" <<'EOF'
import sys
def varint(n):
    b = b""
    while True:
        b += bytes([(n & 0x7f) | (0x80 if n > 0x7f else 0)])
        n >>= 7
        if not n:
            return b
frame = open(sys.argv[1], "rb").read()
pkt = b"\xaa\x08" + varint(len(frame)) + frame
open(sys.argv[2], "wb").write((b"\x0a" + varint(len(pkt)) + pkt) * 4)
EOF
	rm -f "$frame"
fi
