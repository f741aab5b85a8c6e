// SPDX-License-Identifier: GPL-2.0-only
/*
 * `eatrace replay --emit-trace`: the simulated timeline as ftrace text, in
 * the form `trace-cmd report` prints (a "cpus=N" line, then one event per
 * line with nanosecond timestamps), which `eatrace report` reads back.
 */
#include <stdlib.h>

#include "eatrace/replay.h"

struct ea_trace_writer {
	FILE *f;
};

int ea_trace_writer_open(struct ea_trace_writer **twp, FILE *f, int ncpus,
			 const char *comment)
{
	struct ea_trace_writer *tw = calloc(1, sizeof(*tw));

	*twp = tw;
	if (!tw)
		return -1;
	tw->f = f;
	fprintf(f, "# tracer: nop\n#\n# %s\ncpus=%d\n", comment, ncpus);
	return ferror(f) ? -1 : 0;
}

static const char *state_letter(uint8_t st)
{
	return st == EA_PREV_RUNNABLE ? "R" : st == EA_PREV_DEAD ? "X" : "S";
}

int ea_trace_writer_event(void *ctx, const struct ea_event *ev, const char *comm)
{
	struct ea_trace_writer *tw = ctx;
	FILE *f = tw->f;

	fprintf(f, "%16s-%-7d [%03d] d..2. %6llu.%09llu: ", comm, (int)ev->cur_pid,
		(int)ev->cpu, (unsigned long long)(ev->ts / 1000000000ull),
		(unsigned long long)(ev->ts % 1000000000ull));
	switch (ev->type) {
	case EA_EV_SWITCH:
		fprintf(f, "sched_switch: prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d next_prio=%d\n",
			ev->sw.prev_comm, (int)ev->sw.prev_pid, (int)ev->sw.prev_prio,
			state_letter(ev->sw.prev_state), ev->sw.next_comm,
			(int)ev->sw.next_pid, (int)ev->sw.next_prio);
		break;
	case EA_EV_WAKEUP:
		fprintf(f, "sched_wakeup: comm=%s pid=%d prio=%d target_cpu=%03d\n",
			ev->wake.comm, (int)ev->wake.pid, (int)ev->wake.prio,
			(int)ev->wake.target_cpu);
		break;
	case EA_EV_IDLE:
		fprintf(f, "cpu_idle: state=%u cpu_id=%d\n", (unsigned)ev->idle.state,
			(int)ev->idle.cpu);
		break;
	case EA_EV_FREQ:
		fprintf(f, "cpu_frequency: state=%u cpu_id=%d\n",
			(unsigned)ev->freq.freq_khz, (int)ev->freq.cpu);
		break;
	case EA_EV_MARKER:
		fprintf(f, "tracing_mark_write: %s\n", ev->marker.text);
		break;
	case EA_EV_SUSPEND:
		fprintf(f, "suspend_resume: machine_suspend[%d] %s\n",
			(int)ev->suspend.val, ev->suspend.begin ? "begin" : "end");
		break;
	case EA_EV_HOTPLUG:
		if (ev->hotplug.enter)
			fprintf(f, "cpuhp_enter: cpu: %04d target: %3d step: %3d (replay)\n",
				(int)ev->hotplug.cpu, (int)ev->hotplug.target,
				(int)ev->hotplug.step);
		else
			fprintf(f, "cpuhp_exit:  cpu: %04d  state: %3d step: %3d ret: 0\n",
				(int)ev->hotplug.cpu, (int)ev->hotplug.step,
				(int)ev->hotplug.step);
		break;
	default:
		break;
	}
	return ferror(f) ? -1 : 0;
}

void ea_trace_writer_free(struct ea_trace_writer *tw)
{
	free(tw);
}
