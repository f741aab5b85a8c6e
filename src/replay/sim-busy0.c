// SPDX-License-Identifier: GPL-2.0-only
/*
 * Idle-task stretches in the simulation (CPU busy in pid 0: interrupts,
 * idle entry and exit), replayed on their recorded CPU at their recorded
 * time: all of them under `recorded`; under other policies only those
 * between two idle periods (interrupts), not the idle exit before a task's
 * run nor the idle entry after it (they belong to that run, which may be
 * elsewhere), and none while a task runs there.
 */
#include "replay/sim.h"

void sim_busy0_end(struct sim *s, int cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];

	if (c->in_busy0)
		s->nin_busy0--;
	c->in_busy0 = false;
	touch(s, cpu);
	if (c->busy0_seq_end > *kmax(s, c))
		c->kmax = c->busy0_seq_end;
	if (c->busy0_to_idle && c->curr < 0 && !c->nrq)
		sim_go_idle(s, cpu, c->busy0_seq_end);
}

void sim_busy0_start(struct sim *s, const struct rp_idle_busy *b)
{
	int cpu = map_cpu(s, b->cpu);
	struct sim_cpu *c = &s->cpus[cpu];

	if (b->overlap && !(s->policy->follow_segments && s->same_platform))
		return; /* the task's work, wherever a policy places it */
	if (c->curr >= 0 || c->nrq)
		return; /* a task runs there: the CPU is busy anyway */
	/* On another platform, an idle entry after a task that ended sooner
	 * there than recorded (a faster CPU): the CPU is idle already, and
	 * the stretch was the task's way into idle, nothing that wakes the
	 * CPU again. (On the recorded platform it stays: the recording's
	 * idle timeline is followed, and report counts what it shows.) */
	if (b->from_task && c->e_idle && !s->same_platform)
		return;
	/* Idle exit into a task, idle entry after one: part of that task's
	 * run, which other policies may place elsewhere. */
	if (!s->policy->follow_segments && (!b->to_idle || b->from_task))
		return;
	if (c->in_busy0)
		sim_busy0_end(s, cpu);
	if (c->e_idle)
		sim_leave_idle(s, cpu, b->seq_start);
	else
		sim_emit_switch(s, cpu, -1, b->seq_start);
	c->e_fresh = false;
	c->in_busy0 = true;
	touch(s, cpu);
	s->nin_busy0++;
	c->busy0_end = b->end;
	c->busy0_seq_end = b->seq_end;
	c->busy0_to_idle = b->to_idle;
}
