#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A Perfetto trace read a block at a time (src/input/next-blocks.c,
# reader-perfetto.c): decoded and checked on a thread of its own from two
# jobs, on the caller's thread in blocks with one. Each file must give
# byte for byte the same dump (every field of every event), report JSON,
# stderr and exit status as the events one at a time
# (EATRACE_PF_BLOCK=0, the reader's own next() and input.c's checks):
# with EATRACE_JOBS=1, with 2 and blocks of 3 events (many hand-overs,
# the ring full and empty), and with 3 (the look-ahead split off too,
# report only). The files: tests/fuzz/corpus/perfetto's named ones, the
# repository's recordings converted (per-event and compact_sched,
# tests/perfetto/to-perfetto.py), and damaged ones whose error (and the
# position it names) must be the same: a CPU's timestamp going backwards
# (the checks' error, "cpu N packet P"), a cpu_frequency of 0 kHz (the
# same, an event's value), a bundle whose third field is malformed (the
# reader's error, met on the decoding thread).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/blocks-same.inc"
. "$(dirname "$0")/../perfetto/lib.sh"
MODEL=$ROOT/tests/fixtures/energy/two-cpu.json

# same NAME FILE: dump and report json, one at a time against blocks
same() {
	blocks_same EATRACE_PF_BLOCK "$1" "$2" dump "report -m $MODEL --format json"
}

n=0
for f in "$ROOT"/tests/fuzz/corpus/perfetto/*.pb; do
	same "$(basename "$f")" "$f"
	n=$((n + 1))
done
if command -v trace-cmd >/dev/null; then
	for dat in $(sampled "$ROOT"/traces/vm/*.dat "$ROOT"/traces/diff/heavy-1.dat); do
		b=$(basename "$dat" .dat)
		for enc in "" "--compact"; do
			to_pf "$dat" "$TMP/$b.pftrace" $enc || { fail "$b: conversion failed"; continue; }
			same "$b ${enc:-per-event}" "$TMP/$b.pftrace"
			n=$((n + 1))
		done
	done

	# ---- damaged files ----------------------------------------------------
	# wl-pingpong's events as trace-cmd report -t -R prints them, CPU 1's
	# 300th event (of about 1700) moved 1 s back, or a cpu_frequency of 0
	# kHz put in after CPU 0's 400th.
	dat=$ROOT/traces/vm/wl-pingpong.dat
	trace-cmd report -t -R "$dat" >"$TMP/raw.txt" 2>/dev/null || fail "trace-cmd report"
	/usr/bin/python3 - "$TMP/raw.txt" "$TMP/back.txt" "$TMP/freq0.txt" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().split('\n')
ts = re.compile(r'(\[(\d+)\]\s+)(\d+)\.(\d+):')
def nth(cpu, n):
    k = 0
    for i, l in enumerate(lines):
        m = ts.search(l)
        if m and int(m.group(2)) == cpu:
            k += 1
            if k == n:
                return i, m
    raise SystemExit('fewer events than asked')
i, m = nth(1, 300)
back = list(lines)
back[i] = l = lines[i][:m.start(3)] + str(int(m.group(3)) - 1) + lines[i][m.end(3):]
open(sys.argv[2], 'w').write('\n'.join(back))
i, m = nth(0, 400)
line = lines[i][:m.end()] + ' cpu_frequency:         state=0 cpu_id=0'
line = re.sub(r'\S+-\d+(\s+\[)', r'<idle>-0\1', line, count=1)
freq = lines[:i + 1] + [line] + lines[i + 1:]
open(sys.argv[3], 'w').write('\n'.join(freq))
PY
	for d in back freq0; do
		/usr/bin/python3 "$ROOT/tests/perfetto/to-perfetto.py" "$TMP/$d.txt" "$TMP/$d.pftrace" ||
			{ fail "$d: conversion failed"; continue; }
		same "damaged ($d)" "$TMP/$d.pftrace"
		EATRACE_JOBS=2 "$EATRACE" dump "$TMP/$d.pftrace" >/dev/null 2>"$TMP/e"
		grep -q 'pftrace:cpu [01] packet [0-9]*: ' "$TMP/e" && [ "$(wc -l <"$TMP/e")" -eq 1 ] &&
			ok "damaged ($d): one error naming the packet: $(cut -c1-120 "$TMP/e")" ||
			fail "damaged ($d): stderr $(head -c 300 "$TMP/e")"
	done
	# A bundle's third field made malformed (wire type 7), in a file of
	# bundles of 50 events: the packets walked (tag 0x0a, a varint
	# length), the 20th holding a bundle (its field 1, tag 0x0a) whose
	# first field is its cpu (tag 0x08, a one-byte value).
	to_pf "$dat" "$TMP/m.pftrace" --compact --bundle 50 || fail "conversion"
	/usr/bin/python3 - "$TMP/m.pftrace" "$TMP/bad.pftrace" <<'PY'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
def varint(p):
    v = s = 0
    while True:
        b = d[p]; p += 1
        v |= (b & 0x7f) << s; s += 7
        if not b & 0x80:
            return v, p
p, k = 0, 0
while p < len(d):
    assert d[p] == 0x0a
    n, q = varint(p + 1)
    if d[q] == 0x0a:
        bl, r = varint(q + 1)
        if d[r] == 0x08 and d[r + 1] < 0x80:
            k += 1
            if k == 20:
                d[r + 2] = 0x07
                break
    p = q + n
assert k == 20, 'fewer than 20 bundles'
open(sys.argv[2], 'wb').write(d)
PY
	same "damaged (bundle)" "$TMP/bad.pftrace"
	EATRACE_JOBS=2 "$EATRACE" dump "$TMP/bad.pftrace" >/dev/null 2>"$TMP/e"
	grep -q 'malformed ftrace bundle' "$TMP/e" && [ "$(wc -l <"$TMP/e")" -eq 1 ] &&
		ok "damaged (bundle): the reader's error" || fail "damaged (bundle): stderr $(head -c 300 "$TMP/e")"
fi
[ $n -ge 11 ] && ok "$n files compared" || fail "only $n files compared"
finish
