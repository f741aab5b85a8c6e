#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# -q and -v for stats and report (issue 17): notes reach the terminal on
# stderr when the report does not show them (-f json|csv, -o FILE):
# warnings by default, every note with -v; -q silences them; a text report
# on stdout keeps its Notes section and leaves stderr alone.
. "$(dirname "$0")/lib.sh"
VM=$ROOT/traces/vm/vm-ftrace.txt	# 52 resyncs (a warning), CPU 1 without cpu_idle
RESYNC="warning: 52 contradiction(s) resynchronised"

for cmd in "report -m tc2" stats; do
	"$EATRACE" $cmd -f json -o "$TMP/out.json" "$VM" 2>"$TMP/err"
	expect_eq "$cmd -f json -o: exit" "$?" 0
	expect_eq "$cmd -f json -o: the warning on stderr" \
		"$(grep -c "^eatrace: .*vm-ftrace.txt: $RESYNC" "$TMP/err")" 1
	expect_eq "$cmd -f json -o: no inference without -v" "$(grep -c 'inference' "$TMP/err")" 0
	grep -q "52 contradiction" "$TMP/out.json" && ok "$cmd: the JSON keeps its notes" || fail "$cmd: notes missing from the JSON"

	"$EATRACE" $cmd -f json -q "$VM" >"$TMP/out.json" 2>"$TMP/err"
	expect_eq "$cmd -f json -q: stderr empty" "$(wc -c <"$TMP/err")" 0

	"$EATRACE" $cmd -f csv -v "$VM" >"$TMP/out.csv" 2>"$TMP/err"
	expect_eq "$cmd -f csv -v: what was read" \
		"$(grep -c '^eatrace: .*vm-ftrace.txt: ftrace text, 2 CPU(s), 718 events used$' "$TMP/err")" 1
	expect_eq "$cmd -f csv -v: the inference notes too, one per cause" \
		"$(grep -c "inference: no cpu_idle events on 1 CPU(s)" "$TMP/err")" 1

	"$EATRACE" $cmd "$VM" >"$TMP/out.txt" 2>"$TMP/err"
	expect_eq "$cmd text on stdout: stderr empty" "$(wc -c <"$TMP/err")" 0
	grep -q "^  warning   52 contradiction" "$TMP/out.txt" && ok "$cmd text: Notes section" || fail "$cmd text: no notes"
done

# The accountant's notes are in the JSON too (they were text only).
"$EATRACE" report -m tc2 -f json "$VM" >"$TMP/r.json" 2>"$TMP/err"
grep -q '"message": "busy with no frequency reported (no cpu_frequency event yet) on 2 CPU(s), 0.070981000 s (CPU 0 0.031109000 s, CPU 1 0.039872000 s), priced at the assumed OPP' "$TMP/r.json" &&
	ok "report JSON: assumed-OPP note" || fail "report JSON: assumed-OPP note missing"
finish
