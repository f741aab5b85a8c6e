// SPDX-License-Identifier: GPL-2.0-only
/*
 * Wakeup placement in the simulation: an arrival's activation starts, the
 * policy chooses its CPU through the policy interface (policy.h) from what
 * the CPUs look like without the task (struct rp_env) and who woke it
 * (struct rp_wakee: the waker's CPU now, sync, the wakee flips, the
 * task's recent CPU), then the simulator's own rules apply (pins, RT
 * tasks, offline CPUs); a new task's util starts as
 * post_init_entity_util_avg() there (policies with post_init_util); the
 * task is queued there and its wakeup emitted.
 *
 * The waker's CPU (docs/replay.md "The waker"): for a task waker, the CPU
 * that task has in the simulation now (it ran the wakeup); for an
 * interrupt on the CPU the task last ran on in the recording (its own
 * timer, as a nanosleep's), the task's previous CPU in the simulation;
 * for another interrupt, the recorded CPU (mapped); for a fork, the
 * parent's CPU.
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

/* The CPU the wakeup of t's activation a (waker k) runs on, -1. */
static int waker_cpu(const struct sim *s, const struct sim_task *t,
		     const struct rp_waker *k)
{
	int cpu = map_cpu(s, k->cpu);

	switch (k->kind) {
	case RP_WAKER_TASK:
		if (k->task >= 0 && s->tasks[k->task].cpu >= 0)
			return s->tasks[k->task].cpu;
		return cpu;
	case RP_WAKER_IRQ_PREV:
		return t->cpu >= 0 ? t->cpu : cpu;
	case RP_WAKER_IRQ:
		return cpu;
	default:
		return -1;
	}
}

/*
 * record_wakee(): the waker (current: the waking task, or whatever runs
 * on the CPU an interrupt woke it from, or that CPU's idle task) flips
 * to a new wakee; its count halves once a second. Its count after.
 */
static uint32_t record_wakee(struct sim *s, int task, const struct rp_waker *k,
			     int cpu)
{
	uint32_t *flips, *last;
	uint64_t *ts;
	int cur = k->kind == RP_WAKER_TASK ? k->task
		  : cpu >= 0		     ? s->cpus[cpu].curr
					     : -1;

	if (cur >= 0) {
		flips = &s->tasks[cur].wakee_flips;
		last = &s->tasks[cur].last_wakee;
		ts = &s->tasks[cur].flip_decay_ts;
	} else if (cpu >= 0) {
		flips = &s->cpus[cpu].idle_flips;
		last = &s->cpus[cpu].idle_last_wakee;
		ts = &s->cpus[cpu].idle_flip_ts;
	} else {
		return 0;
	}
	if (s->now > *ts + 1000000000ull) {
		*flips >>= 1;
		*ts = s->now;
	}
	if (*last != (uint32_t)task + 1) {
		*last = (uint32_t)task + 1;
		(*flips)++;
	}
	return *flips;
}

/*
 * post_init_entity_util_avg() on cpu (its cfs_rq's util and load as they
 * are, before the task joins): half the CPU's spare capacity, at most the
 * CPU's util x the task's weight / (its load + 1); none when no capacity
 * is spare. The task's util signal starts there.
 */
