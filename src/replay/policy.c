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

bool ea_replay_policy_follows(const char *name)
{
	int i = ea_replay_policy_find(name);

	return i >= 0 && policies[i]->follow_segments;
}

const struct rp_policy *rp_policy_get(const char *name)
{
	int i = ea_replay_policy_find(name);

	return i < 0 ? NULL : policies[i];
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
	/* ties: the bigger CPU (as load / capacity would), then the lower
	 * id: the same choice whatever the platform's numbering of clusters */
	for (int i = 0; i < e->ncpus; i++)
		if (best < 0 || e->nr[i] < e->nr[best] ||
		    (e->nr[i] == e->nr[best] && (e->util[i] < e->util[best] ||
		     (e->util[i] == e->util[best] &&
		      rp_cap_orig(e, i) > rp_cap_orig(e, best)))))
			best = i;
	return best;
}
