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
# auto: spin never slept (it exited): runnable to its recorded end,
#   0.1 s x 1024 = 102.4; sleeper slept: fixed, 10.24. 112.64.
run
expect_eq "auto (default): spin demand, sleeper fixed" "$(figs)" "112.64 0.1 102.4 0.01 10.24 0.0"
run --work auto
expect_eq "--work auto = default" "$(figs)" "112.64 0.1 102.4 0.01 10.24 0.0"
# demand: both runnable to their recorded ends: 102.4 + 0.02 x 1024 = 20.48.
run --work demand
expect_eq "demand: both to their recorded ends" "$(figs)" "122.88 0.1 102.4 0.02 20.48 0.0"
# demand, both on CPU 0 (EEVDF, 1.4 ms slices seen at the 4 ms tick:
# tests/e2e/replay-classes.sh): CPU 0 has a runnable task all through
# [0, 100 ms) and none after: busy 0.1 s, work 102.4. Both woken at 0 with
# the same vruntime and deadline: spin, queued first, runs [0, 4); at each
# tick the runner is past its deadline and not eligible: sleeper [4, 8),
# spin [8, 12), sleeper [12, 16), spin from 16. sleeper's demand ends at
# 20 ms while it waits: it never runs after 16 ms. Waits: sleeper [0, 4)
# [8, 12) [16, 20) = 12 ms, spin [4, 8) [12, 16) = 8 ms: 0.02 s.
run --work demand --pin sleeper=0 --pin spin=0 --emit-trace "$TMP/e.txt"
expect_eq "demand on one CPU: the CPU busy to spin's end" "$(figs)" "102.4 0.1 102.4 0.0 0.0 0.02"
last=$(grep 'sched_switch: prev_comm=sleeper' "$TMP/e.txt" | tail -1 | sed 's/.* \([0-9.]*\): sched_switch.*/\1/')
expect_eq "demand on one CPU: sleeper's last run ends by its recorded end" "$last" "100.016000000"
# Comparisons say when the policies did different amounts of work: the
# CPU-bound threads (demand) under `recorded` run on tc2's 2 CPUs the 2
# source CPUs map to, under cfs on all 5: 2 x 2015 against 2 x 2015 +
# 3 x 1024 capacity, about 43% less work. The seven periodic tasks are
# fixed work: the same under every policy, no note.
"$EATRACE" replay --target-model tc2 --source-capacity 1024 --policy recorded,cfs \
	--html "$TMP/w.html" traces/replay/five-busy-vm.dat >"$TMP/w.txt" || fail "five-busy-vm"
grep -q "^note: the policies did different amounts of work" "$TMP/w.txt" &&
	ok "text: different work noted" || fail "text: no note: $(cat "$TMP/w.txt")"
grep -q "different amounts of work" "$TMP/w.html" && ok "html: different work noted" ||
	fail "html: no note"
"$EATRACE" replay --target-model tc2 --source-capacity 1024 -f json \
	traces/replay/five-busy-vm.dat >"$TMP/w.json" || fail "five-busy-vm json"
expect_eq "json: work_differs" "$(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['work_differs'])" "$TMP/w.json")" "True"
"$EATRACE" replay --target-model tc2 --source-capacity 1024 traces/replay/seven-periodic.txt >"$TMP/s.txt" ||
	fail "seven"
grep -q "different amounts of work" "$TMP/s.txt" && fail "seven: noted a work difference" ||
	ok "seven: same work, no note"
expect_fail "--work: bad mode" 2 "is not one of demand, fixed, auto" -- \
	"$EATRACE" replay -m tc2 --work nope "$fx"
"$EATRACE" replay --help | grep -q -- "--work W" && ok "--help documents --work" || fail "--help lacks --work"
finish
