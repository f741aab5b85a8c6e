// SPDX-License-Identifier: GPL-2.0-only
/*
 * Idle exit in the simulation (docs/replay.md "Idle exit and the latency
 * floor"): when a woken task may run. Under `recorded` on its own platform
 * from its recorded eligibility: the recording's timeline, its gap from
 * the wakeup to the switch-in from idle kept. Under every other run from
 * its wakeup; placed on an idle CPU, once that CPU has left its idle
 * state: after the state's exit latency in the replayed model, or, where
 * the model gives none, on the recorded platform the recording's own gap
 * for that activation, on another none. The part of each latency that the
 * recording supplies (its gaps) is the latency floor, reported apart.
 */
#include "replay/sim.h"

/*
 * The task, just queued on cpu, may run there no sooner than the CPU has
 * left the idle state it is in: c->wake_at (sim_pick() runs nothing
 * before). Its floor: the part of that delay the recording supplied.
 */
void sim_exit_wake(struct sim *s, int task, int cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];
	struct sim_task *t = &s->tasks[task];
	const struct rp_act *a = cur_act(s, t);
	const struct ea_cluster *cl = cl_of(s, cpu);
	uint64_t delay = 0;

	if (s->keep_gaps || !c->e_idle || c->in_busy0)
		return;
	if (c->e_state >= 0 && c->e_state < cl->nidles &&
	    cl->idles[c->e_state].has_exit_latency) {
		delay = (uint64_t)cl->idles[c->e_state].exit_latency_us * 1000;
	} else if (s->same_platform && !(a->flags & RP_ACT_LOST) &&
		   a->eligible > a->release) {
		/* this platform's own measure of waking a CPU: the gap */
		delay = a->eligible - a->release;
		t->floor_ns = delay;
	}
	if (s->now + delay > c->wake_at) {
		c->wake_at = s->now + delay;
		touch(s, cpu);
	}
}
