// SPDX-License-Identifier: GPL-2.0-only
/*
 * EEVDF among each CPU's CFS tasks (kernel/sched/fair.c, v6.18:
 * docs/cfs-reference.md section 8), flat (no task groups), with the
 * features the recorded 6.18 kernels run: PLACE_LAG,
 * PLACE_DEADLINE_INITIAL, PLACE_REL_DEADLINE, RUN_TO_PARITY,
 * PREEMPT_SHORT (moot: every slice is the base slice), WAKEUP_PREEMPTION;
 * no NEXT_BUDDY, no HRTICK.
 *
 *  - virtual time runs at wall time x 1024 / the nice weight while the
 *    task runs (update_curr()); V is the weight-averaged vruntime of the
 *    CPU's CFS tasks, running or queued (avg_vruntime()); a task is
 *    eligible when its vruntime is not past V;
 *  - a woken task is placed at V minus its lag saved when it last left
 *    (inflated by (W + w) / W), deadline one slice of virtual time later
 *    (half a slice for a new task); one moved while runnable keeps its
 *    lag and its relative deadline;
 *  - the pick: the eligible task with the earliest deadline; the running
 *    one is kept while its slice is protected (vruntime below vprot: its
 *    deadline when picked, RUN_TO_PARITY with equal slices); ties go to
 *    the task queued first, never to the running one;
 *  - when the running task reaches its deadline it gets the next one and
 *    the CPU reschedules, as when its protection has run out with others
 *    waiting; this is seen only where update_curr() runs: the 4 ms tick,
 *    and a task joining or leaving the CPU (HRTICK off);
 *  - a wakeup preempts at once when the woken task becomes the pick
 *    (check_preempt_wakeup_fair()), or when the running task's slice
 *    turned out to be over.
 *
 * Not modelled: DELAY_DEQUEUE (a task that blocks while not eligible
 * leaves at once here, with its negative lag), custom slices, SCHED_IDLE
 * and SCHED_BATCH. The base slice: 0.70 ms x (1 + ilog2(min(CPUs, 8))).
 */
#include "replay/sim.h"

/* calc_delta_fair(): ns of wall time as virtual time for weight w. */
static int64_t vdelta(uint64_t d, uint32_t w)
{
	return (int64_t)(w == 1024 ? d : d * 1024 / w);
}

/* Whether task k is one of cpu's CFS entities (on_rq there). */
static bool cfs_task(const struct sim *s, int k)
{
	return k >= 0 && !s->tasks[k].rt;
}

/*
 * The CPU's CFS entities (running or queued) as sim_cpu.vsum and .vw sum
 * them: each from sim_eevdf_place() to sim_eevdf_leave() (the task then
 * joins and leaves the queue, or the running slot, of that CPU), its
 * vruntime's changes while there (update_curr()) added. Exact integer
 * sums: the same as summing the entities at each use, as this file did.
 */
static void vsum_join(struct sim_cpu *c, const struct sim_task *t)
{
	c->vsum += (__int128)t->vrt * t->weight;
	c->vw += t->weight;
}

static void vsum_leave(struct sim_cpu *c, const struct sim_task *t)
{
	c->vsum -= (__int128)t->vrt * t->weight;
	c->vw -= t->weight;
}

#ifdef SIM_CHECK_VSUM
#include <stdio.h>
#include <stdlib.h>

/* The sums as this file computed them before (SIM_CHECK_VSUM builds): the
 * entities' (vruntime - ref) x weight, and their weights. */
static void vsum_check(struct sim *s, int cpu, int skip, __int128 sum,
		       uint64_t w)
{
	struct sim_cpu *c = &s->cpus[cpu];
	__int128 x = 0;
	uint64_t y = 0;
	int64_t ref = c->v0;

	if (cfs_task(s, c->curr) && c->curr != skip) {
		x += (__int128)(s->tasks[c->curr].vrt - ref) *
		     s->tasks[c->curr].weight;
		y += s->tasks[c->curr].weight;
	}
	for (int k = 0; k < c->nrq; k++) {
		const struct sim_task *t = &s->tasks[c->rq[k]];

		if (t->rt || c->rq[k] == skip)
			continue;
		x += (__int128)(t->vrt - ref) * t->weight;
		y += t->weight;
	}
	if (x != sum || y != w) {
		fprintf(stderr, "sim-eevdf: vsum differs on CPU %d\n", cpu);
		abort();
	}
}
#else
#define vsum_check(s, cpu, skip, sum, w) ((void)0)
#endif

