#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `eatrace replay` load balancing (docs/replay.md "Load balancing"): misfit
# migration of a running task, idle and periodic balance, each policy's
# rules (rp_balance).
. "$(dirname "$0")/lib.sh"
cd "$ROOT" || exit 1
# "migrations busy0 busy1 ..." of the first policy
figs() { /usr/bin/python3 -c "
import json,sys; p=json.load(open(sys.argv[1]))['policies'][0]
print(p['migrations'], *[c['task_busy_s'] for c in p['cpus']])" "$TMP/r.json"; }

# 1. Misfit: hog never sleeps (demand), recorded on CPU 2 of 5 CPUs all of
# --source-capacity 1024, so ranked by id: rank 2 of 5. The capacity-aware
# map ranks tc2's CPUs by top capacity then id: A7s 2 3 4 (1024), A15s 0 1
# (2015); rank 2 -> floor(2 x 5 / 5) = 2 -> CPU 4, an A7. There from 0 to
# 300 ms, at the top OPP (performance: capacity 1024). Its util grows as
# 1024 x (1 - 0.5^(n/32)) over n PELT periods of 1.024 ms and passes 80% of
# the A7's 1024 (820) after 32 x log2(5) = 74.3 periods = 76.1 ms; the
# first tick after (ticks every 4 ms) is 80 ms: then an idle A15 (CPU 0,
# the lowest) takes it. A7 CPU 4 busy 0.08 s: 0.08 x 1024 = 81.92 of
# hog's 0.3 x 1024 = 307.2 (it never slept: it asks what it ran, docs/
# replay.md "Work"); the other 225.28 on A15 CPU 0 at 2015 take
# 225.28 / 2015 = 0.111801489 s, one migration.
mf=tests/fixtures/replay/misfit.txt
for p in cfs feec; do
	"$EATRACE" replay --target-model tc2 --source-capacity 1024 --governor performance \
		--policy $p -f json "$mf" >"$TMP/r.json" || fail "replay $p"
	expect_eq "misfit under $p: to an A15 at the 80 ms tick" "$(figs)" "1 0.111801489 0.0 0.0 0.0 0.08"
done
# eas-rfc balances as 3.15 did: no misfit migration; hog stays on its A7
# for the whole 0.3 s. Placed at 0 with prev_cpu its mapped CPU 4, util 0
# (a new task) and no wakeups (it was running at the start): every
# energy_diff is 0 (nothing is added, each level's terms cancel), and
# find_target_group/cpu move only to a strictly cheaper group or CPU, so
# it stays on CPU 4 (3.15's balance path ends there: no
# select_idle_sibling()).
"$EATRACE" replay --target-model tc2 --source-capacity 1024 --governor performance \
	--policy eas-rfc -f json "$mf" >"$TMP/r.json" || fail "replay eas-rfc"
expect_eq "no misfit under eas-rfc (3.15)" "$(figs)" "0 0.0 0.0 0.0 0.0 0.3"

# 2. Idle and periodic balance: a b c d never sleep and share CPU 0 in the
# recording; `pack` puts them all on CPU 0 (nothing is above 80% yet). At
# the 4 ms tick idle CPU 1 pulls one (3 + 1); at the 8 ms tick CPU 1's
# periodic balance pulls another from CPU 0, which has 2 tasks more (2 + 2),
# and nothing moves after: two migrations, two tasks on CPU 1. Each task
# asks what it would have run with a CPU of its own over its recorded
# span (docs/replay.md "Work"; tests/e2e/replay-work.sh): a 102.4, b
# 101.376, c 100.352, d 99.328, 403.456 in all = 394 ms at 1024. CPU 0
# runs a [0, 4) then b [4, 5.5) (slices 6 / 4 = 1.5 ms); at 4 ms CPU 1
# pulls c (first waiting), at 8 ms b: b and c do 197 - 1.5 = 195.5 ms on
# CPU 1, busy 0.1955 s without a gap; CPU 0 the rest, 394 - 195.5 =
# 198.5 ms.
st=tests/fixtures/replay/stacked.txt
"$EATRACE" replay --target-model tests/fixtures/energy/two-cpu.json --source-capacity 1024 \
	--governor performance --policy pack --emit-trace "$TMP/st.txt" -f json "$st" >"$TMP/r.json" ||
	fail "replay pack"
expect_eq "idle pull at 4 ms, periodic pull at 8 ms" "$(figs)" "2 0.1985 0.1955"
expect_eq "two tasks on CPU 1" \
	"$(grep '\[001\].*sched_switch' "$TMP/st.txt" | grep -o 'next_comm=[a-d] ' | sort -u | wc -l)" "2"
# feec balances only while overutilised: on tc2 it stacks the four on
# their recorded CPU 0 mapped (rank 0 of 2 -> tc2 rank floor(0 x 5 / 2) =
# 0: A7 CPU 2; nothing over yet), which runs all the time at capacity
# 1024; its util passes 80% of 1024 after 76.1 ms (as in 1.), so for 80 ms
# no idle CPU pulls. At the 80 ms tick, in CPU order: A15 CPU 0 pulls one
# (the A7 cluster runs 4 tasks on 3 CPUs); A15 CPU 1 may not (3 on 3 now),
# nor take a misfit: each task ran 1 ms in 4, and the time it waits in the
# queue is not running time, so its util_avg is below the peak of a
# 1-in-4 ms square wave, 1024 x (1 - y) / (1 - y^4) = 264 (y = 0.5^(1/32)
# per ms). A7s 3 and 4 each pull one: CPUs 0, 3, 4 start at 80 ms, CPU 2
# busy all of [0, 80 ms). (Counting the wait as running gave each task
# about 1024 x (1 - 0.5^(88/32)) = 872 > 820 by 88 ms: a false misfit.)
# The tasks then run until their 403.456 is done (above), past the trace's
# end; what moves after 80 ms is not checked here.
"$EATRACE" replay --target-model tc2 --source-capacity 1024 --governor performance \
	--policy feec --emit-trace "$TMP/fe.txt" -f json "$st" >"$TMP/r.json" || fail "replay feec"
expect_eq "feec: no balancing until overutilised (80 ms)" \
	"$(grep 'sched_switch' "$TMP/fe.txt" | grep -v '\[002\]' | head -1 | sed 's/.* \([0-9.]*\): sched_switch.*/\1/')" "100.080000000"
idle2=$(grep '\[002\].*sched_switch.*next_comm=swapper' "$TMP/fe.txt" | head -1 | sed 's/.* \([0-9.]*\): sched_switch.*/\1/')
awk -v t="$idle2" 'BEGIN { exit !(t >= 100.08) }' && ok "feec: CPU 2 runs all of the first 80 ms" ||
	fail "feec: CPU 2 idle at $idle2"
expect_eq "feec: the same work as every policy" \
	"$(/usr/bin/python3 -c "import json,sys; print('%.3f' % json.load(open(sys.argv[1]))['policies'][0]['work'])" "$TMP/r.json")" "403.456"
# `recorded` does not balance: all four stay on CPU 0, 394 ms (above).
"$EATRACE" replay --target-model tests/fixtures/energy/two-cpu.json --source-capacity 1024 \
	--governor performance --policy recorded -f json "$st" >"$TMP/r.json" || fail "replay recorded"
expect_eq "recorded: no balancing" "$(figs)" "0 0.394 0.0"
finish
