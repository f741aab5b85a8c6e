// SPDX-License-Identifier: GPL-2.0-only
/*
 * Run queues of the simulation: per CPU the waiting tasks, RT tasks first
 * (FIFO) then CFS ones (docs/replay.md "Scheduling classes"); a task
 * queued (its util and load attached to the CPU's signals, its EEVDF
 * placement, the preemption it causes: sim-eevdf.c) or leaving (its lag),
 * a running task moved to another CPU's queue, the next task to run (an
 * RT task, else EEVDF's pick).
 */
#include <stdlib.h>
#include <string.h>

#include "replay/sim.h"

#define RR_SLICE_NS 6000000ull
#define RR_MIN_SLICE_NS 750000ull

int sim_rq_push(struct sim *s, int cpu, int task)
{
	struct sim_cpu *c = &s->cpus[cpu];

	if (c->nrq == c->rq_cap) {
		int n = c->rq_cap ? c->rq_cap * 2 : 8;
		int *p = realloc(c->rq, n * sizeof(*p));

		if (!p) {
			sim_fail(s, "out of memory");
			return -1;
		}
		c->rq = p;
		c->rq_cap = n;
	}
	c->rq[c->nrq++] = task;
	c->nrq_rt += s->tasks[task].rt;
	touch(s, cpu);
	s->tasks[task].wait_from = s->now;
	return 0;
}

/* Move the task last queued on cpu to just after the RT tasks waiting. */
void sim_rq_last_first(struct sim *s, int cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];
	int at = 0, task = c->rq[c->nrq - 1];

	while (at < c->nrq - 1 && s->tasks[c->rq[at]].rt)
		at++;
	memmove(c->rq + at + 1, c->rq + at, (c->nrq - 1 - at) * sizeof(int));
	c->rq[at] = task;
}

/*
 * Queue an RT task before the CFS tasks waiting (after the RT ones), and
 * have a CFS task running there preempted when the CPU next picks.
 */
static void rq_push_rt(struct sim *s, int cpu, int task)
{
	struct sim_cpu *c = &s->cpus[cpu];

	if (sim_rq_push(s, cpu, task))
		return;
	sim_rq_last_first(s, cpu);
	if (c->curr >= 0 && !s->tasks[c->curr].rt)
		c->slice_end = s->now;
}

int sim_rq_take(struct sim *s, int cpu, int at)
{
	struct sim_cpu *c = &s->cpus[cpu];
	int task = c->rq[at], *rq = c->rq, n = c->nrq - 1;

	/* a few tasks: in place, not memmove()'s call */
	for (int k = at; k < n; k++)
		rq[k] = rq[k + 1];
	c->nrq = n;
	c->nrq_rt -= s->tasks[task].rt;
	touch(s, cpu);
	/* a demand that ended while it waited waited until then */
	s->wait_ns += in_win(s, s->tasks[task].wait_from,
			     umin(s->now, s->tasks[task].until));
	return task;
}

/* Move the task's utilisation to cpu's signal (attach/detach). */
static void attach(struct sim *s, int task, int cpu)
{
	struct sim_task *t = &s->tasks[task];

	pelt_update(&t->pelt, s->now, false, 0);
	if (t->pelt_cpu == cpu)
		return;
	if (t->pelt_cpu >= 0) {
		sim_sync_cpu(s, t->pelt_cpu);
		ea_pelt_detach(&s->cpus[t->pelt_cpu].pelt, &t->pelt);
	}
	sim_sync_cpu(s, cpu);
	ea_pelt_attach(&s->cpus[cpu].pelt, &t->pelt);
	s->util_dirty = true;
	s->over_stale = true;
	t->pelt_cpu = cpu;
}

/*
 * The task joins cpu's queue: woken (it was not runnable), or moved there
 * (sim_leave() took it off another CPU). A CFS task woken or moved next
 * to a running CFS task preempts it at once if EEVDF says so
 * (check_preempt_wakeup_fair()).
 */
void sim_enqueue(struct sim *s, int task, int cpu)
{
	struct sim_task *t = &s->tasks[task];
	struct sim_cpu *c = &s->cpus[cpu];
	bool wakeup = !t->runnable;

	if (t->cpu >= 0 && t->cpu != cpu)
		s->migrations++;
	t->cpu = cpu;
	t->runnable = true;
	attach(s, task, cpu);
	sim_load_join(s, task, cpu);
	if (t->rt) {
		rq_push_rt(s, cpu, task);
		return;
	}
	if (sim_round_robin(s)) {
		/* a task joining a running one: its half slice ends */
		if (sim_rq_push(s, cpu, task))
			return;
		if (c->curr >= 0 && c->slice_end == UINT64_MAX &&
		    !s->tasks[c->curr].rt)
			c->slice_end = s->now + RR_SLICE_NS / 2;
		return;
	}
	sim_eevdf_place(s, task, cpu, wakeup);
	if (sim_rq_push(s, cpu, task))
		return;
	if (sim_eevdf_preempt(s, cpu, task))
		c->slice_end = s->now;
}

/* The task leaves cpu, where it runs or waits (still there): it sleeps,
 * or moves to another CPU (sim_enqueue() next). */
void sim_leave(struct sim *s, int task, int cpu, bool sleep)
{
	if (!sim_round_robin(s))
		sim_eevdf_leave(s, task, cpu, sleep);
	sim_load_leave(s, task, cpu);
}

/* Move the task running on src to dst's queue (it stays runnable). */
void sim_migrate_running(struct sim *s, int src, int dst)
{
	struct sim_cpu *c = &s->cpus[src];
	int task = c->curr;

	sim_sync_cpu(s, src);
	sim_leave(s, task, src, false);
	c->curr = -1;
	c->slice_end = UINT64_MAX;
	sim_set_pelt_b(s, c);
	touch(s, src);
	sim_enqueue(s, task, dst);
}

/*
 * Round robin (sim_round_robin()): the running CFS task's slice, 6 ms x
 * its weight / the weight of the CFS tasks there (sched_slice() before
 * EEVDF), at least 0.75 ms.
 */
uint64_t sim_rr_slice(const struct sim *s, int cpu)
{
	const struct sim_cpu *c = &s->cpus[cpu];
	uint64_t w = s->tasks[c->curr].weight, sum = w, sl;

	if (s->tasks[c->curr].rt)
		return UINT64_MAX;
	for (int k = 0; k < c->nrq; k++)
		if (!s->tasks[c->rq[k]].rt)
			sum += s->tasks[c->rq[k]].weight;
	sl = RR_SLICE_NS * w / sum;
	return sl < RR_MIN_SLICE_NS ? RR_MIN_SLICE_NS : sl;
}

/*
 * The next task of cpu's queue starts running: the first RT task, else
 * EEVDF's pick among the CFS ones. Its signal is brought up to now first,
 * as not running: run_cpu() updates it as running from its last update
 * on, and the time it waited in the queue is not running time (a task
 * sharing a CPU with three others, running a quarter of the time, has a
 * util_avg towards a quarter of the capacity, not all of it).
 */
void sim_run_next(struct sim *s, int cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];
	int at = 0;

	if (!s->tasks[c->rq[0]].rt && !sim_round_robin(s)) {
		at = sim_eevdf_pick(s, cpu);
		if (at < 0)
			at = 0;
	}
	c->curr = sim_rq_take(s, cpu, at);
	c->curr_step = s->nstep;
	sim_eevdf_set_next(s, cpu, true);
	if (c->curr >= 0)
		pelt_update(&s->tasks[c->curr].pelt, s->now, false, 0);
}
