#!/bin/sh
# run.sh: not under sanitize: make install builds its own unsanitized copy
# run.sh: exclusive
# SPDX-License-Identifier: GPL-2.0-only
# `make install PREFIX=P` after `make`, end to end (issue 30 item 1): from
# another directory the installed binary, a C program built with
# pkg-config against the installed library, and the installed Python
# package (with only the PYTHONPATH the install names) each price a trace
# with a bundled model found beside them; --help names P's docs; man page
# and bash completion are there; make uninstall takes it all back. Nothing
# outside the scratch directory is written: P is not on the loader's path,
# so no ldconfig (its decision is checked with a stand-in ldconfig), and
# the system's loader cache is untouched.
. "$(dirname "$0")/lib.sh"
command -v pkg-config >/dev/null || skip "no pkg-config"
command -v realpath >/dev/null || skip "no realpath"
P=$TMP/prefix
FIVE=$ROOT/traces/replay/five-busy.txt
# five-busy.txt on juno-r0: 3 A53s x 119 mW + 2 A57s x 583 mW for 1 s =
# 1523 (tests/e2e/batch.sh has the derivation).
WANT=1523
SAN=
case "${MAKEFLAGS:-}" in *fsanitize*) SAN="-fsanitize=address,undefined" ;; esac
lsan_dat
cache_before=$(stat -c %Y /etc/ld.so.cache 2>/dev/null || echo none)

make --no-print-directory -s -C "$ROOT" install PREFIX="$P" >"$TMP/install.log" 2>&1
rc=$?
expect_eq "make install PREFIX=tmpdir: exit" "$rc" 0
[ "$rc" -eq 0 ] || { cat "$TMP/install.log"; finish; }
grep -q "^install: $P/lib is not a directory the dynamic loader searches" "$TMP/install.log" &&
	ok "no ldconfig for a private prefix, and it says so" || fail "install log: $(cat "$TMP/install.log")"
expect_eq "system loader cache untouched" "$(stat -c %Y /etc/ld.so.cache 2>/dev/null || echo none)" "$cache_before"

mkdir -p "$TMP/elsewhere"
cd "$TMP/elsewhere" || exit 1
cp "$FIVE" trace.txt
# No model path from the environment, none in ./models here.
unset EATRACE_MODEL_PATH EATRACE_LIB PYTHONPATH LD_LIBRARY_PATH

# The binary, from another directory, with a bundled model by name.
total() { /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["energy"]["total"])'; }
got=$("$P/bin/eatrace" report -q -f json -m juno-r0 trace.txt | total)
expect_eq "binary: bundled model found beside it, total by hand" "$got" "$WANT"
expect_eq "binary: its models are P's" \
	"$(realpath "$("$P/bin/eatrace" model list | awk '$1 == "juno-r0" { print $2 }')")" \
	"$P/share/eatrace/models/juno-r0.json"
"$P/bin/eatrace" --help | grep -qxF "The docs/*.md the help names are installed in $P/share/doc/eatrace." &&
	ok "--help names P's doc directory" || fail "--help: $("$P/bin/eatrace" --help | tail -n 2)"
[ -f "$P/share/doc/eatrace/batch.md" ] && ok "docs installed" || fail "no $P/share/doc/eatrace/batch.md"

# The man page, and the bash completion (offering the bundled models, read
# from the installed binary's model list).
[ -f "$P/share/man/man1/eatrace.1" ] && ok "man page installed" || fail "no man page"
if command -v man >/dev/null; then
	MANPATH="$P/share/man" man -P cat eatrace 2>/dev/null | grep -q "eatrace batch" &&
		ok "man eatrace (MANPATH=P/share/man)" || fail "man eatrace does not render"
