// SPDX-License-Identifier: GPL-2.0-only
/*
 * `feec`: mainline's find_energy_efficient_cpu() (kernel/sched/fair.c,
 * v6.x) without uclamp:
 *
 *  - not at all while the root domain is overutilised, nor on a platform
 *    whose CPUs all have the same capacity (no sd_asym_cpucapacity): then
 *    the regular path decides: mainline's select_idle_sibling() from
 *    prev (select-idle-sibling.c), as this replay's feec had it before
 *    `cfs` became mainline's: without wake_affine(), recent_used_cpu,
 *    the per-CPU kthread rule or SIS_UTIL's limit (docs/replay.md);
 *  - forks do not go through feec: mainline's slow path,
 *    sched_balance_find_dst_cpu() (find-idlest.c), and a new task's util
 *    from post_init_entity_util_avg(), as `cfs`;
 *  - a task with no utilisation stays on prev_cpu;
 *  - per performance domain (a cluster), the candidates are prev_cpu and
 *    the CPU with the most spare capacity, among the CPUs where the task
 *    fits (util_fits_cpu(): below 80% of the capacity once added);
 *  - each candidate is charged compute_energy() with the task minus without
 *    it: em_cpu_energy() = the power of the OPP that 1.25 x the domain's
 *    busiest CPU needs, x the domain's summed util / that OPP's capacity;
 *  - the best candidate wins only if it saves energy against prev_cpu.
 *
 * The kernel's energy model has one power per CPU and OPP; the cost model's
 * cluster power is folded into it in equal shares (core_power +
 * cluster_power / CPUs of the cluster), and idle power and wakeups are not
 * part of it, as in mainline.
 */
#include <limits.h>

#include "replay/policy.h"

/* cpu_util(cpu, p, -1): max(util_avg, util_est), capped at cap. */
static uint64_t cpu_util(const struct rp_env *e, int c, uint32_t cap)
{
	uint64_t u = e->util[c];

	if (e->util_est && e->util_est[c] > u)
		u = e->util_est[c];
	return u < cap ? u : cap;
}

/* cpu_util(cpu, p, cpu): with the waking task on it. */
static uint64_t cpu_util_with(const struct rp_env *e, int c, uint32_t cap,
			      const struct rp_wakee *p)
{
	uint64_t u = (uint64_t)e->util[c] + p->util;
	uint64_t ue =
		(uint64_t)(e->util_est ? e->util_est[c] : 0) + p->util_est;

	if (ue > u)
		u = ue;
	return u < cap ? u : cap;
}

/* A perf domain's figures compute_energy() sums, without the task. */
struct pd_util {
	uint64_t pd_cap; /* capacity summed over its CPUs */
	uint64_t busy; /* cpu_util() summed */
	uint64_t max; /* the highest cpu_util() */
};

static void pd_util(const struct rp_env *e, const struct ea_cluster *cl,
		    struct pd_util *d)
{
	uint32_t cap = cl->caps[cl->ncaps - 1].cap;

	*d = (struct pd_util){0};
	for (int i = 0; i < cl->ncpus; i++) {
		int c = cl->cpus[i];
		uint64_t u;

		if (c >= e->ncpus)
			continue;
		d->pd_cap += cap;
		u = cpu_util(e, c, cap);
		d->busy += u;
		if (u > d->max)
			d->max = u;
	}
}

/*
 * em_cpu_energy() of cluster ci for the busiest CPU's util max_util and the
 * summed util busy (capped at the domain's capacity already): the lowest
 * OPP covering 1.25 x max_util (em_pd_get_efficient_state(), skipping
 * inefficient OPPs unless e->em_all_opps), its power x busy / its
 * capacity.
 */
