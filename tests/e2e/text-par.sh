#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# An ftrace-text trace read a block at a time (src/input/next-blocks.c,
# text-events.c's ea_text_use_blocks()): lexed, parsed, reordered and
# checked on a thread of its own from two jobs, on the caller's thread in
# blocks with one. Each file must give byte for byte the same dump, stats
# (its notes: events reordered, a cut last line), report JSON, stderr and
# exit status as the events one at a time (EATRACE_TEXT_BLOCK=0, the
# stream's own next() and input.c's checks): with EATRACE_JOBS=1, with 2
# and blocks of 3 events (many hand-overs, the ring full and empty), and
# with 3 (the look-ahead split off too, report only). The files: the
# text fixtures (their errors included: the reader's, met on the decoding
# thread, and the checks'), the repository's text recordings, and
# wl-pingpong's three times over (4 s, longer than the reorder window),
# plain, gzip'd and zstd'd, and damaged: an event of the third copy moved
# 3 s back (the reader's error, "goes backwards beyond the reorder
# window", after some 7000 events), a cpu_frequency of 0 kHz (the checks'
# error), a NUL byte and a malformed line past the first blocks, a cut
# last line (forgiven, in stats' notes).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/blocks-same.inc"
MODEL=$ROOT/tests/fixtures/energy/two-cpu.json

# same NAME FILE: every command one at a time against blocks
same() {
	blocks_same EATRACE_TEXT_BLOCK "$1" "$2" dump stats "stats --format json" \
		"report -m $MODEL --format json"
}

n=0
for f in "$ROOT"/tests/fixtures/text/*.txt "$ROOT"/traces/vm/*.txt \
	"$ROOT"/traces/demo/*.txt "$ROOT"/traces/replay/*.txt; do
	same "$(basename "$f")" "$f"
	n=$((n + 1))
done

# ---- compressed and damaged copies of a recording -------------------------
# wl-pingpong's 3657 events three times, 2 s apart (the reorder window is
# 1 s: the first copy's events leave it while the third's are read)
/usr/bin/python3 - "$ROOT/traces/vm/wl-pingpong-ftrace.txt" "$TMP" <<'PY'
import re, sys
src = open(sys.argv[1]).read().split('\n')
out = sys.argv[2]
ts = re.compile(r'(\[(\d+)\]\s+(?:\S+\s+)?)(\d+)\.(\d+):')
head = [l for l in src if not ts.search(l)]
body = [l for l in src if ts.search(l)]
def shift(l, s):
    m = ts.search(l)
    return l[:m.start(3)] + str(int(m.group(3)) + s) + l[m.end(3):]
lines = [l for l in head if l] + [shift(l, 2 * k) for k in range(3) for l in body]
ev = [i for i, l in enumerate(lines) if ts.search(l)]
assert len(ev) > 10000, 'fewer events than asked'
def put(name, ls):
    open(f'{out}/{name}.txt', 'w').write('\n'.join(ls) + '\n')
put('three', lines)
# the third copy's 100th event moved 3 s back: behind events already out
i = ev[2 * len(body) + 100]
back = list(lines)
back[i] = shift(lines[i], -3)
put('back', back)
# a cpu_frequency of 0 kHz after the 5000th event, on its CPU
i = ev[5000]
m = ts.search(lines[i])
put('freq0', lines[:i + 1] + [lines[i][:m.end()] + ' cpu_frequency: state=0 cpu_id=' +
                               m.group(2)] + lines[i + 1:])
# a NUL byte in the 6000th event, a malformed switch after the 4000th
i = ev[6000]
nul = list(lines)
nul[i] = lines[i][:20] + '\0' + lines[i][21:]
put('nul', nul)
i = ev[4000]
m = ts.search(lines[i])
put('malformed', lines[:i + 1] + [lines[i][:m.end()] +
                                  ' sched_switch: prev_comm=x prev_pid=zz'] + lines[i + 1:])
# the last event cut in its middle
cut = list(lines)
cut[-1] = cut[-1][:len(cut[-1]) // 2]
open(f'{out}/cut.txt', 'w').write('\n'.join(cut))
PY
gzip -c "$TMP/three.txt" >"$TMP/three.txt.gz" && same "three copies, gzip" "$TMP/three.txt.gz" && n=$((n + 1))
if command -v zstd >/dev/null; then
	zstd -q -c "$TMP/three.txt" >"$TMP/three.txt.zst" &&
		same "three copies, zstd" "$TMP/three.txt.zst" && n=$((n + 1))
fi
same "three copies" "$TMP/three.txt"
n=$((n + 1))
for d in back freq0 nul malformed cut; do
	same "damaged ($d)" "$TMP/$d.txt"
	n=$((n + 1))
done
for d in back freq0 nul malformed; do
	EATRACE_JOBS=2 EATRACE_TEXT_BLOCK=3 "$EATRACE" dump "$TMP/$d.txt" >/dev/null 2>"$TMP/e"
	grep -q "$d.txt:line [0-9]*: " "$TMP/e" && [ "$(wc -l <"$TMP/e")" -eq 1 ] &&
		ok "damaged ($d): one error naming the line: $(cut -c1-120 "$TMP/e")" ||
		fail "damaged ($d): stderr $(head -c 300 "$TMP/e")"
done
[ $n -ge 40 ] && ok "$n files compared" || fail "only $n files compared"
finish
