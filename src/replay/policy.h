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
	bool overutilised;	/* some CPU above 80% of its capacity */
	bool asymmetric;	/* rp_asymmetric(model) */
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
	uint32_t util;		/* task util_avg, decayed to now */
	uint32_t util_est;	/* task_util_est() at its last dequeue
				   (max(ewma, enqueued)); 0: none */
	uint32_t wakeups;	/* RFC wakeup_avg_sum (1024 per wakeup, decayed) */
	int prev_cpu;		/* last CPU, or the recorded one at first */
	int rec_cpu;		/* the CPU the recording used (mapped) */
	bool fork;		/* a new task's first run (sched_wakeup_new):
				   mainline places it with find_idlest_cpu(),
				   not the wakeup path */
};

/*
 * A policy's load balancing rules (sim.c "Load balancing"). All false is
 * plain mainline CFS: idle and newidle pulls, periodic balance at the
 * tick, misfit migration of running tasks on asymmetric platforms, active
 * balance.
 */
struct rp_balance {
	bool off;		/* none at all: tasks stay where placed */
	bool over_gated;	/* only while overutilised (mainline EAS:
				   find_busiest_group() bails out otherwise) */
	bool sticky_over;	/* overutilised, once set, holds until the
				   next periodic balance finds nothing over
				   (mainline rd->overutilized); policies see
				   that one */
	bool no_misfit;		/* no misfit migration (before 4.20) */
};

struct rp_policy {
	const char *name;
	const char *summary;
	struct rp_balance balance;
	bool follow_segments;	/* move as the recording did (`recorded`) */
	int (*select_cpu)(const struct rp_env *e, const struct rp_wakee *p);
};

extern const struct rp_policy rp_policy_recorded, rp_policy_eas_rfc,
	rp_policy_feec, rp_policy_cfs, rp_policy_pack, rp_policy_spread;
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

/* policy-eas-rfc.c: the RFC's energy_diff_util(), in its power units per
 * PELT window; LONG_MAX when the cluster cannot take the utilisation. */
long rp_energy_diff_util(const struct rp_env *e, int cpu, long util,
			 long wakeups);
/* select-idle-sibling.c: mainline select_idle_sibling() from prev_cpu, wake_affine() aside: prev
 * if idle (and the task fits it on an asymmetric platform); else, on an
 * asymmetric platform, select_idle_capacity() (the first idle CPU from
 * prev, wrapping, where the task fits, else the idle CPU of highest
 * capacity); else the first idle CPU of prev's cluster; else prev. */
int rp_select_idle_sibling(const struct rp_env *e, const struct rp_wakee *p);
/* policy-feec.c: mainline compute_energy() for a perf domain, with the
 * task on dst_cpu (-1: without it). */
unsigned long long rp_feec_compute_energy(const struct rp_env *e, int cl,
					  uint32_t task_util, int dst_cpu);

#endif
