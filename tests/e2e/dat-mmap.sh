#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# An uncompressed trace.dat read through mmap windows (src/input/dat-map.c)
# gives the same events as through pread() (EATRACE_NO_MMAP=1), with the
# default windows and with windows of 4 KiB (a window change every page or
# every four), on the caller's thread (EATRACE_JOBS=1) and on the decoding
# thread (EATRACE_JOBS=2, as -j 2): `eatrace dump` of every trace.dat in
# traces/, byte for byte, stdout and stderr. A file cut short under a
# window, windows off the system page: tests/unit/test-dat-map.c.
. "$(dirname "$0")/lib.sh"
lsan_dat

n=0
for f in $(sampled "$ROOT"/traces/*/*.dat); do
	name=${f#"$ROOT"/}
	for j in 1 2; do
		EATRACE_JOBS=$j EATRACE_NO_MMAP=1 "$EATRACE" dump "$f" \
			>"$TMP/a" 2>"$TMP/a.err"
		ra=$?
		[ $ra -eq 0 ] && [ -s "$TMP/a" ] ||
			fail "$name -j $j: dump failed (exit $ra): $(head -c 200 "$TMP/a.err")"
		EATRACE_JOBS=$j "$EATRACE" dump "$f" >"$TMP/b" 2>"$TMP/b.err"
		rb=$?
		same_runs "$name -j $j: 2 MiB windows" "pread()" "windows"
		EATRACE_JOBS=$j EATRACE_MMAP_KIB=4 "$EATRACE" dump "$f" \
			>"$TMP/b" 2>"$TMP/b.err"
		rb=$?
		same_runs "$name -j $j: 4 KiB windows" "pread()" "4 KiB windows"
	done
	n=$((n + 1))
done
[ $n -gt 0 ] || fail "no trace.dat in traces/"

finish
