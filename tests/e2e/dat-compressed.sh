#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# eatrace's own reader of compressed trace.dat v7 files (dat-chunks.c):
# every trace.dat of traces/ (of $SHARED with dat-compressed-shared.sh,
# which runs this script with DZ_SHARED=1) is converted by
# `trace-cmd convert` to compressed v7, with zstd and with zlib, and
#  - the own reader is used on both (EATRACE_DAT_READER=pages succeeds);
#  - dump, stats json and report json are byte-identical to
#    libtracecmd's (EATRACE_DAT_READER=libtracecmd), exit status and
#    stderr included, dump is identical to the uncompressed file's, and
#    stats with one thread (-j 1) to stats with the helper thread (-j 2);
# then (traces/ only) damaged compressed files: a chunk that does not
# decompress is an error naming the CPU and the chunk; a file cut
# anywhere is an error (libtracecmd reads some cuts without a word).
. "$(dirname "$0")/lib.sh"
lsan_dat
DZ_SHARED=${DZ_SHARED:-0}
# at least this many compressed files compared (3 trace.dat in $SHARED)
min=10
[ "$DZ_SHARED" = 1 ] && min=6
# under make sanitize, a third of $SHARED's (sampled, lib.sh) and a sixth
# of traces/' (4 traces, 8 compressed files: zstd and zlib, one and many
# chunks per CPU, 2 to 8 CPUs): each file runs the same code of
# dat-chunks.c, which make check runs on all of them
if [ "${EA_SANITIZE:-0}" = 1 ]; then
	min=$(((min + 2) / 3))
	[ "$DZ_SHARED" = 1 ] || min=8
fi

command -v trace-cmd >/dev/null || skip "trace-cmd not installed"
# zlib for trace-cmd convert (tc-zlib.c: Debian's trace-cmd lacks it)
# shellcheck disable=SC2046
${CC:-cc} -shared -fPIC -O1 -o "$TMP/tc-zlib.so" "$ROOT/tests/e2e/tc-zlib.c" \
	$(pkg-config --cflags --libs libtracecmd zlib) ||
	{ fail "cannot build tc-zlib.so"; finish; }
MODEL=$ROOT/tests/fixtures/energy/two-cpu.json

# conv IN OUT ALGO
conv() {
	if [ "$3" = zlib ]; then
		LD_PRELOAD=$TMP/tc-zlib.so trace-cmd convert --file-version 7 \
			--compression zlib -i "$1" -o "$2" >/dev/null 2>&1
	else
		trace-cmd convert --file-version 7 --compression "$3" -i "$1" \
			-o "$2" >/dev/null 2>&1
	fi
}

if [ "$DZ_SHARED" = 1 ]; then
	set -- $(sampled "$SHARED"/*/*.dat)
else
	set -- $(sampled_1_in 6 "$ROOT"/traces/*/*.dat)
fi
n=0
for f in "$@"; do
	[ -f "$f" ] && is_dat "$f" || continue
	b=$(basename "$f" .dat)
	"$EATRACE" dump "$f" >"$TMP/orig.dump" 2>/dev/null
	for algo in zstd zlib; do
		z=$TMP/$b-$algo.dat
		if ! conv "$f" "$z" $algo; then
			fail "$b: trace-cmd convert --compression $algo failed"
			continue
		fi
		n=$((n + 1))
		if EATRACE_DAT_READER=pages "$EATRACE" stats "$z" >"$TMP/st" 2>"$TMP/err"; then
			grep -q "(compressed, $algo)" "$TMP/st" &&
				ok "$b $algo: read by the own reader" ||
				fail "$b $algo: not reported as compressed: $(head -n 1 "$TMP/st")"
		else
			fail "$b $algo: not read by the own reader: $(cat "$TMP/err")"
		fi
		same_dat_readers "$b $algo: dump" "$EATRACE" dump "$z"
		cmp -s "$TMP/b" "$TMP/orig.dump" && ok "$b $algo: dump as the original's" ||
			fail "$b $algo: dump differs from the uncompressed file's"
		same_dat_readers "$b $algo: stats json" "$EATRACE" stats --format json "$z"
		# decompression on a helper thread or not: the same output and
		# the same stderr (warnings go there, also with --format json)
		"$EATRACE" stats -j 1 --format json "$z" >"$TMP/j1" 2>"$TMP/j1.err"
		"$EATRACE" stats -j 2 --format json "$z" >"$TMP/j2" 2>"$TMP/j2.err"
		cmp -s "$TMP/j1" "$TMP/j2" && cmp -s "$TMP/j1.err" "$TMP/j2.err" &&
			ok "$b $algo: -j 1 as -j 2" ||
			fail "$b $algo: stats -j 1 differs from -j 2: $(diff "$TMP/j1" "$TMP/j2" | head -n 4; diff "$TMP/j1.err" "$TMP/j2.err" | head -n 4)"
		same_dat_readers "$b $algo: report json" "$EATRACE" report -m "$MODEL" --format json "$z"
		rm -f "$z"
	done
done
[ $n -ge $min ] && ok "$n compressed files compared" || fail "only $n compressed files"
[ "$DZ_SHARED" = 1 ] && finish

