// SPDX-License-Identifier: GPL-2.0-only
/*
 * Load balancing in the simulation (docs/replay.md "Load balancing"), by
 * each policy's struct rp_balance: idle and newidle pulls, periodic
 * balance, misfit migration, active balance.
 */
#include "replay/sim.h"

/*
 * ---- Load balancing ----
 *
 * What each policy's scheduler does besides placing wakeups, by its
 * rp_balance rules (none at all, or only while overutilised):
 *  - idle and newidle balance: a CPU with nothing to run, at its tick or
 *    as it becomes idle, pulls a waiting task: from its own cluster first,
 *    from another only if that cluster runs more tasks than it has CPUs
 *    (may_pull()), the queue with the most waiting first (sim_pull(), from
 *    sim_pick());
 *  - periodic balance, at the tick: a busy CPU pulls a waiting task the
 *    same way from a CPU with 2 or more tasks than it;
 *  - misfit migration (asymmetric platforms, not rp_balance.no_misfit): at
 *    the tick, an idle CPU takes the running task of a CPU of smaller
 *    capacity that the task no longer fits (util above 80% of it), the
 *    biggest such task first;
 *  - active balance, at the tick: an idle CPU with nothing to pull takes
 *    the running task of a CPU whose waiting tasks are all pinned there.
 * Running tasks move by preemption: switched out runnable, queued on the
 * other CPU (a migration).
 */
static bool balancing(const struct sim *s)
{
	const struct rp_balance *b = &s->policy->balance;

	return !b->off && (!b->over_gated || over_seen(s));
}

/* Whether --pin lets task run on cpu. */
static bool upin_allows(const struct sim *s, int task, int cpu)
{
	return !s->tasks[task].upin || rp_pin_allows(s->tasks[task].upin, cpu);
}

/* The first waiting task of cpu that may move to dst (any CPU: -1), its rq
 * index, or -1. */
static int movable(const struct sim *s, int cpu, int dst)
{
	const struct sim_cpu *c = &s->cpus[cpu];

	for (int k = 0; k < c->nrq; k++) {
		const struct sim_task *t = &s->tasks[c->rq[k]];

		if (t->pin < 0 && !t->rt &&
		    (dst < 0 || upin_allows(s, c->rq[k], dst)))
			return k;
	}
	return -1;
}

static bool idle_cpu(const struct sim *s, int cpu)
{
	const struct sim_cpu *c = &s->cpus[cpu];

	return c->curr < 0 && !c->nrq && !c->in_busy0;
}

/* Misfit: the biggest running task that does not fit its smaller CPU. */
static bool misfit_pull(struct sim *s, int dst)
{
	uint32_t best_util = 0;
	int src = -1;

	if (!s->asymmetric || s->policy->balance.no_misfit)
		return false;
	for (int p = 0; p < s->ncpus; p++) {
		int i = s->corder[p];
		struct sim_cpu *c = &s->cpus[i];
		uint32_t u;

		if (c->curr < 0 || c->cap_orig >= s->cpus[dst].cap_orig ||
		    s->tasks[c->curr].pin >= 0 || s->tasks[c->curr].rt ||
		    !upin_allows(s, c->curr, dst))
			continue;
		sim_sync_cpu(s, i);
		u = s->tasks[c->curr].pelt.util_avg;
		if (u >= c->over_util && u > best_util) {
			best_util = u;
			src = i;
		}
	}
	if (src < 0)
		return false;
	sim_migrate_running(s, src, dst);
	return true;
}

/* Active balance: a running task whose CPU's waiting tasks cannot move. */
static bool active_pull(struct sim *s, int dst)
{
	for (int p = 0; p < s->ncpus; p++) {
		int i = s->corder[p];
		struct sim_cpu *c = &s->cpus[i];

		if (i == dst || c->curr < 0 || !c->nrq ||
		    movable(s, i, dst) >= 0 || s->tasks[c->curr].pin >= 0 ||
		    s->tasks[c->curr].rt || !upin_allows(s, c->curr, dst))
			continue;
		sim_migrate_running(s, i, dst);
		return true;
	}
	return false;
}

/*
 * Whether dst may pull from src's queue: within a cluster always; across
 * clusters only when src's cluster runs more tasks than it has CPUs (3.15
 * and mainline find_busiest_group(): for an idle CPU, a group running no
 * more tasks than its CPUs is balanced).
 */
static bool may_pull(const struct sim *s, int src, int dst)
{
	int cl = s->cpus[src].cluster, n = 0, ncpu = 0;

	if (cl == s->cpus[dst].cluster)
		return true;
	for (int i = 0; i < s->ncpus; i++)
		if (s->cpus[i].cluster == cl) {
			n += nr_running(s, i);
			ncpu++;
		}
	return n > ncpu;
}

/*
 * The CPU dst pulls a waiting task from: one with a task that may move,
 * at least min_nr tasks, that dst may pull from; its own cluster's first,
 * then the most waiting, then the first in sim.corder. -1: none.
 */
static int source(const struct sim *s, int dst, int min_nr)
{
	int best = -1;
	bool best_local = false;

	for (int p = 0; p < s->ncpus; p++) {
		int i = s->corder[p];
		bool local = s->cpus[i].cluster == s->cpus[dst].cluster;

		/* a CPU not running anything picks its own queue */
		if (i == dst || !s->cpus[i].nrq || nr_running(s, i) < min_nr ||
		    (s->cpus[i].curr < 0 && !s->cpus[i].in_busy0) ||
		    movable(s, i, dst) < 0)
			continue;
		if (best >= 0 && (best_local && !local))
			continue;
		if (best >= 0 && best_local == local &&
		    s->cpus[i].nrq <= s->cpus[best].nrq)
			continue;
		if (!may_pull(s, i, dst))
			continue;
		best = i;
		best_local = local;
	}
	return best;
}

/* Periodic balance of busy dst: from a CPU with 2 tasks more. */
static void periodic_pull(struct sim *s, int dst)
{
	int src = source(s, dst, nr_running(s, dst) + 2);

	if (src >= 0)
		sim_enqueue(s, sim_rq_take(s, src, movable(s, src, dst)), dst);
}

/* At the tick, before the CPUs pick: periodic, misfit, active balance. */
void sim_balance_tick(struct sim *s)
{
	/* the periodic balance clears a sticky overutilised */
	if (!s->overutilised)
		s->over_sticky = false;
	if (!balancing(s))
		return;
	for (int p = 0; p < s->ncpus; p++) {
		int i = s->corder[p];

		if (s->cpus[i].in_busy0 || is_off(s, i))
			continue;
		if (!idle_cpu(s, i))
			periodic_pull(s, i);
		else if (source(s, i, 0) < 0 && !misfit_pull(s, i))
			active_pull(s, i); /* else sim_pick() pulls */
	}
}

/* An idle CPU pulls a waiting task from the busiest queue (idle balance). */
bool sim_pull(struct sim *s, int cpu)
{
	int src;

	if (!balancing(s) || is_off(s, cpu))
		return false;
	src = source(s, cpu, 0);
	if (src < 0)
		return false;
	sim_enqueue(s, sim_rq_take(s, src, movable(s, src, cpu)), cpu);
	return true;
}
