#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The RFC's table (issue 14 "Targets"), from workloads recorded on these
# machines, replayed on tc2 from an unknown source (--source-capacity 1024):
#
#   bench/replay-rfc.sh [EATRACE]
#
# - seven short periodic tasks (traces/replay/seven-periodic.txt):
#   eas-rfc / cfs <= 0.6 (RFC 0.50), >= 90% of eas-rfc's busy time on A7;
# - five CPU-bound threads (traces/replay/five-busy-vm.dat, recorded on a
#   2-vCPU VM): eas-rfc / cfs in 0.9 .. 1.0 (RFC 0.97), every CPU busy
#   >= 90% of the run under every policy (the run: from the threads'
#   first switch-in to the recording's end; `recorded` maps the 2 source
#   CPUs to tc2's first 2 and is shown, not judged).
# EXTRA_GOVS="G ..." adds governors (e.g. schedutil:all_opps).
# Each under the default governor (schedutil) and, when the build has it,
# the RFC's fixed frequencies (--governor fixed:A15=600000,A7=1000000).
# Prints one line per policy and PASS/FAIL per target; exit 1 on a FAIL.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
EATRACE=${1:-$ROOT/eatrace}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
rc=0
govs="schedutil${EXTRA_GOVS:+ $EXTRA_GOVS}"
if "$EATRACE" replay --target-model tc2 --source-capacity 1024 --policy cfs \
	--governor fixed:A15=600000,A7=1000000 "$ROOT/traces/replay/five-busy.txt" \
	>/dev/null 2>&1; then
	govs="$govs fixed:A15=600000,A7=1000000"
fi
for gov in $govs; do
	for w in seven five; do
		case $w in
		seven) tr=$ROOT/traces/replay/seven-periodic.txt start= ;;
		# the threads start 6.8 ms after the recording does
		five) tr=$ROOT/traces/replay/five-busy-vm.dat start="--start 0.007" ;;
		esac
		"$EATRACE" replay --target-model tc2 --source-capacity 1024 --governor "$gov" \
			$start -f json "$tr" >"$TMP/r.json" || { echo "FAIL: replay $tr"; rc=1; continue; }
		/usr/bin/python3 - "$TMP/r.json" "$w" "$gov" <<'PY' || rc=1
import json, sys
d = json.load(open(sys.argv[1]))
w, gov = sys.argv[2], sys.argv[3]
D = float(d['duration_s'])
P = {p['name']: p for p in d['policies']}
e = lambda n: float(P[n]['energy']['total'])
print(f"== {w} ({d['trace'].split('/')[-1]}), tc2, governor {gov}, work {d['work']}, {D:.3f} s")
print(f"{'policy':9} {'energy':>12} {'/cfs':>6} {'work':>10} {'e/work':>7} {'A7 busy%':>8} {'min CPU busy%':>13} {'migr':>5}")
for n, p in P.items():
    busy = {c['cpu']: float(c['task_busy_s']) for c in p['cpus']}
    tot = sum(busy.values())
    a7 = sum(busy[c] for c in (2, 3, 4)) / tot * 100 if tot else 0
    mn = min(busy.values()) / D * 100
    print(f"{n:9} {e(n):12.1f} {e(n) / e('cfs'):6.3f} {float(p['work']):10.1f} "
          f"{p['energy_per_work'] or 0:7.3f} {a7:8.1f} {mn:13.1f} {p['migrations']:5}")
if d['work_differs']:
    print(f"note: work differs by {d['work_spread_pct']:.1f}% between policies")
ok = True
def target(name, cond):
    global ok
    print(f"{'PASS' if cond else 'FAIL'}: {name}")
    ok &= cond
r = e('eas-rfc') / e('cfs')
busy = {c['cpu']: float(c['task_busy_s']) for c in P['eas-rfc']['cpus']}
if w == 'seven':
    target(f"seven: eas-rfc/cfs {r:.3f} <= 0.6", r <= 0.6)
    a7 = sum(busy[c] for c in (2, 3, 4)) / sum(busy.values())
    target(f"seven: eas-rfc busy time on A7 {a7 * 100:.1f}% >= 90%", a7 >= 0.9)
else:
    target(f"five: eas-rfc/cfs {r:.3f} in 0.9 .. 1.0", 0.9 <= r <= 1.0)
    for n, p in P.items():
        if n == 'recorded':
            continue
        mn = min(float(c['task_busy_s']) for c in p['cpus']) / D
        target(f"five: {n}: every CPU busy >= 90% (min {mn * 100:.1f}%)", mn >= 0.9)
sys.exit(0 if ok else 1)
PY
		echo
	done
done
exit $rc
