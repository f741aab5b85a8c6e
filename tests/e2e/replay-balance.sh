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
# the lowest) takes it. A7 CPU 4 busy 0.08 s, A15 CPU 0 0.22 s, one
# migration.
mf=tests/fixtures/replay/misfit.txt
for p in cfs feec; do
	"$EATRACE" replay --target-model tc2 --source-capacity 1024 --governor performance \
		--policy $p -f json "$mf" >"$TMP/r.json" || fail "replay $p"
	expect_eq "misfit under $p: to an A15 at the 80 ms tick" "$(figs)" "1 0.22 0.0 0.0 0.0 0.08"
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
# and nothing moves after. CPU 1 busy 0.1 - 0.004 = 0.096 s, two migrations,
# two tasks on CPU 1.
st=tests/fixtures/replay/stacked.txt
"$EATRACE" replay --target-model tests/fixtures/energy/two-cpu.json --source-capacity 1024 \
	--governor performance --policy pack --emit-trace "$TMP/st.txt" -f json "$st" >"$TMP/r.json" ||
	fail "replay pack"
expect_eq "idle pull at 4 ms, periodic pull at 8 ms" "$(figs)" "2 0.1 0.096"
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
# per ms), and running alone from 80 ms it reaches at most
# 1024 - (1024 - 264) x 0.5^(20/32) = 531 < 820 by 100 ms. Then the CPUs
# pick in order: CPU 2's tick ends its running task's slice (EEVDF: d,
# switched out at 80 ms, b runs); A7 CPU 3 pulls c (last ran [72, 76): not
# cache hot); A7 CPU 4 finds only d, which left its CPU less than 0.5 ms
# ago (task_hot(): not pulled before two failed tick-time balances). At
# 84 ms nothing is overutilised any more; the sticky flag lets that
# tick's balance run, where CPU 4 again finds only the task CPU 2 has just
# switched out; from 88 ms feec balances no more.
# 2 migrations: CPUs 0 and 3 busy the last 0.02 s, CPU 2 all 0.1 s, CPUs 1
# and 4 never. (Counting the wait as running gave each task
# about 1024 x (1 - 0.5^(88/32)) = 872 > 820 by 88 ms: a false misfit.)
"$EATRACE" replay --target-model tc2 --source-capacity 1024 --governor performance \
	--policy feec -f json "$st" >"$TMP/r.json" || fail "replay feec"
expect_eq "feec: no balancing until overutilised (80 ms)" "$(figs)" "2 0.02 0.0 0.1 0.02 0.0"
# `recorded` does not balance: all four stay on CPU 0.
"$EATRACE" replay --target-model tests/fixtures/energy/two-cpu.json --source-capacity 1024 \
	--governor performance --policy recorded -f json "$st" >"$TMP/r.json" || fail "replay recorded"
expect_eq "recorded: no balancing" "$(figs)" "0 0.1 0.0"
finish
