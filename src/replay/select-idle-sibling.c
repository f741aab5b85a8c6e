// SPDX-License-Identifier: GPL-2.0-only
/*
 * Mainline's select_idle_sibling(p, prev, target) (kernel/sched/fair.c,
 * v6.18, fair.c:7823, select_idle_cpu() fair.c:7688; docs/cfs-reference.md
 * section 4): the CPU a wakeup takes on the fast path, target being prev
 * or what wake_affine() chose. In order, the first that holds:
 *
 *  1. target is idle (and, on an asymmetric platform, the task fits it);
 *  2. prev is another CPU of target's LLC, idle (and fits);
 *  3. the waker is a per-CPU kthread in task context, on prev, alone
 *     there: prev (it completed the wakee's work: stack on it);
 *  4. p->recent_used_cpu (set to prev here, whatever follows) is neither
 *     prev nor target, shares target's LLC, is idle (and fits);
 *  5. an asymmetric platform: select_idle_capacity() from target, else
 *     target; nothing after this;
 *  6. select_idle_cpu(): the LLC's CPUs from target + 1, wrapping, at
 *     most nr_idle_scan of them (SIS_UTIL; none at all when it is 0):
 *     the first idle one;
 *  7. target.
 *
 * No SMT (select_idle_core(), select_idle_smt()), no cluster level
 * (prev_aff), no SCHED_IDLE CPUs, every CPU allowed: the platforms of the
 * models have none of them. Idle is nr_running == 0 (no pending wakeups,
 * no preempted vCPUs).
 */
#include <limits.h>

#include "replay/policy.h"

static bool fits(const struct rp_env *e, int c, uint32_t tu)
{
	return !e->asymmetric || rp_fits(tu, rp_cap_orig(e, c));
}

static bool idle_fits(const struct rp_env *e, int c, uint32_t tu)
{
	return rp_idle(e, c) && fits(e, c, tu);
}

/* select_idle_cpu() without SMT: -1 when nothing idle was found within
 * the scan's limit. */
static int idle_cpu_in_llc(const struct rp_env *e, const struct rp_wakee *p,
			   int target)
{
	const struct rp_topo *t = e->topo;
	int llc = t->llc[target], nr = INT_MAX;

	if (e->nr_idle_scan) {
		/* because !--nr is the condition to stop scan */
		nr = e->nr_idle_scan[llc] + 1;
		if (nr == 1)
			return -1;
	}
	rp_why_set(p, true, "sis:scan");
	for (int j = 1; j <= e->ncpus; j++) {
		int c = (target + j) % e->ncpus;

		if (t->llc[c] != llc)
			continue;
		if (--nr <= 0)
			return -1;
		if (rp_idle(e, c))
			return c;
	}
	return -1;
}

int rp_select_idle_sibling(const struct rp_env *e, const struct rp_wakee *p,
			   int prev, int target)
{
	uint32_t tu = rp_task_util_est(p);
	int recent = -1, i;

	if (idle_fits(e, target, tu)) {
		rp_why_set(p, false, "sis:target");
		return target;
	}
	if (prev != target && rp_share_cache(e->topo, prev, target) &&
	    idle_fits(e, prev, tu)) {
		rp_why_set(p, false, "sis:prev");
		return prev;
	}
	if (p->waker_kthread && prev == p->waker_cpu && e->nr[prev] <= 1 &&
	    fits(e, prev, tu)) {
		rp_why_set(p, false, "sis:kthread");
		return prev;
	}
	if (p->recent_used_cpu) {
		recent = *p->recent_used_cpu;
		*p->recent_used_cpu = prev;
	}
	if (recent >= 0 && recent < e->ncpus && recent != prev &&
	    recent != target && rp_share_cache(e->topo, recent, target) &&
	    idle_fits(e, recent, tu)) {
		rp_why_set(p, false, "sis:recent");
		return recent;
	}
	if (e->asymmetric) {
		rp_why_set(p, true, "sis:capacity");
		i = rp_select_idle_capacity(e, p, target);
		return i >= 0 ? i : target;
	}
	if (e->topo->llc_size[e->topo->llc[target]] > 1) {
		i = idle_cpu_in_llc(e, p, target);
		if (i >= 0)
			return i;
	}
	rp_why_set(p, false, "sis:none-idle");
	return target;
}
