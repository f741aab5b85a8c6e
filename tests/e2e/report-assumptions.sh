#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# What a report's numbers rest on is said, not hidden (issue 17):
#  - a CPU without cpu_idle: which idle state its pid-0 time is priced in,
#    and what that cost (worked out by hand below), one note for the
#    cause, with its energy and share (issue 27 item 7); likewise busy
#    time at the assumed OPP;
#  - a model that 'model check' rejects is used with a warning (not with -q);
#  - a --start/--end window outside the trace is an error (exit 2, no file);
#  - --assume-opp above every OPP of the model is refused;
#  - an option missing its value says so.
. "$(dirname "$0")/lib.sh"
FIX=$ROOT/tests/fixtures
SW=$FIX/state/swapper-idle.txt
TWO=$FIX/energy/two-cpu.json
DEMO=$ROOT/traces/demo/tc2-seven-tasks.txt

# swapper-idle.txt on two-cpu.json (no cpu_idle: idle = pid 0; the fixture's
# header has the timeline): CPU0 idle [300,1000] us, CPU1 idle [0,400] us,
# both idle in [300,400] (cluster idle, its power split between the two).
# WFI (state 0): core 10 mW, cluster 20 mW:
#   CPU0: 10 x 700 us + 20 x 100 us / 2 = 7000 + 1000 mW us = 0.008 mW s
#   CPU1: 10 x 400 us + 20 x 100 us / 2 = 4000 + 1000 mW us = 0.005 mW s
# The total: core busy 300 x (300 + 600) us = 0.27, core idle 0.011,
# cluster busy 80 x 900 us = 0.072, cluster idle 20 x 100 us = 0.002,
# wakeups 2 x (0.5 + 2) = 5 (tests/unit/test-energy.c): 5.355 mW s;
# One note for the cause, both CPUs in it: 0.008 + 0.005 = 0.013 mW s,
# 0.013 / 5.355 = 0.24%.
"$EATRACE" report -m "$TWO" "$SW" >"$TMP/sw.txt" 2>"$TMP/err"
expect_eq "no cpu_idle: one note, both CPUs priced in WFI, and their cost" \
	"$(grep -c "no cpu_idle events on 2 CPU(s): their idle time (0.001100000 s running pid 0: CPU 0 0.000700000 s, CPU 1 0.000400000 s) is priced in idle state 0 'WFI' (--idle-state N for another): 0.013000 mW x s, 0.24% of the total" "$TMP/sw.txt")" 1
