#!/bin/sh
# eatrace batch --rows cluster|cpu|task: one row per trace x model x part.
# Hand figures on five-busy.txt; sums of parts against the per-trace rows;
# one cluster row against `report -f json` (a consistency check: the same
# accountant, read through another output path, not an independent figure).
. "$(dirname "$0")/lib.sh"
T=$ROOT/traces
FIVE=$T/replay/five-busy.txt
cd "$TMP" || exit 1
PY=/usr/bin/python3

# five-busy.txt with tc2, every CPU busy 1 s at 1 GHz (see batch.sh): A15
# core 3846, cluster 8446; A7 core 1024, cluster 4905. At the first
# instant each CPU leaves WFI (unknown-idle state 0): core wakeups A15
# 0.233115234375, A7 0; cluster wakeups A15 9.79083984375, A7 0.27973828125,
# paid by the CPU whose exit woke its cluster: CPU 0 (A15), CPU 2 (A7), the
# first of each in the trace. Printed to 9 decimals, truncated.
#   cluster A15: 2 x 3846 + 8446 + 2 x 0.233115234375 + 9.79083984375
#              = 16148.2570703125
#   cluster A7:  3 x 1024 + 4905 + 0.27973828125 = 7977.27973828125
#   CPU 0: 3846 + 8446 / 2 + 0.233115234375 + 9.79083984375 = 8079.023955078125
#   CPU 1: 3846 + 4223 + 0.233115234375 = 8069.233115234375
#   CPU 2: 1024 + 4905 / 3 + 0.27973828125 = 2659.27973828125
#   CPU 3, 4: 1024 + 1635 = 2659
# Tasks: busy1..5 ran on CPUs 0..4 for the whole second and paid their
# CPU's wakeups (the first task to run after idle pays): the CPU figures.
"$EATRACE" batch -q --rows cluster -m tc2 "$FIVE" > cl.csv
expect_eq "cluster: exit 0" "$?" 0
expect_eq "cluster: header" "$(head -1 cl.csv)" \
	path,model,hash,cluster,duration_s,total_energy,busy_energy,idle_energy,wakeup_energy,mean_power,power_unit,energy_unit,model_check_errors,error
expect_eq "cluster rows (hand)" "$(tail -n +2 cl.csv | cut -d, -f4,6-9 | tr '\n' ' ')" \
	"A15,16148.257070312,16138,0,10.257070312 A7,7977.279738281,7977,0,0.279738281 "
"$EATRACE" batch -q --rows cpu -m tc2 "$FIVE" > cpu.csv
expect_eq "cpu: header" "$(head -1 cpu.csv | cut -d, -f4-6)" cpu,cluster,duration_s
expect_eq "cpu rows (hand)" "$(tail -n +2 cpu.csv | cut -d, -f4,5,7 | tr '\n' ' ')" \
	"0,A15,8079.023955078 1,A15,8069.233115234 2,A7,2659.279738281 3,A7,2659 4,A7,2659 "
