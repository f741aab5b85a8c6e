// SPDX-License-Identifier: GPL-2.0-only
/*
 * Mainline's select_idle_capacity() (kernel/sched/fair.c, v6.18,
 * fair.c:7758; docs/cfs-reference.md section 5): on an asymmetric
 * platform, the idle CPU a wakeup takes, scanning the asymmetric domain
 * (the whole platform) from target, wrapping: the first idle CPU where the
 * task fits (util_fits_cpu(task_util_est(p)): below 80% of its capacity),
 * else the idle CPU of highest capacity, the first of equals. No uclamp,
 * no capacity pressure (capacity_of() is the CPU's capacity).
 */
#include "replay/policy.h"

int rp_select_idle_capacity(const struct rp_env *e, const struct rp_wakee *p,
			    int target)
{
	uint32_t tu = rp_task_util_est(p), best_cap = 0;
	int best = -1;

	for (int j = 0; j < e->ncpus; j++) {
		int c = (target + j) % e->ncpus;
		uint32_t cap;

		if (!rp_idle(e, c))
			continue;
		cap = rp_cap_orig(e, c);
		if (rp_fits(tu, cap))
			return c;
		if (cap > best_cap) {
			best_cap = cap;
			best = c;
		}
	}
	return best;
}
