#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# run.sh: not under sanitize: the README's examples, each a command the other tests run sanitized
# Every example line of README.md (indented lines starting with 'eatrace'
# or 'trace-cmd', usage lines with [optional] parts aside) and every usage
# example of each command's --help runs, in a scratch directory where the
# file names they use exist, and exits as documented: 0, or for 'diff' a
# gate outcome (0 pass, 1 fail, 3 inconclusive), for 'model check' 0 or 1.
# Placeholders: MODEL -> tc2, TRACE -> trace.dat. record and top (root,
# live) are left to record.sh and top.sh.
. "$(dirname "$0")/lib.sh"
mkdir -p "$TMP/ex/bin"
ln -s "$EATRACE" "$TMP/ex/bin/eatrace"
ln -s "$ROOT/traces" "$TMP/ex/traces"
cp "$ROOT/traces/vm/vm-v7.dat" "$TMP/ex/trace.dat"
cp "$ROOT/models/juno-r0.json" "$TMP/ex/my-soc.json"
printf '%s\n' trace.dat traces/replay/five-busy.txt >"$TMP/ex/paths.txt"
for i in 1 2 3; do
	cp "$ROOT/traces/diff/light-$i.dat" "$TMP/ex/base$i.dat"
	cp "$ROOT/traces/diff/heavy-$i.dat" "$TMP/ex/new$i.dat"
done

# examples FILE: the runnable example lines of a text (4+ space indented).
examples() {
	sed -n 's/^  *\(\(eatrace\|trace-cmd\) .*\)/\1/p' "$1" |
		sed 's/ #.*//; s/  *$//; s/\bMODEL\b/tc2/g; s/\bTRACE\b/trace.dat/g' |
		grep -v '\[' | grep -v '\.\.\.' | grep -v '\b[A-Z][A-Z.]\{2,\}\b' |
		grep -v '^eatrace \(record\|top\)\b' | grep -v '^eatrace *$'
}

# allowed LINE: the exit statuses the docs give for it.
allowed() {
	case $1 in
	"eatrace diff"*) echo "0 1 3" ;;
	"eatrace model check"*) echo "0 1" ;;
	*) echo 0 ;;
	esac
}

run_all() {	# SOURCE FILE
	examples "$2" >"$TMP/lines"
	[ -s "$TMP/lines" ] || return 0
	while IFS= read -r line; do
		command -v trace-cmd >/dev/null 2>&1 || case $line in *trace-cmd*) continue ;; esac
		(cd "$TMP/ex" && PATH="$TMP/ex/bin:$PATH" sh -c "$line" >"$TMP/ex.out" 2>"$TMP/ex.err")
		rc=$?
		case " $(allowed "$line") " in
		*" $rc "*) ok "$1: $line (exit $rc)" ;;
		*) fail "$1: '$line' exits $rc (documented: $(allowed "$line")): $(head -c 300 "$TMP/ex.err")" ;;
		esac
	done <"$TMP/lines"
	echo "$1: $(wc -l <"$TMP/lines") example(s)"
}

run_all README "$ROOT/README.md"
expect_eq "README: examples found" "$([ "$(examples "$ROOT/README.md" | wc -l)" -ge 10 ] && echo yes)" yes
for cmd in stats report replay diff dump record top "model show" "model check" "model list" \
	"model import" "model convert" batch; do
	"$EATRACE" $cmd --help | sed -n '/^examples\{0,1\}:/,/^$/p' >"$TMP/help"
	run_all "$cmd --help" "$TMP/help"
done
finish
