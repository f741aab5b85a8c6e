#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Decoding on a thread of its own (issue 19, item 2; dat-read.c
# par_main()): with -j 2 the page walker and the decoding run on a second
# thread and hand blocks of events to the state stage. Every trace.dat of
# traces/ (of $SHARED with dat-par-shared.sh, which runs this script with
# PAR_SHARED=1), as it is (PAR_FORMS=plain, this script) and converted to
# compressed v7 with zstd and with zlib (PAR_FORMS="zstd zlib",
# dat-par-compressed.sh; of traces/diff's nine runs of one workload, two),
# must give byte for byte the same report json
# and dump (every field of every event), the same stderr and exit status,
# with two threads as with one (EATRACE_JOBS=2 and 1: dump has no -j):
# report with the default blocks (1024 events),
# dump with blocks of 3 events (EATRACE_DAT_BLOCK=3: many hand-overs, the
# ring full and empty). A compressed file's reader takes two jobs
# (inflating, then decoding: dat-read.c's par_begin()): its report is
# compared at EATRACE_JOBS=2 (chunks inflated on a helper thread, decoded
# by the caller), its dump at 3 (decoded on a thread of their own too). Then (this script only) damaged files,
# where the error and the position it names must be the same too: a
# record running past its page (the walker's error), a record shorter
# than its format (the decoder's), a sched_switch with a negative pid
# (an error of the input stage, naming the reader's position).
. "$(dirname "$0")/lib.sh"
lsan_dat
PAR_SHARED=${PAR_SHARED:-0}
PAR_FORMS=${PAR_FORMS:-plain}
MODEL=$ROOT/tests/fixtures/energy/two-cpu.json

have_tc=0
if command -v trace-cmd >/dev/null &&
	# shellcheck disable=SC2046
	${CC:-cc} -shared -fPIC -O1 -o "$TMP/tc-zlib.so" "$ROOT/tests/e2e/tc-zlib.c" \
		$(pkg-config --cflags --libs libtracecmd zlib) 2>/dev/null; then
	have_tc=1
fi

# conv IN OUT ALGO (tc-zlib.c: Debian's trace-cmd lacks zlib)
conv() {
	LD_PRELOAD=$TMP/tc-zlib.so trace-cmd convert --file-version 7 \
		--compression "$3" -i "$1" -o "$2" >/dev/null 2>&1
}

# same NAME CMD...: stdout, stderr and exit status of -j 1 and -j $jobs
# (2, or 3 for a compressed file's dump) equal; with blocks of 3 events
# for dump, of the default size otherwise
same() {
	name=$1
	shift
	EATRACE_JOBS=1 "$@" >"$TMP/a" 2>"$TMP/a.err"
	ra=$?
	blk=
	jobs=2
	case $name in
	*": dump")
		blk=3
		[ "${form:-plain}" = plain ] || jobs=3
		;;
	esac
	EATRACE_JOBS=$jobs EATRACE_DAT_BLOCK=$blk "$@" >"$TMP/b" 2>"$TMP/b.err"
	rb=$?
	same_runs "$name" "-j 1" "-j $jobs"
}

# Under make sanitize: a sixth of traces/ (4 files, 3 of them for the
# compressed forms) and a third of $SHARED's (the helper thread's code is
# the same on each; make check compares all).
if [ "$PAR_SHARED" = 1 ]; then
	need_shared
	set -- $(sampled "$SHARED"/*/*.dat)
else
	set -- $(sampled_1_in 6 "$ROOT"/traces/*/*.dat)
