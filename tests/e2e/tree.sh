#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# run.sh: not under sanitize: it reads the object files, it runs nothing
# The shape of src/ (issue 28, docs/architecture.md): from the object files
# of this build, no ring of files, no call up the layers, no .c file over
# 1,000 lines (tests/tree-check.py prints each problem it finds).
. "$(dirname "$0")/lib.sh"
build=${EA_BUILD:-$ROOT/build}
[ -d "$build/src" ] || skip "no object files in $build/src (run through make check)"
command -v nm >/dev/null 2>&1 || skip "nm is not installed"
if /usr/bin/python3 "$ROOT/tests/tree-check.py" "$build" "$ROOT" >"$TMP/out" 2>&1; then
	ok "$(tail -n 1 "$TMP/out")"
else
	sed 's/^/    /' "$TMP/out"
	fail "tree-check found problems in the tree"
fi

# The check itself must catch a ring and a call up: a copy of the graph
# with one object that uses a symbol of a file that uses it back.
mkdir -p "$TMP/b/src/util" "$TMP/b/src/input" "$TMP/s/src/util" "$TMP/s/src/input"
printf 'int low(void);\nint high(void) { return low(); }\n' >"$TMP/s/src/input/high.c"
printf 'int high(void);\nint low(void) { return high(); }\n' >"$TMP/s/src/util/low.c"
cc -c -o "$TMP/b/src/input/high.o" "$TMP/s/src/input/high.c"
cc -c -o "$TMP/b/src/util/low.o" "$TMP/s/src/util/low.c"
/usr/bin/python3 "$ROOT/tests/tree-check.py" "$TMP/b" "$TMP/s" >"$TMP/bad" 2>&1
rc=$?
expect_eq "a two-file ring fails the check" "$rc" 1
grep -q 'ring of 2 files: src/input/high.c (low) -> src/util/low.c (high) -> src/input/high.c' "$TMP/bad" &&
	ok "the ring is printed" || fail "ring not printed: $(cat "$TMP/bad")"
grep -q 'src/util/low.c calls up into src/input/high.c (high)' "$TMP/bad" &&
	ok "the call up is printed" || fail "call up not printed: $(cat "$TMP/bad")"
seq 1001 | sed 's/.*/\/\/ line/' >"$TMP/s/src/util/big.c"
/usr/bin/python3 "$ROOT/tests/tree-check.py" "$TMP/b" "$TMP/s" 2>&1 | grep -q 'src/util/big.c has 1001 lines (limit 1000)' &&
	ok "a file over 1,000 lines is printed" || fail "the long file was not caught"
finish
