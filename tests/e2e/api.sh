#!/bin/sh
# run.sh: not under sanitize: make install builds its own unsanitized copy
# run.sh: exclusive
# libeatrace: `make install` into a scratch root, then a small program built
# against the installed copy with pkg-config prices a bundled trace; its
# figure must be the CLI's.
. "$(dirname "$0")/lib.sh"
command -v pkg-config >/dev/null || skip "no pkg-config"
R=$TMP/root
lsan_dat
# Under `make sanitize` the library carries the sanitizers (MAKEFLAGS holds
# its CFLAGS); the program links their runtime too.
SAN=
case "${MAKEFLAGS:-}" in *fsanitize*) SAN="-fsanitize=address,undefined" ;; esac
make --no-print-directory -s -C "$ROOT" install DESTDIR="$R" PREFIX=/usr >"$TMP/install.log" 2>&1
rc=$?
expect_eq "make install exit" "$rc" 0
# (fail() returns 0: test the status itself for the log)
[ "$rc" -eq 0 ] || cat "$TMP/install.log"
expect_eq "soname" "$(readelf -d "$R/usr/lib/libeatrace.so.0" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')" libeatrace.so.0
[ -f "$R/usr/include/eatrace/eatrace.h" ] && ok "headers installed" || fail "no eatrace.h"

export PKG_CONFIG_PATH="$R/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$R"
expect_eq "pkg-config --libs" "$(echo $(pkg-config --libs eatrace))" "-L$R/usr/lib -leatrace"

cat > "$TMP/prog.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
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
	if (argc > 3 && ea_stats_json(argv[3], &json, &err) == 0) {
		fputs(json, stdout);
		ea_free(json);
	} else if (argc > 3) {
		printf("stats error: %s\n", err);
		ea_free(err);
	}
	return 0;
}
C
${CC:-cc} $SAN -Wall -Wextra -o "$TMP/prog" "$TMP/prog.c" $(pkg-config --cflags --libs eatrace) 2>"$TMP/cc.log"
rc=$?
expect_eq "program builds against the installed copy" "$rc" 0
# (fail() returns 0: test the status itself for the log)
[ "$rc" -eq 0 ] || cat "$TMP/cc.log"
expect_eq "links the installed soname" \
	"$(readelf -d "$TMP/prog" | sed -n 's/.*NEEDED.*\[\(libeatrace[^]]*\)\]/\1/p')" libeatrace.so.0

# five-busy.txt on juno-r0: 3 A53s x 119 mW + 2 A57s x 583 mW for 1 s =
# 1523 (tests/e2e/batch.sh has the derivation).
LD_LIBRARY_PATH="$R/usr/lib" "$TMP/prog" "$ROOT/traces/replay/five-busy.txt" \
	"$ROOT/models/juno-r0.json" > "$TMP/api.json"
expect_eq "program runs" "$?" 0
total() { /usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["energy"]["total"])' "$1"; }
expect_eq "API total, by hand" "$(total "$TMP/api.json")" 1523
# A trace.dat: byte for byte the CLI's JSON.
T=$ROOT/traces/diff/light-1.dat
LD_LIBRARY_PATH="$R/usr/lib" "$TMP/prog" "$T" "$ROOT/models/tc2.json" > "$TMP/api2.json"
"$EATRACE" report -f json -m "$ROOT/models/tc2.json" "$T" > "$TMP/cli2.json"
cmp -s "$TMP/api2.json" "$TMP/cli2.json" && ok "report JSON = the CLI's" ||
	fail "report JSON differs: $(diff "$TMP/api2.json" "$TMP/cli2.json" | head -5)"
# Errors come back as the one-line message, nothing on stderr from the library.
LD_LIBRARY_PATH="$R/usr/lib" "$TMP/prog" "$TMP/nosuch.dat" "$ROOT/models/tc2.json" > /dev/null 2>"$TMP/err"
expect_eq "error exit" "$?" 2
grep -q "^error: .*nosuch.dat: " "$TMP/err" && ok "error message" || fail "error: $(cat "$TMP/err")"
# ea_batch_rows_text and ea_replay_json: the CLI's bytes (batch's rows
# without the CSV header; replay -f json with the same options).
cat > "$TMP/prog2.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <eatrace/eatrace.h>

int main(int argc, char **argv)
{
	struct ea_replay_request rq = { .model = argv[2], .policies = "feec,recorded",
					.work = "demand" };
	char *text = NULL, *err = NULL;
	int rc = ea_batch_rows_text(argv[1], argv[2], "csv", "cpu", &text, &err);

	if (rc < 0 || !text)
		return 2;
	fputs(text, stdout);
	ea_free(text);
	if (ea_replay_json(argv[1], &rq, &text, &err)) {
		fprintf(stderr, "error: %s\n", err);
		ea_free(err);
		return 2;
	}
	fputs(text, stderr);
	ea_free(text);
	/* a bad policy: the CLI's message, no output */
	rq.policies = "bogus";
	text = NULL;
	if (ea_replay_json(argv[1], &rq, &text, &err) != -1 || text ||
	    !strstr(err, "'bogus' is not a policy"))
		return 3;
	ea_free(err);
	return 0;
}
C
${CC:-cc} $SAN -Wall -Wextra -o "$TMP/prog2" "$TMP/prog2.c" $(pkg-config --cflags --libs eatrace) 2>"$TMP/cc.log"
rc=$?
expect_eq "prog2 builds" "$rc" 0
# (fail() returns 0: test the status itself for the log)
[ "$rc" -eq 0 ] || cat "$TMP/cc.log"
LD_LIBRARY_PATH="$R/usr/lib" "$TMP/prog2" "$T" "$ROOT/models/tc2.json" > "$TMP/rows.csv" 2>"$TMP/replay.json"
expect_eq "prog2 runs" "$?" 0
"$EATRACE" batch -q --rows cpu -m "$ROOT/models/tc2.json" "$T" | tail -n +2 > "$TMP/cli-rows.csv"
cmp -s "$TMP/rows.csv" "$TMP/cli-rows.csv" && ok "batch rows = the CLI's" ||
	fail "batch rows differ: $(diff "$TMP/rows.csv" "$TMP/cli-rows.csv" | head -5)"
"$EATRACE" replay -f json -m "$ROOT/models/tc2.json" --policy feec,recorded --work demand "$T" \
	> "$TMP/cli-replay.json" 2>/dev/null
cmp -s "$TMP/replay.json" "$TMP/cli-replay.json" && ok "replay JSON = the CLI's" ||
	fail "replay JSON differs: $(diff "$TMP/replay.json" "$TMP/cli-replay.json" | head -5)"
# The Python package as installed, over the installed library (not under
# the sanitizers: python cannot load an instrumented library).
if [ -z "$SAN" ]; then
	# (the interpreter's own site directory for /usr, python3.X; the
	# package loads the library installed beside it, no EATRACE_LIB)
	got=$(env -u EATRACE_LIB PYTHONDONTWRITEBYTECODE=1 \
		PYTHONPATH="$(echo "$R"/usr/lib/python3*/dist-packages)" /usr/bin/python3 -c \
		'import eatrace, sys; t = eatrace.report(sys.argv[2], sys.argv[3])["energy"]["total"]; print(eatrace.__file__.startswith(sys.argv[1]), eatrace._lib._name == sys.argv[1] + "/usr/lib/libeatrace.so.0", t)' \
		"$R" "$ROOT/traces/replay/five-busy.txt" "$ROOT/models/juno-r0.json")
	expect_eq "installed python package and library, total by hand" "$got" "True True 1523"
fi
finish
