#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# An output (--html, --perfetto, -o, --emit-trace) naming an input of the
# run (a trace, the model file) is refused before anything is read
# (issue 29 item 8): one line, exit 2, nothing on stdout, the input intact.
. "$(dirname "$0")/lib.sh"
cp "$ROOT/traces/vm/vm-v7.dat" "$TMP/t.dat"
cp "$ROOT/models/tc2.json" "$TMP/m.json"
cp "$ROOT/traces/vm/vm-v7.dat" "$TMP/u.dat"
ln -s t.dat "$TMP/link.dat"
sum=$(cksum <"$TMP/t.dat")
msum=$(cksum <"$TMP/m.json")

refused() { # NAME OUTPUT -- CMD...
	name=$1 out=$2
	shift 3
	expect_fail "$name" 2 "$out: is an input of this run; refusing to overwrite it" -- "$@"
	[ -s "$TMP/out" ] && fail "$name: printed on stdout: $(head -c 200 "$TMP/out")"
	[ "$(cksum <"$TMP/t.dat")" = "$sum" ] && [ "$(cksum <"$TMP/m.json")" = "$msum" ] ||
		fail "$name: an input was changed"
}
refused "report --html" "$TMP/t.dat" -- "$EATRACE" report -m juno-r0 "$TMP/t.dat" --html "$TMP/t.dat"
refused "report --perfetto" "$TMP/t.dat" -- "$EATRACE" report -m juno-r0 "$TMP/t.dat" --perfetto "$TMP/t.dat"
refused "report --perfetto, a symlink to the trace" "$TMP/link.dat" -- \
	"$EATRACE" report -m juno-r0 "$TMP/t.dat" --perfetto "$TMP/link.dat"
refused "report -o" "$TMP/t.dat" -- "$EATRACE" report -m juno-r0 "$TMP/t.dat" -o "$TMP/t.dat"
refused "report --html the model file" "$TMP/m.json" -- "$EATRACE" report -m "$TMP/m.json" "$TMP/t.dat" --html "$TMP/m.json"
refused "replay --perfetto" "$TMP/t.dat" -- "$EATRACE" replay -m juno-r0 "$TMP/t.dat" --perfetto "$TMP/t.dat"
refused "replay --html" "$TMP/t.dat" -- "$EATRACE" replay -m juno-r0 "$TMP/t.dat" --html "$TMP/t.dat"
refused "replay --emit-trace" "$TMP/t.dat" -- "$EATRACE" replay -m juno-r0 --policy eas-rfc "$TMP/t.dat" --emit-trace "$TMP/t.dat"
refused "diff --html, a base trace" "$TMP/t.dat" -- "$EATRACE" diff -m juno-r0 --base "$TMP/t.dat" --new "$TMP/u.dat" --html "$TMP/t.dat"
refused "diff --html, a new trace" "$TMP/t.dat" -- "$EATRACE" diff -m juno-r0 --base "$TMP/u.dat" --new "$TMP/t.dat" --html "$TMP/t.dat"
# -f junit writes a JUnit file on errors: not into the trace
refused "diff -f junit -o a trace" "$TMP/t.dat" -- "$EATRACE" diff -f junit -m juno-r0 --base "$TMP/u.dat" --new "$TMP/t.dat" -o "$TMP/t.dat"
refused "diff --models --html" "$TMP/t.dat" -- "$EATRACE" diff --models juno-r0 tc2 "$TMP/t.dat" --html "$TMP/t.dat"

# Before reading: a file that is no trace, named as the trace and as the
# output, gets the refusal, not the reader's error.
echo "not a trace" >"$TMP/junk.txt"
refused "checked before the trace is read" "$TMP/junk.txt" -- "$EATRACE" report -m juno-r0 "$TMP/junk.txt" --perfetto "$TMP/junk.txt"
cmp -s "$TMP/junk.txt" - <<EOF && ok "junk intact" || fail "junk changed"
not a trace
EOF
# Not an input: a new file.
"$EATRACE" report -m juno-r0 "$TMP/t.dat" --html "$TMP/new.html" >"$TMP/out" 2>"$TMP/err"
expect_eq "a new output file is fine" "$?" 0
finish
