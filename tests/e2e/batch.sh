#!/bin/sh
# eatrace batch: rows per trace x model, formats, workers, error rows, --resume.
. "$(dirname "$0")/lib.sh"
T=$ROOT/traces
cd "$TMP" || exit 1
H=path,model,hash,duration_s,total_energy,busy_energy,idle_energy,wakeup_energy,mean_power,power_unit,energy_unit,model_check_errors,error

# five-busy.txt: CPUs 0-4 busy for exactly 1 s at 1000000 kHz. juno-r0:
# CPUs 0,3,4 are A53s whose top OPP is 850000 (119 mW; 1 GHz is above it,
# charged at the top), CPUs 1,2 A57s charged at the OPP at or above 1 GHz,
# 1100000 (583 mW); cluster powers 0, never idle, no wakeups:
# 3 x 119 + 2 x 583 = 1523 mW x 1 s = 1523, mean power 1523 mW.
"$EATRACE" batch -q -m juno-r0 "$T/replay/five-busy.txt" > out.csv
expect_eq "five-busy: exit 0" "$?" 0
expect_eq "csv header" "$(head -1 out.csv)" "$H"
expect_eq "five-busy row" "$(tail -n +2 out.csv | cut -d, -f2,4-13)" \
	"juno-r0,1.000000000,1523,1523,0,0,1523,mW,mW x s,0,"
expect_eq "one row" "$(wc -l < out.csv)" 2

# Content hash: FNV-1a 64 (its published test vectors: "" -> cbf29ce484222325,
# "a" -> af63dc4c8601ec8c); neither file is a trace, so both are error rows.
: > empty.txt
printf a > a.txt
"$EATRACE" batch -q -m tc2 empty.txt a.txt > bad.csv
expect_eq "error rows: exit 1" "$?" 1
expect_eq "hash of empty file" "$(sed -n 2p bad.csv | cut -d, -f3)" cbf29ce484222325
expect_eq "hash of 'a'" "$(sed -n 3p bad.csv | cut -d, -f3)" af63dc4c8601ec8c
expect_eq "error row: no figures" "$(sed -n 2p bad.csv | cut -d, -f4-10)" ",,,,,,"
sed -n 2p bad.csv | cut -d, -f13- | grep -q '^"*empty.txt' && ok "error names the file" ||
	fail "error column: $(sed -n 2p bad.csv)"

# five-busy.txt with tc2, all at 1 GHz for 1 s: A15s (CPUs 0,1) 2 x 3846 +
# cluster 8446 = 16138; A7s (CPUs 2-4) 3 x 1024 + cluster 4905 = 7977;
# 16138 + 7977 = 24115 busy. Each CPU's first event is a cpu_idle exit at
# the trace's first instant: a wakeup from the state that unknown idle time
# is priced in (--unknown-idle-state, default 0: WFI; docs/inference.md).
# tc2's WFI wakeups: A15 core 0.233115234375, cluster 9.79083984375; A7 core
# 0, cluster 0.27973828125. Five core exits and one exit per cluster:
# 2 x 0.233115234375 + 9.79083984375 + 3 x 0 + 0.27973828125
# = 10.53680859375; total 24125.53680859375 (printed to 9 decimals,
# truncated: 24125.536808593).
# A failing trace does not end the batch: rows after it are there, in order.
"$EATRACE" batch -q -j 2 -m tc2 a.txt "$T/replay/five-busy.txt" missing.dat > mix.csv
expect_eq "mixed: exit 1" "$?" 1
expect_eq "mixed: rows in input order" "$(tail -n +2 mix.csv | cut -d, -f1 | tr '\n' ' ')" \
	"a.txt $T/replay/five-busy.txt missing.dat "
expect_eq "mixed: good row priced" "$(sed -n 3p mix.csv | cut -d, -f5,13)" "24125.536808593,"
sed -n 4p mix.csv | grep -q 'missing.dat: cannot open' && ok "missing file: error row" ||
	fail "missing file row: $(sed -n 4p mix.csv)"

# The same figures as `eatrace report`, for every bundled trace.dat.
"$EATRACE" batch -q -m tc2 "$T/diff/light-1.dat" > l1.csv
want=$("$EATRACE" report -f json -m tc2 "$T/diff/light-1.dat" |
	/usr/bin/python3 -c 'import json,sys; e=json.load(sys.stdin)["energy"]; print(",".join(str(e[k]) for k in ("total","busy","idle","wakeup")))')
expect_eq "light-1: report's energies" "$(sed -n 2p l1.csv | cut -d, -f5-8)" "$want"

