#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The bundled Wattson models price small traces as Wattson's own formula
# does (wattson/cpu/idle.sql, cpu/estimates.sql, estimates.sql; the static
# mask is upstream Perfetto's wattson/cpu/pivot.sql with device_infos.sql's
# _policy_masks): each CPU draws its curve value for (policy, OPP, idle
# state); each policy its `static`, at its OPP, while any of its CPUs is
# on, that is not in the deepest idle state (cpus_on_mask: idle_N !=
# deepest.idle; deepest is 1 without an idle-state map): active or in
# idle0; and a CPU leaving cpuidle state 1 counts as active offset_ns
# before the exit. The expected totals are computed below from the CSV
# rows (quoted), not from eatrace.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/wattson-price.inc"

# --- monaco: one policy (CPUs 0-3), static > 0, deep-idle offset 450 us ---
# wattson/monaco/cpu_1d.csv, the row the trace uses:
#   monaco,0,864000,6.68,13.64,0.83,0      (static, active, idle0, idle1)
# device_infos.sql: CPUs 0-3 -> policy 0, offset 450000 ns each; no idle
# state map (cpuidle index = Wattson idle state, deepest 1).
# Trace, 10 ms from t=100 s, every CPU at 864000 kHz in state 1 at t=0:
#   CPU0: state 1 until 2 ms, runs 2-6 ms, state 0 6-8 ms, runs 8-9 ms,
#         state 1 from 9 ms;  CPU2: state 1, runs 3-4 ms, state 1;
#   CPUs 1 and 3: state 1 throughout.
# Wattson (ms, mW; _adjusted_deep_idle moves an exit from state 1 back
# by the offset, no further than the start of the idle period):
#   CPU0 active 1.55-6 and 8-9 = 5.45 ms x 13.64 = 74.338
#        idle0 6-8 = 2 ms x 0.83                  =  1.66   (exit from
#        state 0: no offset)
#   CPU2 active 2.55-4 = 1.45 ms x 13.64          = 19.778
#   idle1 everywhere else: 0 mW
#   static: some CPU on (active, or CPU0 in idle0 6-8) 1.55-9 ms
#           = 7.45 ms x 6.68                      = 49.766
#   total 145.542 mW ms = 0.145542 mW s
# (The model prices the same figure as busy 5 + 1 ms, two state-1 exits
# at 0.45 ms x 13.64 each, one cluster wakeup 0.45 ms x 6.68, cluster
# busy 5 ms and cluster idle in idle0 2 ms at 6.68: the median OPP of
# monaco is 864000 kHz, where its idle0 powers and wakeups were taken. CPU0
# leaving idle0 at 8 ms wakes a cluster in idle0: cluster wakeup 0, as
# Wattson, whose static was already paid, adds none.)
T=$TMP/monaco.txt
{
	echo "# tracer: nop"
	echo "cpus=4"
	for c in 0 1 2 3; do
		ev $c 100.000000 "cpu_frequency: state=864000 cpu_id=$c"
		ev $c 100.000000 "cpu_idle: state=1 cpu_id=$c"
	done
	run_in 0 100.002000 taska 1001
	run_in 2 100.003000 taskb 1002
	out_to 2 100.004000 taskb 1002 1
	out_to 0 100.006000 taska 1001 0
	run_in 0 100.008000 taska 1001
	out_to 0 100.009000 taska 1001 1
	ev 1 100.010000 "cpu_frequency: state=864000 cpu_id=1"
} >"$T"
expect_eq "monaco: total = Wattson's formula (0.145542 mW s)" "$(total wattson-monaco "$T")" 0.145542

# --- monaco, the issue's case: CPU 0 in idle0, CPUs 1-3 in idle1, 10 ms ---
# Wattson: CPU0 on (idle_0 = 0 != deepest 1), so policy 0 pays static:
#   CPU0 idle0 10 ms x 0.83 = 8.3; CPUs 1-3 idle1 0; static 10 ms x 6.68
#   = 66.8; total 75.1 mW ms = 0.0751 mW s ((0.83 + 6.68) x 0.010).
# (Before static went into idle0's cluster power eatrace gave 0.0083.)
T=$TMP/monaco-idle0.txt
{
	echo "# tracer: nop"
	echo "cpus=4"
	for c in 0 1 2 3; do
		s=1
		[ $c = 0 ] && s=0
		ev $c 100.000000 "cpu_frequency: state=864000 cpu_id=$c"
		ev $c 100.000000 "cpu_idle: state=$s cpu_id=$c"
	done
	ev 1 100.010000 "cpu_frequency: state=864000 cpu_id=1"
} >"$T"
expect_eq "monaco: a CPU in idle0 keeps static on (0.0751 mW s)" "$(total wattson-monaco "$T")" 0.0751

# --- monaco: every CPU in idle1: no CPU on, no static ---
# Wattson: 10 ms, idle1 0 mW x 4 CPUs, no CPU on, no static: 0 mW s.
T=$TMP/monaco-idle1.txt
{
	echo "# tracer: nop"
	echo "cpus=4"
	for c in 0 1 2 3; do
		ev $c 100.000000 "cpu_frequency: state=864000 cpu_id=$c"
		ev $c 100.000000 "cpu_idle: state=1 cpu_id=$c"
	done
	ev 1 100.010000 "cpu_frequency: state=864000 cpu_id=1"
} >"$T"
expect_eq "monaco: every CPU in idle1: no static (0 mW s)" "$(total wattson-monaco "$T")" 0

# --- Tensor: policy 0 (CPUs 0-3) exists only in cpu_2d.csv ---
# Wattson looks policy 0 up at the frequency of the active CPU of policy 4
# or 6 with the highest curve value; with none active, at its default
# vote, the lowest dep_freq in the file: policy 4 at 400000 kHz. The row:
#   Tensor,0,574000,4,400000,5.73,35.85,0.93,0,0
# (static 5.73, active 35.85, idle1 0). Policies 4 (CPUs 4-5) and 6
# (6-7), in state 1 throughout: idle1 0 mW, static 0 in cpu_1d.csv.
# Offsets: CPUs 0-5 0 ns, 6-7 200000 ns (not used: no exit).
# Trace, 4 ms: CPU0 state 1, runs 1-3 ms, state 1; the rest state 1 (the
# deepest: not on, so policy 0 pays static only while CPU0 runs).
# Wattson: active 2 ms x 35.85 = 71.7, static 2 ms x 5.73 = 11.46;
# total 83.16 mW ms = 0.08316 mW s.
T=$TMP/tensor.txt
{
	echo "# tracer: nop"
	echo "cpus=8"
	for c in 0 1 2 3 4 5 6 7; do
		f=574000
		[ $c -ge 4 ] && f=400000
		[ $c -ge 6 ] && f=500000
		ev $c 100.000000 "cpu_frequency: state=$f cpu_id=$c"
		ev $c 100.000000 "cpu_idle: state=1 cpu_id=$c"
	done
	run_in 0 100.001000 taska 1001
	out_to 0 100.003000 taska 1001 1
	ev 1 100.004000 "cpu_frequency: state=574000 cpu_id=1"
} >"$T"
expect_eq "Tensor: 2-D policy 0 at Wattson's default vote (0.08316 mW s)" "$(total wattson-tensor "$T")" 0.08316
finish
