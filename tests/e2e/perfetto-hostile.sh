#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Hostile Perfetto traces (docs/perfetto.md, docs/robustness.md): truncated,
# bit-flipped, oversized varints, lengths beyond the file, corrupt gzip and
# compressed_packets. Each gives exit 2 and one line naming the file and the
# position, or (a cut at a packet boundary, a flip in a value) is read; it
# never crashes or hangs.
. "$(dirname "$0")/lib.sh"
command -v trace-cmd >/dev/null || skip "needs trace-cmd"
C=$ROOT/tests/fuzz/corpus/perfetto
cp "$C/compact-small.pb" "$TMP/t.pb"
n=$(wc -c <"$TMP/t.pb")

# read_ok_or_err NAME FILE: exit 0, or 2 with one stderr line naming FILE.
read_ok_or_err() {
	timeout 20 "$EATRACE" stats "$2" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc -eq 0 ]; then return 0; fi
	if [ $rc -ne 2 ] || [ "$(wc -l <"$TMP/err")" -ne 1 ] || ! grep -qF "$2" "$TMP/err"; then
		fail "$1: exit $rc: $(head -c 300 "$TMP/err")"
		return 1
	fi
	return 0
}

# Truncated: cut inside the last packet, and at 40 places in the file.
head -c $((n - 1)) "$TMP/t.pb" >"$TMP/cut.pb"
expect_fail "cut one byte short" 2 "cut.pb:offset " -- "$EATRACE" stats "$TMP/cut.pb"
grep -q "truncated trace: packet of" "$TMP/err" && ok "cut: says truncated" || fail "cut: $(cat "$TMP/err")"
# Under make sanitize every third cut and every third flip below (13 cuts,
# 68 flips, not 39 and 200): the memory errors are sought in the same
# reader code (pb-wire.c, reader-perfetto.c) on each; the fuzz target
# (tests/fuzz/replay.sh, sanitized) replays the perfetto corpus in-process.
step=1
[ "${EA_SANITIZE:-0}" = 1 ] && step=3
bad=0 ncut=0
i=1
while [ $i -lt 40 ]; do
	head -c $((n * i / 40)) "$TMP/t.pb" >"$TMP/c$i.pb"
	read_ok_or_err "cut at $((n * i / 40))" "$TMP/c$i.pb" || bad=1
	ncut=$((ncut + 1))
	i=$((i + step))
done
[ $bad -eq 0 ] && ok "$ncut cuts: read or one-line error"

# Bit flips: 200 single-bit flips at deterministic positions, in the plain,
# per-event and deflated forms.
for f in compact-small.pb events-small.pb deflate.pb gzip.pb.gz; do
	/usr/bin/python3 - "$C/$f" "$TMP/flip" <<'PY'
import random, sys
data = open(sys.argv[1], 'rb').read()
rnd = random.Random(18)
for k in range(50):
    b = bytearray(data)
    p = rnd.randrange(len(b))
    b[p] ^= 1 << rnd.randrange(8)
    open('%s%02d.pb' % (sys.argv[2], k), 'wb').write(b)
PY
	bad=0 nerr=0 nflip=0
	for x in $(sampled "$TMP"/flip*.pb); do
		read_ok_or_err "$f flipped $(basename "$x")" "$x" || bad=1
		[ $rc -eq 2 ] && nerr=$((nerr + 1))
		nflip=$((nflip + 1))
	done
	[ $bad -eq 0 ] && ok "$f: $nflip bit flips read or one-line error ($nerr errors)"
	rm -f "$TMP"/flip*.pb
done

# Hand-made wire format: oversized varints and lengths beyond the end.
# good.pb is 21 bytes (one packet: tag, length 19, bundle tag, length 17,
# cpu 0, event of 13 bytes): errors in what follows it are at offset 21 (the
# packet) or 25 (its bundle, after two tags and two lengths).
/usr/bin/python3 - "$TMP" <<'PY'
import sys
d = sys.argv[1]
def v(x):
    o = b''
    while x >= 0x80:
        o += bytes([x & 0x7f | 0x80]); x >>= 7
    return o + bytes([x])
