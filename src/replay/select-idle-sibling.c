// SPDX-License-Identifier: GPL-2.0-only
/*
 * Mainline's select_idle_sibling() (kernel/sched/fair.c) from prev_cpu,
 * wake_affine() aside: the idle CPU a wakeup takes when no energy-aware
 * rule decides (feec while overutilised or on a symmetric platform).
 * Shared by the policies that fall back to it; uses the policy interface
 * and the platform layer only.
 *
 * Not modelled yet, and to come here when a mainline `cfs` needs them
 * (policy.h): recent_used_cpu, select_idle_cpu()'s idle core then idle CPU
 * scan within the LLC, select_idle_capacity() as a function of its own.
 */
#include "replay/policy.h"

static bool idle_fits(const struct rp_env *e, int c, uint32_t tu)
{
	return rp_idle(e, c) &&
	       (!e->asymmetric || rp_fits(tu, rp_cap_orig(e, c)));
}

int rp_select_idle_sibling(const struct rp_env *e, const struct rp_wakee *p)
{
	int prev = p->prev_cpu, best = -1;
	uint32_t tu = rp_task_util_est(p), best_cap = 0;

	if (idle_fits(e, prev, tu))
		return prev;
	for (int j = 1; j <= e->ncpus; j++) {
		int c = (prev + j) % e->ncpus;

		if (!rp_idle(e, c))
			continue;
		if (e->asymmetric) {
			/* select_idle_capacity() over every CPU */
			if (rp_fits(tu, rp_cap_orig(e, c)))
				return c;
			if (rp_cap_orig(e, c) > best_cap) {
				best_cap = rp_cap_orig(e, c);
				best = c;
			}
		} else if (e->model->cpu_cluster[c] ==
			   e->model->cpu_cluster[prev]) {
			return c; /* select_idle_cpu() in the LLC */
		}
	}
	return best >= 0 ? best : prev;
}
