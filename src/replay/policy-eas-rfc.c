// SPDX-License-Identifier: GPL-2.0-only
/*
 * `eas-rfc`: the 2014 RFC's energy-aware wakeup placement (seeds 007-011),
 * rewritten over the model's two levels, the CPU (whose cores share their
 * cluster's cap states when it is a frequency domain) and the cluster:
 *
 *  - energy_diff_util(cpu, util, wakeups): energy after minus energy before
 *    adding util to cpu, per level: busy power x utilisation / capacity at
 *    the OPP the utilisation needs (never below the current one), idle power
 *    x unused capacity / capacity, plus wakeup energy x the task's wakeup
 *    rate x the unused fraction (the chance a wakeup finds the level idle);
 *  - find_target_group(): at the top level, probe the least loaded CPU of
 *    each cluster; move to a remote cluster only if its probe costs less
 *    than the local one; then the same among the CPUs of the cluster;
 *  - find_target_cpu(): the CPU of the chosen group with the least energy;
 *  - the wakeup path of 3.15's select_task_rq_fair(): the balance path
 *    (find_target_group() from the top domain down, the local group being
 *    the waking CPU's, taken to be prev_cpu), and that path only: the RFC's
 *    last patch ("Disable wake_affine to broaden the scope of wakeup target
 *    cpus", cover letter) keeps wakeups off the affine path, so the
 *    energy-aware select_idle_sibling() (seed 010) that only the affine
 *    path calls is not run, nor anything after find_target_cpu();
 *  - the current state is the RFC's curr_capacity rule (seed 006):
 *    freq x 1024 / max freq, matched against the model's capacities
 *    (rp_rfc_curr_idx()): on tc2's A15 at 600 MHz, 512, so the 500 MHz
 *    state (cap 840).
 *
 * Deviations, each because the RFC's form cannot apply here: the RFC's
 * weighted_cpuload() (load) is the simulated PELT util; its single idle
 * power per group is the cluster's deepest idle state (the power-down state
 * the RFC's tables give); unsigned "unused" utilisation that would wrap
 * below zero is clamped at zero.
 */
#include <limits.h>
#include <math.h>

#include "replay/policy.h"

static long lpow(double p)
{
	return lround(p);
}

static long pos(long v)
{
	return v > 0 ? v : 0;
}

/*
 * cached: w is a cluster's rp_cl_cache figures, whose tables are all there
 * (a constant where diff_util() is inlined: the tests of NULL go away).
 */
static inline long core_pow(const struct rp_rfc_pow *w,
			    const struct ea_cluster *cl, int k, bool cached)
{
	return cached || w->core ? w->core[k] : lpow(cl->caps[k].core_power);
}

static inline long cluster_pow(const struct rp_rfc_pow *w,
			       const struct ea_cluster *cl, int k, bool cached)
{
	return cached || w->cluster ? w->cluster[k]
				    : lpow(cl->caps[k].cluster_power);
}

/* Cluster ci's figures the energy difference needs: the cache's, or into
 * *tmp from the model. */
static const struct rp_rfc_pow *get_pow(const struct rp_env *e, int ci,
					struct rp_rfc_pow *tmp)
{
	const struct ea_cluster *cl = &e->model->clusters[ci];
	const struct ea_idle_state *idle = &cl->idles[cl->nidles - 1];

	if (e->clc)
		return &e->clc[ci].rfc;
	*tmp = (struct rp_rfc_pow){NULL,
				   NULL,
				   lpow(idle->core_power),
				   lpow(idle->cluster_power),
				   rp_rfc_wakeup_energy(idle->core_wakeup),
				   rp_rfc_wakeup_energy(idle->cluster_wakeup),
				   NULL,
				   NULL};
	return tmp;
}

/* n / the capacity of OPP k (the same quotient, without a divide when
 * cached: diff_util() does up to ten of them). */
static inline long div_cap(const struct rp_rfc_pow *w,
			   const struct ea_cluster *cl, int k, long n,
			   bool cached)
{
	return cached || w->div ? rp_div(n, &w->div[k], cl->caps[k].cap)
				: n / (long)cl->caps[k].cap;
}

/*
 * Cluster ci's CPUs in one pass: their util summed, the highest (0 at
 * least), and the least loaded CPU (the group's probe, first on ties; -1
 * when none is simulated).
 */
static void cluster_scan(const struct rp_env *e, int ci, struct rp_cl_cache *c)
{
	const struct ea_cluster *cl = &e->model->clusters[ci];
	long sum = 0, max = 0, best_u = 0;
	int best = -1;

	for (int i = 0; i < cl->ncpus; i++) {
		int cpu = cl->cpus[i];
		long u;

		if (cpu >= e->ncpus)
			continue;
		u = e->util[cpu];
		sum += u;
		if (u > max)
			max = u;
		if (best < 0 || u < best_u) {
			best = cpu;
			best_u = u;
		}
	}
	c->sum = sum;
	c->max = max;
	c->probe = best;
}

