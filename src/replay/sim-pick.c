// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a CPU runs next (docs/replay.md "Simulator"): an RT task first
 * (it runs until it blocks); among CFS tasks its running one keeps it
 * until EEVDF reschedules (at the tick, as a task joins or leaves, or a
 * wakeup preempts: sim-eevdf.c), then EEVDF's pick; an empty CPU pulls a
 * waiting task (idle balance) or goes idle; an offline one gives its
 * tasks away.
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
		bool cfs = !s->tasks[c->curr].rt, rr = sim_round_robin(s);

		/* the tick: update_curr() renews the deadline, and may find
		 * the slice over */
		if (tick && cfs && !rr && sim_eevdf_update_curr(s, cpu) &&
		    c->nrq)
			c->slice_end = s->now;
		if (!c->nrq) {
			c->slice_end = UINT64_MAX;
			return;
		}
		if (s->now < c->slice_end)
			return;
		c->slice_end = UINT64_MAX;
		if (cfs && !rr && !s->tasks[c->rq[0]].rt) {
			/* EEVDF's pick; the running task may be it again,
			 * with no new protection (no set_next_entity()) */
			int k = sim_eevdf_pick(s, cpu);

			if (k < 0)
				return;
			sim_sync_cpu(s, cpu);
			s->tasks[c->curr].off_ns = s->now;
			if (sim_rq_push(s, cpu, c->curr))
				return;
			c->curr = sim_rq_take(s, cpu, k);
			c->curr_step = s->nstep;
			sim_eevdf_set_next(s, cpu, true);
			pelt_update(&s->tasks[c->curr].pelt, s->now, false, 0);
			goto run;
		}
		sim_sync_cpu(s, cpu);
		if (!rr)
			sim_eevdf_update_curr(s, cpu); /* put_prev_entity() */
		/* preempted by an RT task (or round robin's slice over): the
		 * next to run */
		s->tasks[c->curr].off_ns = s->now;
		if (!sim_rq_push(s, cpu, c->curr) && s->tasks[c->rq[0]].rt)
			sim_rq_last_first(s, cpu);
		c->curr = -1;
	}
	if (!c->nrq && (tick || !c->e_idle))
		sim_pull(s, cpu, tick);
	if (!c->nrq) {
		if (!c->e_idle)
			sim_go_idle(s, cpu, *kmax(s, c));
		return;
	}
	sim_sync_cpu(s, cpu);
	sim_run_next(s, cpu);
run:
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
	c->slice_end = sim_round_robin(s) && c->curr >= 0 && c->nrq &&
				       !s->tasks[c->curr].rt
			       ? s->now + sim_rr_slice(s, cpu)
			       : UINT64_MAX;
}
