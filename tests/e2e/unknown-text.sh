#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Unknown time in the text tables (issue 15): `stats` has an unknown_s
# column after idle_s, `report`'s per-CPU table one after wakeup; per CPU
# busy_s + idle_s + unknown_s = the span, and the text agrees with the
# JSON's unknown_s (the JSON keys are unchanged).
. "$(dirname "$0")/lib.sh"

# CPU 1's first cpu_idle event is an exit at +0.5 s (as ../shared/repro/
# exit-first.txt): it was idle before, in a state the trace does not show.
# By hand: span 100.0 -> 101.0 = 1 s. CPU 1: unknown 100.0 -> 100.5 =
# 0.5 s, busy 100.5 -> 100.5001 = 0.0001 s (exit to enter), idle (state 1)
# 100.5001 -> 101.0 = 0.4999 s. CPU 0: only records of sugov-9 (pid 9 is
# current), busy the whole second, nothing unknown.
cat >"$TMP/t.txt" <<'T'
cpus=2
          sugov-9      [000] ...1   100.000000: cpu_frequency: state=1000000 cpu_id=0
          sugov-9      [000] ...1   100.001000: cpu_frequency: state=1000000 cpu_id=1
          <idle>-0     [001] .n.2   100.500000: cpu_idle: state=4294967295 cpu_id=1
          <idle>-0     [001] d..2   100.500100: cpu_idle: state=1 cpu_id=1
          sugov-9      [000] ...1   101.000000: cpu_frequency: state=1000000 cpu_id=0
T
M=$ROOT/tests/fixtures/energy/two-cpu.json

"$EATRACE" stats "$TMP/t.txt" >"$TMP/stats" 2>/dev/null ||
	fail "stats exited $?"
expect_eq "stats: header has unknown_s after idle_s" \
	"$(awk '$1 == "CPU" && $2 == "busy_s" { print $3, $4; exit }' "$TMP/stats")" "idle_s unknown_s"
expect_eq "stats: CPU 0 busy idle unknown" \
	"$(awk '$1 == "0" && NF >= 10 { print $2, $3, $4; exit }' "$TMP/stats")" \
	"1.000000000 0.000000000 0.000000000"
expect_eq "stats: CPU 1 busy idle unknown" \
	"$(awk '$1 == "1" && NF >= 10 { print $2, $3, $4; exit }' "$TMP/stats")" \
	"0.000100000 0.499900000 0.500000000"

"$EATRACE" report -m "$M" "$TMP/t.txt" >"$TMP/report" 2>/dev/null ||
	fail "report exited $?"
expect_eq "report: cpu table's last column is unknown_s" \
	"$(awk '$1 == "cpu" && $2 == "energy" { print $NF; exit }' "$TMP/report")" "unknown_s"
expect_eq "report: unknown_s per CPU" \
	"$(awk '/^cpu  *energy/ { on = 1; next } on && /^$/ { exit } on { printf "%s=%s ", $1, $NF }' "$TMP/report")" \
	"0=0.000000000 1=0.500000000 "

"$EATRACE" report -m "$M" -f json "$TMP/t.txt" >"$TMP/r.json" 2>/dev/null ||
	fail "report -f json exited $?"
expect_eq "report JSON: unknown_s per CPU, as the text" \
	"$(/usr/bin/python3 -c 'import json, sys
print(" ".join("%d=%.9f" % (c["cpu"], c["unknown_s"]) for c in json.load(open(sys.argv[1]))["cpus"]))' "$TMP/r.json")" \
	"0=0.000000000 1=0.500000000"

# stats text: busy + idle + unknown = span (1 s), to the nanosecond
expect_eq "stats: busy + idle + unknown = 1 s on every CPU" \
	"$(awk '$1 == "CPU" && $2 == "busy_s" { on = 1; next }
		on && NF == 0 { exit }
		on {
			ns = 0
			for (i = 2; i <= 4; i++) { split($i, x, "."); ns += x[1] * 1e9 + x[2] }
			printf "%s=%d ", $1, ns
		}' "$TMP/stats")" "0=1000000000 1=1000000000 "

finish
