// SPDX-License-Identifier: GPL-2.0-only
/*
 * Mainline's idlest-group search, sched_balance_find_dst_cpu() (formerly
 * find_idlest_cpu(); kernel/sched/fair.c, v6.18, fair.c:7433-7530,
 * 10683-10930; docs/cfs-reference.md section 6): where a new task goes.
 * From the forking CPU down its domains (rp_topo: PKG, groups the LLCs;
 * MC, groups the LLC's CPUs), at each level the idlest group by
 * update_sg_wakeup_stats() and update_pick_idlest(), kept against the
 * local group with the 117% margins; then the idlest CPU of the group
 * chosen (the idle one in the shallowest idle state, the most recently
 * idle of equals; else the least loaded), and down from that CPU.
 *
 * A new task has no PELT contribution anywhere, so the CPUs' figures
 * are taken whole (cpu_load_without() and friends take nothing off); its
 * util (0 before post_init_entity_util_avg()) fits every CPU. No NUMA,
 * no SMT, no core scheduling, every CPU allowed.
 */
#include <limits.h>

#include "replay/policy.h"

/* enum group_type, in order: lower is idler. */
enum grp_type {
	GRP_HAS_SPARE,
	GRP_FULLY_BUSY,
	GRP_MISFIT,
	GRP_OVERLOADED,
};

struct sg_stats {
	uint64_t load, util, runnable, capacity, avg_load;
	uint32_t max_capacity;
	int nr_running, idle_cpus, weight;
	bool misfit;
	enum grp_type type;
};

/* A group: the CPUs of LLC llc (level 1), or CPU cpu alone (level 0). */
static bool in_group(const struct rp_env *e, int level, int g, int c)
{
	return level ? e->topo->llc[c] == g : c == g;
}

static enum grp_type classify(const struct sg_stats *s)
{
	uint64_t pct = RP_IMBALANCE_PCT;

	/* group_is_overloaded() */
	if (s->nr_running > s->weight &&
	    (s->capacity * 100 < s->util * pct ||
	     s->capacity * pct < s->runnable * 100))
		return GRP_OVERLOADED;
	if (s->misfit)
		return GRP_MISFIT;
	/* group_has_capacity() */
	if (s->nr_running < s->weight)
		return GRP_HAS_SPARE;
	if (s->capacity * pct < s->runnable * 100)
		return GRP_FULLY_BUSY;
	if (s->capacity * 100 > s->util * pct)
		return GRP_HAS_SPARE;
	return GRP_FULLY_BUSY;
}

/* update_sg_wakeup_stats(); asym: the domain has SD_ASYM_CPUCAPACITY. */
static void group_stats(const struct rp_env *e, const struct rp_wakee *p,
			int level, int g, bool asym, struct sg_stats *s)
{
	uint32_t tu = rp_task_util_est(p);

	*s = (struct sg_stats){.misfit = asym};
	for (int c = 0; c < e->ncpus; c++) {
		uint32_t load;

		if (!in_group(e, level, g, c))
			continue;
		/* cpu_load_without(): p's blocked load where attached */
		load = rp_cpu_load(e, c);
		if (!p->fork && c == p->load_cpu)
			load = load > p->load ? load - p->load : 0;
		s->load += load;
		s->util += rp_cpu_util(e, c);
		s->runnable += e->runnable ? e->runnable[c] : e->util[c];
		s->nr_running += e->nr[c];
		if (rp_idle(e, c))
			s->idle_cpus++;
		if (asym && s->misfit && rp_fits(tu, rp_cap_orig(e, c)))
			s->misfit = false;
		s->capacity += rp_cap_orig(e, c);
		if (rp_cap_orig(e, c) > s->max_capacity)
			s->max_capacity = rp_cap_orig(e, c);
		s->weight++;
	}
	s->type = classify(s);
	if (s->type == GRP_FULLY_BUSY || s->type == GRP_OVERLOADED)
		s->avg_load = s->load * 1024 / (s->capacity ? s->capacity : 1);
}

/* update_pick_idlest(): whether s is idler than the idlest so far. */
static bool idler(const struct sg_stats *s, const struct sg_stats *idlest)
{
	if (s->type != idlest->type)
		return s->type < idlest->type;
	switch (s->type) {
	case GRP_OVERLOADED:
	case GRP_FULLY_BUSY:
		return idlest->avg_load > s->avg_load;
	case GRP_MISFIT:
		return idlest->max_capacity < s->max_capacity;
	case GRP_HAS_SPARE:
		if (idlest->idle_cpus != s->idle_cpus)
			return idlest->idle_cpus < s->idle_cpus;
		return idlest->util > s->util;
	}
	return false;
}