static void cluster_util(const struct rp_env *e, int ci, long *sum, long *max)
{
	struct rp_cl_cache c;

	cluster_scan(e, ci, &c);
	*sum = c.sum;
	*max = c.max;
}

/*
 * energy_diff_util() of cpu in cluster ci whose CPUs' util adds up to sum,
 * the highest being max_bef: adding util >= 0 to cpu makes the highest
 * max(max_bef, util[cpu] + util).
 */
static inline __attribute__((always_inline)) long
diff_util(const struct rp_env *e, int ci, const struct rp_rfc_pow *w, int cpu,
	  long util, long wakeups, long sum, long max_bef, bool cached)
{
	const struct ea_cluster *cl = &e->model->clusters[ci];
	long cpu_util = e->util[cpu], diff = 0;
	long aff_bef, aff_aft, unused_bef, unused_aft, max_aft;
	long cap_c, cap_n;
	int curr, new;

	/* cpu_curr_capacity -> curr; the state the new max utilisation needs */
	curr = cached || w->first ? w->first[e->cap_idx[cpu]]
				  : rp_rfc_curr_idx(cl, e->cap_idx[cpu]);
	if ((long)cl->caps[curr].cap < cpu_util + util) {
		/* capacities ascend: none up to curr covers it */
		new = rp_rfc_match_cap(cl, cpu_util + util, curr + 1);
		if (new >= cl->ncaps)
			return LONG_MAX; /* can't handle the additional load */
	} else {
		new = curr;
	}
	cap_c = cl->caps[curr].cap;
	cap_n = cl->caps[new].cap;
	max_aft = cpu_util + util > max_bef ? cpu_util + util : max_bef;
	if (util < 0) {
		/* cpu's own util may no longer be the highest: look again */
		max_aft = 0;
		for (int i = 0; i < cl->ncpus; i++) {
			int c = cl->cpus[i];
			long u;

			if (c >= e->ncpus)
				continue;
			u = e->util[c] + (c == cpu ? util : 0);
			if (u > max_aft)
				max_aft = u;
		}
	}

	/* Lowest level: the CPU. Shared cap states: all cores' busy energy. */
	aff_bef = cl->freq_domain ? sum : cpu_util;
	aff_aft = aff_bef + util;
	unused_bef = pos(cap_c - cpu_util);
	unused_aft = pos(cap_n - cpu_util - util);
	if (aff_bef == aff_aft && curr == new &&unused_aft < 100)
		return diff;
	diff -= div_cap(w, cl, curr, aff_bef * core_pow(w, cl, curr, cached),
			cached);
	diff -= div_cap(w, cl, curr, unused_bef * w->idle_core, cached);
	diff += div_cap(w, cl, new, aff_aft * core_pow(w, cl, new, cached),
			cached);
	diff += div_cap(w, cl, new, unused_aft * w->idle_core, cached);
	diff += div_cap(w, cl, new, (wakeups * w->wake_core >> 10) * unused_aft,
			cached);

	/* Higher level: the cluster, by its busiest CPU. */
	aff_bef = max_bef;
	aff_aft = max_aft;
	unused_bef = pos(cap_c - aff_bef);
	unused_aft = pos(cap_n - aff_aft);
	if (aff_bef == aff_aft && curr == new &&unused_aft < 100)
		return diff;
	diff -= div_cap(w, cl, curr, aff_bef * cluster_pow(w, cl, curr, cached),
			cached);
	diff -= div_cap(w, cl, curr, unused_bef * w->idle_cluster, cached);
	diff += div_cap(w, cl, new, aff_aft * cluster_pow(w, cl, new, cached),
			cached);
	diff += div_cap(w, cl, new, unused_aft * w->idle_cluster, cached);
	diff += div_cap(w, cl, new,
			(wakeups * w->wake_cluster >> 10) * unused_aft, cached);
	return diff;
}

long rp_energy_diff_util(const struct rp_env *e, int cpu, long util,
			 long wakeups)
{
	int ci = e->model->cpu_cluster[cpu];
	struct rp_rfc_pow tmp;
	long sum, max;

	cluster_util(e, ci, &sum, &max);
	return diff_util(e, ci, get_pow(e, ci, &tmp), cpu, util, wakeups, sum,
			 max, false);
}

/*
 * energy_diff_task() during one decision, which weighs the same CPUs at
 * several levels: each CPU's figure is computed once (memo, for up to 64
 * CPUs). With e->clc, each cluster's figures and util are taken once
 * (select_eas_rfc() fills them).
 */
struct memo {
	uint64_t have;
	long v[64];
};