# -j 1 and -j 2, two models, a directory walked: identical tables.
mkdir -p tree/sub
cp "$T/replay/five-busy.txt" tree/b.txt
cp "$T/diff/light-2.dat" tree/sub/a.dat
cp "$T/replay/seven-periodic.txt" tree/a.txt
echo notes > tree/README.md
"$EATRACE" batch -q -j 1 -m tc2 -m juno-r0 tree "$T/diff" > j1.csv
rc1=$?
"$EATRACE" batch -q -j 2 -m tc2 -m juno-r0 tree "$T/diff" > j2.csv
expect_eq "-j 1 / -j 2 exit" "$rc1 $?" "0 0"
cmp -s j1.csv j2.csv && ok "-j 1 and -j 2 identical" || fail "-j 1 and -j 2 differ"
# tree: a.txt, b.txt, sub/a.dat (sorted; README.md skipped) + 9 in traces/diff
expect_eq "rows: 12 traces x 2 models" "$(tail -n +2 j1.csv | wc -l)" 24
expect_eq "directory walk order" "$(sed -n '2p;4p;6p' j1.csv | cut -d, -f1 | tr '\n' ' ')" \
	"tree/a.txt tree/b.txt tree/sub/a.dat "
expect_eq "trace x model order" "$(sed -n '2,3p' j1.csv | cut -d, -f2 | tr '\n' ' ')" "tc2 juno-r0 "

# JSON lines: one object a line, same figures as the CSV.
"$EATRACE" batch -q -f jsonl -m juno-r0 "$T/replay/five-busy.txt" missing.dat > out.jsonl
expect_eq "jsonl: exit 1" "$?" 1
got=$(/usr/bin/python3 -c 'import json,sys
rows=[json.loads(l) for l in open(sys.argv[1])]
print(len(rows), rows[0]["total_energy"], rows[0]["mean_power"], rows[0]["error"], rows[1]["total_energy"], "cannot open" in rows[1]["error"])' out.jsonl)
expect_eq "jsonl rows" "$got" "2 1523 1523 None None True"

# --list: paths one a line, comments and blank lines skipped.
printf '# fleet\n\n%s\n' "$T/replay/five-busy.txt" > list
"$EATRACE" batch -q -m juno-r0 --list list > list.csv
expect_eq "--list" "$(tail -n +2 list.csv | cut -d, -f5)" 1523

# --resume: rows already in the output are kept as they are (we mark one
# by hand: a rerun would not give 42), error rows are run again.
cp "$T/replay/five-busy.txt" r1.txt
"$EATRACE" batch -q -m juno-r0 -o res.csv r1.txt r2.txt
expect_eq "resume: first run has an error" "$?" 1
sed -i 's/,1523,1523,0,0,1523,/,42,1523,0,0,1523,/' res.csv
cp "$T/replay/seven-periodic.txt" r2.txt
cp "$T/diff/light-1.dat" r3.dat
"$EATRACE" batch -q -m juno-r0 -o res.csv --resume r1.txt r2.txt r3.dat
expect_eq "resume: exit 0" "$?" 0
expect_eq "resume: kept row untouched" "$(grep '^r1.txt,' res.csv | cut -d, -f5)" 42
"$EATRACE" batch -q -m juno-r0 r2.txt > r2.csv
expect_eq "resume: error row rerun" "$(grep -c '^r2.txt,' res.csv) $(grep '^r2.txt,' res.csv)" \
	"1 $(sed -n 2p r2.csv)"
expect_eq "resume: new trace added" "$(grep -c '^r3.dat,juno-r0,.*,mW,mW x s,0,$' res.csv)" 1
expect_eq "resume: one header" "$(grep -c '^path,' res.csv)" 1
# r4.txt has r1.txt's content: same hash, same model -> already done.
cp r1.txt r4.txt
"$EATRACE" batch -q -m juno-r0 -o res2.csv r1.txt
sed -i 's/,1523,1523,0,0,1523,/,42,1523,0,0,1523,/' res2.csv
"$EATRACE" batch -q -m juno-r0 -m tc2 -o res2.csv --resume r4.txt
expect_eq "resume: keyed by content, per model" \
	"$(tail -n +2 res2.csv | cut -d, -f1,2,5 | tr '\n' ' ')" "r1.txt,juno-r0,42 r4.txt,tc2,24125.536808593 "

# Refusals: exit 2, one line, no output file.
expect_fail "no model" 2 "no model" -- "$EATRACE" batch a.txt
expect_fail "bad model" 2 "nosuch" -- "$EATRACE" batch -m nosuch -o never.csv a.txt
[ ! -e never.csv ] && ok "no output file on error" || fail "never.csv written"
expect_fail "resume without -o" 2 "--resume needs -o" -- "$EATRACE" batch --resume -m tc2 a.txt
expect_fail "bad -j" 2 "-j" -- "$EATRACE" batch -j 0 -m tc2 a.txt
expect_fail "bad format" 2 "jsonl" -- "$EATRACE" batch -f xml -m tc2 a.txt
expect_fail "no traces" 2 "no traces" -- "$EATRACE" batch -m tc2
finish