def ld(n, b): return v(n << 3 | 2) + v(len(b)) + b
ev = v(1 << 3) + v(1000) + v(2 << 3) + v(0) + ld(11, v(8) + v(500000) + v(16) + v(0))
good = ld(1, ld(1, v(8) + v(0) + ld(2, ev)))
open(d + '/good.pb', 'wb').write(good)
# a timestamp varint of 11 bytes inside an event
bad_ev = v(1 << 3) + b'\xff' * 10 + b'\x01' + ld(11, v(8) + v(1) + v(16) + v(0))
open(d + '/varint.pb', 'wb').write(good + ld(1, ld(1, v(8) + v(0) + ld(2, bad_ev))))
# a packet length varint of 11 bytes
open(d + '/varint-len.pb', 'wb').write(good + b'\x0a' + b'\xff' * 10 + b'\x01')
# a packet claiming 2^40 bytes
open(d + '/huge.pb', 'wb').write(good + b'\x0a' + v(1 << 40) + b'\x08\x00')
# a bundle for CPU 5000
open(d + '/cpu.pb', 'wb').write(good + ld(1, ld(1, v(8) + v(5000))))
# compressed_packets that are not zlib
open(d + '/zlib.pb', 'wb').write(good + ld(1, ld(50, b'\x78\x9cnot deflate data')))
# zstd_compressed_packets: a zstd magic and nothing else
open(d + '/zstd.pb', 'wb').write(good + ld(1, ld(133, b'\x28\xb5\x2f\xfd')))
# compact_sched arrays of different lengths
cs = ld(1, v(100) + v(5)) + ld(3, v(7)) + ld(2, v(0)) + ld(4, v(120)) + ld(5, b'x') + ld(6, v(0))
open(d + '/compact.pb', 'wb').write(good + ld(1, ld(1, v(8) + v(0) + ld(4, cs))))
# compact_sched comm index beyond the intern table
cs = ld(1, v(100)) + ld(3, v(7)) + ld(2, v(0)) + ld(4, v(120)) + ld(5, b'x') + ld(6, v(3))
open(d + '/intern.pb', 'wb').write(good + ld(1, ld(1, v(8) + v(0) + ld(4, cs))))
PY
"$EATRACE" dump "$TMP/good.pb" | grep -q "^1000 0 0 cpu_frequency state=500000 cpu_id=0$" && ok "hand-made trace read" || fail "hand-made trace: $("$EATRACE" dump "$TMP/good.pb" 2>&1)"
expect_fail "oversized varint in an event" 2 "varint.pb:cpu 0 packet 2: malformed ftrace event" -- "$EATRACE" stats "$TMP/varint.pb"
expect_fail "oversized length varint" 2 "varint-len.pb:offset 21: malformed trace" -- "$EATRACE" stats "$TMP/varint-len.pb"
expect_fail "length beyond the file" 2 "huge.pb:offset 21: truncated trace: packet of 1099511627776 bytes" -- "$EATRACE" stats "$TMP/huge.pb"
expect_fail "CPU out of range" 2 "cpu.pb:offset 25: ftrace bundle for CPU 5000" -- "$EATRACE" stats "$TMP/cpu.pb"
expect_fail "corrupt compressed_packets" 2 "zlib.pb:offset 26: corrupt compressed_packets" -- "$EATRACE" stats "$TMP/zlib.pb"
expect_fail "corrupt zstd" 2 "zstd.pb:offset 26: corrupt zstd_compressed_packets (zstd: " -- "$EATRACE" stats "$TMP/zstd.pb"
expect_fail "compact arrays" 2 "compact.pb:cpu 0 packet 2: compact_sched switch arrays of different lengths" -- "$EATRACE" stats "$TMP/compact.pb"
expect_fail "intern index" 2 "intern.pb:cpu 0 packet 2: compact_sched switch comm index beyond the intern table" -- "$EATRACE" stats "$TMP/intern.pb"
# gzip cut short
head -c 300 "$C/gzip.pb.gz" >"$TMP/gz.pb.gz"
expect_fail "gzip cut" 2 "gz.pb.gz:offset " -- "$EATRACE" stats "$TMP/gz.pb.gz"
# No partial output file on error.
"$EATRACE" report -m juno-r0 -o "$TMP/rep.txt" "$TMP/huge.pb" 2>/dev/null
[ ! -e "$TMP/rep.txt" ] && ok "no output file on error" || fail "report left $TMP/rep.txt"
finish
