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
 *    same way from a CPU with 2 or more tasks than it, once per
 *    balance_interval x busy_factor (its LLC's CPUs x 16 ms: 32 ms on 2
 *    CPUs; an idle CPU's interval, its LLC's CPUs in ms, is a tick);
 *  - can_migrate_task()'s task_hot(): a task that left its CPU less than
 *    sysctl_sched_migration_cost (0.5 ms) ago is not pulled, unless the
 *    puller's tick-time balance found only such tasks more than
 *    cache_nice_tries (1) times in a row (nr_balance_failed); a newidle
 *    balance never pulls one;
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

#define MIGRATION_COST_NS 500000ull /* sysctl_sched_migration_cost */
#define CACHE_NICE_TRIES 1
#define BUSY_FACTOR 16

/* task_hot(): it left its CPU less than the migration cost ago. */
static bool hot(const struct sim *s, const struct sim_task *t)
{
	return s->now < t->off_ns + MIGRATION_COST_NS;
}

/* Whether dst's balance may pull cache-hot tasks now: its tick-time
 * balances failed more than cache_nice_tries times (dst -1: any). */
static bool hot_ok(const struct sim *s, int dst, bool tick)
{
	return dst < 0 || (tick && s->cpus[dst].lb_failed > CACHE_NICE_TRIES);
}

/* The first waiting task of cpu that may move to dst (any CPU: -1), cache
 * hot ones only if any_hot, its rq index, or -1. */
static int movable_as(const struct sim *s, int cpu, int dst, bool any_hot)
{
	const struct sim_cpu *c = &s->cpus[cpu];

	for (int k = 0; k < c->nrq; k++) {
		const struct sim_task *t = &s->tasks[c->rq[k]];

		if (t->pin < 0 && !t->rt &&
		    (dst < 0 || upin_allows(s, c->rq[k], dst)) &&
		    (any_hot || !hot(s, t)))
			return k;
	}
	return -1;
}

/* ... hot or not */
static int movable(const struct sim *s, int cpu, int dst)
{
	return movable_as(s, cpu, dst, true);
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
static int source(const struct sim *s, int dst, int min_nr, bool tick)
{
	bool any_hot = hot_ok(s, dst, tick);

	int best = -1;
	bool best_local = false;

	for (int p = 0; p < s->ncpus; p++) {
		int i = s->corder[p];
		bool local = s->cpus[i].cluster == s->cpus[dst].cluster;

		/* a CPU not running anything picks its own queue */
		if (i == dst || !s->cpus[i].nrq || nr_running(s, i) < min_nr ||
		    (s->cpus[i].curr < 0 && !s->cpus[i].in_busy0) ||
		    movable_as(s, i, dst, any_hot) < 0)
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

/* A waiting task of src to dst (a balance that succeeded). */
static void pull_from(struct sim *s, int src, int dst, bool tick)
{
	int k = movable_as(s, src, dst, hot_ok(s, dst, tick));

	s->cpus[dst].lb_failed = 0;

	sim_leave(s, s->cpus[src].rq[k], src, false);
	sim_enqueue(s, sim_rq_take(s, src, k), dst);
}

/*
 * A tick-time balance of dst that found nothing it may pull: a failure
 * if there was something to pull but for cache hotness.
 */
static void failed(struct sim *s, int dst, int min_nr)
{
	for (int i = 0; i < s->ncpus; i++)
		if (i != dst && s->cpus[i].curr >= 0 &&
		    nr_running(s, i) >= min_nr && movable(s, i, dst) >= 0) {
			s->cpus[dst].lb_failed++;
			return;
		}
}

/* Periodic balance of busy dst, once per interval: from a CPU with 2
 * tasks more. */
static void periodic_pull(struct sim *s, int dst)
{
	struct sim_cpu *c = &s->cpus[dst];
	int src, min_nr = nr_running(s, dst) + 2;
	uint64_t llc = (uint64_t)s->topo->llc_size[s->topo->llc[dst]];

	if (s->now < c->busy_lb_next)
		return;
	c->busy_lb_next = s->now + umin(llc * BUSY_FACTOR, 100) * 1000000ull -
			  TICK_NS / 2;
	src = source(s, dst, min_nr, true);
	if (src >= 0)
		pull_from(s, src, dst, true);
	else
		failed(s, dst, min_nr);
}

/*
 * SIS_UTIL's update_idle_cpu_scan(), at the periodic balance of each LLC
 * (here every tick, whatever the policy): nr_idle_scan = (1024 - min(x^2
 * x 117^2 / (10000 x 1024), 1024)) x the LLC's CPUs / 1024, x the LLC's
 * mean cpu_util() (max(util_avg, util_est), at most the capacity).
 */
static void idle_cpu_scan(struct sim *s)
{
	const struct rp_topo *t = s->topo;

	for (int l = 0; l < t->nllc; l++) {
		uint64_t sum = 0;

		for (int i = 0; i < s->ncpus; i++) {
			const struct sim_cpu *c = &s->cpus[i];
			uint64_t u, ue = 0;

			if (t->llc[i] != l)
				continue;
			sim_sync_cpu(s, i);
			u = c->pelt.util_avg;
			if (c->curr >= 0)
				ue = s->tasks[c->curr].ue_ewma;
			for (int k = 0; k < c->nrq; k++)
				ue += s->tasks[c->rq[k]].ue_ewma;
			if (ue > u)
				u = ue;
			sum += u < c->cap_orig ? u : c->cap_orig;
		}
		s->nr_idle_scan[l] = rp_sis_util_nr_scan(
			sum / (uint64_t)t->llc_size[l], t->llc_size[l]);
	}
}

/* At the tick, before the CPUs pick: periodic, misfit, active balance. */
void sim_balance_tick(struct sim *s)
{
	idle_cpu_scan(s);
	/* the periodic balance clears a sticky overutilised */
	if (!s->overutilised)
		s->over_sticky = false;
	if (!balancing(s))
		return;
	for (int p = 0; p < s->ncpus; p++) {
		int i = s->corder[p];

		if (s->cpus[i].in_busy0 || is_off(s, i))
			continue;
		if (!idle_cpu(s, i)) {
			periodic_pull(s, i);
		} else if (source(s, i, 0, true) < 0) {
			if (!misfit_pull(s, i) && !active_pull(s, i))
				failed(s, i, 0);
		} /* else sim_pick() pulls */
	}
}

/* An idle CPU pulls a waiting task from the busiest queue: idle balance
 * at its tick, else newidle balance. */
bool sim_pull(struct sim *s, int cpu, bool tick)
{
	int src;

	if (!balancing(s) || is_off(s, cpu))
		return false;
	src = source(s, cpu, 0, tick);
	if (src < 0) {
		if (tick)
			failed(s, cpu, 0);
		return false;
	}
	pull_from(s, src, cpu, tick);
	return true;
}