/* energy_diff_task() past the memo. */
static long __attribute__((noinline))
diff_task(const struct rp_env *e, int cpu, const struct rp_wakee *p,
	  struct memo *mm)
{
	int ci = e->model->cpu_cluster[cpu];
	long d;

	if (!e->clc)
		d = rp_energy_diff_util(e, cpu, p->util, p->wakeups);
	else
		d = diff_util(e, ci, &e->clc[ci].rfc, cpu, p->util, p->wakeups,
			      e->clc[ci].sum, e->clc[ci].max, true);
	if (cpu < 64) {
		mm->have |= 1ull << cpu;
		mm->v[cpu] = d;
	}
	return d;
}

static inline long energy_diff_task(const struct rp_env *e, int cpu,
				    const struct rp_wakee *p, struct memo *mm)
{
	if (cpu < 64 && (mm->have >> cpu & 1))
		return mm->v[cpu];
	return diff_task(e, cpu, p, mm);
}

/* find_target_cpu() over cluster ci: the least energy CPU, first on ties. */
static int target_cpu(const struct rp_env *e, int ci, const struct rp_wakee *p,
		      struct memo *mm)
{
	const struct ea_cluster *cl = &e->model->clusters[ci];
	long min = LONG_MAX;
	int best = -1;

	for (int i = 0; i < cl->ncpus; i++) {
		int c = cl->cpus[i];
		long d;

		if (c >= e->ncpus)
			continue;
		d = energy_diff_task(e, c, p, mm);
		if (best < 0 || d < min) {
			min = d;
			best = c;
		}
	}
	return best;
}

static int select_eas_rfc(const struct rp_env *e, const struct rp_wakee *p)
{
	const struct ea_model *m = e->model;
	int cpu = p->prev_cpu, local = m->cpu_cluster[cpu], remote = -1;
	const struct ea_cluster *cl;
	long local_energy = LONG_MAX, min_energy = LONG_MAX;
	struct memo mm;

	mm.have = 0;
	rp_why_set(p, true, "rfc:balance");
	for (int ci = 0; e->clc && ci < m->nclusters; ci++)
		cluster_scan(e, ci, &e->clc[ci]);

	/* Top level: groups are clusters (find_target_group). */
	for (int ci = 0; ci < m->nclusters && m->nclusters > 1; ci++) {
		struct rp_cl_cache tmp;
		int probe;
		long d;

		if (!e->clc)
			cluster_scan(e, ci, &tmp);
		probe = e->clc ? e->clc[ci].probe : tmp.probe;

		if (probe < 0)
			continue;
		d = energy_diff_task(e, probe, p, &mm);
		if (ci == local) {
			local_energy = d;
		} else if (d < min_energy) {
			min_energy = d;
			remote = ci;
		}
	}
	if (remote >= 0 && min_energy < local_energy) {
		int c = target_cpu(e, remote, p, &mm);

		if (c >= 0)
			cpu = c;
	}

	/* Lowest level: groups are the CPUs of cpu's cluster. */
	cl = rp_cluster(e, cpu);
	local_energy = energy_diff_task(e, cpu, p, &mm);
	min_energy = LONG_MAX;
	remote = -1;
	for (int i = 0; i < cl->ncpus; i++) {
		int c = cl->cpus[i];
		long d;

		if (c == cpu || c >= e->ncpus)
			continue;
		d = energy_diff_task(e, c, p, &mm);
		if (d < min_energy) {
			min_energy = d;
			remote = c;
		}
	}
	if (remote >= 0 && min_energy < local_energy)
		cpu = remote;
	/* the balance path ends there: no select_idle_sibling() after it */
	return cpu;
}

/* --shadow's estimate: energy_diff_util() of the task on cpu; none where
 * its cluster cannot take it. */
static bool rfc_cpu_energy(const struct rp_env *e, const struct rp_wakee *p,
			   int cpu, double *v)
{
	long d = rp_energy_diff_util(e, cpu, p->util, p->wakeups);

	*v = (double)d;
	return d != LONG_MAX;
}

const struct rp_policy rp_policy_eas_rfc = {
	.name = "eas-rfc",
	.summary = "the 2014 RFC: energy_diff through find_target_group/cpu "
		   "(3.15 balance path, wake_affine disabled)",
	/* "No modifications to periodic or idle balance yet" (cover
	 * letter): 3.15's CFS balancing, which had no misfit */
	.balance = {.no_misfit = true},
	.select_cpu = select_eas_rfc,
	/* 3.15's fork balancing is the same balance path from the forking
	 * CPU (patch 15 changed find_idlest_group/cpu() for both): prev_cpu
	 * is then the parent's CPU */
	.select_fork = select_eas_rfc,
	.cpu_energy = rfc_cpu_energy,
};
