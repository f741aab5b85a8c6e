#!/usr/bin/awk -f
# SPDX-License-Identifier: GPL-2.0-only
# A switch-heavy ftrace text trace, fast to make at any size (the
# --perfetto size tests, tests/e2e/perfetto-proto.sh):
#   awk -f gen-switches.awk -v cycles=N [-v period_us=20 -v busy_us=6] > t.txt
# Two CPUs; every period_us each runs one of 8 tasks (pids 1000-1007 on
# CPU 0, 2000-2007 on CPU 1, in turn) for busy_us, then idles in state 1
# (CPU 1 half a period later). Both CPUs switch between 1 and 2 GHz every
# 1000 periods. Timestamps from 100 s.
function line(cpu, t, comm, pid, ev) {
	printf "%16s-%-5d [%03d] d..2. %6d.%06d: %s\n", comm, pid, cpu,
	       100 + int(t / 1000000), t % 1000000, ev
}
BEGIN {
	if (!period_us) period_us = 20
	if (!busy_us) busy_us = 6
	print "# tracer: nop"
	print "#"
	print "# synthetic: tests/perfetto/gen-switches.awk cycles=" cycles
	print "cpus=2"
	for (c = 0; c < 2; c++) {
		line(c, 0, "<idle>", 0, sprintf("cpu_frequency: state=1000000 cpu_id=%d", c))
		line(c, 0, "<idle>", 0, sprintf("cpu_idle: state=1 cpu_id=%d", c))
	}
	for (k = 0; k < cycles; k++) {
		for (c = 0; c < 2; c++) {
			t = k * period_us + c * int(period_us / 2) + 1
			pid = 1000 * (c + 1) + k % 8
			comm = "w" c "-" k % 8
			if (k % 1000 == 999)
				line(c, t, "<idle>", 0, sprintf("cpu_frequency: state=%d cpu_id=%d",
								int(k / 1000) % 2 ? 1000000 : 2000000, c))
			line(c, t, "<idle>", 0, sprintf("cpu_idle: state=4294967295 cpu_id=%d", c))
			line(c, t, "<idle>", 0, sprintf("sched_switch: prev_comm=swapper/%d prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=%s next_pid=%d next_prio=120", c, comm, pid))
			line(c, t + busy_us, comm, pid, sprintf("sched_switch: prev_comm=%s prev_pid=%d prev_prio=120 prev_state=S ==> next_comm=swapper/%d next_pid=0 next_prio=120", comm, pid, c))
			line(c, t + busy_us, "<idle>", 0, sprintf("cpu_idle: state=1 cpu_id=%d", c))
		}
	}
}
