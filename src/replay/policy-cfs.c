// SPDX-License-Identifier: GPL-2.0-only
/*
 * `cfs`: mainline's select_task_rq_fair() (kernel/sched/fair.c, v6.18,
 * fair.c:8569; the 6.12-6.18 generation, EEVDF, no energy model:
 * docs/cfs-reference.md section 1) on a platform without
 * sched_energy_enabled():
 *
 *  - a wakeup takes the fast path (no default domain has
 *    SD_BALANCE_WAKE): target is prev, or, when the wakeup is not
 *    wake_wide() and the waker's CPU is another one (every domain has
 *    SD_WAKE_AFFINE and the top one spans every CPU), what wake_affine()
 *    chooses between the waker's CPU and prev; then
 *    select_idle_sibling(p, prev, target);
 *  - a fork goes the slow path: sched_balance_find_dst_cpu() from the
 *    parent's CPU (find-idlest.c); its util starts as
 *    post_init_entity_util_avg() on the CPU chosen (the simulator's);
 *  - exec balancing is not seen in the recordings (no sched_process_exec):
 *    none.
 */
#include "replay/policy.h"

static int select_cfs(const struct rp_env *e, const struct rp_wakee *p)
{
	int prev = p->prev_cpu, cpu = p->waker_cpu, target = prev;

	if (!e->topo)
		return prev;
	if (cpu >= 0 && cpu < e->ncpus && cpu != prev && !rp_wake_wide(e, p))
		target = rp_wake_affine(e, p, cpu, prev);
	return rp_select_idle_sibling(e, p, prev, target);
}

/* WF_FORK: the slow path from the forking CPU (the parent's). */
static int select_cfs_fork(const struct rp_env *e, const struct rp_wakee *p)
{
	int cpu = p->waker_cpu >= 0 && p->waker_cpu < e->ncpus ? p->waker_cpu
								: p->prev_cpu;

	if (!e->topo)
		return cpu;
	return rp_find_idlest_cpu(e, p, cpu);
}

const struct rp_policy rp_policy_cfs = {
	.name = "cfs",
	.summary = "mainline 6.18 select_task_rq_fair: wake_affine, "
		   "select_idle_sibling in the LLC; forks to the idlest group",
	.select_cpu = select_cfs,
	.select_fork = select_cfs_fork,
	.post_init_util = true,
	.reads_load = true,
	.reads_util_est = true,
	.reads_idle = true,
};
