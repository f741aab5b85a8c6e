#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The ftrace-text and systrace readers on the shared reference traces
# ($SHARED, skipped when absent), through `eatrace dump`:
#  - every text trace: event counts per type (counted here independently
#    with grep) and first/last timestamps, sorted output;
#  - the same recording rendered by `trace-cmd report`, `-R` and `-N`
#    dumps identically.
. "$(dirname "$0")/lib.sh"
need_shared
. "$(dirname "$0")/readers-text.inc"

# ---- the shared reference traces ----------------------------------------

for f in "$SHARED"/idlestat/Experiments__*.dat "$SHARED"/trappy/tests__trace_sched.txt \
	"$SHARED"/lisa/tests__assets__trace_txt__trace.txt \
	"$SHARED"/trappy/tests__trace_surfaceflinger.html; do
	check_text "$f"
done

# The counts the traces' README gives.
"$EATRACE" dump "$SHARED/trappy/tests__trace_surfaceflinger.html" >"$TMP/sf"
expect_eq "surfaceflinger: README counts" \
	"$(dump_count "$TMP/sf" sched_switch) $(dump_count "$TMP/sf" cpu_idle) $(dump_count "$TMP/sf" sched_wakeup) $(dump_count "$TMP/sf" cpu_frequency)" \
	"715 621 421 104"
expect_eq "surfaceflinger: first event" "$(head -n 1 "$TMP/sf")" \
	"538064659000 6 959 sched_switch prev_comm=kworker/u17:1 prev_pid=959 prev_prio=100 prev_state=S next_comm=swapper/6 next_pid=0 next_prio=120"
"$EATRACE" dump "$SHARED/lisa/tests__assets__trace_txt__trace.txt" >"$TMP/tt"
expect_eq "lisa trace.txt: README counts" \
	"$(dump_count "$TMP/tt" sched_switch) $(dump_count "$TMP/tt" sched_wakeup)" "1856 1068"
# Numeric prev_state: 0 and 4096 (TASK_STATE_MAX, preempted) are runnable,
# 64 (TASK_DEAD on 4.x) exited, 1, 2 and 130 (D|K) blocked.
T=$SHARED/lisa/tests__assets__trace_txt__trace.txt
expect_eq "lisa trace.txt: prev_state R/S/X" \
	"$(grep -c 'prev_state=R' "$TMP/tt") $(grep -c 'prev_state=S' "$TMP/tt") $(grep -c 'prev_state=X' "$TMP/tt")" \
	"$(grep -c 'prev_state=\(0\|4096\) ' "$T") $(grep -c 'prev_state=\(1\|2\|130\) ' "$T") $(grep -c 'prev_state=64 ' "$T")"

# trappy's shuffled trace ends with a line cut mid-field: an error. Its
# complete lines are read and sorted back into order.
U=$SHARED/trappy/tests__trace_idle_unsorted.txt
# Its last line is an event cut short (a capture copied while being
# written): forgiven as the last line, with a warning.
"$EATRACE" stats -f json "$U" >"$TMP/unsorted.json" 2>"$TMP/unsorted.err"
expect_eq "unsorted: cut last line forgiven" "$?" "0"
grep -q 'the last line (17) is an event cut short' "$TMP/unsorted.json" &&
	ok "unsorted: cut last line reported" || fail "unsorted: cut last line not reported"
for f in cut-last-truncated cut-last-cut-header; do
	"$EATRACE" dump "$FIX/$f.txt" >/dev/null 2>&1
	expect_eq "$f: forgiven as the last line" "$?" "0"
done
head -n 16 "$U" >"$TMP/unsorted16.txt"
check_text "$TMP/unsorted16.txt" "unsorted (16 lines)"

if command -v trace-cmd >/dev/null 2>&1; then
	for dat in "$SHARED/trappy/tests__trace_idle.dat" \
		"$SHARED/lisa/tests__assets__sched_load__trace.dat"; do
		n=$(basename "$dat" .dat)
		trace-cmd report "$dat" >"$TMP/$n.plugin.txt" 2>/dev/null
		trace-cmd report -R "$dat" >"$TMP/$n.raw.txt" 2>/dev/null
		trace-cmd report -N "$dat" >"$TMP/$n.nofmt.txt" 2>/dev/null
		dump_same "$n" "$TMP/$n.plugin.txt" "$TMP/$n.raw.txt" "$TMP/$n.nofmt.txt"
		check_text "$TMP/$n.plugin.txt" "$n (report)"
	done
	# Kernel PELT signals: root cfs_rq and task entities only.
	n=tests__assets__sched_load__trace
	"$EATRACE" dump "$TMP/$n.raw.txt" >"$TMP/sl"
	expect_eq "sched_load: root cfs_rq count" "$(dump_count "$TMP/sl" sched_load_cfs_rq)" \
		"$(grep -c 'sched_load_cfs_rq: .*path=/ ' "$TMP/$n.raw.txt")"
	expect_eq "sched_load: task se count" "$(dump_count "$TMP/sl" sched_load_se)" \
		"$(grep 'sched_load_se: ' "$TMP/$n.raw.txt" | grep -c ' pid=[1-9]')"
	expect_eq "sched_load: README counts" \
		"$(dump_count "$TMP/sl" sched_switch) $(dump_count "$TMP/sl" cpu_idle) $(dump_count "$TMP/sl" cpu_frequency) $(dump_count "$TMP/sl" sched_migrate_task)" \
		"399 474 16 28"
else
	echo "skip: trace-cmd not installed, report forms not compared"
fi

finish