expect_eq "no cpu_idle: no second note on it (stats')" "$(grep -c "cpu_idle" "$TMP/sw.txt")" 1
# The trace has no cpu_frequency either: the busy time, CPU0 300 us and
# CPU1 600 us, is priced at the assumed OPP (two-cpu.json's only one):
# core 300 x 900 us = 0.27 + cluster busy 80 x 900 us = 0.072 = 0.342 mW
# s, 0.342 / 5.355 = 6.39% (one note, with its share).
expect_eq "no cpu_frequency: one note with its energy and share" \
	"$(grep -c "busy with no frequency reported (no cpu_frequency event yet) on 2 CPU(s), 0.000900000 s (CPU 0 0.000300000 s, CPU 1 0.000600000 s), priced at the assumed OPP (--assume-opp KHZ; default the cluster's highest): 0.342000 mW x s, 6.39% of the total" "$TMP/sw.txt")" 1
expect_eq "no cpu_frequency: no second note on it (stats')" "$(grep -c "cpu_frequency" "$TMP/sw.txt")" 1
# --unit uJ (two-cpu.json is in mW: 1 mW x s = 1000 uJ): the same notes,
# 0.013 mW s = 13 uJ and 0.342 mW s = 342 uJ, the shares unchanged
"$EATRACE" report -m "$TWO" --unit uJ "$SW" >"$TMP/sw-uj.txt" 2>"$TMP/err"
expect_eq "--unit uJ: the notes' energies in uJ" \
	"$(grep -c -e "'WFI' (--idle-state N for another): 13.000000 uJ, 0.24% of the total" \
		-e "cluster's highest): 342.000000 uJ, 6.39% of the total" "$TMP/sw-uj.txt")" 2
# OFF (state 1): core 0, cluster 5 mW: 5 x 100 us / 2 = 250 mW us each.
"$EATRACE" report -m "$TWO" --idle-state 1 -f json "$SW" >"$TMP/sw.json"
expect_eq "no cpu_idle, --idle-state 1: in the JSON notes, priced in OFF" \
	"$(grep -c "priced in idle state 1 'OFF' (--idle-state N for another): 0.000500 mW x s" "$TMP/sw.json")" 1
# A trace with cpu_idle everywhere has no such note.
"$EATRACE" report -m "$TWO" "$FIX/state/cpuidle-freq.txt" >"$TMP/ci.txt"
expect_eq "cpu_idle present: no pricing note" "$(grep -c 'is priced in idle state' "$TMP/ci.txt")" 0

# A model that 'model check' rejects (a deeper idle state drawing more).
BAD=$FIX/models/check-idle-order.json
"$EATRACE" report -m "$BAD" "$SW" >"$TMP/out" 2>"$TMP/err"
expect_eq "model failing check: still priced" "$?" 0
expect_eq "model failing check: one warning line" "$(wc -l <"$TMP/err")" 1
grep -q "warning: model .*check-idle-order.json fails 'eatrace model check' (1 error, first: cluster 'little': idle state 1 'off' draws more core power" "$TMP/err" &&
	ok "model failing check: warning names the first error" || fail "model warning: $(cat "$TMP/err")"
"$EATRACE" report -q -m "$BAD" "$SW" >"$TMP/out" 2>"$TMP/err"
expect_eq "model failing check, -q: no warning" "$(wc -c <"$TMP/err")" 0
"$EATRACE" report -m "$TWO" "$SW" >"$TMP/out" 2>"$TMP/err"
expect_eq "model passing check: no warning" "$(wc -c <"$TMP/err")" 0

# Windows outside the trace (it spans 100.000000 .. 100.996488 s).
for cmd in "report -m tc2" stats; do
	expect_fail "$cmd: --start after the end" 2 \
		"tc2-seven-tasks.txt: the window (--start/--end) is outside the trace, which spans 0.996488 s (@100.000000 .. @100.996488): nothing to analyse" \
		-- "$EATRACE" $cmd --start 10 -o "$TMP/win.out" "$DEMO"
	[ -e "$TMP/win.out" ] && fail "$cmd: output file written" || ok "$cmd: no output file"
	expect_fail "$cmd: absolute window before the start" 2 "is outside the trace" \
		-- "$EATRACE" $cmd --start @1 --end @50 "$DEMO"
	"$EATRACE" $cmd --start 0.5 --end 10 "$DEMO" >/dev/null 2>"$TMP/err"
	expect_eq "$cmd: a window overlapping the end is fine" "$?" 0
done

# --assume-opp: tc2's highest OPP is 1200000 kHz (A15).
expect_fail "--assume-opp above every OPP" 2 \
	"--assume-opp: 1200001 kHz is above every OPP of model ARM TC2 (the highest is 1200000 kHz)" \
	-- "$EATRACE" report -m tc2 --assume-opp 1200001 "$DEMO"
"$EATRACE" report -m tc2 --assume-opp 1200000 "$DEMO" >/dev/null
expect_eq "--assume-opp at the highest OPP" "$?" 0

# An option without its value.
expect_fail "report -m without a value" 2 "report: option -m needs a value" -- "$EATRACE" report "$DEMO" -m
expect_fail "stats --end without a value" 2 "stats: option --end needs a value" -- "$EATRACE" stats "$DEMO" --end
finish