static inline unsigned long long em_energy(const struct rp_env *e, int ci,
					   const struct ea_cluster *cl,
					   uint64_t busy, uint64_t max_util)
{
	uint32_t cap = cl->caps[cl->ncaps - 1].cap;
	int k;

	if (!busy)
		return 0;
	/* map_util_perf(): 25% headroom, then the lowest OPP that covers it */
	max_util += max_util >> 2;
	if (max_util > cap)
		max_util = cap;
	if (e->clc && e->clc[ci].em_opp[!e->em_all_opps]) {
		/* the same, made once (em-opp.c) */
		k = e->clc[ci].em_opp[!e->em_all_opps][max_util];
		return (unsigned long long)e->clc[ci].em_pow[k] * busy /
		       cl->caps[k].cap;
	}
	for (k = 0; k < cl->ncaps - 1; k++)
		if (cl->caps[k].cap >= max_util)
			break;
	if (!e->em_all_opps)
		k = e->clc ? e->clc[ci].em_eff[k] : rp_em_efficient(cl, k);
	return (unsigned long long)(e->clc ? e->clc[ci].em_pow[k]
					   : rp_em_power_u(cl, k)) *
	       busy / cl->caps[k].cap;
}

/*
 * compute_energy() of cluster ci from its pd_util: with the task's
 * task_util_est() added (p non-NULL), on dst_cpu, one of its CPUs (-1:
 * none of them). The busiest CPU with the task is the busier of the
 * busiest without it and dst_cpu with it (adding util never lowers a
 * CPU's): one pass over the CPUs serves every candidate of the cluster.
 */
static unsigned long long pd_energy(const struct rp_env *e, int ci,
				    const struct pd_util *d,
				    const struct rp_wakee *p, int dst_cpu)
{
	const struct ea_cluster *cl = &e->model->clusters[ci];
	uint32_t cap = cl->caps[cl->ncaps - 1].cap;
	uint64_t busy = d->busy > d->pd_cap ? d->pd_cap : d->busy;
	uint64_t max_util = d->max;

	if (p && dst_cpu >= 0) {
		uint64_t u = cpu_util_with(e, dst_cpu, cap, p);

		if (u > max_util)
			max_util = u;
	}
	if (p)
		busy = busy + rp_task_util_est(p) < d->pd_cap
			       ? busy + rp_task_util_est(p)
			       : d->pd_cap;
	return em_energy(e, ci, cl, busy, max_util);
}

unsigned long long rp_feec_compute_energy(const struct rp_env *e, int ci,
					  uint32_t task_util, int dst_cpu)
{
	const struct ea_cluster *cl = &e->model->clusters[ci];
	bool in_pd = dst_cpu >= 0 && dst_cpu < e->ncpus &&
		     e->model->cpu_cluster[dst_cpu] == ci;
	struct rp_wakee p = {.util = task_util};
	struct pd_util d;

	pd_util(e, cl, &d);
	return pd_energy(e, ci, &d, dst_cpu >= 0 ? &p : NULL,
			 in_pd ? dst_cpu : -1);
}

