/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The policy interface: what a placement policy sees at a wakeup (struct
 * rp_env, struct rp_wakee), what it is (struct rp_policy: its placement
 * and its load balancing rules), and the table of them (policy.c). One
 * file per policy (policy-*.c); mainline's select_idle_sibling() apart
 * (select-idle-sibling.c). Policies use this and the platform layer only.
 */
#ifndef EATRACE_REPLAY_POLICY_H
#define EATRACE_REPLAY_POLICY_H

#include <stdbool.h>
#include <stdint.h>

#include "replay/platform.h"

/*
 * What a policy sees at a wakeup: every CPU's state without the waking
 * task. util: simulated PELT util_avg in capacity units (the waking task's
 * blocked contribution removed from its previous CPU); cap_idx: the OPP its
 * frequency domain runs; nr: tasks running or queued; idle: nr == 0.
 */
struct rp_env {
	const struct ea_model *model;
	int ncpus;
	const uint32_t *util;
	const int *cap_idx;
	const int *nr;
	bool overutilised; /* some CPU above 80% of its capacity */
	bool asymmetric; /* rp_asymmetric(model) */
	/* rp_cl_cache_new(model), one per cluster; NULL: computed each time */
	struct rp_cl_cache *clc;
	/* feec: the energy model uses every OPP (no
	 * EM_PERF_DOMAIN_SKIP_INEFFICIENCIES); default: inefficient ones
	 * are skipped, as mainline's cpufreq-registered models do */
	bool em_all_opps;
	/* feec: each CPU's util_est (sum over its runnable tasks'), NULL:
	 * none; cpu_util() is max(util, util_est) */
	const uint32_t *util_est;
};

struct rp_wakee {
	uint32_t util; /* task util_avg, decayed to now */
	uint32_t util_est; /* task_util_est() at its last dequeue
			      (max(ewma, enqueued)); 0: none */
	uint32_t wakeups; /* RFC wakeup_avg_sum (1024 per wakeup, decayed) */
	int prev_cpu; /* last CPU, or the recorded one at first */
	int rec_cpu; /* the CPU the recording used (mapped) */
	bool fork; /* a new task's first run (sched_wakeup_new):
		      mainline places it with find_idlest_cpu(),
		      not the wakeup path */
};

/*
 * A policy's load balancing rules (sim-balance.c; docs/replay.md "Load
 * balancing"). All false is plain mainline CFS: idle and newidle pulls,
 * periodic balance at the tick, misfit migration of running tasks on asymmetric
 * platforms, active balance.
 */
struct rp_balance {
	bool off; /* none at all: tasks stay where placed */
	bool over_gated; /* only while overutilised (mainline EAS:
			    find_busiest_group() bails out otherwise) */
	bool sticky_over; /* overutilised, once set, holds until the
			     next periodic balance finds nothing over
			     (mainline rd->overutilized); policies see
			     that one */
	bool no_misfit; /* no misfit migration (before 4.20) */
};

/*
 * A policy: one file (policy-*.c) defining one of these, plus one line in
 * policy.c's table. The simulator (sim-wake.c) and --shadow (shadow.c)
 * call it through these members only.
 */
struct rp_policy {
	const char *name;
	const char *summary;
	struct rp_balance balance;
	bool follow_segments; /* move as the recording did (`recorded`) */
	/* A woken task's CPU (select_task_rq() at a wakeup). */
	int (*select_cpu)(const struct rp_env *e, const struct rp_wakee *p);
	/* A new task's first CPU (p->fork; select_task_rq() at fork, in
	 * mainline find_idlest_cpu()); NULL: select_cpu places it too, as
	 * with every policy so far. */
	int (*select_fork)(const struct rp_env *e, const struct rp_wakee *p);
	/* The policy's own estimate of placing p on cpu, in the model's
	 * power_unit per window, for --shadow's decision rows; false: none
	 * for that CPU. NULL: the policy makes none. */
	bool (*cpu_energy)(const struct rp_env *e, const struct rp_wakee *p,
			   int cpu, double *v);
};

/*
 * Where the placements not modelled yet belong, each a file of its own:
 *  - a `cfs` that is mainline's select_task_rq_fair(): its policy file
 *    (policy-cfs.c's successor), wake_affine() (idle and weight variants)
 *    in wake-affine.c, the rest of select_idle_sibling() (recent_used_cpu,
 *    select_idle_cpu()'s idle core then idle CPU scan in the LLC,
 *    select_idle_capacity()) in select-idle-sibling.c, which feec's
 *    fallback uses already; the LLC from the model, in platform.h;
 *  - fork and exec placement: each policy's select_fork above, mainline's
 *    idlest-group search (find_idlest_group(), find_idlest_cpu()) in
 *    find-idlest.c, the RFC's fork rule in policy-eas-rfc.c; a new task's
 *    util (post_init_entity_util_avg()) where sim-wake.c places a fork;
 *  - EEVDF wakeup preemption (an earlier deadline preempts): sim-rq.c,
 *    sim_enqueue();
 *  - an ensemble of perturbed runs (--ensemble): ensemble.c, above
 *    replay.c, calling ea_replay_run() once per perturbation.
 */

extern const struct rp_policy rp_policy_recorded, rp_policy_eas_rfc,
	rp_policy_feec, rp_policy_cfs, rp_policy_pack, rp_policy_spread;
/* policy.c: the policy of that name, NULL. */
const struct rp_policy *rp_policy_get(const char *name);

/* Helpers shared by policies, inline: each runs per CPU per decision. */
static inline const struct ea_cluster *rp_cluster(const struct rp_env *e,
						  int cpu)
{
	return &e->model->clusters[e->model->cpu_cluster[cpu]];
}

/* Capacity at the top OPP (arch_scale_cpu_capacity). */
static inline uint32_t rp_cap_orig(const struct rp_env *e, int cpu)
{
	const struct ea_cluster *cl = rp_cluster(e, cpu);

	return cl->caps[cl->ncaps - 1].cap;
}

/* Capacity at the current OPP. */
static inline uint32_t rp_cap_curr(const struct rp_env *e, int cpu)
{
	return rp_cluster(e, cpu)->caps[e->cap_idx[cpu]].cap;
}

static inline bool rp_idle(const struct rp_env *e, int cpu)
{
	return e->nr[cpu] == 0;
}

/* task_util_est(): max(util_avg, its util_est) */
static inline uint32_t rp_task_util_est(const struct rp_wakee *p)
{
	return p->util > p->util_est ? p->util : p->util_est;
}

/* Shared by several policies (select-idle-sibling.c), or a policy's own
 * figure the unit tests check (policy-eas-rfc.c, policy-feec.c). */

/* policy-eas-rfc.c: the RFC's energy_diff_util(), in its power units per
 * PELT window; LONG_MAX when the cluster cannot take the utilisation. */
long rp_energy_diff_util(const struct rp_env *e, int cpu, long util,
			 long wakeups);
/* select-idle-sibling.c: mainline select_idle_sibling() from prev_cpu,
 * wake_affine() aside: prev if idle (and the task fits it on an
 * asymmetric platform); else, on an asymmetric platform,
 * select_idle_capacity() (the first idle CPU from prev, wrapping, where
 * the task fits, else the idle CPU of highest capacity); else the first
 * idle CPU of prev's cluster; else prev. */
int rp_select_idle_sibling(const struct rp_env *e, const struct rp_wakee *p);
/* policy-feec.c: mainline compute_energy() for a perf domain, with the
 * task on dst_cpu (-1: without it). */
unsigned long long rp_feec_compute_energy(const struct rp_env *e, int cl,
					  uint32_t task_util, int dst_cpu);

#endif
