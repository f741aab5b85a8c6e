#!/bin/sh
# Command-line behaviour of stats and report: errors, atomic output,
# determinism, time windows.
. "$(dirname "$0")/lib.sh"
DEMO=$ROOT/traces/demo/tc2-seven-tasks.txt

expect_fail "report without a model" 2 "no model" -- "$EATRACE" report "$DEMO"
expect_fail "missing trace" 2 "nosuch.dat: No such file or directory" -- "$EATRACE" stats "$TMP/nosuch.dat"
expect_fail "unknown option" 2 "unknown" -- "$EATRACE" stats --bogus "$DEMO"
expect_fail "bad format" 2 "--format: 'xml'" -- "$EATRACE" stats -f xml "$DEMO"
expect_fail "unknown command" 2 "not an eatrace command" -- "$EATRACE" frobnicate
expect_fail "empty file" 2 "empty file" -- sh -c ": > '$TMP/empty'; '$EATRACE' stats '$TMP/empty'"
expect_fail "directory" 2 "is a directory" -- "$EATRACE" stats "$TMP"
expect_fail "window end before start" 2 "--end must be after --start" -- "$EATRACE" stats --start 0.5 --end 0.2 "$DEMO"
expect_fail "CPU the model lacks" 2 "trace has CPU 2, which model" -- "$EATRACE" report -m "$ROOT/tests/fixtures/energy/two-cpu.json" "$DEMO"
# dump: one line for a wrong call, as every command (issue 30), not the usage
expect_fail "dump --start" 2 "dump: unknown option '--start'" -- "$EATRACE" dump --start 1
expect_fail "dump with an option after TRACE" 2 "dump: unknown option '-x'" -- "$EATRACE" dump "$DEMO" -x
expect_fail "dump without TRACE" 2 "dump: expected one TRACE" -- "$EATRACE" dump
expect_fail "dump with two" 2 "dump: expected one TRACE" -- "$EATRACE" dump "$DEMO" "$DEMO"
"$EATRACE" dump --help >"$TMP/out"
expect_eq "dump --help: exit 0, usage" "$?:$(head -n 1 "$TMP/out")" "0:usage: eatrace dump [OPTIONS] TRACE"
# the help names every input format, Perfetto too
"$EATRACE" --help | grep -q "Perfetto" && ok "--help: Perfetto input" || fail "--help: no Perfetto"
"$EATRACE" model check --help | grep -- "--trace" | grep -q "Perfetto" &&
	ok "model check --trace: Perfetto" || fail "model check --help: no Perfetto on --trace"
# the C-state table says what its energy holds
"$EATRACE" report -q -m tc2 "$DEMO" | grep -q "^cluster .*cstate .*all_idle_s .*(energy: idle power and the wakeups out of the state)$" &&
	ok "report: C-state energy includes wakeups" || fail "report: the C-state table header"

# -o is atomic: a failing run leaves the old file as it was.
echo previous > "$TMP/out.json"
"$EATRACE" report -m tc2 -o "$TMP/out.json" "$TMP/nosuch" 2>/dev/null
expect_eq "old output survives a failed run" "$(cat "$TMP/out.json")" "previous"
expect_eq "no temporary file left" "$(ls -A "$TMP" | grep -c "^\.eatrace")" "0"
: >"$TMP/afile"
expect_fail "unwritable output" 2 "cannot write" -- "$EATRACE" stats -o "$TMP/afile/x" "$DEMO"
"$EATRACE" report -m tc2 -f json -o "$TMP/out.json" "$DEMO"
expect_eq "-o writes the report" "$(head -c 1 "$TMP/out.json")" "{"

# The same input gives byte-identical JSON.
"$EATRACE" report -m tc2 -f json "$DEMO" > "$TMP/a.json"
"$EATRACE" report -m tc2 -f json "$DEMO" > "$TMP/b.json"
if cmp -s "$TMP/a.json" "$TMP/b.json"; then ok "deterministic report"; else fail "report JSON differs between runs"; fi

# Windows: relative and absolute forms agree; CPU time adds up to the window.
"$EATRACE" stats -f csv --start 0.1 --end 0.2 "$DEMO" > "$TMP/rel.csv"
"$EATRACE" stats -f csv --start @100.1 --end @100.2 "$DEMO" > "$TMP/abs.csv"
if cmp -s "$TMP/rel.csv" "$TMP/abs.csv"; then ok "relative and absolute windows agree"; else fail "window forms differ"; fi
expect_eq "window duration" "$(grep '^trace,,,,,,duration_s' "$TMP/rel.csv")" "trace,,,,,,duration_s,0.100000000"
busy=$(grep '^cpu,0,,,,,busy_s' "$TMP/rel.csv" | cut -d, -f8)
idle=$(grep '^cpu,0,,,,,idle_s' "$TMP/rel.csv" | cut -d, -f8)
expect_eq "CPU0 busy + idle = window" "$(awk -v a="$busy" -v b="$idle" 'BEGIN { printf "%.9f", a + b }')" "0.100000000"

# --interval over a huge time span: refused, not gigabytes of windows.
printf 'cpus=2\n  <idle>-0 [000] d..2. 50.000000: cpu_idle: state=0 cpu_id=0\n  <idle>-0 [000] d..2. 5000000.000000: cpu_idle: state=4294967295 cpu_id=0\n' > "$TMP/span.txt"
expect_fail "too many --interval windows" 2 "makes more than 1048576 windows" -- timeout 20 "$EATRACE" report -m "$ROOT/tests/fixtures/energy/two-cpu.json" --interval 1 "$TMP/span.txt"
# Thousands of CPUs appearing one by one stay cheap.
awk 'BEGIN { print "cpus=2841"; for (c = 0; c < 2841; c++) printf "  <idle>-0 [%03d] d..2. 1.%06d: cpu_idle: state=0 cpu_id=%d\n", c, c, c }' > "$TMP/many.txt"
timeout 20 "$EATRACE" stats -f json "$TMP/many.txt" > "$TMP/many.json"
expect_eq "2841 CPUs read" "$(grep -c '"idle_source"' "$TMP/many.json")" "2841"

# A dts that includes a FIFO (or a terminal, /dev/stdin) is refused, not waited on.
mkfifo "$TMP/fifo"
printf '/dts-v1/;\n/include/ "%s"\n/ { };\n' "$TMP/fifo" > "$TMP/inc.dts"
expect_fail "dts including a FIFO" 2 "inc.dts:2: cannot include: $TMP/fifo: not a regular file" -- timeout 20 "$EATRACE" model import --from dt "$TMP/inc.dts" -o "$TMP/inc.json"

# Help answers.
"$EATRACE" --help | grep -q "stats" && ok "--help lists commands" || fail "--help"
"$EATRACE" report --help | grep -q -- "--interval MS" && ok "report --help" || fail "report --help"
"$EATRACE" stats --help | grep -q -- "--start T" && ok "stats --help" || fail "stats --help"
finish
