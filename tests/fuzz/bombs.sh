#!/bin/sh
# Decompression-bomb seeds for the fuzz corpora (issue 29 item 9): small
# files that inflate to far more than they are, so that a reader that
# inflates everything before it looks at it, or keeps what it inflated,
# meets the fuzzers' memory limit (-rss_limit_mb=2048, TARGET.options).
#
#   tests/fuzz/bombs.sh                 write the committed seeds (below)
#   tests/fuzz/bombs.sh --perfetto DIR  also the four-packet Perfetto bomb,
#                                       into DIR
#
# Committed (33 KB each, in tests/fuzz/corpus/T/bomb-*, T = text, render;
# textz's get a leading 0x00, its "bytes as they are" mode):
#   bomb-zstd-1g-nul    zstd of 1 GiB of NUL bytes: the text reader stops
#                       at the first ("NUL byte")
#   bomb-zstd-1g-line   zstd of an ftrace header line and 1 GiB without a
#                       newline: stops at 64 KiB ("line longer than")
#   bomb-gzip-32m-line  the same in gzip, 32 MiB (gzip's ratio is ~1000)
# and, since issue 29 items 1 and 2 bounded them (--max-inflate):
#   perfetto/bomb-zstd-1g   one zstd_compressed_packets of 1 GiB of zeros
#                           (33 KB): refused past 32 MiB, 40 MB peak
#   dat/bomb-zstd-1g        zstd of the trace.dat magic and 1 GiB of
#                           zeros (33 KB): its copy refused past 32 MiB
# Not committed: four such Perfetto packets (135 KB), --perfetto DIR.
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

# Trace { packet (1) { zstd_compressed_packets (133) = frame } } x N;
# 133 << 3 | 2 = 1066: varint aa 08
packets() {	# FRAME N OUT
	/usr/bin/python3 - "$@" <<'EOF'
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
open(sys.argv[3], "wb").write((b"\x0a" + varint(len(pkt)) + pkt) * int(sys.argv[2]))
EOF
}

frame=$(mktemp)
head -c $GIB /dev/zero | zstd -q -19 -c >"$frame"
packets "$frame" 1 "$top/corpus/perfetto/bomb-zstd-1g"
if [ "${1:-}" = --perfetto ]; then
	packets "$frame" 4 "$2/bomb-zstd-4x1g.pftrace"
fi
rm -f "$frame"
{ printf '\027\010\104tracing6\0'; head -c $GIB /dev/zero; } | zstd -q -19 -c \
	>"$top/corpus/dat/bomb-zstd-1g"

head -c $GIB /dev/zero | zstd -q -19 -c | seed bomb-zstd-1g-nul
line $GIB | zstd -q -19 -c | seed bomb-zstd-1g-line
line $((32 << 20)) | gzip -9 -n -c | seed bomb-gzip-32m-line

