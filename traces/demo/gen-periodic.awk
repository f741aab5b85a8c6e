#!/usr/bin/awk -f
# Generate a synthetic ftrace text trace of periodic tasks on fixed CPUs.
# Deterministic; used for the demo trace and for tests. Usage:
#   awk -f gen-periodic.awk -v spec="CPU:PERIOD_US:RUN_US,..." \
#       -v freqs="F0,F1,..." -v dur_us=1000000 > trace.txt
# Each task is released every PERIOD_US (first release staggered by its
# index x 997 us), runs RUN_US on its CPU (waiting while the CPU is busy),
# then blocks. CPUs idle in cpuidle state 0 between runs; freqs gives each
# CPU's fixed frequency in kHz (one cpu_frequency event at time 0).
function line(cpu, t, comm, pid, ev,    s) {
	s = sprintf("%16s-%-5d [%03d] d..2. %6d.%06d: %s", comm, pid, cpu,
		    100 + int(t / 1000000), t % 1000000, ev)
	out[n++] = sprintf("%015d %06d\t%s", t, n, s)
}
BEGIN {
	ntask = split(spec, tasks, ",")
	ncpu = split(freqs, f, ",")
	for (c = 0; c < ncpu; c++) {
		line(c, 0, "<idle>", 0, sprintf("cpu_frequency: state=%d cpu_id=%d", f[c + 1], c))
		line(c, 0, "<idle>", 0, sprintf("cpu_idle: state=0 cpu_id=%d", c))
		free[c] = 0
	}
	# Releases in time order across tasks so that a CPU serves them FIFO.
	for (i = 1; i <= ntask; i++) {
		split(tasks[i], p, ":")
		cpu[i] = p[1]; period[i] = p[2]; run[i] = p[3]
		next_rel[i] = (i - 1) * 997
	}
	for (;;) {
		best = 0
		for (i = 1; i <= ntask; i++)
			if (next_rel[i] < dur_us && (!best || next_rel[i] < next_rel[best]))
				best = i
		if (!best)
			break
		i = best; c = cpu[i]; pid = 1000 + i; comm = "task" i
		rel = next_rel[i]
		next_rel[i] += period[i]
		start = rel > free[c] ? rel : free[c]
		end = start + run[i]
		if (end > dur_us)
			break
		# The waker's record shows the CPU's current task at the release.
		wcomm = free[c] > rel ? "task" busy_task[c] : "<idle>"
		wpid = free[c] > rel ? 1000 + busy_task[c] : 0
		line(c, rel, wcomm, wpid, sprintf("sched_wakeup: comm=%s pid=%d prio=120 target_cpu=%03d", comm, pid, c))
		line(c, start, "<idle>", 0, sprintf("cpu_idle: state=4294967295 cpu_id=%d", c))
		line(c, start, "<idle>", 0, sprintf("sched_switch: prev_comm=swapper/%d prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=%s next_pid=%d next_prio=120", c, comm, pid))
		free[c] = end; busy_task[c] = i
		line(c, end, comm, pid, sprintf("sched_switch: prev_comm=%s prev_pid=%d prev_prio=120 prev_state=S ==> next_comm=swapper/%d next_pid=0 next_prio=120", comm, pid, c))
		line(c, end, "<idle>", 0, sprintf("cpu_idle: state=0 cpu_id=%d", c))
	}
	printf("# tracer: nop\n#\n# synthetic: traces/demo/gen-periodic.awk spec=%s freqs=%s dur_us=%d\n", spec, freqs, dur_us)
	printf("cpus=%d\n", ncpu)
	for (k = 0; k < n; k++)
		print out[k] | "sort -k1,1n -k2,2n | cut -f2-"
}
