#!/bin/sh
# Small validation gaps closed by issue 16, each refused with the usual
# one-line error and exit 2 (and the valid neighbour still accepted):
# a compressed trace.dat cut inside its last (strings) section, strict
# --assume-opp, a hex CPU column, an unknown dtb version, a JSON number
# with a leading zero and a \u0000 escape in a model.
. "$(dirname "$0")/lib.sh"

DEMO=$ROOT/traces/demo/tc2-seven-tasks.txt
V7C=$ROOT/traces/vm/vm-v7-compressed.dat

# 1. compressed v7 cut inside its last section (STRINGS, 125 bytes with its
# header: trace-cmd writes it at the end); libtracecmd never reads it
size=$(stat -c %s "$V7C")
"$EATRACE" stats "$V7C" >/dev/null 2>"$TMP/err"
expect_eq "whole compressed trace reads" "$?" 0
for cut in 1 16 100; do
	head -c $((size - cut)) "$V7C" >"$TMP/cut.dat"
	expect_fail "compressed trace cut $cut bytes before its end" 2 \
		"cut.dat: truncated trace.dat: section 15 at offset" -- timeout 20 "$EATRACE" stats "$TMP/cut.dat"
done
# cut inside a section header: 4 bytes of the strings section's 16 remain
head -c $((size - 121)) "$V7C" >"$TMP/cut.dat"
expect_fail "compressed trace cut inside a section header" 2 \
	"inside a section header (4 of 16 bytes)" -- timeout 20 "$EATRACE" stats "$TMP/cut.dat"

# 2. --assume-opp: decimal kHz from 1 to 100 GHz, nothing wrapped
expect_fail "--assume-opp -1" 2 "--assume-opp: '-1' is not a frequency in kHz" -- \
	"$EATRACE" report -m tc2 --assume-opp -1 "$DEMO"
# 4295567296 = 2^32 + 600000: cut to 32 bits it would act as 600000
expect_fail "--assume-opp 4295567296" 2 "--assume-opp: '4295567296' is not a frequency in kHz" -- \
	"$EATRACE" report -m tc2 --assume-opp 4295567296 "$DEMO"
expect_fail "--assume-opp ' 5'" 2 "is not a frequency in kHz" -- \
	"$EATRACE" report -m tc2 --assume-opp " 5" "$DEMO"
"$EATRACE" report -m tc2 --assume-opp 600000 "$DEMO" >"$TMP/out" 2>"$TMP/err"
expect_eq "--assume-opp 600000 accepted" "$?" 0

# 3. a CPU column is decimal: [0x1] is corrupt, not CPU 1
L1='          <idle>-0     [001]    50.000000000: cpu_idle: state=0 cpu_id=1'
L2='          <idle>-0     [0x1]    51.000000000: cpu_idle: state=1 cpu_id=1'
printf '# tracer: nop\n%s\n%s\n%s\n' "$L1" "$L2" "$L1" | sed '4s/50\./52./' >"$TMP/hex.txt"
expect_fail "CPU column [0x1]" 2 "hex.txt:line 3: CPU column [0x1] is not a decimal CPU number" -- \
	"$EATRACE" stats "$TMP/hex.txt"
printf '# tracer: nop\n%s\n' "$(echo "$L2" | sed 's/0x1/-1/')" >"$TMP/neg.txt"
expect_fail "CPU column [-1]" 2 "neg.txt:line 2: CPU column [-1] is not a decimal CPU number" -- \
	"$EATRACE" stats "$TMP/neg.txt"

# 4. dtb versions: 16 and 17 exist; 99 is refused (offset 20, big endian)
DTB=$ROOT/tests/fixtures/import/juno-sched-energy.dtb
cp "$DTB" "$TMP/v99.dtb"
patch_bytes "$TMP/v99.dtb" 20 00000063
expect_fail "dtb version 99" 2 "v99.dtb: offset 20: dtb version 99 (compatible with" -- \
	"$EATRACE" model import "$TMP/v99.dtb" -o "$TMP/v99.json"
[ ! -e "$TMP/v99.json" ] && ok "dtb version 99: no output" || fail "dtb version 99: output written"
"$EATRACE" model import "$DTB" -o "$TMP/ok.json" -q 2>"$TMP/err"
expect_eq "the fixture's dtb (version $(od -An -tu1 -j23 -N1 "$DTB" | tr -d ' ')) imports" "$?" 0

# 5. model JSON: a number with a leading zero, a \u0000 in a name
M=$ROOT/models/tc2.json
line=$(grep -n '"cap": 1024' "$M" | head -n 1 | cut -d: -f1)
sed "${line}s/\"cap\": 1024/\"cap\": 01024/" "$M" >"$TMP/zero.json"
expect_fail "JSON number 01024" 2 "zero.json:$line: JSON syntax error: number with a leading zero" -- \
	"$EATRACE" model show "$TMP/zero.json"
line=$(grep -n '"name": "ARM TC2"' "$M" | cut -d: -f1)
sed 's/"name": "ARM TC2"/"name": "ARM\\u0000TC2"/' "$M" >"$TMP/nul.json"
expect_fail "model name with \\u0000" 2 "nul.json:$line: JSON syntax error: \\u0000 (a NUL character) in a string" -- \
	"$EATRACE" model show "$TMP/nul.json"
sed 's/"name": "ARM TC2"/"name": "ARM\\u0041 0.5 TC2"/' "$M" >"$TMP/esc.json"
"$EATRACE" model show "$TMP/esc.json" >"$TMP/out" 2>"$TMP/err"
expect_eq "other \\u escapes and 0.5 in a string still load" "$?" 0
finish
