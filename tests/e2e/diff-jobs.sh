#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `eatrace diff -j N` (src/diff/diff-par.c): the runs priced by N child
# processes give the same output as one after the other (-j 1), byte for
# byte in every format, and the same first error: a missing trace and a
# corrupt one in the middle of the list.
. "$(dirname "$0")/lib.sh"
M=$ROOT/tests/fixtures/energy/two-cpu.json
D=$ROOT/traces/diff
set -- --base "$D"/light-1.dat "$D"/light-2.dat "$D"/light-3.dat \
	--new "$D"/heavy-1.dat "$D"/heavy-2.dat "$D"/heavy-3.dat

# Under make sanitize json and junit with -j 2 only (text with 2, 3 and
# 8): the children's pricing and the merge are the same code whatever
# the format, and each diff run prices six traces.
for fmt in text json junit; do
	"$EATRACE" diff -j 1 -f $fmt -m "$M" "$@" >"$TMP/j1" 2>&1
	r1=$?
	js="2 3 8"
	[ "${EA_SANITIZE:-0}" = 1 ] && [ $fmt != text ] && js=2
	for j in $js; do
		"$EATRACE" diff -j $j -f $fmt -m "$M" "$@" >"$TMP/jn" 2>&1
		rn=$?
		if [ $rn -eq $r1 ] && cmp -s "$TMP/j1" "$TMP/jn"; then
			ok "$fmt: -j $j as -j 1 (exit $r1)"
		else
			fail "$fmt: -j $j differs from -j 1 (exit $rn, $r1): $(diff "$TMP/j1" "$TMP/jn" | head -n 3)"
		fi
	done
done
# --models: the same traces on both sides
"$EATRACE" diff -j 1 -f json --models "$M" "$M" "$D"/light-1.dat "$D"/light-2.dat >"$TMP/j1"
"$EATRACE" diff -j 2 -f json --models "$M" "$M" "$D"/light-1.dat "$D"/light-2.dat >"$TMP/jn"
cmp -s "$TMP/j1" "$TMP/jn" && ok "--models: -j 2 as -j 1" || fail "--models: -j 2 differs"

# errors: the first in command-line order, as the sequential path
head -c 5000 "$D"/light-2.dat >"$TMP/cut.dat"
for j in 1 4; do
	expect_fail "missing trace (-j $j)" 2 "$TMP/missing.dat: No such file or directory" -- \
		"$EATRACE" diff -j $j -m "$M" --base "$D"/light-1.dat "$TMP/missing.dat" \
		--new "$TMP/cut.dat" "$D"/heavy-1.dat
	expect_fail "cut trace (-j $j)" 2 "$TMP/cut.dat: truncated or corrupt trace.dat" -- \
		"$EATRACE" diff -j $j -m "$M" --base "$D"/light-1.dat \
		--new "$D"/heavy-1.dat "$TMP/cut.dat"
done
expect_fail "bad -j" 2 "-j: '0' is not a count of processes" -- \
	"$EATRACE" diff -j 0 -m "$M" --base "$D"/light-1.dat --new "$D"/heavy-1.dat
finish
