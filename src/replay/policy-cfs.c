// SPDX-License-Identifier: GPL-2.0-only
/*
 * `cfs`: a non-energy-aware baseline in the spirit of mainline's
 * select_idle_sibling(): the previous CPU if idle, else an idle CPU sharing
 * its cluster, else the least loaded CPU (fewest tasks, then lowest util,
 * then the biggest capacity, then the lowest id).
 */
#include "replay/policy.h"

static bool same_cluster(const struct rp_env *e, int a, int b)
{
	return e->model->cpu_cluster[a] == e->model->cpu_cluster[b];
}

static int select_cfs(const struct rp_env *e, const struct rp_wakee *p)
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
		    (e->nr[i] == e->nr[best] &&
		     (e->util[i] < e->util[best] ||
		      (e->util[i] == e->util[best] &&
		       rp_cap_orig(e, i) > rp_cap_orig(e, best)))))
			best = i;
	return best;
}

const struct rp_policy rp_policy_cfs = {
	.name = "cfs",
	.summary = "prev CPU if idle, else an idle sibling, else least loaded",
	.select_cpu = select_cfs,
};
