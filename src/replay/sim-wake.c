// SPDX-License-Identifier: GPL-2.0-only
/*
 * Wakeup placement in the simulation: an arrival's activation starts, the
 * policy chooses its CPU through the policy interface (policy.h) from what
 * the CPUs look like without the task (struct rp_env), then the
 * simulator's own rules apply (pins, RT tasks, offline CPUs); the task is
 * queued there and its wakeup emitted.
 */
#include <string.h>

#include "replay/sim.h"

/* RFC wakeup tracking: += 1024 per wakeup, decayed per ms (seed 008). */
static void track_wakeup(struct sim *s, struct sim_task *t)
{
	uint64_t ms = s->now / 1000000;

	if (ms > t->wake_last_ms) {
		t->wake_sum = ea_pelt_decay(t->wake_sum, ms - t->wake_last_ms);
		t->wake_last_ms = ms;
	}
	t->wake_sum += 1024;
}

static int place_policy(struct sim *s, int task)
{
	struct sim_task *t = &s->tasks[task];
	const struct rp_act *a = cur_act(s, t);
	struct rp_env env = {.model = s->m,
			     .ncpus = s->ncpus,
			     .util = s->env_util,
			     .cap_idx = s->env_cap,
			     .nr = s->env_nr,
			     .overutilised = over_seen(s),
			     .asymmetric = s->asymmetric,
			     .clc = s->clc,
			     .util_est = s->env_ue};
	struct rp_wakee p = {0};
	int cpu;

	if (t->pin >= 0)
		return t->pin;
	if (t->rt) {
		/* not the CFS policies': where it ran (mapped), else prev */
		cpu = map_cpu(s, a->cpu);
		return cpu >= 0 ? cpu : t->cpu >= 0 ? t->cpu : 0;
	}
	/* util_avg is up to date: see sim_advance() */
	for (int i = 0; i < s->ncpus; i++) {
		const struct sim_cpu *c = &s->cpus[i];

		s->env_util[i] = c->pelt.util_avg;
		s->env_cap[i] = c->cap_idx;
		s->env_nr[i] = nr_running(s, i);
		s->env_ue[i] = c->curr >= 0 ? s->tasks[c->curr].ue_ewma : 0;
		for (int k = 0; k < c->nrq; k++)
			s->env_ue[i] += s->tasks[c->rq[k]].ue_ewma;
	}
	p.util = task_util(s, t);
	p.util_est = t->ue_ewma;
	if (t->pelt_cpu >= 0)
		s->env_util[t->pelt_cpu] =
			s->env_util[t->pelt_cpu] > p.util
				? s->env_util[t->pelt_cpu] - p.util
				: 0;
	p.wakeups =
		(uint32_t)(t->wake_sum > UINT32_MAX ? UINT32_MAX : t->wake_sum);
	p.rec_cpu = map_cpu(s, a->cpu);
	p.prev_cpu = t->cpu >= 0 ? t->cpu : p.rec_cpu >= 0 ? p.rec_cpu : 0;
	p.fork = a->flags & RP_ACT_FORK;
	/* a new task: the policy's fork placement, if it has one */
	cpu = p.fork && s->policy->select_fork
		      ? s->policy->select_fork(&env, &p)
		      : s->policy->select_cpu(&env, &p);
	if (cpu < 0 || cpu >= s->ncpus)
		cpu = p.prev_cpu;
	if (t->upin && !rp_pin_allows(t->upin, cpu)) {
		/* outside its --pin set: its allowed CPU with the fewest
		 * tasks, then the lowest util */
		int best = -1;

		for (int q = 0; q < s->ncpus; q++) {
			int i = s->corder[q];

			if (rp_pin_allows(t->upin, i) &&
			    (best < 0 || s->env_nr[i] < s->env_nr[best] ||
			     (s->env_nr[i] == s->env_nr[best] &&
			      s->env_util[i] < s->env_util[best])))
				best = i;
		}
		cpu = best >= 0 ? best : cpu;
	}
	return cpu;
}

/* Where the task goes: the policy's choice, never an offline CPU (the
 * kernel breaks a pinned task's affinity too). */
static int place(struct sim *s, int task)
{
	int cpu = place_policy(s, task);

	return is_off(s, cpu) ? sim_online_cpu(s, task, cpu) : cpu;
}

void sim_arrive(struct sim *s, const struct sim_arrival *ar)
{
	struct sim_task *t = &s->tasks[ar->task];
	const struct rp_act *a = &t->w->acts[ar->act];
	struct ea_event *ev;
	int cpu;

	t->next = ar->act + 1;
	if (!(a->flags & (RP_ACT_START | RP_ACT_INFERRED)))
		track_wakeup(s, t);
	if (t->runnable)
		return; /* still busy with an earlier one: queued behind it */
	sim_start_act(s, t, ar->act);
	cpu = place(s, ar->task);
	sim_enqueue(s, ar->task, cpu);
	sim_exit_wake(s, ar->task, cpu);
	ev = sim_emit(s, cpu, EA_EV_WAKEUP, a->seq_in, e_task(s, cpu));
	if (ev) {
		ev->wake.pid = t->w->pid;
		ev->wake.prio = t->w->prio;
		ev->wake.target_cpu = cpu;
		memcpy(ev->wake.comm, t->w->comm, EA_COMM_LEN);
	}
}
