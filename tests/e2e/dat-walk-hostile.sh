#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Hostile trace.dat pages that once got past the page walker's checks
# (review of the walker, issue 8): each is a copy of traces/vm/vm-v6.dat
# (CPU 0's data: pages at 49152 and 53248, 4096 bytes, long size 8, page
# header 16 bytes) with a few bytes changed. Every case must end within
# the timeout with exit 0 or 2, and one stderr line when it fails.
. "$(dirname "$0")/lib.sh"
src=$ROOT/traces/vm/vm-v6.dat

/usr/bin/python3 - "$src" "$TMP" <<'PY'
import struct, sys
src, out = sys.argv[1], sys.argv[2]
base = open(src, 'rb').read()
P0, P1 = 49152, 49152 + 4096          # CPU 0: first and second page
def mk(name, edits):
    d = bytearray(base)
    for off, b in edits:
        d[off:off + len(b)] = b
    open('%s/%s.dat' % (out, name), 'wb').write(d)
# type_len 0 with a length word far past the page
huge = struct.pack('<II', 0, 0x7ffffff0)
# padding (type_len 29, delta 1) whose length word is -4 as an int:
# kbuffer's next item is the current one, forever
padloop = struct.pack('<II', 29 | 1 << 5, 0xfffffffc)
mk('second-bad', [(P1 + 16, huge)])
mk('first-bad', [(P0 + 16, huge)])
mk('fallback-hang', [(P0 + 16, huge), (P1 + 16, padloop)])
mk('padloop-first', [(P0 + 16, padloop)])
# first page: commit 64, one padding item 8 KiB long (runs past the
# page); second page empty: libtracecmd's first cursor is two pages on
mk('cursor-skew', [(P0 + 8, struct.pack('<Q', 64)),
                   (P0 + 16, struct.pack('<II', 29 | 1 << 5, 0x2000 - 4)),
                   (P1 + 8, struct.pack('<Q', 0))])
PY

# A bad record in a CPU's second page: the walker's error, with the
# number of the bad record (CPU 0 has 107 records on its first page,
# counted by walking it by hand: the bad one is the 108th).
expect_fail "record past the page (second page)" 2 \
	"cpu 0 record 108: corrupt trace.dat: record runs past the end of the page data" -- \
	timeout 20 "$EATRACE" stats "$TMP/second-bad.dat"
# The same in the first page: found when the walker is set up, not
# handed to libtracecmd (which read garbage with exit 0).
expect_fail "record past the page (first page)" 2 \
	"cpu 0 record 1: corrupt trace.dat: record runs past the end of the page data" -- \
	timeout 20 "$EATRACE" stats "$TMP/first-bad.dat"
# ... and with a kbuffer-looping padding after it (libtracecmd hung).
expect_fail "first page bad, looping padding next" 2 "corrupt trace.dat" -- \
	timeout 20 "$EATRACE" stats "$TMP/fallback-hang.dat"
# The looping padding in the first page hangs libtracecmd's open: the
# guard stops it after 10 s of CPU time and the file is rejected. CPU time,
# not wall-clock: on a loaded machine (make sanitize beside other jobs on
# 2 CPUs) that took over 30 s, hence the generous timeout. Sanitized
# builds rehearse in a child whose CPU limit EATRACE_REHEARSE sets
# (dat-guard.c; plain builds ignore it and stop the loop after their
# fixed 10 s): 2 s there, not the default 10, since the loop burns all
# it is given; the same SIGXCPU and message, 8 s less CPU under make
# sanitize.
expect_fail "looping padding in the first page" 2 "libtracecmd looped on it" -- \
	env EATRACE_REHEARSE=2:300:0 timeout 150 "$EATRACE" stats "$TMP/padloop-first.dat"
# No partial output file on any of them.
timeout 20 "$EATRACE" report -m "$ROOT/models/tc2.json" -o "$TMP/out.json" \
	--format json "$TMP/first-bad.dat" 2>/dev/null
expect_eq "no output file after a corrupt first page" \
	"$([ -e "$TMP/out.json" ] && echo exists || echo absent)" absent

# libtracecmd's first cursor past the first page: the walker must not
# start there (it read CPU 1's pages as CPU 0's); what libtracecmd reads
# is what eatrace reads.
EATRACE_DAT_READER=libtracecmd timeout 20 "$EATRACE" dump "$TMP/cursor-skew.dat" \
	>"$TMP/a" 2>"$TMP/a.err"
timeout 20 "$EATRACE" dump "$TMP/cursor-skew.dat" >"$TMP/b" 2>"$TMP/b.err"
expect_eq "cursor past the first page: libtracecmd's events" \
	"$(cmp -s "$TMP/a" "$TMP/b" && cmp -s "$TMP/a.err" "$TMP/b.err" && echo same)" same
expect_fail "walker refused, pages forced" 2 "read cursor past the CPU's first page" -- \
	env EATRACE_DAT_READER=pages timeout 20 "$EATRACE" dump "$TMP/cursor-skew.dat"

# Set but empty is the default.
expect_eq "empty EATRACE_DAT_READER is the default" \
	"$(EATRACE_DAT_READER= "$EATRACE" stats --format json "$src" | md5sum)" \
	"$("$EATRACE" stats --format json "$src" | md5sum)"
# An unknown EATRACE_DAT_READER value is an error, not silently ignored.
expect_fail "unknown EATRACE_DAT_READER" 2 "EATRACE_DAT_READER=foo: expected libtracecmd or pages" -- \
	env EATRACE_DAT_READER=foo "$EATRACE" stats "$src"
finish
