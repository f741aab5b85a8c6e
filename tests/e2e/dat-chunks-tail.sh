#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# check_tail() in dat-chunks.c: the compressed reader's own check of the
# sections after the last options section (the strings section, which
# libtracecmd never reads). dat-sections.c's walk of the section chain
# finds the same cuts first, except after a section header it does not
# know (an id above 32: it stops quietly, to refuse no layout), so these
# cases reach check_tail() (issue 19: it was suspected unreachable).
# traces/vm/vm-v7-compressed.dat's sections, walked from the header by
# sec.py: ..., options, the flyrecord data (id 3), options, strings (15)
# last, ending at the end of the file.
. "$(dirname "$0")/lib.sh"
src=$ROOT/traces/vm/vm-v7-compressed.dat

cat >"$TMP/sec.py" <<'PY'
import struct, sys
src, out = sys.argv[1], sys.argv[2]
d = bytearray(open(src, 'rb').read())
i = d.index(b'\0', d.index(b'\0', 18) + 1) + 1 + 8  # compression name, version
secs = {}
while i + 16 <= len(d):
    sid, fl, name, size = struct.unpack_from('<HHIQ', d, i)
    secs[sid] = i
    i += 16 + size
assert i == len(d) and 3 in secs and 15 in secs, 'unexpected layout'
def write(name, data):
    open('%s/%s.dat' % (out, name), 'wb').write(data)
s = bytearray(d)
struct.pack_into('<H', s, secs[15], 0x7fff)
write('strings-odd', s)                      # not cut
write('strings-odd-cut', s[:-1])             # last byte gone
f = bytearray(d)
struct.pack_into('<H', f, secs[3], 0x7fff)
write('data-odd-hdrcut', f[:secs[15] + 8])   # half the strings header
PY
/usr/bin/python3 "$TMP/sec.py" "$src" "$TMP" || { fail "sec.py"; finish; }

# A strings section with an id unknown to dat-sections.c: read as before
"$EATRACE" stats "$TMP/strings-odd.dat" >"$TMP/out" 2>"$TMP/err"
expect_eq "unknown id in the tail, not cut: read" "$?" 0
# ... cut by one byte: check_tail() finds the section runs past the end
# (libtracecmd's path reads it without a word: the check is needed)
expect_fail "unknown id in the tail, cut" 2 \
	"strings-odd-cut.dat: truncated trace.dat: section cut by the end of the file" -- \
	"$EATRACE" stats "$TMP/strings-odd-cut.dat"
EATRACE_DAT_READER=libtracecmd "$EATRACE" stats "$TMP/strings-odd-cut.dat" >"$TMP/out" 2>&1
expect_eq "the same through libtracecmd: no error" "$?" 0
# The data section's id unknown (dat-sections.c stops there), the file
# cut inside the strings section's header
expect_fail "tail header cut" 2 \
	"data-odd-hdrcut.dat: truncated trace.dat: section header cut by the end of the file" -- \
	"$EATRACE" stats "$TMP/data-odd-hdrcut.dat"
finish