/*
 * sched_balance_find_dst_group() at level (1: PKG, 0: MC of this_cpu's
 * LLC): the idlest group other than this_cpu's (groups in domain order:
 * from the local one on, wrapping), or -1 to stay.
 */
static int find_group(const struct rp_env *e, const struct rp_wakee *p,
		      int level, int this_cpu)
{
	const struct rp_topo *t = e->topo;
	int n = level ? t->nllc : e->ncpus,
	    local_g = level ? t->llc[this_cpu] : this_cpu;
	struct sg_stats local, s,
		idlest = {.type = GRP_OVERLOADED, .avg_load = UINT_MAX};
	bool asym = level ? t->asym : false;
	int best = -1;
	uint64_t imbalance;

	for (int j = 0; j < n; j++) {
		int g = (local_g + j) % n;

		if (!level && t->llc[g] != t->llc[this_cpu])
			continue;
		if (g == local_g) {
			group_stats(e, p, level, g, asym, &local);
			continue;
		}
		group_stats(e, p, level, g, asym, &s);
		if (idler(&s, &idlest)) {
			best = g;
			idlest = s;
		}
	}
	if (best < 0)
		return -1;
	if (local.type != idlest.type)
		return local.type < idlest.type ? -1 : best;
	switch (local.type) {
	case GRP_OVERLOADED:
	case GRP_FULLY_BUSY:
		imbalance = 1024 * (RP_IMBALANCE_PCT - 100) / 100;
		if (idlest.avg_load >= local.avg_load + imbalance)
			return -1;
		if (100 * local.avg_load <= RP_IMBALANCE_PCT * idlest.avg_load)
			return -1;
		return best;
	case GRP_MISFIT:
		return local.max_capacity >= idlest.max_capacity ? -1 : best;
	case GRP_HAS_SPARE:
		return local.idle_cpus >= idlest.idle_cpus ? -1 : best;
	}
	return -1;
}

/*
 * sched_balance_find_dst_group_cpu(): the group's idle CPU in the
 * shallowest idle state (a lower cpuidle index: an earlier exit), the
 * most recently idle among equals; if none is idle, the least loaded,
 * the first of equals.
 */
static int find_group_cpu(const struct rp_env *e, int level, int g,
			  int this_cpu)
{
	int least = this_cpu, shallowest = -1, min_state = INT_MAX;
	uint64_t min_load = UINT64_MAX, latest = 0;

	if (!level)
		return g;
	if (e->topo->llc_size[g] == 1)
		return e->topo->llc_first[g];
	for (int c = 0; c < e->ncpus; c++) {
		if (!in_group(e, level, g, c))
			continue;
		if (rp_idle(e, c)) {
			int st = e->idle_state ? e->idle_state[c] : -1;
			uint64_t stamp = e->idle_stamp ? e->idle_stamp[c] : 0;

			if (st >= 0 && st < min_state) {
				min_state = st;
				latest = stamp;
				shallowest = c;
			} else if ((st < 0 || st == min_state) &&
				   stamp > latest) {
				latest = stamp;
				shallowest = c;
			}
		} else if (shallowest < 0 && rp_cpu_load(e, c) < min_load) {
			min_load = rp_cpu_load(e, c);
			least = c;
		}
	}
	return shallowest >= 0 ? shallowest : least;
}

int rp_find_idlest_cpu(const struct rp_env *e, const struct rp_wakee *p,
		       int this_cpu)
{
	const struct rp_topo *t = e->topo;
	int cpu = this_cpu, new_cpu = this_cpu;
	/* the domains of every CPU: PKG (1) if there are several LLCs, MC
	 * (0) if the LLC has several CPUs */
	int level = t->nllc > 1 ? 1 : 0;

	rp_why_set(p, true, "fork:idlest");
	for (; level >= 0; level--) {
		int g;

		if (!level && t->llc_size[t->llc[cpu]] < 2)
			break;
		g = find_group(e, p, level, cpu);
		if (g < 0)
			continue;
		new_cpu = find_group_cpu(e, level, g, cpu);
		/* from new_cpu down, or further down from cpu */
		cpu = new_cpu;
	}
	return new_cpu;
}
