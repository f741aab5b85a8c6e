/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The policy interface: what a placement policy sees at a wakeup (struct
 * rp_env, struct rp_wakee), what it is (struct rp_policy: its placement
 * and its load balancing rules), and the table of them (policy.c). One
 * file per policy (policy-*.c); mainline's placement mechanisms apart, a
 * file each: wake_wide()/wake_affine() (wake-affine.c),
 * select_idle_capacity() (select-idle-capacity.c), select_idle_sibling()
 * (select-idle-sibling.c), the idlest-group search of fork placement
 * (find-idlest.c). Policies use this and the platform layer only.
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
	/* mainline's domains (topology.c); NULL: each cluster an LLC is not
	 * known, the policies needing it fall back to prev */
	const struct rp_topo *topo;
	/* cpu_load(): each CPU's cfs_rq load_avg (PELT of runnable time x
	 * nice weight, blocked tasks' decaying), the waking task's blocked
	 * load included where it is attached (rp_wakee.load_cpu); NULL: util
	 * stands for it */
	const uint32_t *load;
	/* cpu_runnable(): runnable_avg (PELT of runnable time x 1024 per
	 * runnable task); NULL: util stands for it */
	const uint32_t *runnable;
	/* an idle CPU's idle state (cpuidle index: a deeper one exits
	 * later), -1 busy; NULL: not known */
	const int *idle_state;
	/* rq->idle_stamp: when each CPU last went idle, ns; NULL: not known */
	const uint64_t *idle_stamp;
	/* SIS_UTIL: per LLC (rp_topo.llc), sd_llc_shared->nr_idle_scan as the
	 * last periodic balance set it; NULL: no limit */
	const int *nr_idle_scan;
};

/* Why a policy chose its CPU, for --shadow (rp_wakee.why). */
struct rp_why {
	/* the choice came from comparing candidates (loads, energies, an
	 * idle scan, the idlest-group search), not from a first check that
	 * answered at once (target idle, prev idle, ...) */
	bool compared;
	const char *affine; /* wake_affine()'s branch, NULL: not run */
	const char *path; /* the branch that answered, e.g. "sis:prev" */
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
		      not the wakeup path; then prev_cpu is the
		      parent's CPU where select_fork is called */
	/* this_cpu: the CPU try_to_wake_up() ran on (the waker's, or the
	 * forking parent's); -1: not known (no wake_affine(): prev) */
	int waker_cpu;
	bool sync; /* WF_SYNC as approximated (docs/replay.md "The waker") */
	/* the waker is a per-CPU kthread in task context
	 * (is_per_cpu_kthread(current) && in_task()) */
	bool waker_kthread;
	uint32_t load; /* task_h_load(): its load_avg (flat hierarchy) */
	int load_cpu; /* the CPU its load and util are attached to, -1 */
	uint32_t waker_load; /* task_h_load(current), for a sync wakeup */
	/* record_wakee()'s counts, after this wakeup was recorded:
	 * current->wakee_flips and p->wakee_flips (wake_wide()) */
	uint32_t waker_flips, wakee_flips;
	/* p->recent_used_cpu, which select_idle_sibling() reads and sets to
	 * prev; NULL: not kept (never used) */
	int *recent_used_cpu;
	struct rp_why *why; /* NULL: not asked */
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
	 * mainline sched_balance_find_dst_cpu()), p->prev_cpu being the
	 * parent's CPU; NULL: select_cpu places it too, p->prev_cpu the
	 * CPU the recording ran it on. */
	int (*select_fork)(const struct rp_env *e, const struct rp_wakee *p);
	/* A new task's util starts as post_init_entity_util_avg() on the
	 * CPU chosen (mainline since 4.x); false: at 0. */
	bool post_init_util;
	/* It reads the PELT load and runnable signals (rp_env.load and
	 * .runnable, rp_wakee.load and .waker_load; post_init_util reads
	 * the CPU's load too); false: the simulator keeps none for it and
	 * passes load and runnable as NULL. */
	bool reads_load;
	/* It reads the CPUs' util_est sums (rp_env.util_est, through
	 * rp_cpu_util() too) and their idle states and stamps
	 * (rp_env.idle_state, .idle_stamp): false, they are not gathered
	 * and passed as NULL. */
	bool reads_util_est, reads_idle;
	/* The policy's own estimate of placing p on cpu, in the model's
	 * power_unit per window, for --shadow's decision rows; false: none
	 * for that CPU. NULL: the policy makes none. */
	bool (*cpu_energy)(const struct rp_env *e, const struct rp_wakee *p,
			   int cpu, double *v);
};

