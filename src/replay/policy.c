// SPDX-License-Identifier: GPL-2.0-only
/*
 * The policy table and the helpers policies share. Adding a policy is one
 * file defining a struct rp_policy plus one line in `policies` below.
 */
#include <string.h>

#include "replay/replay-internal.h"

static const struct rp_policy *const policies[] = {
	&rp_policy_recorded,
	&rp_policy_eas_rfc,
	&rp_policy_feec,
	&rp_policy_cfs,
	&rp_policy_pack,
	&rp_policy_spread,
};

#define NPOLICIES ((int)(sizeof(policies) / sizeof(policies[0])))

int ea_replay_policy_count(void)
{
	return NPOLICIES;
}

const char *ea_replay_policy_name(int i)
{
	return i >= 0 && i < NPOLICIES ? policies[i]->name : NULL;
}

const char *ea_replay_policy_summary(int i)
{
	return i >= 0 && i < NPOLICIES ? policies[i]->summary : NULL;
}

int ea_replay_policy_find(const char *name)
{
	for (int i = 0; i < NPOLICIES; i++)
		if (!strcmp(policies[i]->name, name))
			return i;
	return -1;
}

const struct rp_policy *rp_policy_get(const char *name)
{
	int i = ea_replay_policy_find(name);

	return i < 0 ? NULL : policies[i];
}

const struct ea_cluster *rp_cluster(const struct rp_env *e, int cpu)
{
	return &e->model->clusters[e->model->cpu_cluster[cpu]];
}

/* Capacity at the top OPP (arch_scale_cpu_capacity). */
uint32_t rp_cap_orig(const struct rp_env *e, int cpu)
{
	const struct ea_cluster *cl = rp_cluster(e, cpu);

	return cl->caps[cl->ncaps - 1].cap;
}

/* Capacity at the current OPP. */
uint32_t rp_cap_curr(const struct rp_env *e, int cpu)
{
	return rp_cluster(e, cpu)->caps[e->cap_idx[cpu]].cap;
}

/* fits_capacity(): util below 80% of cap (util x 1280 < cap x 1024). */
bool rp_fits(uint32_t util, uint32_t cap)
{
	return (uint64_t)util * 1280 < (uint64_t)cap * 1024;
}

bool rp_idle(const struct rp_env *e, int cpu)
{
	return e->nr[cpu] == 0;
}

static bool same_cluster(const struct rp_env *e, int a, int b)
{
	return e->model->cpu_cluster[a] == e->model->cpu_cluster[b];
}

int rp_select_cfs(const struct rp_env *e, const struct rp_wakee *p)
{
	int prev = p->prev_cpu, best = -1;

	if (rp_idle(e, prev))
		return prev;
	for (int i = 0; i < e->ncpus; i++)
		if (i != prev && same_cluster(e, i, prev) && rp_idle(e, i))
			return i;
	for (int i = 0; i < e->ncpus; i++)
		if (best < 0 || e->nr[i] < e->nr[best] ||
		    (e->nr[i] == e->nr[best] && e->util[i] < e->util[best]))
			best = i;
	return best;
}