static int select_feec(const struct rp_env *e, const struct rp_wakee *p)
{
	unsigned long long prev_delta = ULLONG_MAX, best_delta = ULLONG_MAX;
	int prev = p->prev_cpu, best_cpu = -1, prev_fits = -1, best_fits = -1;

	if (e->overutilised || !e->asymmetric) {
		struct rp_env e2 = *e;
		struct rp_wakee p2 = *p;

		e2.nr_idle_scan = NULL;
		p2.recent_used_cpu = NULL;
		p2.waker_kthread = false;
		rp_why_set(p, false, "feec:sis");
		return rp_select_idle_sibling(&e2, &p2, p->prev_cpu,
					      p->prev_cpu);
	}
	rp_why_set(p, false, "feec:no-util");
	if (!rp_task_util_est(p))
		return prev;
	rp_why_set(p, false, "feec:prev-only");
	for (int ci = 0; ci < e->model->nclusters; ci++) {
		const struct ea_cluster *cl = &e->model->clusters[ci];
		/* every CPU's capacity (rp_cap_orig()): a CPU is in one
		 * cluster (the model's validation) */
		uint32_t cap = cl->caps[cl->ncaps - 1].cap;
		long prev_spare = -1, max_spare = -1;
		int max_cpu = -1, max_fits = -1;
		unsigned long long base, cur;
		/* pd_util() and, of prev and max_cpu, cpu_util_with(), in the
		 * one pass that finds them */
		uint64_t pd_cap = 0, pd_busy = 0, pd_max = 0, busy, with;
		uint64_t prev_with = 0, max_with = 0;

		for (int i = 0; i < cl->ncpus; i++) {
			int c = cl->cpus[i];
			uint64_t ut, ue, u, util;
			long spare;

			if (c >= e->ncpus)
				continue;
			ut = e->util[c];
			ue = e->util_est ? e->util_est[c] : 0;
			/* cpu_util() */
			u = ue > ut ? ue : ut;
			u = u < cap ? u : cap;
			pd_cap += cap;
			pd_busy += u;
			if (u > pd_max)
				pd_max = u;
			/* cpu_util_with() */
			util = ut + p->util;
			if (ue + p->util_est > util)
				util = ue + p->util_est;
			util = util < cap ? util : cap;
			/* util_fits_cpu(): below 80% of the capacity */
			if (!rp_fits((uint32_t)util, cap))
				continue;
			spare = (long)cap - (long)util;
			if (c == prev) {
				prev_spare = spare;
				prev_fits = 1;
				prev_with = util;
			} else if (1 > max_fits || spare > max_spare) {
				max_spare = spare;
				max_cpu = c;
				max_fits = 1;
				max_with = util;
			}
		}
		if (max_cpu < 0 && prev_spare < 0)
			continue;
		/* pd_energy(): the summed util without and with the task */
		busy = pd_busy > pd_cap ? pd_cap : pd_busy;
		base = em_energy(e, ci, cl, busy, pd_max);
		with = busy + rp_task_util_est(p) < pd_cap
			       ? busy + rp_task_util_est(p)
			       : pd_cap;
		/*
		 * Energy with the task below the energy without it (a higher
		 * OPP more efficient than a lower one): mainline's "CPU
		 * utilization has changed" check gives up and keeps prev_cpu,
		 * rather than subtracting into a wrapped unsigned delta.
		 */
		if (prev_spare > -1) {
			cur = em_energy(e, ci, cl, with,
					prev_with > pd_max ? prev_with
							   : pd_max);
			if (cur < base)
				return prev;
			prev_delta = cur - base;
			if (prev_delta < best_delta)
				best_delta = prev_delta;
		}
		if (max_cpu >= 0 && max_spare > prev_spare) {
			if (max_fits < best_fits)
				continue;
			/* an energy comparison with another CPU than prev */
			rp_why_set(p, true, "feec:energy");
			cur = em_energy(e, ci, cl, with,
					max_with > pd_max ? max_with : pd_max);
			if (cur < base)
				return prev;
			cur -= base;
			if (max_fits > 0 && best_fits > 0 && cur >= best_delta)
				continue;
			best_delta = cur;
			best_cpu = max_cpu;
			best_fits = max_fits;
		}
	}
	if (best_cpu >= 0 && (best_fits > prev_fits ||
			      (best_fits > 0 && best_delta < prev_delta)))
		return best_cpu;
	return prev;
}

/* WF_FORK: sched_balance_find_dst_cpu() from the parent's CPU. */
static int select_feec_fork(const struct rp_env *e, const struct rp_wakee *p)
{
	int cpu = p->waker_cpu >= 0 && p->waker_cpu < e->ncpus ? p->waker_cpu
								: p->prev_cpu;

	return e->topo ? rp_find_idlest_cpu(e, p, cpu) : cpu;
}

/* --shadow's estimate: compute_energy() of cpu's perf domain with the task
 * on cpu minus without it. */
static bool feec_cpu_energy(const struct rp_env *e, const struct rp_wakee *p,
			    int cpu, double *v)
{
	int ci = e->model->cpu_cluster[cpu];

	*v = ((double)rp_feec_compute_energy(e, ci, p->util, cpu) -
	      (double)rp_feec_compute_energy(e, ci, p->util, -1)) /
	     1e6;
	return true;
}

const struct rp_policy rp_policy_feec = {
	.name = "feec",
	.summary = "mainline find_energy_efficient_cpu (em_cpu_energy without "
		   "inefficient OPPs, util_est, util_fits_cpu; overutilised: "
		   "select_idle_sibling)",
	.balance = {.over_gated = true, .sticky_over = true},
	.select_cpu = select_feec,
	.select_fork = select_feec_fork,
	.post_init_util = true,
	.reads_load = true,
	.reads_util_est = true,
	.reads_idle = true,
	.cpu_energy = feec_cpu_energy,
};
