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
 *  - select_idle_sibling(), energy version: the first idle CPU of the
 *    target's cluster whose energy_diff is no higher than the target's.
 *
 * Deviations, each because the RFC's form cannot apply here: the RFC's
 * weighted_cpuload() (load) is the simulated PELT util; its single idle
 * power per group is the cluster's deepest idle state (the power-down state
 * the RFC's tables give); unsigned "unused" utilisation that would wrap
 * below zero is clamped at zero.
 */
#include <limits.h>
#include <math.h>

#include "replay/replay-internal.h"

long rp_rfc_wakeup_energy(double per_wakeup)
{
	return lround(per_wakeup * 1024.0 * 1000.0 / 47742.0);
}

static long lpow(double p)
{
	return lround(p);
}

/* energy_match_cap(): the lowest state whose capacity covers util. */
static int match_cap(const struct ea_cluster *cl, long util)
{
	int i;

	for (i = 0; i < cl->ncaps; i++)
		if ((long)cl->caps[i].cap >= util)
			return i;
	return i;
}

static long pos(long v)
{
	return v > 0 ? v : 0;
}

long rp_energy_diff_util(const struct rp_env *e, int cpu, long util,
			 long wakeups)
{
	const struct ea_cluster *cl = rp_cluster(e, cpu);
	const struct ea_idle_state *idle = &cl->idles[cl->nidles - 1];
	long cpu_util = e->util[cpu], diff = 0;
	long aff_bef, aff_aft, unused_bef, unused_aft, max_bef = 0, max_aft = 0;
	long sum = 0, cap_c, cap_n;
	int curr, new;

	/* cpu_curr_capacity -> curr; the state the new max utilisation needs */
	curr = match_cap(cl, (long)rp_cap_curr(e, cpu));
	if ((long)cl->caps[curr].cap < cpu_util + util) {
		new = match_cap(cl, cpu_util + util);
		if (new >= cl->ncaps)
			return LONG_MAX;	/* can't handle the additional load */
	} else {
		new = curr;
	}
	cap_c = cl->caps[curr].cap;
	cap_n = cl->caps[new].cap;
	for (int i = 0; i < cl->ncpus; i++) {
		int c = cl->cpus[i];
		long u;

		if (c >= e->ncpus)
			continue;
		u = e->util[c];
		sum += u;
		if (u > max_bef)
			max_bef = u;
		if (c == cpu)
			u += util;
		if (u > max_aft)
			max_aft = u;
	}

	/* Lowest level: the CPU. Shared cap states: all cores' busy energy. */
	aff_bef = cl->freq_domain ? sum : cpu_util;
	aff_aft = aff_bef + util;
	unused_bef = pos(cap_c - cpu_util);
	unused_aft = pos(cap_n - cpu_util - util);
	if (aff_bef == aff_aft && curr == new && unused_aft < 100)
		return diff;
	diff -= aff_bef * lpow(cl->caps[curr].core_power) / cap_c;
	diff -= unused_bef * lpow(idle->core_power) / cap_c;
	diff += aff_aft * lpow(cl->caps[new].core_power) / cap_n;
	diff += unused_aft * lpow(idle->core_power) / cap_n;
	diff += (wakeups * rp_rfc_wakeup_energy(idle->core_wakeup) >> 10) *
		unused_aft / cap_n;

	/* Higher level: the cluster, by its busiest CPU. */
	aff_bef = max_bef;
	aff_aft = max_aft;
	unused_bef = pos(cap_c - aff_bef);
	unused_aft = pos(cap_n - aff_aft);
	if (aff_bef == aff_aft && curr == new && unused_aft < 100)
		return diff;
	diff -= aff_bef * lpow(cl->caps[curr].cluster_power) / cap_c;
	diff -= unused_bef * lpow(idle->cluster_power) / cap_c;
	diff += aff_aft * lpow(cl->caps[new].cluster_power) / cap_n;
	diff += unused_aft * lpow(idle->cluster_power) / cap_n;
	diff += (wakeups * rp_rfc_wakeup_energy(idle->cluster_wakeup) >> 10) *
		unused_aft / cap_n;
	return diff;
}

static long energy_diff_task(const struct rp_env *e, int cpu,
			     const struct rp_wakee *p)
{
	return rp_energy_diff_util(e, cpu, p->util, p->wakeups);
}

/* The least loaded CPU of cluster ci (the group's probe), first on ties. */
static int probe_cpu(const struct rp_env *e, int ci)
{
	const struct ea_cluster *cl = &e->model->clusters[ci];
	int best = -1;

	for (int i = 0; i < cl->ncpus; i++) {
		int c = cl->cpus[i];

		if (c < e->ncpus && (best < 0 || e->util[c] < e->util[best]))
			best = c;
	}
	return best;
}

/* find_target_cpu() over cluster ci: the least energy CPU, first on ties. */
static int target_cpu(const struct rp_env *e, int ci, const struct rp_wakee *p)
{
	const struct ea_cluster *cl = &e->model->clusters[ci];
	long min = LONG_MAX;
	int best = -1;

	for (int i = 0; i < cl->ncpus; i++) {
		int c = cl->cpus[i];
		long d;

		if (c >= e->ncpus)
			continue;
		d = energy_diff_task(e, c, p);
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
	long local_energy = LONG_MAX, min_energy = LONG_MAX, target_energy;

	/* Top level: groups are clusters (find_target_group). */
	for (int ci = 0; ci < m->nclusters && m->nclusters > 1; ci++) {
		int probe = probe_cpu(e, ci);
		long d;

		if (probe < 0)
			continue;
		d = energy_diff_task(e, probe, p);
		if (ci == local) {
			local_energy = d;
		} else if (d < min_energy) {
			min_energy = d;
			remote = ci;
		}
	}
	if (remote >= 0 && min_energy < local_energy) {
		int c = target_cpu(e, remote, p);

		if (c >= 0)
			cpu = c;
	}

	/* Lowest level: groups are the CPUs of cpu's cluster. */
	cl = rp_cluster(e, cpu);
	local_energy = energy_diff_task(e, cpu, p);
	min_energy = LONG_MAX;
	remote = -1;
	for (int i = 0; i < cl->ncpus; i++) {
		int c = cl->cpus[i];
		long d;

		if (c == cpu || c >= e->ncpus)
			continue;
		d = energy_diff_task(e, c, p);
		if (d < min_energy) {
			min_energy = d;
			remote = c;
		}
	}
	if (remote >= 0 && min_energy < local_energy)
		cpu = remote;

	/* select_idle_sibling(), energy-aware version (seed 010). */
	target_energy = energy_diff_task(e, cpu, p);
	for (int i = 0; i < cl->ncpus; i++) {
		int c = cl->cpus[i];

		if (c == cpu || c >= e->ncpus || !rp_idle(e, c))
			continue;
		if (energy_diff_task(e, c, p) > target_energy)
			continue;
		return c;
	}
	return cpu;
}

const struct rp_policy rp_policy_eas_rfc = {
	.name = "eas-rfc",
	.summary = "the 2014 RFC: energy_diff through find_target_group/cpu and select_idle_sibling",
	.energy_aware = true,
	.select_cpu = select_eas_rfc,
};
