// SPDX-License-Identifier: GPL-2.0-only
/*
 * Mainline's wake_wide() and wake_affine() (kernel/sched/fair.c, v6.18:
 * fair.c:7307, 7333, 7364, 7406; docs/cfs-reference.md sections 2-3):
 * whether a wakeup may be pulled towards the waker, and whether it is:
 * wake_affine_idle() (WA_IDLE) then wake_affine_weight() (WA_WEIGHT with
 * WA_BIAS) on PELT load.
 */
#include "replay/policy.h"

bool rp_wake_wide(const struct rp_env *e, const struct rp_wakee *p)
{
	uint32_t master = p->waker_flips, slave = p->wakee_flips;
	uint32_t factor;

	if (!e->topo || p->waker_cpu < 0)
		return false;
	factor = (uint32_t)e->topo->llc_size[e->topo->llc[p->waker_cpu]];
	if (master < slave) {
		uint32_t t = master;

		master = slave;
		slave = t;
	}
	return slave >= factor && (uint64_t)master >= (uint64_t)slave * factor;
}

/*
 * wake_affine_idle(): an interrupt on an idle CPU sharing prev's cache
 * (prev if idle, else this_cpu); a sync wakeup from a waker alone on its
 * CPU (this_cpu); prev idle (prev); else no opinion (-1).
 */
static int affine_idle(const struct rp_env *e, const struct rp_wakee *p,
		       int this_cpu, int prev)
{
	if (rp_idle(e, this_cpu) && rp_share_cache(e->topo, this_cpu, prev))
		return rp_idle(e, prev) ? prev : this_cpu;
	if (p->sync && e->nr[this_cpu] == 1)
		return this_cpu;
	if (rp_idle(e, prev))
		return prev;
	return -1;
}

/*
 * wake_affine_weight(): this_cpu when its load with the task, x 100 x
 * prev's capacity, is below prev's load without it, x (100 + (117 -
 * 100) / 2 = 108) x this_cpu's capacity (WA_BIAS); a sync wakeup takes
 * the waker's load off this_cpu first (and wins outright when the waker
 * alone weighs more than it) and adds 1 to prev's side. Else -1.
 */
static int affine_weight(const struct rp_env *e, const struct rp_wakee *p,
			 int this_cpu, int prev)
{
	int64_t this_eff = rp_cpu_load(e, this_cpu), prev_eff;
	int64_t task_load = p->load;

	if (p->sync) {
		if ((int64_t)p->waker_load > this_eff)
			return this_cpu;
		this_eff -= p->waker_load;
	}
	this_eff += task_load;
	this_eff *= 100;
	this_eff *= rp_cap_orig(e, prev);
	prev_eff = rp_cpu_load(e, prev);
	prev_eff -= task_load;
	prev_eff *= 100 + (RP_IMBALANCE_PCT - 100) / 2;
	prev_eff *= rp_cap_orig(e, this_cpu);
	if (p->sync)
		prev_eff += 1;
	return this_eff < prev_eff ? this_cpu : -1;
}

int rp_wake_affine(const struct rp_env *e, const struct rp_wakee *p,
		   int this_cpu, int prev_cpu)
{
	int target = affine_idle(e, p, this_cpu, prev_cpu);

	const char *why = "affine:idle";

	if (target < 0) {
		target = affine_weight(e, p, this_cpu, prev_cpu);
		why = "affine:weight";
		if (p->why)
			p->why->compared = true;
	}
	if (p->why)
		p->why->affine = why;
	return target == this_cpu ? this_cpu : prev_cpu;
}
