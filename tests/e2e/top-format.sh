#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# run.sh: exclusive
# eatrace top -f csv|json, to log power over time (issue 17): one header,
# one row per total, cluster and CPU per interval (csv); one JSON object per
# interval (json). The total power is the sum of the CPUs' (each CPU carries
# its share of its cluster's energy). Needs root and tracefs; skipped
# otherwise.
. "$(dirname "$0")/lib.sh"
T=/sys/kernel/tracing
grep -qw tracefs /proc/filesystems || skip "this kernel has no tracefs"
[ "$(id -u)" -eq 0 ] || skip "eatrace top needs root (CI runs as root)"
[ -d "$T/instances" ] || skip "tracefs is not mounted on $T"
N=$(getconf _NPROCESSORS_CONF)
[ "$N" -le 5 ] || skip "this machine has $N CPUs, more than the tc2 model's 5"

"$EATRACE" top -m tc2 -n 3 -i 0.1 -f csv >"$TMP/top.csv" 2>"$TMP/err"
expect_eq "top -f csv: exit" "$?" 0
expect_eq "top -f csv: header" "$(head -n 1 "$TMP/top.csv")" "t_s,interval_s,scope,id,name,power,busy_pct"
# tc2: 2 clusters; rows per interval: total + 2 + N
expect_eq "top -f csv: rows" "$(($(wc -l <"$TMP/top.csv") - 1))" "$((3 * (3 + N)))"
/usr/bin/python3 - "$TMP/top.csv" <<'PY' && ok "top -f csv: total = sum of CPUs, times increase" || fail "top csv: $(head -c 600 "$TMP/top.csv")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
ts = sorted({float(r["t_s"]) for r in rows})
assert len(ts) == 3 and ts[0] > 0, ts
for t in ts:
    tot = [float(r["power"]) for r in rows if float(r["t_s"]) == t and r["scope"] == "total"]
    cpus = [float(r["power"]) for r in rows if float(r["t_s"]) == t and r["scope"] == "cpu"]
    assert len(tot) == 1 and abs(tot[0] - sum(cpus)) <= 1e-5 * max(1, tot[0]) + 1e-5 * len(cpus), (tot, cpus)
PY
"$EATRACE" top -m tc2 -n 2 -i 0.1 -f json >"$TMP/top.json" 2>"$TMP/err"
expect_eq "top -f json: exit" "$?" 0
/usr/bin/python3 - "$TMP/top.json" "$N" <<'PY' && ok "top -f json: one object per interval" || fail "top json: $(head -c 600 "$TMP/top.json")"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 2, len(lines)
for i, l in enumerate(lines):
    d = json.loads(l)
    assert d["interval"] == i + 1 and len(d["cpus"]) == int(sys.argv[2]) and len(d["clusters"]) == 2
PY
expect_fail "top -f bad" 2 "--format: 'xml' is not text, csv or json" -- "$EATRACE" top -m tc2 -f xml
finish