"$EATRACE" batch -q --rows task -f jsonl -m tc2 "$FIVE" > task.jsonl
got=$($PY -c 'import json,sys
rows=sorted((r["pid"], r["comm"], r["total_energy"]) for r in map(json.loads, open(sys.argv[1])) if r["pid"] > 2000)
print(" ".join("%d:%s:%s" % r for r in rows))' task.jsonl)
expect_eq "task rows (hand)" "$got" \
	"2001:busy1:8079.023955078 2002:busy2:8069.233115234 2003:busy3:2659.279738281 2004:busy4:2659 2005:busy5:2659"

# Parts add up to the trace's row to the unit (exact decimals, summed with
# Python's Decimal), for every kind, on every bundled trace.dat and two
# text traces, and two models.
"$EATRACE" batch -q -m tc2 -m juno-r0 "$T/diff" "$FIVE" "$T/replay/seven-periodic.txt" > whole.csv
for k in cluster cpu task; do
	"$EATRACE" batch -q -j 2 --rows $k -m tc2 -m juno-r0 "$T/diff" "$FIVE" \
		"$T/replay/seven-periodic.txt" > $k.csv
	expect_eq "--rows $k: exit 0" "$?" 0
	bad=$($PY - whole.csv $k.csv <<'PY'
import csv, sys
from decimal import Decimal
whole = {(r["path"], r["model"]): r for r in csv.DictReader(open(sys.argv[1]))}
sums, n = {}, 0
for r in csv.DictReader(open(sys.argv[2])):
    k = (r["path"], r["model"])
    s = sums.setdefault(k, [Decimal(0)] * 4)
    for i, c in enumerate(("total_energy", "busy_energy", "idle_energy", "wakeup_energy")):
        s[i] += Decimal(r[c])
    assert r["duration_s"] == whole[k]["duration_s"]
    n += 1
bad = [k for k, w in whole.items() if sums.get(k) != [Decimal(w[c]) for c in
       ("total_energy", "busy_energy", "idle_energy", "wakeup_energy")]]
print(len(bad) if n > len(whole) else "too few rows")
PY
)
	expect_eq "--rows $k: parts sum to the trace's figures" "$bad" 0
done

# One cluster row against report -f json's figures for that cluster.
"$EATRACE" report -f json -m tc2 "$T/diff/light-1.dat" 2>/dev/null > l1.json
want=$($PY -c 'import json,sys
c=[c for c in json.load(open(sys.argv[1]))["clusters"] if c["name"]=="A15"][0]["energy"]
print(",".join(str(c[k]) for k in ("total","busy","idle","wakeup")))' l1.json)
expect_eq "light-1 A15 row = report's A15" \
	"$(grep "light-1.dat,tc2,.*,A15," cluster.csv | cut -d, -f6-9)" "$want"

# Error rows: one per trace x model, key columns empty.
"$EATRACE" batch -q --rows cpu -m tc2 missing.dat > err.csv
expect_eq "error row: exit 1" "$?" 1
expect_eq "error row: one, keys empty" "$(tail -n +2 err.csv | cut -d, -f1,4,5,6 | tr '\n' ' ')" \
	"missing.dat,,, "

# --resume keeps cluster rows; a table of other columns is refused.
"$EATRACE" batch -q --rows cluster -m tc2 -o r.csv "$FIVE"
"$EATRACE" batch -q --rows cluster --resume -m tc2 -o r.csv "$FIVE" "$T/diff/light-1.dat"
expect_eq "resume: 2 + 2 cluster rows" "$(tail -n +2 r.csv | cut -d, -f4 | tr '\n' ' ')" "A15 A7 A15 A7 "
cp r.csv r0.csv
expect_fail "resume: other --rows refused" 2 "cannot resume" -- \
	"$EATRACE" batch -q --rows cpu --resume -m tc2 -o r.csv "$FIVE"
cmp -s r.csv r0.csv && ok "refused resume leaves the table" || fail "table changed"
# The same for JSON lines: a trace row has no cluster key, so --rows
# cluster must not append cluster rows to it (line 1 is the first row).
"$EATRACE" batch -q -f jsonl -m tc2 -o r.jsonl "$FIVE"
cp r.jsonl r0.jsonl
expect_fail "resume jsonl: other --rows refused" 2 "r.jsonl:1: its keys are not those" -- \
	"$EATRACE" batch -q -f jsonl --rows cluster --resume -m tc2 -o r.jsonl "$FIVE"
cmp -s r.jsonl r0.jsonl && ok "refused jsonl resume leaves the table" || fail "jsonl table changed"
"$EATRACE" batch -q -f jsonl --rows cluster -m tc2 -o c.jsonl "$FIVE"
"$EATRACE" batch -q -f jsonl --rows cluster --resume -m tc2 -o c.jsonl "$FIVE" \
	"$T/diff/light-1.dat"
expect_eq "resume jsonl: same --rows kept, 2 + 2 rows" "$(wc -l < c.jsonl | tr -d ' ')" 4
expect_fail "--rows: bad kind" 2 "--rows: 'core'" -- "$EATRACE" batch --rows core -m tc2 "$FIVE"
finish