/* Sum over cpu's CFS entities of (vruntime - ref) x weight. */
static __int128 vsum_rel(const struct sim_cpu *c, int64_t ref)
{
	return c->vsum - (__int128)ref * (__int128)c->vw;
}

/*
 * avg_vruntime() without entity `skip` (-1: none; never one of cpu's
 * entities here: a task is placed before it joins): V, and through *w the
 * weight summed (0: no task, V is the CPU's last one).
 */
static int64_t avg_v(struct sim *s, int cpu, int skip, uint64_t *wsum)
{
	struct sim_cpu *c = &s->cpus[cpu];
	int64_t ref = c->v0;
	__int128 sum = vsum_rel(c, ref);
	uint64_t w = c->vw;

	vsum_check(s, cpu, skip, sum, w);
	*wsum = w;
	if (!w)
		return ref;
	/* the left bias of avg_vruntime(): a floor */
	if (sum < 0)
		sum -= (__int128)w - 1;
	return ref + (int64_t)(sum / (__int128)w);
}

/* The weighted vruntimes vruntime_eligible() compares with, taken once
 * per pick (nothing changes during one): have, once taken. */
struct vsum {
	bool have;
	__int128 sum;
	uint64_t w;
	int64_t ref;
};

/* vruntime_eligible(): v is not past V (computed without division). */
static bool eligible(struct sim *s, int cpu, struct vsum *q, int64_t v)
{
	struct sim_cpu *c = &s->cpus[cpu];

	if (!q->have) {
		q->have = true;
		q->ref = c->v0;
		q->sum = vsum_rel(c, q->ref);
		q->w = c->vw;
		vsum_check(s, cpu, -1, q->sum, q->w);
	}
	return q->sum >= (__int128)(v - q->ref) * (__int128)q->w;
}

/* CFS tasks on cpu, running or queued. */
static int nr_cfs(const struct sim *s, int cpu)
{
	const struct sim_cpu *c = &s->cpus[cpu];

	return cfs_task(s, c->curr) + c->nrq - c->nrq_rt;
}

static bool protected(const struct sim_task *t)
{
	return t->vprot > t->vrt;
}

/*
 * update_curr(): the running CFS task's vruntime up to now, its next
 * deadline once it reached the last one. Whether the CPU should
 * reschedule: it did, or its protection ran out, with another CFS task
 * there (no time passed: nothing).
 */
bool sim_eevdf_update_curr(struct sim *s, int cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];
	struct sim_task *t;
	bool resched = false;
	int64_t d;

	if (!cfs_task(s, c->curr))
		return false;
	t = &s->tasks[c->curr];
	if (s->now <= c->exec_start)
		return false;
	d = vdelta(s->now - c->exec_start, t->weight);
	t->vrt += d;
	c->vsum += (__int128)d * t->weight;
	c->exec_start = s->now;
	if (t->vrt >= t->dl) {
		t->dl = t->vrt + vdelta(s->base_slice, t->weight);
		resched = true;
	}
	if (nr_cfs(s, cpu) < 2)
		return false;
	return resched || !protected(t);
}

/*
 * place_entity(): the task joins cpu (not yet in its queue; in its sums
 * from here). wakeup: it slept (its saved lag, a new deadline, half a
 * slice if new); else it moved while runnable (its saved lag and relative
 * deadline).
 */
void sim_eevdf_place(struct sim *s, int task, int cpu, bool wakeup)
{
	struct sim_task *t = &s->tasks[task];
	uint64_t w;
	int64_t v, lag = 0, vslice = vdelta(s->base_slice, t->weight);

	if (t->rt)
		return;
	/* update_deadline()'s resched_curr(): the running one's slice ended */
	if (sim_eevdf_update_curr(s, cpu))
		s->cpus[cpu].slice_end = s->now;
	v = avg_v(s, cpu, task, &w);
	if (w && t->vlag) {
		/* inflated so that the lag after placement is vlag */
		__int128 l = (__int128)t->vlag * (__int128)(w + t->weight);

		lag = (int64_t)(l / (__int128)w);
	}
	t->vrt = v - lag;
	vsum_join(&s->cpus[cpu], t);
	if (!wakeup && t->rel_dl) {
		t->dl += t->vrt;
		t->rel_dl = false;
		return;
	}
	t->rel_dl = false;
	if (t->initial)
		vslice /= 2;
	t->initial = false;
	t->dl = t->vrt + vslice;
}

