#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `eatrace replay`: what the placement policies, governors and CPU mapping
# claim (docs/replay.md "Policies").
. "$(dirname "$0")/lib.sh"
cd "$ROOT" || exit 1

# energy TOTALS.json POLICY: that policy's energy total
energy() { /usr/bin/python3 -c "
import json,sys; d=json.load(open(sys.argv[1]))
print([p for p in d['policies'] if p['name']==sys.argv[2]][0]['energy']['total'])" "$1" "$2"; }

# 1. pack and spread are heuristics: nothing calls them bounds, and pack
#    indeed costs more than feec on the seven short periodic tasks. Why:
#    pack sends every wakeup that fits to the first smallest CPU (A7 CPU 2,
#    ties broken by id), so whenever wakeups collide the others queue
#    there and CFS idle balance pulls them to the other A7s and, while the
#    A7 cluster runs more tasks than its 3 CPUs, to an A15, waking a
#    cluster whose lowest OPP alone costs (2021 + 7920) / 840 = 11.8 bogo
#    per unit of capacity x s, against (1024 + 4905) / 1024 = 5.8 at the
#    A7's top OPP; feec places each wakeup by the energy model on an idle
#    or the cheapest A7 and, never overutilised on this light load (total
#    util about 0.52 of 1024: 2/16 + 1.5/20 + 3/33 + 4/50 + 0.5/8 + 6/100
#    + 1/40), never balances. (eas-rfc is no longer the comparison: it
#    balances as the RFC left 3.15's CFS, pulling to the A15s too.)
"$EATRACE" replay --help >"$TMP/help"
if grep -qi "bound:" "$TMP/help" || ! grep -q "heuristics, not bounds" "$TMP/help"; then
	fail "replay --help calls pack/spread bounds"
else ok "--help: pack and spread are heuristics"; fi
if grep -n -i -E "(pack|spread)[^.]*\<bounds?\>" README.md docs/replay.md docs/eatrace.1 |
	grep -v -i "not bounds\|not a bound"; then
	fail "docs call pack/spread bounds"
else ok "docs: pack and spread are heuristics"; fi
"$EATRACE" replay traces/replay/seven-periodic.txt --source-capacity 1024 \
	--target-model tc2 --policy feec,pack -f json >"$TMP/p.json" ||
	fail "replay seven-periodic"
if /usr/bin/python3 -c "import sys; sys.exit(not float(sys.argv[1]) > float(sys.argv[2]))" \
	"$(energy "$TMP/p.json" pack)" "$(energy "$TMP/p.json" feec)"; then
	ok "pack is no lower bound (costs more than feec)"
else fail "pack cost no more than feec here"; fi

# 2. governors: fixed (cluster names and OPPs from the target model) and
#    schedutil's rate limit.
five="traces/replay/five-busy.txt --source-capacity 1024 --target-model tc2"
expect_fail "fixed: unknown cluster" 2 "has no cluster 'big'" -- \
	"$EATRACE" replay $five --governor fixed:big=600000,A7=1000000
expect_fail "fixed: not an OPP" 2 "650000 kHz is not an OPP of cluster 'A15'" -- \
	"$EATRACE" replay $five --governor fixed:A15=650000,A7=1000000
expect_fail "fixed: bad syntax" 2 "is not CLUSTER=KHZ" -- \
	"$EATRACE" replay $five --governor fixed:A15
# fixed: the emitted timeline holds only the two chosen frequencies
"$EATRACE" replay $five --policy cfs --governor fixed:A15=600000,A7=1000000 \
	--emit-trace "$TMP/fixed.txt" -q >"$TMP/out" || fail "fixed governor run"
expect_eq "fixed: only the chosen frequencies" \
	"$(grep -o 'cpu_frequency: state=[0-9]*' "$TMP/fixed.txt" | sort -u | tr '\n' ' ')" \
	"cpu_frequency: state=1000000 cpu_frequency: state=600000 "
# min_gap TRACE: smallest time between two frequency changes of one
# domain of tc2 (CPUs 0-1, 2-4), in ms
min_gap() { /usr/bin/python3 - "$1" <<'PY'
import re, sys
last, gap = {}, float('inf')
for l in open(sys.argv[1]):
    m = re.search(r'\s(\d+\.\d+): cpu_frequency: state=\d+ cpu_id=(\d+)', l)
    if not m:
        continue
    t, d = float(m.group(1)), int(m.group(2)) >= 2
    if d in last:
        gap = min(gap, t - last[d])
    last[d] = t
print(int(gap * 1000))
PY
}
for lim in 0 50000; do
	"$EATRACE" replay $five --policy cfs --governor schedutil:rate_limit_us=$lim \
		--emit-trace "$TMP/su$lim.txt" -q >"$TMP/out" || fail "schedutil rate_limit_us=$lim"
done
# CPU-bound tasks from idle: util climbs through the OPPs faster than one
# change per 50 ms without a limit; with it, changes are >= 50 ms apart
g0=$(min_gap "$TMP/su0.txt") g50=$(min_gap "$TMP/su50000.txt")
if [ "$g0" -lt 50 ] && [ "$g50" -ge 50 ]; then ok "schedutil rate limit ($g0 ms -> $g50 ms)"
else fail "schedutil rate limit: min gaps $g0 ms (no limit), $g50 ms (50 ms)"; fi

# schedutil skips the OPPs tc2's energy model marks inefficient (mainline
# since 5.16, CPUFREQ_RELATION_LE; costs worked out in test-replay.c
# governors()): the A15s (CPUs 0-1) never below 1 GHz, the A7s never below
# 800 MHz; with schedutil:all_opps, util climbing from idle passes through
# the lower OPPs. opps TRACE: the frequencies set, per cluster.
opps() { /usr/bin/python3 - "$1" <<'PY'
import re, sys
f = {'A15': set(), 'A7': set()}
for l in open(sys.argv[1]):
    m = re.search(r'cpu_frequency: state=(\d+) cpu_id=(\d+)', l)
    if m:
        f['A15' if int(m.group(2)) < 2 else 'A7'].add(int(m.group(1)) // 1000)
print(' '.join('%s:%s' % (k, ','.join(map(str, sorted(v)))) for k, v in f.items()))
PY
}
"$EATRACE" replay $five --policy cfs --governor schedutil:all_opps \
	--emit-trace "$TMP/su-all.txt" -q >"$TMP/out" || fail "schedutil:all_opps"
set -- $(opps "$TMP/su0.txt") $(opps "$TMP/su-all.txt")
if /usr/bin/python3 -c "
import sys
def lo(s): return {c.split(':')[0]: min(map(int, c.split(':')[1].split(','))) for c in s}
skip, every = lo(sys.argv[1:3]), lo(sys.argv[3:5])
sys.exit(not (skip['A15'] >= 1000 and skip['A7'] >= 800 and
              every['A15'] < 1000 and every['A7'] < 800))" "$@"; then
	ok "schedutil skips inefficient OPPs ($1 $2; all_opps: $3 $4)"
else
	fail "schedutil inefficient OPPs: $1 $2; all_opps: $3 $4"
fi

# recorded on a faster platform: seven-periodic's recorded CPUs 3 and 4 go
# to tc2's A15s 0 and 1 (cpumap.c: 5 equal source CPUs by id onto tc2
# ranked A7 2, 3, 4 then A15 0, 1), which schedutil runs at 1 GHz or more
# (capacity >= 1679 against the recording's 1024): every activation there
# ends before its recorded end, so each recorded idle exit is one exit and
# no more. The idle entry recorded after each task's switch-out does not
# wake the CPU again (it did: 80 and 500 exits, twice the recording's).
"$EATRACE" replay traces/replay/seven-periodic.txt --source-capacity 1024 \
	--target-model tc2 --policy recorded --emit-trace "$TMP/rec7.txt" -q >"$TMP/out" ||
	fail "recorded seven-periodic on tc2"
for m in 3:0 4:1; do
	src=${m%:*} dst=${m#*:}
	expect_eq "recorded on tc2: CPU $dst's idle exits are recorded CPU $src's" \
		"$(grep -c "cpu_idle: state=4294967295 cpu_id=$dst\$" "$TMP/rec7.txt")" \
		"$(grep -c "cpu_idle: state=4294967295 cpu_id=$src\$" traces/replay/seven-periodic.txt)"
done

# 3. pinning from evidence: no auto-pinning unless --auto-pin; --pin by comm
#    or pid, CPU lists, CPUs of the platform replayed on.
demo="traces/demo/tc2-seven-tasks.txt -m tc2 --policy eas-rfc -f json"
# wl FIELD...: workload.pinned_tasks, policy migrations, busy CPUs (> 0 s)
wl() { /usr/bin/python3 -c "
import json,sys; d=json.load(open(sys.argv[1])); p=d['policies'][0]
print(d['workload']['pinned_tasks'], p['migrations'] > 0,
      ','.join(str(c['cpu']) for c in p['cpus'] if c['task_busy_s'] > 0))" "$1"; }
"$EATRACE" replay $demo >"$TMP/d0.json" || fail "demo"
"$EATRACE" replay $demo --auto-pin >"$TMP/d1.json" || fail "demo --auto-pin"
"$EATRACE" replay $demo --pin 'task*=3' >"$TMP/d2.json" || fail "demo --pin"
"$EATRACE" replay $demo --pin 1005=0-1 --pin 'task*=2-4' >"$TMP/d3.json" || fail "demo --pin pid"
set -- $(wl "$TMP/d0.json")
expect_eq "no auto-pinning by default: pinned, moved" "$1 $2" "0 True"
set -- $(wl "$TMP/d1.json")
expect_eq "--auto-pin: the seven tasks that never moved, no migration" "$1 $2" "7 False"
set -- $(wl "$TMP/d2.json")
expect_eq "--pin 'task*=3': all seven on CPU 3" "$1 $3" "7 3"
set -- $(wl "$TMP/d3.json")
expect_eq "--pin 1005=0-1 first, task* on 2-4: seven pinned" "$1" "7"
expect_fail "--pin: CPU beyond the model" 2 "has no CPU 9" -- \
	"$EATRACE" replay $demo --pin 'task1=9'
expect_fail "--pin: not a CPU list" 2 "is not a CPU list" -- \
	"$EATRACE" replay $demo --pin 'task1=2-1'

finish
