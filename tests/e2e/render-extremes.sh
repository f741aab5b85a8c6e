#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The renderers on extreme but valid timestamps (docs/robustness.md):
# traces spanning almost 2^64 ns. --html and --perfetto used to abort (heap
# overflow: a bucket count wrapped and the fold loop indexed bucket -1) or
# hang (a bucket edge wrapped past 2^64 and spread() went backwards).
# Each run must finish in time, exit 0, write well-formed HTML and Perfetto
# JSON that parses, and its time series must add up to the hand-worked
# energy below.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3

idle2() { # idle2 FILE T1: CPU 0 enters WFI at 1.0 s and leaves it at T1
	printf '          <idle>-0     [000] d...     1.000000: cpu_idle: state=0 cpu_id=0\n          <idle>-0     [000] d...  %s: cpu_idle: state=4294967295 cpu_id=0\n' "$2" >"$1"
}
idle2 "$TMP/far.txt" 18400000000.000000
idle2 "$TMP/max.txt" 18446744073.000000	# 2^64 ns is 18446744073.709551616 s

# check NAME MODEL TRACE CLUSTER ENERGY: report --html --perfetto --format
# json; the cluster's total and the sum of its HTML time series are ENERGY.
check() {
	name=$1 model=$2 trace=$3 cl=$4 want=$5
	# --html alone (400 buckets) and --perfetto alone (20000): each
	# broke on its own bucket arithmetic.
	timeout 20 "$EATRACE" report -m "$model" --format json --html "$TMP/r.html" \
		"$trace" >"$TMP/r.json" 2>"$TMP/err"
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "$name: --html: exit $rc ($(head -c 300 "$TMP/err"))"
		return
	fi
	timeout 20 "$EATRACE" report -m "$model" --perfetto "$TMP/r.pf.json" \
		"$trace" >/dev/null 2>"$TMP/err"
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "$name: --perfetto: exit $rc ($(head -c 300 "$TMP/err"))"
		return
	fi
	ok "$name: runs"
	if xmllint --noout "$TMP/r.html" 2>"$TMP/xl"; then ok "$name: HTML well-formed"
	else fail "$name: HTML: $(head -c 300 "$TMP/xl")"; fi
	if "$PY" - "$TMP/r.html" "$TMP/r.json" "$TMP/r.pf.json" "$cl" "$want" >"$TMP/py" 2>&1 <<'PYEOF'
import json, sys, xml.etree.ElementTree as ET
from decimal import Decimal as D
S = '{http://www.w3.org/2000/svg}'
html, rep, pf, cl, want = sys.argv[1:]
j = json.load(open(rep), parse_float=D)
names = [c['name'] for c in j['clusters']]
k = names.index(cl)
got = D(j['clusters'][k]['energy']['total'])
assert got == D(want), ('report', got, want)
doc = ET.parse(html).getroot()
chart = [s for s in doc.iter(S + 'svg') if s.get('data-chart') == 'power-clusters'][0]
bins = [r for r in chart.iter(S + 'rect') if r.get('data-e') is not None]
assert bins, 'no time series'
tot = sum(D(r.get('data-e').split()[k]) for r in bins)
assert tot == D(want), ('html series', tot, want)
t1 = [D(r.get('data-t1')) for r in bins]
assert t1 == sorted(t1), 'bins out of order'
p = json.load(open(pf))
ts = [D(str(e['ts'])) for e in p['traceEvents'] if 'ts' in e]
assert ts and min(ts) >= 0, ts[:3]
PYEOF
	then ok "$name: energy and series add up"
	else fail "$name: $(tail -n 3 "$TMP/py" | tr '\n' ' ')"; fi
}

# tc2-idlestat: CPU 0 is in A7, whose WFI costs cluster_power 10 (core 0)
# and 5.12853515625 per wakeup (cluster; core 0). 18399999999 s idle and
# one wakeup at the end: 10 x 18399999999 + 5.12853515625
# = 183999999995.12853515625, printed to 1e-9: 183999999995.128535156.
check "idle 1 s to 18400000000 s (tc2-idlestat)" tc2-idlestat "$TMP/far.txt" \
	A7 183999999995.128535156
# tc2: CPU 0 is in A15: WFI cluster_power 25, core 0; a wakeup costs
# 0.233115234375 (core) + 9.79083984375 (cluster) = 10.023955078125.
# 25 x 18446744072 + 10.023955078125 = 461168601810.023955078125.
check "idle 1 s to 18446744073 s (tc2)" tc2 "$TMP/max.txt" \
	A15 461168601810.023955078
# tc2-idlestat again: 10 x 18446744072 + 5.12853515625 = 184467440725.12853515625.
check "idle 1 s to 18446744073 s (tc2-idlestat)" tc2-idlestat "$TMP/max.txt" \
	A7 184467440725.128535156

# A task running on CPU 1 from 0 to the last representable microsecond
# (18446744073.709551 s), Perfetto slices included: must finish.
printf '%s\n' \
	'          <idle>-0     [001] d...     0.000000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=long next_pid=5 next_prio=120' \
	'          long-5      [001] d...  18446744073.709551: sched_switch: prev_comm=long prev_pid=5 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120' \
	>"$TMP/busy.txt"
for m in tc2 tc2-idlestat; do
	if timeout 20 "$EATRACE" report -m $m --per-task --html "$TMP/b.html" \
		--perfetto "$TMP/b.json" "$TMP/busy.txt" >/dev/null 2>"$TMP/err" &&
		xmllint --noout "$TMP/b.html" 2>"$TMP/err" &&
		"$PY" -c 'import json, sys; d = json.load(open(sys.argv[1])); assert any(e.get("ph") == "X" for e in d["traceEvents"])' "$TMP/b.json" 2>"$TMP/err"
	then ok "busy 0 to 2^64 ns ($m): html and perfetto"
	else fail "busy 0 to 2^64 ns ($m): $(head -c 300 "$TMP/err")"; fi
done

finish