fi
n=0
for f in "$@"; do
	[ -f "$f" ] && is_dat "$f" || continue
	b=$(basename "$f" .dat)
	# compressed: two of traces/diff's nine runs of one workload (time)
	case $PAR_FORMS/$f in
	plain/*) ;;
	*/traces/diff/heavy-1.dat | */traces/diff/light-2.dat) ;;
	*/traces/diff/*) continue ;;
	esac
	for form in $PAR_FORMS; do
		g=$f
		if [ $form != plain ]; then
			g=$TMP/$b-$form.dat
			[ $have_tc = 1 ] || skip "trace-cmd (and tc-zlib.c) needed"
			conv "$f" "$g" $form ||
				{ fail "$b: trace-cmd convert --compression $form failed"; continue; }
		fi
		n=$((n + 1))
		same "$b $form: report json" "$EATRACE" report -m "$MODEL" --format json "$g"
		same "$b $form: dump" "$EATRACE" dump "$g"
		[ $form = plain ] || rm -f "$g"
	done
done
# per form: 17 trace.dat in traces/ (10 compressed), 3 in $SHARED
nf=17
[ "$PAR_FORMS" = plain ] || nf=10
[ "$PAR_SHARED" = 1 ] && nf=3
# under make sanitize a third of the files (sampled): at least one per form
[ "${EA_SANITIZE:-0}" = 1 ] && nf=1
min=$((nf * $(echo $PAR_FORMS | wc -w)))
[ $n -ge $min ] && ok "$n files compared" || fail "only $n files compared (at least $min)"
[ "$PAR_SHARED" = 1 ] || [ "$PAR_FORMS" != plain ] && finish

# ---- damaged files ------------------------------------------------------------
# traces/vm/vm-v6.dat: CPU 0's pages at 49152 and 53248 (4096 bytes,
# page header 16 bytes: u64 timestamp, u64 commit), as in
# dat-walk-hostile.sh. bad.py walks the second page's records (event
# header u32: type_len in the low 5 bits, 1..28 a record of type_len * 4
# bytes, 0 a length word, 29 padding, 30 and 31 8-byte time items) and
# damages the Nth sched_switch (its id and prev_pid offset read from the
# format text in the file's header).
src=$ROOT/traces/vm/vm-v6.dat
cat >"$TMP/bad.py" <<'PY'
import re, struct, sys
src, out, how = sys.argv[1], sys.argv[2], sys.argv[3]
d = bytearray(open(src, 'rb').read())
fmt = re.search(rb'name: sched_switch\nID: (\d+)\n', d)
sw_id = int(fmt.group(1))
prev_pid = int(re.search(rb'field:pid_t prev_pid;\toffset:(\d+);',
                         d[fmt.end():]).group(1))
P1 = 49152 + 4096
size = struct.unpack_from('<Q', d, P1 + 8)[0] & ((1 << 27) - 1)
q, end, seen = P1 + 16, P1 + 16 + size, 0
while q < end:
    h = struct.unpack_from('<I', d, q)[0]
    t = h & 31
    if t == 29:
        q += 4 + struct.unpack_from('<I', d, q + 4)[0]
        continue
    if t >= 30:
        q += 8
        continue
    if t == 0:
        n, data = struct.unpack_from('<I', d, q + 4)[0] - 4, q + 8
    else:
        n, data = t * 4, q + 4
    if struct.unpack_from('<H', d, data)[0] == sw_id:
        seen += 1
        if seen == 5:
            break
    q = data + ((n + 3) & ~3)
assert seen == 5, 'fewer than 5 sched_switch records in the page'
if how == 'negpid':
    struct.pack_into('<i', d, data + prev_pid, -5)
elif how == 'short':
    # a 4-byte record: shorter than sched_switch's format
    struct.pack_into('<I', d, q, 1 | (h & ~31))
elif how == 'past':
    # a length word far past the page
    struct.pack_into('<II', d, q, h & ~31, 0x7ffffff0)
open(out, 'wb').write(d)
PY
for how in negpid short past; do
	if ! /usr/bin/python3 "$TMP/bad.py" "$src" "$TMP/$how.dat" $how; then
		fail "$how: could not damage $src"
		continue
	fi
	same "damaged ($how): dump" "$EATRACE" dump "$TMP/$how.dat"
	grep -q 'cpu 0 record' "$TMP/a.err" && [ "$(wc -l <"$TMP/a.err")" -eq 1 ] &&
		ok "damaged ($how): one error naming the record" ||
		fail "damaged ($how): stderr $(head -c 300 "$TMP/a.err")"
	same "damaged ($how): report" "$EATRACE" report -m "$MODEL" "$TMP/$how.dat"
done
finish
