// SPDX-License-Identifier: GPL-2.0-only
/*
 * `pack`: a heuristic, not a bound (it can cost more than `cfs`: tasks
 * crowded on the smallest CPUs raise their OPP and keep them busy longer).
 * The first CPU, smallest capacity first, on which the task still fits
 * (below 80% of its capacity), the lowest id among equals; if none, the
 * CPU with the most spare capacity, then the biggest.
 */
#include "replay/policy.h"

static int select_pack(const struct rp_env *e, const struct rp_wakee *p)
{
	int best = -1, spare = -1;
	long best_spare = 0;

	for (int i = 0; i < e->ncpus; i++) {
		uint32_t cap = rp_cap_orig(e, i);
		long s = (long)cap - (long)e->util[i] - (long)p->util;

		if (rp_fits(e->util[i] + p->util, cap) &&
		    (best < 0 || cap < rp_cap_orig(e, best)))
			best = i;
		/* ties: the bigger CPU, then the lower id (whatever the
		 * numbering of the clusters) */
		if (spare < 0 || s > best_spare ||
		    (s == best_spare && cap > rp_cap_orig(e, spare))) {
			spare = i;
			best_spare = s;
		}
	}
	return best >= 0 ? best : spare;
}

const struct rp_policy rp_policy_pack = {
	.name = "pack",
	.summary = "heuristic: fill the smallest CPUs first, up to 80% util",
	.select_cpu = select_pack,
};
