#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Outputs users expect (issue 17): report JSON names the trace, its format
# and eatrace's version; --top N|all lists that many tasks in text; text
# columns stay in line with long C-state and cluster names; the CSV time_s
# column is a duration on every row (window start in start_s).
. "$(dirname "$0")/lib.sh"
DEMO=$ROOT/traces/demo/tc2-seven-tasks.txt

"$EATRACE" report -m tc2 -f json "$DEMO" >"$TMP/r.json"
/usr/bin/python3 - "$TMP/r.json" "$DEMO" "$("$EATRACE" --version | cut -d' ' -f2)" <<'PY' &&
import json, sys
d = json.load(open(sys.argv[1]))
assert d["trace"] == sys.argv[2], d["trace"]
assert d["format"].startswith("trace-cmd report text"), d["format"]
assert d["eatrace_version"] == sys.argv[3], d["eatrace_version"]
PY
	ok "report JSON: trace, format, eatrace_version" || fail "report JSON header"

# The demo has 7 periodic tasks + [idle] (+ others): count the task rows.
ntasks=$(/usr/bin/python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['tasks']))" "$TMP/r.json")
rows() { awk '/^PID /{on=1; next} on && /^[-0-9]/{n++} /^$/{on=0} END{print n+0}' "$1"; }
"$EATRACE" report -m tc2 --top 3 "$DEMO" >"$TMP/t3"
expect_eq "--top 3: three task rows" "$(rows "$TMP/t3")" 3
grep -q "^($((ntasks - 3)) more: --top N or --top all lists them)$" "$TMP/t3" && ok "--top 3: says how many more" || fail "--top 3: $(tail -3 "$TMP/t3")"
"$EATRACE" report -m tc2 --top all "$DEMO" >"$TMP/tall"
expect_eq "--top all: every task" "$(rows "$TMP/tall")" "$ntasks"
expect_fail "--top 0" 2 "--top: '0' is not a number of tasks or 'all'" -- "$EATRACE" report -m tc2 --top 0 "$DEMO"

# Long names: a copy of tc2 with a 24-character C-state and cluster name.
sed 's/"name": "C1"/"name": "cluster-off-retention-x"/; s/"name": "A15"/"name": "big-cortex-a15-cluster"/' \
	"$ROOT/models/tc2.json" >"$TMP/long.json"
grep -q cluster-off-retention-x "$TMP/long.json" && grep -q big-cortex-a15-cluster "$TMP/long.json" ||
	fail "test model: names not replaced"
"$EATRACE" report -m "$TMP/long.json" "$DEMO" >"$TMP/long.txt"
# every row of the C-state table has its all_idle_s column at the header's end
awk '/all_idle_s/ { hdr = index($0, "all_idle_s") + length("all_idle_s"); on = 1; next }
	on && NF == 0 { exit }
	on { n++; if (index($0, "%") != length($0)) bad++; split($0, f, " "); p = index($0, f[3] " ") + length(f[3]);
	     if (p != hdr) bad++ }
	END { print (n > 0 && !bad) ? "aligned" : "misaligned " n " " bad }' "$TMP/long.txt" >"$TMP/al"
expect_eq "long C-state names: columns aligned" "$(cat "$TMP/al")" aligned
awk '/^cluster  .* energy .* share/ { hdr = index($0, "energy") + 6; on = 1; next }
	on && NF == 0 { exit }
	on { n++; split($0, f, " "); if (index($0, f[2] " ") + length(f[2]) != hdr) bad++ }
	END { print (n > 0 && !bad) ? "aligned" : "misaligned" }' "$TMP/long.txt" >"$TMP/al"
expect_eq "long cluster names: columns aligned" "$(cat "$TMP/al")" aligned

# CSV: time_s a duration on every row; windows of 300 ms over a 0.996488 s
# trace: 0.3, 0.3, 0.3 and 0.096488 s, starting 100.0, 100.3, 100.6, 100.9.
"$EATRACE" report -m tc2 -f csv --interval 300 "$DEMO" >"$TMP/r.csv"
expect_eq "csv: header" "$(head -n 1 "$TMP/r.csv")" "scope,id,name,freq_khz,time_s,total,busy,idle,wakeup,start_s,energy_unit"
expect_eq "csv: window durations" "$(awk -F, '$1 == "window" { printf "%s ", $5 }' "$TMP/r.csv")" \
	"0.300000000 0.300000000 0.300000000 0.096488000 "
expect_eq "csv: window starts" "$(awk -F, '$1 == "window" { printf "%s ", $10 }' "$TMP/r.csv")" \
	"100.000000000 100.300000000 100.600000000 100.900000000 "
expect_eq "csv: total row" "$(awk -F, '$1 == "total" { print $5, $10 }' "$TMP/r.csv")" "0.996488000 100.000000000"
expect_eq "csv: every row has 11 columns" "$(awk -F, 'NF != 11' "$TMP/r.csv" | wc -l)" 0
finish
