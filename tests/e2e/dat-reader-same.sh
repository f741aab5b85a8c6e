#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The two trace.dat readers (src/input/dat-read.c): the page walker
# (dat-walk.c, the default for uncompressed files) and libtracecmd's
# record-by-record path (EATRACE_DAT_READER=libtracecmd) must give the
# same events in the same order:
#  - `eatrace dump` and `stats --format json` are byte-identical between
#    the two on every trace.dat in traces/ and $SHARED;
#  - the walker is really used, on the compressed ones too
#    (EATRACE_DAT_READER=pages refuses to fall back);
#  - a corrupt record or page header inside a data page is one line on
#    stderr naming the file, CPU and offset, exit 2, no output file.
. "$(dirname "$0")/lib.sh"

# As readers-dat.sh: leaks inside libtracecmd/libtraceevent, not ours.
lsan_dat

# Under make sanitize a sixth (4 of 31: v7 of this machine's recordings;
# v6 in vm-v6.dat below, compressed files in dat-compressed.sh), none over
# 1 MB (trappy's 3.3 MB trace.dat, 12 s of CPU sanitized here, is read
# sanitized by edges.sh): the same reader code on each, which make check
# compares on all of them.
n=0
for f in $(sampled_1_in 6 "$ROOT"/traces/*/*.dat "$SHARED"/*/*.dat); do
	[ -f "$f" ] && is_dat "$f" || continue
	[ "${EA_SANITIZE:-0}" = 1 ] && [ "$(wc -c <"$f")" -gt 1048576 ] && continue
	b=$(basename "$f")
	n=$((n + 1))
	same_dat_readers "$b: dump" "$EATRACE" dump "$f"
	same_dat_readers "$b: stats json" "$EATRACE" stats --format json "$f"
	# compressed ones too, decompressed by dat-chunks.c (dat-compressed.sh)
	if EATRACE_DAT_READER=pages "$EATRACE" stats "$f" >/dev/null 2>"$TMP/err"; then
		ok "$b: read by the page walker"
	else
		fail "$b: not read by the page walker: $(cat "$TMP/err")"
	fi
done
min=10
[ "${EA_SANITIZE:-0}" = 1 ] && min=4 # a sixth under make sanitize (sampled_1_in 6)
[ $n -ge $min ] && ok "$n trace.dat files compared" || fail "only $n trace.dat files found"

# A model for report, from the repository's fixtures.
MODEL=$ROOT/tests/fixtures/energy/two-cpu.json
VM=$ROOT/traces/vm/vm-v6.dat
same_dat_readers "vm-v6: report json" "$EATRACE" report -m "$MODEL" --format json "$VM"

# ---- corrupt data pages ------------------------------------------------------
# vm-v6.dat: 20 pages of 4096 bytes; CPU 1's pages at 69632, 73728 and
# 77824 (timestamp 8, commit 8, then events). Its first page is compared
# with libtracecmd at open, so the damage goes into the later ones.


# bad NAME MESSAGE FILE: report -o must fail cleanly and write nothing.
bad() {
	rm -f "$TMP/out.json"
	expect_fail "$1" 2 "$2" -- "$EATRACE" report -m "$MODEL" --format json -o "$TMP/out.json" "$3"
	grep -q "^eatrace: $3:cpu 1 record [0-9]*: " "$TMP/err" && ok "$1: names file, CPU and record" ||
		fail "$1: $(cat "$TMP/err")"
	if [ -e "$TMP/out.json" ]; then fail "$1: left an output file"; else ok "$1: no output file"; fi
	if ls "$TMP" | grep -q '^out\.json.'; then fail "$1: left a temporary file"; fi
}

# The first record of CPU 1's last page: type_len 0 with a length of 2 GiB.
cp "$VM" "$TMP/c.dat"; patch_bytes "$TMP/c.dat" 77840 00000000ffffff7f
bad "record length past the page" \
	"corrupt trace.dat: record runs past the end of the page data at offset 77840 (page at 77824)" \
	"$TMP/c.dat"
# Commit size of CPU 1's second page beyond the page.
cp "$VM" "$TMP/c.dat"; patch_bytes "$TMP/c.dat" 73736 f0ff0000
bad "page commit size beyond the page" \
	"corrupt trace.dat: page data size 65520 larger than the page at offset 73736 (page at 73728)" \
	"$TMP/c.dat"
# Missed events stored after data that fills the page.
cp "$VM" "$TMP/c.dat"; patch_bytes "$TMP/c.dat" 73736 ec0f00c0
bad "missed count outside the page" \
	"corrupt trace.dat: missed-events count outside the page at offset 73736" "$TMP/c.dat"
finish