/*
 * dequeue_entity(): the task leaves cpu (still counted there, out of its
 * sums from here): its lag,
 * clamped to the virtual time of max(2 slices, a tick); moving while
 * runnable, its deadline becomes relative. The CPU's V is kept for the
 * next task to join an empty queue.
 */
void sim_eevdf_leave(struct sim *s, int task, int cpu, bool sleep)
{
	struct sim_cpu *c = &s->cpus[cpu];
	struct sim_task *t = &s->tasks[task];
	uint64_t w, span = 2 * s->base_slice > TICK_NS ? 2 * s->base_slice
						       : TICK_NS;
	int64_t v, limit = vdelta(span, t->weight);

	if (t->rt)
		return;
	/* a waiting task leaving: the running one may be due to yield */
	if (sim_eevdf_update_curr(s, cpu) && task != c->curr)
		c->slice_end = s->now;
	v = avg_v(s, cpu, -1, &w);
	vsum_leave(c, t);
	t->vlag = v - t->vrt;
	if (t->vlag > limit)
		t->vlag = limit;
	if (t->vlag < -limit)
		t->vlag = -limit;
	if (!sleep) {
		t->dl -= t->vrt;
		t->rel_dl = true;
	}
	c->v0 = v;
}

/*
 * __pick_eevdf(): rq index of the task to run (-1: the running one),
 * among cpu's CFS tasks; protect: the running one is kept while eligible
 * and protected. -2: no CFS task.
 */
static int pick(struct sim *s, int cpu, bool protect)
{
	struct sim_cpu *c = &s->cpus[cpu];
	int best = -2, n = nr_cfs(s, cpu);
	bool curr = cfs_task(s, c->curr);
	struct vsum q = {.have = false};

	if (!n)
		return -2;
	if (n == 1) {
		if (curr)
			return -1;
		for (int k = 0; k < c->nrq; k++)
			if (!s->tasks[c->rq[k]].rt)
				return k;
	}
	if (curr && !eligible(s, cpu, &q, s->tasks[c->curr].vrt))
		curr = false;
	if (curr && protect && protected(&s->tasks[c->curr]))
		return -1;
	for (int k = 0; k < c->nrq; k++) {
		const struct sim_task *t = &s->tasks[c->rq[k]];

		if (t->rt || (best >= 0 && t->dl >= s->tasks[c->rq[best]].dl))
			continue;
		if (eligible(s, cpu, &q, t->vrt))
			best = k;
	}
	if (best < 0 && !curr) {
		/* rounding left none eligible: the earliest deadline */
		for (int k = 0; k < c->nrq; k++)
			if (!s->tasks[c->rq[k]].rt &&
			    (best < 0 ||
			     s->tasks[c->rq[k]].dl < s->tasks[c->rq[best]].dl))
				best = k;
		return best;
	}
	if (best < 0 ||
	    (curr && s->tasks[c->curr].dl < s->tasks[c->rq[best]].dl))
		return -1;
	return best;
}

/*
 * check_preempt_wakeup_fair(): task has just joined cpu's queue; whether
 * the running CFS task is to be preempted now: update_curr() says its
 * slice is over, or the newcomer became the pick.
 */
bool sim_eevdf_preempt(struct sim *s, int cpu, int task)
{
	struct sim_cpu *c = &s->cpus[cpu];
	int k;

	if (!cfs_task(s, c->curr) || s->tasks[task].rt)
		return false;
	if (sim_eevdf_update_curr(s, cpu))
		return true;
	k = pick(s, cpu, true);
	return k >= 0 && c->rq[k] == task;
}

/* pick_eevdf() at a reschedule: rq index, -1 the running task, -2 none. */
int sim_eevdf_pick(struct sim *s, int cpu)
{
	sim_eevdf_update_curr(s, cpu);
	return pick(s, cpu, true);
}

/*
 * set_next_entity(): cpu's new running task starts its protected slice
 * (renew: it was not running just before; a task picked again keeps the
 * protection it had, none).
 */
void sim_eevdf_set_next(struct sim *s, int cpu, bool renew)
{
	struct sim_cpu *c = &s->cpus[cpu];

	c->exec_start = s->now;
	if (cfs_task(s, c->curr) && renew)
		s->tasks[c->curr].vprot = s->tasks[c->curr].dl;
}
