#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# eatrace batch DIR tells traces by content (issue 30 item 2): plain,
# gzip'd and zstd'd text and a Perfetto file are priced whatever their
# names; a LICENSE.txt, a README, an empty file and a gzip'd note are
# skipped, named on stderr (-q: not; -v: every file), with no error row and
# exit 0. Each row is the one the same file gives as a TRACE argument.
. "$(dirname "$0")/lib.sh"
T=$ROOT/traces
F=$ROOT/tests/fixtures/perfetto
cd "$TMP" || exit 1
command -v gzip >/dev/null || skip "no gzip"
command -v zstd >/dev/null || skip "no zstd"
mkdir -p d/sub
cp "$T/replay/five-busy.txt" d/a.txt
gzip -c "$T/replay/seven-periodic.txt" > d/b.txt.gz
zstd -q -c "$T/vm/vm-ftrace.txt" > d/c.zst
npf=0
if command -v protoc >/dev/null; then
	protoc -I"$F" --encode=perfetto.protos.Trace "$F/subset.proto" \
		<"$F/stats-freq.txtpb" >d/e.pftrace || fail "protoc"
	npf=1
else
	echo "note: no protoc, no Perfetto file in the directory"
fi
cp "$ROOT/LICENSE" d/LICENSE.txt
cp "$ROOT/README.md" d/sub/README
: > d/empty.dat
printf 'shopping list\n' | gzip > d/notes.gz

"$EATRACE" batch -m juno-r0 d > out.csv 2> err
expect_eq "exit 0: skipped files are not errors" "$?" 0
want="d/a.txt d/b.txt.gz d/c.zst"
[ $npf = 1 ] && want="$want d/e.pftrace"
expect_eq "the traces, by content, sorted" "$(tail -n +2 out.csv | cut -d, -f1 | tr '\n' ' ')" "$want "
# the error column found by its name (columns: docs/batch.md)
errcol=$(head -n 1 out.csv | tr , '\n' | grep -n -x error | cut -d: -f1)
[ -n "$errcol" ] || fail "no error column in: $(head -n 1 out.csv)"
expect_eq "no error rows" "$(tail -n +2 out.csv | cut -d, -f"${errcol:-0}" | tr -d '\n')" ""
# five-busy.txt on juno-r0: 3 x 119 + 2 x 583 mW for 1 s = 1523
# (tests/e2e/batch.sh has the derivation)
expect_eq "a.txt priced" "$(grep '^d/a.txt,' out.csv | cut -d, -f5)" 1523
# each row is what the file gives alone (same figures as report's)
for f in $want; do
	"$EATRACE" batch -q -m juno-r0 "$f" | tail -n +2 > one.csv
	expect_eq "$f: the row it gives alone" "$(grep "^$f," out.csv)" "$(cat one.csv)"
done
NOT="not a trace.dat, Perfetto trace, ftrace text or systrace file"
expect_eq "skipped files named on stderr" "$(cat err)" "eatrace: batch: skipped d/LICENSE.txt: $NOT
eatrace: batch: skipped d/empty.dat: empty file
eatrace: batch: skipped d/notes.gz: $NOT
eatrace: batch: skipped d/sub/README: $NOT"

"$EATRACE" batch -q -m juno-r0 d > q.csv 2> qerr
expect_eq "-q: exit 0" "$?" 0
expect_eq "-q: nothing on stderr" "$(wc -c < qerr)" 0
cmp -s out.csv q.csv && ok "-q: same table" || fail "-q: table differs"

"$EATRACE" batch -v -m juno-r0 d > v.csv 2> verr
expect_eq "-v: exit 0" "$?" 0
expect_eq "-v: each trace with its reader" "$(grep -c ': text$' verr) $(grep -c ': perfetto$' verr)" "3 $npf"
expect_eq "-v: each skipped file" "$(grep -c 'skipped d/' verr)" 4
expect_eq "-v: the directory's count" "$(tail -n 1 verr)" \
	"eatrace: batch: d: $((3 + npf)) trace(s), 4 other file(s) skipped"

# A file named as an argument is taken as it is: not a trace is an error row.
"$EATRACE" batch -q -m juno-r0 d/LICENSE.txt > lic.csv
expect_eq "LICENSE.txt as an argument: exit 1" "$?" 1
grep -q "LICENSE.txt: $NOT" lic.csv && ok "LICENSE.txt as an argument: its error row" ||
	fail "lic.csv: $(cat lic.csv)"

# An unreadable file may be a trace: kept, an error row (not as root: root
# reads it anyway).
if [ "$(id -u)" != 0 ]; then
	cp "$T/replay/five-busy.txt" d/locked.txt && chmod 000 d/locked.txt
	"$EATRACE" batch -q -m juno-r0 d > lock.csv
	expect_eq "unreadable file: exit 1" "$?" 1
	grep -q '^d/locked.txt,.*Permission denied' lock.csv && ok "unreadable: error row" ||
		fail "lock.csv: $(grep locked lock.csv)"
fi
finish
