// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a CPU runs next (docs/replay.md "Simulator"): its task keeps it
 * until its slice ends while others wait (round robin, an RT task first);
 * an empty CPU pulls a waiting task (idle balance) or goes idle; an
 * offline one gives its tasks away.
 */
#include "replay/sim.h"

void sim_pick(struct sim *s, int cpu, bool tick)
{
	struct sim_cpu *c = &s->cpus[cpu];
	uint64_t key = KEY_SIM;

	if (c->in_busy0 || c->wake_at > s->now) /* leaving idle: sim-exit.c */
		return;
	if (is_off(s, cpu)) {
		sim_evacuate(s, cpu);
		if (!c->e_idle && c->curr < 0)
			sim_go_idle(s, cpu, *kmax(s, c));
		return;
	}
	if (c->curr >= 0) {
		if (!c->nrq || s->now < c->slice_end) {
			if (!c->nrq)
				c->slice_end = UINT64_MAX;
			return;
		}
		sim_sync_cpu(s, cpu);
		/* slice over: round robin; preempted by an RT task: the
		 * next CFS task to run */
		if (!sim_rq_push(s, cpu, c->curr) && s->tasks[c->rq[0]].rt)
			sim_rq_last_first(s, cpu);
		c->curr = -1;
	}
	if (!c->nrq && (tick || !c->e_idle))
		sim_pull(s, cpu);
	if (!c->nrq) {
		if (!c->e_idle)
			sim_go_idle(s, cpu, *kmax(s, c));
		return;
	}
	sim_sync_cpu(s, cpu);
	sim_run_next(s, cpu);
	while (c->curr >= 0 && s->tasks[c->curr].until <= s->now) {
		/* Its demand ended while it waited: over, without the CPU. */
		struct sim_task *t = &s->tasks[c->curr];

		if (!t->served) {
			t->served = true;
			sim_record_latency(s, t);
		}
		sim_complete(s, cpu);
		if (c->curr < 0 && c->nrq)
			sim_run_next(s, cpu);
	}
	if (c->curr < 0) {
		if (!c->e_idle)
			sim_go_idle(s, cpu, *kmax(s, c));
		return;
	}
	sim_set_pelt_b(s, c);
	if (!s->tasks[c->curr].served)
		key = cur_act(s, &s->tasks[c->curr])->seq_in;
	if (c->e_idle)
		sim_leave_idle(s, cpu, key);
	sim_emit_switch(s, cpu, c->curr, key);
	{
		struct sim_task *t = &s->tasks[c->curr];

		if (!t->served) {
			t->served = true;
			sim_record_latency(s, t);
		}
	}
	c->slice_end = c->nrq && !s->tasks[c->curr].rt
			       ? s->now + sim_slice(s, cpu)
			       : UINT64_MAX;
}
