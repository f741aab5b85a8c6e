#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `eatrace replay --work demand|fixed|auto` (docs/replay.md "Work") on
# tests/fixtures/replay/demand.txt: spin runs [0, 100 ms) and exits without
# sleeping, sleeper runs [0, 20 ms) and blocks; recorded at capacity 512
# (--source-capacity), replayed on two-cpu.json at its top OPP (capacity
# 1024, governor performance), one task per CPU under cfs.
. "$(dirname "$0")/lib.sh"
cd "$ROOT" || exit 1
fx=tests/fixtures/replay/demand.txt
run() {
	"$EATRACE" replay --target-model tests/fixtures/energy/two-cpu.json \
		--source-capacity 512 --governor performance --idle menu --policy cfs "$@" \
		-f json "$fx" >"$TMP/r.json" || fail "replay $*"
}
# "work cpu0_busy cpu0_work cpu1_busy cpu1_work wait" of the first policy
figs() { /usr/bin/python3 -c "
import json,sys; p=json.load(open(sys.argv[1]))['policies'][0]
print(p['work'], *[x for c in p['cpus'] for x in (c['task_busy_s'], c['work'])], p['wait_s'])" "$TMP/r.json"; }

# fixed: each activation's recorded work, 512 x its run, done at 1024:
#   spin 0.1 s x 512 = 51.2 capacity x s in 0.05 s; sleeper 0.02 x 512 =
#   10.24 in 0.01 s; 61.44 in all.
run --work fixed
expect_eq "fixed: work as recorded, twice as fast" "$(figs)" "61.44 0.05 51.2 0.01 10.24 0.0"
# auto: spin never slept (it exited): demand, the CPU from its release to
#   its recorded end at the speed it ran at: it ran all of [0, 100 ms), so
#   51.2, as recorded; sleeper slept: fixed, 10.24. 61.44 (docs/replay.md
#   "Work": the same work under every policy, done whatever the time).
run
expect_eq "auto (default): spin demand, sleeper fixed" "$(figs)" "61.44 0.05 51.2 0.01 10.24 0.0"
run --work auto
expect_eq "--work auto = default" "$(figs)" "61.44 0.05 51.2 0.01 10.24 0.0"
# demand: each ran all the time from its release to its end: 61.44 again.
run --work demand
expect_eq "demand: each asks what it got running all its span" "$(figs)" "61.44 0.05 51.2 0.01 10.24 0.0"
# demand, both on CPU 0 (round robin, 3 ms slices, spin first): spin
# [0,3) [6,9) [12,15) [18,21), sleeper [3,6) [9,12) [15,18) [21,22): its
# 10 ms done at 22 ms; spin alone on to its 50 ms at 60 ms. CPU 0 busy
# 0.06 s, work 61.44. Waits: sleeper [0,3) [6,9) [12,15) [18,21) = 12 ms,
# spin [3,6) [9,12) [15,18) [21,22) = 10 ms: 0.022 s.
run --work demand --pin sleeper=0 --pin spin=0 --emit-trace "$TMP/e.txt"
expect_eq "demand on one CPU: the work done, whatever the time" "$(figs)" "61.44 0.06 61.44 0.0 0.0 0.022"
last=$(grep 'sched_switch: prev_comm=sleeper' "$TMP/e.txt" | tail -1 | sed 's/.* \([0-9.]*\): sched_switch.*/\1/')
expect_eq "demand on one CPU: sleeper's 10 ms done at 22 ms" "$last" "100.022000000"

# A demand counts the time the task waited in the recording: in
# tests/fixtures/replay/stacked.txt a b c d never sleep and share CPU 0
# round robin 1 ms each to the trace's end at 100 ms (source capacity
# 1024). a runs from 0, b, c, d are first seen at 1, 2, 3 ms; each ran
# 25 ms. fixed: 25 x 1.024 = 25.6 each, 102.4 in all, 0.05 s per CPU.
# demand (auto: never slept): work x span / ran: a 25.6 x 100 / 25 =
# 102.4, b 25.6 x 99 / 25 = 101.376, c x 98 / 25 = 100.352, d x 97 / 25 =
# 99.328: 403.456 in all; on two-cpu.json's 2 CPUs at 1024 that is
# 394 ms of CPU: the run goes on past the trace's end, each CPU busy
# 0.197 s (a and d on one, b and c on the other: 201.728 each), the last
# done at 198 ms (CPU 1 started at 1 ms): extra 0.098 s, priced 0.198 s.
st=tests/fixtures/replay/stacked.txt
stk() { "$EATRACE" replay --target-model tests/fixtures/energy/two-cpu.json \
	--source-capacity 1024 --governor performance --idle menu --policy cfs "$@" \
	-f json "$st" >"$TMP/r.json" || fail "replay stacked $*"
	/usr/bin/python3 -c "
import json,sys; d=json.load(open(sys.argv[1])); p=d['policies'][0]
print(p['work'], *[c['task_busy_s'] for c in p['cpus']], p['extra_s'], d['priced_s'])" "$TMP/r.json"; }
expect_eq "stacked, fixed: the recorded work" "$(stk --work fixed)" "102.4 0.05 0.05 0.0 0.1"
expect_eq "stacked, auto: demands past the trace's end" "$(stk)" "403.456 0.197 0.197 0.098 0.198"

# Every policy does the same work; only `recorded` on its own platform
# stops at the trace's end (it is the recording's timeline, as report
# prices it), with what its round robin left undone: there the text, HTML
# and JSON say the work differs (five-busy-vm: 1.0%).
"$EATRACE" replay -m tc2 --policy recorded,cfs \
	--html "$TMP/w.html" traces/replay/five-busy-vm.dat >"$TMP/w.txt" || fail "five-busy-vm"
grep -q "^note: the policies did different amounts of work" "$TMP/w.txt" &&
	ok "text: different work noted" || fail "text: no note: $(cat "$TMP/w.txt")"
grep -q "different amounts of work" "$TMP/w.html" && ok "html: different work noted" ||
	fail "html: no note"
"$EATRACE" replay -m tc2 --policy recorded,cfs -f json \
	traces/replay/five-busy-vm.dat >"$TMP/w.json" || fail "five-busy-vm json"
expect_eq "json: work_differs" "$(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['work_differs'])" "$TMP/w.json")" "True"
# On another platform every policy, `recorded` too, runs until its work
# is done: the same work (spread 0 but for the rounding of work done at
# each frequency change, under 0.001%), no note.
for tr in traces/replay/seven-periodic.txt traces/replay/five-busy.txt traces/replay/five-busy-vm.dat; do
	"$EATRACE" replay --target-model tc2 --source-capacity 1024 -f json "$tr" >"$TMP/s.json" ||
		fail "$tr"
	expect_eq "same work under every policy: $tr" "$(/usr/bin/python3 -c "
import json,sys; d=json.load(open(sys.argv[1])); print(d['work_spread_pct'] < 1e-3, d['work_differs'])" "$TMP/s.json")" "True False"
done
"$EATRACE" replay --target-model tc2 --source-capacity 1024 traces/replay/seven-periodic.txt >"$TMP/s.txt" ||
	fail "seven"
grep -q "different amounts of work" "$TMP/s.txt" && fail "seven: noted a work difference" ||
	ok "seven: same work, no note"
expect_fail "--work: bad mode" 2 "is not one of demand, fixed, auto" -- \
	"$EATRACE" replay -m tc2 --work nope "$fx"
"$EATRACE" replay --help | grep -q -- "--work W" && ok "--help documents --work" || fail "--help lacks --work"
finish
