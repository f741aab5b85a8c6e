// SPDX-License-Identifier: GPL-2.0-only
/*
 * `spread`: a heuristic, not a bound (nothing guarantees it costs the
 * most or gives the shortest latency of any placement). The CPU with the fewest tasks, then the lowest util,
 * then the biggest capacity: every CPU gets work before any gets two.
 */
#include "replay/policy.h"

static int select_spread(const struct rp_env *e, const struct rp_wakee *p)
{
	int best = -1;

	for (int i = 0; i < e->ncpus; i++) {
		if (best >= 0 && e->nr[i] > e->nr[best])
			continue;
		if (best >= 0 && e->nr[i] == e->nr[best]) {
			if (e->util[i] > e->util[best])
				continue;
			if (e->util[i] == e->util[best] &&
			    rp_cap_orig(e, i) <= rp_cap_orig(e, best))
				continue;
		}
		best = i;
	}
	return best;
}

const struct rp_policy rp_policy_spread = {
	.name = "spread",
	.summary = "heuristic: fewest tasks, then lowest util, then biggest CPU",
	.select_cpu = select_spread,
};