# ---- damaged compressed files --------------------------------------------------
# traces/diff/light-2.dat as zstd v7: each CPU has two chunks of 10 and 9
# (CPU 0) or 10 and 1 (CPU 1) pages; chunks.py prints where they are.
cat >"$TMP/chunks.py" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
v = d.index(b'\0', 10)
p = d.index(b'\0', d.index(b'\0', v + 7) + 1) + 1
off = struct.unpack_from('<Q', d, p)[0]
while off:
    sid, fl, _, size = struct.unpack_from('<HHIQ', d, off)
    q, end, off = off + 16, off + 16 + size, 0
    while q + 6 <= end:
        oid, sz = struct.unpack_from('<HI', d, q)
        q += 6
        if oid == 0:
            off = struct.unpack_from('<Q', d, q)[0]
            break
        if oid == 3:
            c = d.index(b'\0', d.index(b'\0', q + 8) + 1) + 1
            for i in range(struct.unpack_from('<I', d, c + 4)[0]):
                cpu, co, cs = struct.unpack_from('<IQQ', d, c + 8 + 20 * i)
                x = co + 4
                for k in range(struct.unpack_from('<I', d, co)[0] if cs else 0):
                    zs, us = struct.unpack_from('<II', d, x)
                    print(cpu, k + 1, x, zs, us)
                    x += 8 + zs
        q += sz
PY
Z=$TMP/light-2.dat
conv "$ROOT/traces/diff/light-2.dat" "$Z" zstd || fail "convert light-2"
/usr/bin/python3 "$TMP/chunks.py" "$Z" >"$TMP/chunks"
# CPU 1's second chunk: "1 2 OFFSET ZSIZE USIZE"
set -- $(grep '^1 2 ' "$TMP/chunks")
[ $# -eq 5 ] || fail "light-2 zstd: no second chunk on CPU 1 ($(cat "$TMP/chunks"))"
c12=$3

# The zstd frame's magic overwritten: libtracecmd drops the chunk's
# records without a word; the own reader stops on it.
cp "$Z" "$TMP/c.dat"; patch_bytes "$TMP/c.dat" $((c12 + 8)) 00000000
for j in 1 2; do
	expect_fail "chunk that does not decompress (-j $j)" 2 \
		"cpu 1 record 332: corrupt trace.dat: compressed chunk 2 of 2 at offset $c12: Unknown frame descriptor" \
		-- "$EATRACE" stats -j $j "$TMP/c.dat"
done
# Its header claims two pages where it holds one.
cp "$Z" "$TMP/c.dat"; patch_bytes "$TMP/c.dat" $((c12 + 4)) 00200000
expect_fail "chunk shorter than its header" 2 \
	"compressed chunk 2 of 2 at offset $c12: fewer bytes than its header says" \
	-- "$EATRACE" stats "$TMP/c.dat"
# Not whole pages.
cp "$Z" "$TMP/c.dat"; patch_bytes "$TMP/c.dat" $((c12 + 4)) 01100000
expect_fail "chunk not whole pages" 2 \
	"cpu 1 record 1: corrupt trace.dat: compressed chunks hold 45057 bytes, not whole pages" \
	-- "$EATRACE" report -m "$MODEL" -o "$TMP/out.json" "$TMP/c.dat"
[ -e "$TMP/out.json" ] && fail "output file left after a corrupt chunk" ||
	ok "no output file after a corrupt chunk"
# The same chunk in zlib.
conv "$ROOT/traces/diff/light-2.dat" "$TMP/zl.dat" zlib || fail "convert light-2 zlib"
set -- $(/usr/bin/python3 "$TMP/chunks.py" "$TMP/zl.dat" | grep '^1 2 ')
patch_bytes "$TMP/zl.dat" $(($3 + 8)) 0000
expect_fail "zlib chunk that does not decompress" 2 \
	"cpu 1 record 332: corrupt trace.dat: compressed chunk 2 of 2 at offset $3: invalid zlib data" \
	-- "$EATRACE" stats "$TMP/zl.dat"

# Cut anywhere: every 997th length and the last 64 (the strings section
# trace-cmd writes last, which libtracecmd reads cut without a word).
# Under make sanitize every 2991st and the last 16 (16 cuts, not 91: a
# cut in each section and in each CPU's chunks still, the 92 in make check).
size=$(wc -c <"$Z")
step=997 tail=64
[ "${EA_SANITIZE:-0}" = 1 ] && step=2991 tail=16
bad=0 cuts=0 len=1
while [ $len -lt "$size" ]; do
	head -c $len "$Z" >"$TMP/cut.dat"
	"$EATRACE" stats "$TMP/cut.dat" >/dev/null 2>"$TMP/err"
	rc=$?
	cuts=$((cuts + 1))
	if [ $rc -ne 2 ] || [ "$(wc -l <"$TMP/err")" -ne 1 ]; then
		bad=$((bad + 1))
		[ $bad -le 3 ] && fail "cut at $len of $size: exit $rc: $(head -c 200 "$TMP/err")"
	fi
	if [ $len -lt $((size - tail)) ]; then len=$((len + step)); else len=$((len + 1)); fi
done
[ $bad -eq 0 ] && ok "$cuts cuts of the zstd file: each an error" ||
	fail "$bad of $cuts cuts read without an error"
# the last section ends where the file did ($size); the cut file one byte
# before: the section table's check (dat-sections.c) names both
expect_fail "cut in the last section" 2 "ends at $size, the file at $((size - 1))" \
	-- sh -c "head -c $((size - 1)) '$Z' >'$TMP/cut.dat'; exec '$EATRACE' stats '$TMP/cut.dat'"
finish
