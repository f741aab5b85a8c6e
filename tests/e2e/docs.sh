#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# run.sh: not under sanitize: help and man page text, compared
# run.sh: exclusive
# Help, man page and behaviour agree (issue 17):
#  - every long option in each command's --help is in the man page's
#    OPTIONS subsection for that command (a ".SS" header naming it), and
#    every option there is in the command's --help;
#  - 'eatrace help COMMAND' prints that command's help;
#  - what the help advertises works (replay's formats, model list).
. "$(dirname "$0")/lib.sh"
MAN=$ROOT/docs/eatrace.1

# help_opts CMD...: the long options the help's option lines start with.
help_opts() {
	"$EATRACE" "$@" --help | sed -n 's/^ *\(-[a-zA-Z], \)\{0,1\}\(--[a-z][a-z0-9-]*\).*/\2/p' | sort -u
}
# man_opts CMD...: the long options of the .SS subsections whose header
# names the command ("stats, report" names stats and report).
man_opts() {
	awk -v cmd="$*" '
	/^\.SS / {
		h = substr($0, 5); gsub(/"/, "", h); gsub(/\\-/, "-", h)
		n = split(h, parts, /, */); on = 0
		for (i = 1; i <= n; i++) if (parts[i] == cmd) on = 1
		next
	}
	/^\.S[HS] / { on = 0 }
	on && prev == ".TP" && match($0, /\\-\\-[a-z][a-z0-9\\-]*/) {
		o = substr($0, RSTART, RLENGTH); gsub(/\\/, "", o); print o
	}
	{ prev = $0 }' "$MAN" | sort -u
}

for cmd in stats report replay diff record top dump "model show" "model check" \
	"model list" "model import" "model convert" "model fit"; do
	help_opts $cmd >"$TMP/h"
	man_opts $cmd >"$TMP/m"
	if [ ! -s "$TMP/m" ] && [ -s "$TMP/h" ]; then
		fail "man page: no OPTIONS subsection for '$cmd'"
		continue
	fi
	missing=$(comm -23 "$TMP/h" "$TMP/m" | tr '\n' ' ')
	extra=$(comm -13 "$TMP/h" "$TMP/m" | tr '\n' ' ')
	expect_eq "$cmd: every --help option is in the man page" "$missing" ""
	expect_eq "$cmd: every man page option is in --help" "$extra" ""
done

# eatrace help COMMAND [SUB] = COMMAND [SUB] --help
for cmd in report diff "model check"; do
	"$EATRACE" help $cmd >"$TMP/a"
	"$EATRACE" $cmd --help >"$TMP/b"
	cmp -s "$TMP/a" "$TMP/b" && ok "help $cmd" || fail "help $cmd: differs from $cmd --help"
done

# What replay --help offers for -f works, and csv is not offered.
DEMO=$ROOT/traces/demo/tc2-seven-tasks.txt
for f in $("$EATRACE" replay --help | sed -n 's/^ *-f, --format FMT *//p' | tr -c 'a-z\n' ' ' | sed 's/default//; s/\bor\b//g'); do
	"$EATRACE" replay -m tc2 --policy cfs -f "$f" "$DEMO" >"$TMP/r.out" 2>"$TMP/err"
	expect_eq "replay -f $f (advertised) works" "$?" 0
done
"$EATRACE" replay --help | grep -q -- '-f, --format.*csv' && fail "replay --help offers csv" || ok "replay --help: no csv"

# model show refuses model check's options instead of ignoring them.
expect_fail "model show --trace" 2 "model show: --trace is an option of 'model check'" \
	-- "$EATRACE" model show tc2 --trace "$DEMO"
expect_fail "model list MODEL" 2 "model list: takes no arguments" -- "$EATRACE" model list tc2

# The "no model" hint names every bundled model.
expect_fail "no model: every bundled model listed" 2 \
	"report: no model: give -m MODEL (bundled: $(ls "$ROOT"/models/*.json | sed 's,.*/,,; s,\.json$,,' | sort | paste -sd, | sed 's/,/, /g')" \
	-- "$EATRACE" report "$DEMO"
# make install installs what the help points to (docs/*.md, the man page),
# into a scratch DESTDIR; only when ./eatrace is up to date (no build here).
if make --no-print-directory -C "$ROOT" -q eatrace 2>/dev/null; then
	make --no-print-directory -C "$ROOT" -s install DESTDIR="$TMP/root" PREFIX=/usr >"$TMP/inst" 2>&1 ||
		fail "make install: $(cat "$TMP/inst")"
	for d in $( ("$EATRACE" --help; for c in stats report replay diff record top model "model import" "model check"; do
		"$EATRACE" $c --help; done) | grep -o 'docs/[a-z-]*\.md' | sort -u); do
		[ -f "$TMP/root/usr/share/doc/eatrace/${d#docs/}" ] && ok "installed: $d" || fail "not installed: $d"
	done
	[ -f "$TMP/root/usr/share/man/man1/eatrace.1" ] && ok "installed: man page" || fail "man page not installed"
	[ -f "$TMP/root/usr/share/bash-completion/completions/eatrace" ] && ok "installed: bash completion" ||
		fail "bash completion not installed"
	# the installed binary names the installed docs (found beside it at
	# run time); this tree's binary names this tree's docs/
	"$TMP/root/usr/bin/eatrace" --help |
		grep -qxF "The docs/*.md the help names are installed in $TMP/root/usr/share/doc/eatrace." &&
		ok "--help says where the docs are installed" || fail "--help: no docs location"
	[ "$(readlink -f "$EATRACE")" != "$ROOT/eatrace" ] ||
		"$EATRACE" --help | grep -qxF "The docs/*.md the help names are in $ROOT/docs (the build tree)." &&
		ok "--help in the tree names its docs/" || fail "--help in the tree: $("$EATRACE" --help | tail -n 1)"
else
	echo "skip: ./eatrace not up to date, make install not tried"
fi
finish
