// SPDX-License-Identifier: GPL-2.0-only
/*
 * An emitted event made from the simulator's record of it (struct
 * sim_out, sim.h): the simulator records what changes as it runs (time,
 * CPU, the current pid, a switch's next pid and prev_state, a wakeup's
 * target, an OPP, an idle state) and task indices for the rest, which is
 * fixed for the run: each task's pid, prio and comm, each CPU's idle
 * task's comm. The ea_event and the comm it carries are made here when
 * the event is delivered, on the sink's thread when it has one
 * (sim-apart.c), so that the simulator's thread neither clears nor copies
 * them (docs/replay.md "Threads").
 */
#include <stdio.h>
#include <string.h>

#include "replay/sim.h"

/* The idle task's comm on cpu: "swapper/CPU". */
void sim_swapper_comm(int cpu, char *out)
{
	char buf[32] = "swapper/";
	char digits[12];
	size_t n = 0, len = 8;

	if (cpu < 0) {
		snprintf(buf, sizeof(buf), "swapper/%d", cpu);
	} else {
		do {
			digits[n++] = (char)('0' + cpu % 10);
			cpu /= 10;
		} while (cpu);
		while (n)
			buf[len++] = digits[--n];
	}
	memcpy(out, buf, EA_COMM_LEN - 1);
	out[EA_COMM_LEN - 1] = '\0';
}

/* A switch's prev or next comm: the task's, or the CPU's idle task's. */
static void task_comm(const struct sim_names *nm, int task, int cpu, char *out)
{
	if (task >= 0)
		memcpy(out, nm->tasks[task].comm, EA_COMM_LEN);
	else if (cpu >= 0 && cpu < nm->ncpus)
		memcpy(out, nm->swapper[cpu], EA_COMM_LEN);
	else
		sim_swapper_comm(cpu, out);
}

static int32_t task_prio(const struct sim_names *nm, int task)
{
	return task >= 0 ? nm->tasks[task].prio : 120;
}

/*
 * The event of record o into *ev, every byte set (zero where the type has
 * no field); returns the comm it carries: its task's as the simulator
 * emits them (at most EA_COMM_LEN - 1 bytes, zero-padded), "<idle>" for
 * none or pid 0, all zero when the sink reads no comm.
 */
const char *sim_build_event(const struct sim_names *nm, const struct sim_out *o,
			    struct ea_event *ev)
{
	static const char none[EA_COMM_LEN];
	static const char idle[EA_COMM_LEN] = "<idle>";

	memset(ev, 0, sizeof(*ev));
	ev->ts = o->ts;
	ev->cpu = o->cpu;
	ev->cur_pid = o->cur_pid;
	ev->type = o->type;
	switch (o->type) {
	case EA_EV_SWITCH:
		ev->sw.prev_pid = o->cur_pid;
		ev->sw.next_pid = o->sw.next_pid;
		ev->sw.prev_prio = task_prio(nm, o->task);
		ev->sw.next_prio = task_prio(nm, o->sw.next_task);
		ev->sw.prev_state = o->sw.prev_state;
		task_comm(nm, o->task, o->cpu, ev->sw.prev_comm);
		task_comm(nm, o->sw.next_task, o->cpu, ev->sw.next_comm);
		break;
	case EA_EV_WAKEUP:
		ev->wake.pid = nm->tasks[o->wake.task].pid;
		ev->wake.prio = nm->tasks[o->wake.task].prio;
		ev->wake.target_cpu = o->wake.target_cpu;
		memcpy(ev->wake.comm, nm->tasks[o->wake.task].comm,
		       EA_COMM_LEN);
		break;
	case EA_EV_FREQ:
		ev->freq.freq_khz = o->freq.khz;
		ev->freq.cpu = o->freq.cpu;
		break;
	case EA_EV_IDLE:
		ev->idle.state = o->idle.state;
		ev->idle.cpu = o->idle.cpu;
		break;
	case EA_EV_HOTPLUG:
		ev->hotplug.cpu = o->hotplug.cpu;
		ev->hotplug.target = o->hotplug.target;
		ev->hotplug.step = o->hotplug.step;
		ev->hotplug.enter = o->hotplug.enter;
		break;
	case EA_EV_SUSPEND:
		ev->suspend.val = o->suspend.val;
		ev->suspend.begin = o->suspend.begin;
		break;
	case EA_EV_MARKER:
		snprintf(ev->marker.text, sizeof(ev->marker.text), "%s",
			 o->marker.text == SIM_MARK_END ? "eatrace: replay end"
							: "eatrace: replay");
		break;
	default:
		break;
	}
	if (nm->no_comms)
		return none;
	if (o->cur_pid <= 0 || o->task < 0)
		return idle;
	return nm->comms[o->task];
}