fi
C=$P/share/bash-completion/completions/eatrace
[ -f "$C" ] && ok "bash completion installed" || fail "no $C"
if command -v bash >/dev/null; then
	got=$(PATH="$P/bin:$PATH" bash -c '. "$1"; COMP_WORDS=(eatrace report -m juno-r0-e)
		COMP_CWORD=3; _eatrace; printf "%s\n" "${COMPREPLY[@]}"' sh "$C")
	expect_eq "completion: -m offers the installed models" "$got" "juno-r0-eas"
fi

# The library with pkg-config: a C program, built against the installed
# copy, prices the trace with the bundled model by name (found beside the
# library, not beside the program).
export PKG_CONFIG_PATH="$P/lib/pkgconfig"
expect_eq "pkg-config --cflags: P's headers first" "$(pkg-config --cflags eatrace | cut -d' ' -f1)" "-I$P/include"
cat > prog.c <<'C'
#include <stdio.h>
#include <eatrace/eatrace.h>

int main(int argc, char **argv)
{
	char *json = NULL, *err = NULL;

	if (ea_report_json(argv[1], argv[2], &json, &err)) {
		fprintf(stderr, "error: %s\n", err);
		ea_free(err);
		return 2;
	}
	fputs(json, stdout);
	ea_free(json);
	return 0;
}
C
${CC:-cc} $SAN -Wall -Wextra -o prog prog.c $(pkg-config --cflags --libs eatrace) \
	-Wl,-rpath,"$P/lib" 2>cc.log
rc=$?
expect_eq "C program builds with pkg-config" "$rc" 0
[ "$rc" -eq 0 ] || cat cc.log
got=$(./prog trace.txt juno-r0 | total)
expect_eq "C program: bundled model by name, total by hand" "$got" "$WANT"

# Python: the interpreter the install asked (/usr/bin/python3), the
# package where it put it. P is not on that interpreter's path: the
# install says which PYTHONPATH to set; nothing else is needed (the
# package loads the library installed beside it, which finds the models).
PYP=$(sed -n "s|^  PYTHONPATH=\([^ ]*\) /usr/bin/python3 -c 'import eatrace'$|\1|p" "$TMP/install.log")
case "$PYP" in
"$P"/lib/python3*/*-packages) ok "install names the PYTHONPATH to add: $PYP" ;;
*) fail "install log names no PYTHONPATH under P: '$PYP'" ;;
esac
want_rel=$(/usr/bin/python3 -c 'import sys; print("lib/python%d.%d/" % sys.version_info[:2])')
case "$PYP" in "$P/$want_rel"*) ok "package under P/$want_rel (the interpreter's version)" ;;
*) fail "package dir $PYP is not under P/$want_rel" ;; esac
if [ -z "$SAN" ]; then
	got=$(PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$PYP" /usr/bin/python3 -c '
import sys, eatrace
r = eatrace.report("trace.txt", "juno-r0")
print(eatrace.__file__.startswith(sys.argv[1] + "/"), eatrace._lib._name, r["energy"]["total"])' "$PYP")
	expect_eq "python: the installed package and library, bundled model, total by hand" \
		"$got" "True $P/lib/libeatrace.so.0 $WANT"
	# without the PYTHONPATH the install named, this prefix is not imported
	got=$(PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 -c 'try:
    import eatrace; print(eatrace.__file__)
except ImportError:
    print("not importable")' 2>&1)
	case "$got" in "$P"/*) fail "python imported P's package without PYTHONPATH" ;;
	*) ok "python: P not on the default path (hence the PYTHONPATH)" ;; esac
fi

# /usr/local, the default: the package would go to a directory on the
# interpreter's own path (make -n: nothing installed).
cd "$ROOT" || exit 1
pydir=$(make --no-print-directory -n install PREFIX=/usr/local |
	sed -n 's|.*> \(/usr/local/[^ ]*\)/eatrace/_installed.py$|\1|p')
/usr/bin/python3 -c 'import sys; sys.exit(sys.argv[1] not in sys.path)' "$pydir" &&
	ok "PREFIX=/usr/local: package to $pydir, on /usr/bin/python3's path" ||
	fail "PREFIX=/usr/local: package to '$pydir', not on sys.path"

# ldconfig's decision, with a stand-in ldconfig that lists P/lib among the
# loader's directories: run (as root, no DESTDIR); never with a DESTDIR.
mkdir -p "$TMP/fake"
cat > "$TMP/fake/ldconfig" <<SH
#!/bin/sh
case "\$*" in
"-N -X -v") echo "$P/lib: (from test)" ;;
*) echo "ldconfig \$*" >> "$TMP/ldconfig.calls" ;;
esac
SH
chmod +x "$TMP/fake/ldconfig"
if [ "$(id -u)" = 0 ]; then
	PATH="$TMP/fake:$PATH" DESTDIR= sh contrib/post-install.sh "$P/lib" "$PYP" /usr/bin/python3 >/dev/null
	expect_eq "on the loader's path, as root: ldconfig run" "$(cat "$TMP/ldconfig.calls" 2>/dev/null)" "ldconfig "
	rm -f "$TMP/ldconfig.calls"
fi
PATH="$TMP/fake:$PATH" DESTDIR=/staging sh contrib/post-install.sh "$P/lib" "$PYP" /usr/bin/python3 >/dev/null
expect_eq "with DESTDIR: no ldconfig" "$(cat "$TMP/ldconfig.calls" 2>/dev/null)" ""

# make uninstall takes back every file it installed.
make --no-print-directory -s -C "$ROOT" uninstall PREFIX="$P" >"$TMP/uninstall.log" 2>&1
expect_eq "make uninstall: exit" "$?" 0
expect_eq "make uninstall: no file left" "$(find "$P" -type f -o -type l | head -3)" ""
finish