static void post_init_util(struct sim *s, int task, int cpu)
{
	struct sim_task *t = &s->tasks[task];
	struct sim_cpu *c = &s->cpus[cpu];
	uint32_t util_rq, load_rq;
	int64_t cap, util = 0;

	sim_sync_cpu(s, cpu);
	util_rq = c->pelt.util_avg;
	load_rq = sim_load_cpu(s, cpu);
	cap = ((int64_t)c->cap_orig - util_rq) / 2;
	if (cap > 0) {
		util = util_rq ? (int64_t)util_rq * t->weight / (load_rq + 1)
			       : cap;
		if (util > cap)
			util = cap;
	}
	pelt_update(&t->pelt, s->now, false, 0); /* starts it */
	t->pelt.util_avg = (uint32_t)util;
	t->pelt.util_sum = (uint64_t)util * (EA_PELT_LOAD_AVG_MAX - 1024 +
					     t->pelt.period_contrib);
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
			     .util_est = s->policy->reads_util_est ? s->env_ue
								   : NULL,
			     .topo = s->topo,
			     /* NULL for a policy that reads neither */
			     .load = s->policy->reads_load ? s->env_load : NULL,
			     .runnable = s->policy->reads_load ? s->env_runnable
							       : NULL,
			     .idle_state = s->policy->reads_idle
						   ? s->env_idle_state
						   : NULL,
			     .idle_stamp = s->policy->reads_idle
						   ? s->env_idle_stamp
						   : NULL,
			     .nr_idle_scan = s->nr_idle_scan};
	struct rp_wakee p = {0};
	const struct rp_waker wk = rp_task_waker(t->w, t->cur), *k = &wk;
	const struct sim_task *tasks = s->tasks;
	bool reads_ue = s->policy->reads_util_est,
	     reads_idle = s->policy->reads_idle;
	uint32_t *env_util = s->env_util, *env_ue = s->env_ue;
	int *env_cap = s->env_cap, *env_nr = s->env_nr,
	    *env_idle_state = s->env_idle_state;
	uint64_t *env_idle_stamp = s->env_idle_stamp;
	int cpu;

	if (t->pin >= 0)
		return t->pin;
	if (t->rt) {
		/* not the CFS policies': where it ran (mapped), else prev */
		cpu = map_cpu(s, a->cpu);
		return cpu >= 0 ? cpu : t->cpu >= 0 ? t->cpu : 0;
	}
	/* util_avg is up to date: see sim_advance(); one pass over the CPUs
	 * for what the policy reads */
	for (int i = 0; i < s->ncpus; i++) {
		const struct sim_cpu *c = &s->cpus[i];

		env_util[i] = c->pelt.util_avg;
		env_cap[i] = c->cap_idx;
		env_nr[i] = (c->curr >= 0) + c->nrq;
		if (reads_ue) {
			uint32_t ue = c->curr >= 0 ? tasks[c->curr].ue_ewma : 0;

			for (int q = 0; q < c->nrq; q++)
				ue += tasks[c->rq[q]].ue_ewma;
			env_ue[i] = ue;
		}
		if (reads_idle) {
			env_idle_state[i] = c->e_idle ? c->e_state : -1;
			env_idle_stamp[i] = c->idle_since;
		}
	}
	if (s->policy->reads_load)
		sim_load_cpus(s);
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
	p.waker_cpu = waker_cpu(s, t, k);
	p.load = s->policy->reads_load ? sim_load_task(s, task) : 0;
	p.load_cpu = t->load_cpu;
	p.sync = k->sync && k->kind == RP_WAKER_TASK;
	if (k->kind == RP_WAKER_TASK && k->task >= 0) {
		p.waker_kthread = s->tasks[k->task].kthread;
		if (s->policy->reads_load)
			p.waker_load = sim_load_task(s, k->task);
	}
	if (p.fork && s->policy->select_fork) {
		/* wake_up_new_task(): prev and recent_used_cpu are the
		 * parent's CPU (sched_fork()) */
		if (p.waker_cpu >= 0)
			p.prev_cpu = p.waker_cpu;
		t->recent_cpu = p.prev_cpu;
		cpu = s->policy->select_fork(&env, &p);
	} else if (p.fork) {
		cpu = s->policy->select_cpu(&env, &p);
	} else {
		p.waker_flips = record_wakee(s, task, k, p.waker_cpu);
		p.wakee_flips = t->wakee_flips;
		p.recent_used_cpu = &t->recent_cpu;
		cpu = s->policy->select_cpu(&env, &p);
	}
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

	s->placements++;
	return is_off(s, cpu) ? sim_online_cpu(s, task, cpu) : cpu;
}

void sim_arrive(struct sim *s, const struct sim_arrival *ar)
{
	struct sim_task *t = &s->tasks[ar->task];
	const struct rp_act a_ = *sim_task_act(t, ar->act), *a = &a_;
	struct sim_out *o;
	int cpu;

	t->next = ar->act + 1;
	if (!(a->flags & (RP_ACT_START | RP_ACT_INFERRED)))
		track_wakeup(s, t);
	if (t->runnable)
		return; /* still busy with an earlier one: queued behind it */
	sim_start_act(s, t, ar->act);
	cpu = place(s, ar->task);
	if ((a->flags & RP_ACT_FORK) && !t->rt) {
		/* a new task: half a slice (PLACE_DEADLINE_INITIAL), its
		 * load full, its util post_init_entity_util_avg()'s */
		t->initial = true;
		sim_load_new_task(s, ar->task);
		if (s->policy->post_init_util)
			post_init_util(s, ar->task, cpu);
	}
	sim_enqueue(s, ar->task, cpu);
	sim_exit_wake(s, ar->task, cpu);
	o = sim_emit(s, cpu, EA_EV_WAKEUP, a->seq_in, e_task(s, cpu));
	if (o) {
		o->wake.task = (int32_t)ar->task; /* its pid, prio, comm */
		o->wake.target_cpu = cpu;
	}
}