/*
 * Where mainline's mechanisms are (docs/replay.md "Layout of src/replay"):
 * select_task_rq_fair() is `cfs` (policy-cfs.c); wake_wide() and
 * wake_affine() in wake-affine.c; select_idle_sibling() in
 * select-idle-sibling.c; select_idle_capacity() in select-idle-capacity.c;
 * fork placement through each policy's select_fork, mainline's
 * idlest-group search in find-idlest.c; a new task's util
 * (post_init_entity_util_avg()) where sim-wake.c places a fork (policies
 * with post_init_util); EEVDF and its wakeup preemption in sim-eevdf.c.
 * Still to come: an ensemble of perturbed runs (--ensemble): ensemble.c,
 * above replay.c, calling ea_replay_run() once per perturbation.
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

/* cpu_util(cpu, NULL, -1, 0): max(util_avg, util_est) capped at the
 * CPU's capacity (the waking task's already out, as cpu_util_without()). */
static inline uint32_t rp_cpu_util(const struct rp_env *e, int cpu)
{
	uint32_t u = e->util[cpu], cap = rp_cap_orig(e, cpu);

	if (e->util_est && e->util_est[cpu] > u)
		u = e->util_est[cpu];
	return u < cap ? u : cap;
}

/* cpu_load(): the CPU's load_avg (util where there is none). */
static inline uint32_t rp_cpu_load(const struct rp_env *e, int cpu)
{
	return e->load ? e->load[cpu] : e->util[cpu];
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
/* wake-affine.c: wake_wide(): the waker and the wakee each switch
 * between many partners (p's flips, the LLC's size of the waker's CPU). */
bool rp_wake_wide(const struct rp_env *e, const struct rp_wakee *p);
/* wake-affine.c: wake_affine(): this_cpu (the waker's) or prev_cpu, by
 * wake_affine_idle() then wake_affine_weight() (loads, 117% domain). */
int rp_wake_affine(const struct rp_env *e, const struct rp_wakee *p,
		   int this_cpu, int prev_cpu);
/* select-idle-capacity.c: select_idle_capacity() over the whole platform
 * (the asymmetric domain) from target, wrapping: the first idle CPU where
 * the task fits, else the idle CPU of highest capacity; -1: none idle. */
int rp_select_idle_capacity(const struct rp_env *e, const struct rp_wakee *p,
			    int target);
/* select-idle-sibling.c: mainline select_idle_sibling(p, prev, target):
 * target idle, prev idle (same LLC), the per-CPU kthread's stacking,
 * recent_used_cpu idle, then select_idle_capacity() (asymmetric) or
 * select_idle_cpu() (the LLC, from target + 1, at most nr_idle_scan
 * CPUs), else target. */
int rp_select_idle_sibling(const struct rp_env *e, const struct rp_wakee *p,
			   int prev, int target);
/* find-idlest.c: sched_balance_find_dst_cpu() from this_cpu down the
 * domains (PKG: LLCs; MC: the LLC's CPUs): fork placement. */
int rp_find_idlest_cpu(const struct rp_env *e, const struct rp_wakee *p,
		       int this_cpu);
/* The path a policy's answer came from, for --shadow (p->why): compared
 * adds up over the steps of one decision. */
static inline void rp_why_set(const struct rp_wakee *p, bool compared,
			      const char *path)
{
	if (p->why) {
		p->why->compared |= compared;
		p->why->path = path;
	}
}
/* policy-feec.c: mainline compute_energy() for a perf domain, with the
 * task on dst_cpu (-1: without it). */
unsigned long long rp_feec_compute_energy(const struct rp_env *e, int cl,
					  uint32_t task_util, int dst_cpu);

#endif
