// SPDX-License-Identifier: GPL-2.0-only
/*
 * PELT load in the simulation (kernel/sched/pelt.c's load and runnable
 * sums, flat: no task groups): what wake_affine_weight(), the
 * idlest-group search and post_init_entity_util_avg() read.
 *
 *  - a CFS task's signal accumulates its runnable time (queued or
 *    running): its load_avg is that x its nice weight / 1024
 *    (task_h_load() without groups), its runnable_avg that alone;
 *  - a CPU's load signal accumulates the weights of its runnable CFS
 *    tasks, its runnable signal 1024 per runnable CFS task: cpu_load()
 *    and cpu_runnable(). A task's sums are attached to the CPU it was
 *    last runnable on and stay there, decaying, while it sleeps; they move
 *    with it (attach/detach);
 *  - a new task starts with its full weight (init_entity_runnable_average()
 *    sets load_avg to the weight; attach makes load_sum the whole
 *    divider), other tasks from nothing, as their util.
 *
 * Each signal is brought up to date when its inputs change and when read;
 * a CPU's when read at a wakeup only if the update would cross a period
 * (state/pelt-reads.h: the skipped reads, the last at s->load_read_t,
 * are made before its next update, which gives the same figures).
 * For a policy that reads none of them (rp_policy.reads_load false) none
 * is kept: joining, leaving and a new task's start do nothing.
 */
#include "replay/sim.h"
#include "state/pelt-reads.h"

/* c's load_avg and runnable_avg as the policies read them (sim-wake.c) */
static inline void publish(struct sim *s, const struct sim_cpu *c)
{
	int i = (int)(c - s->cpus);

	s->env_load[i] = c->lload.util_avg;
	s->env_runnable[i] = c->lrunnable.util_avg;
}

static uint32_t avg_of(const struct ea_pelt *p)
{
	return (uint32_t)(p->util_sum /
			  (EA_PELT_LOAD_AVG_MAX - 1024 + p->period_contrib));
}

/* c's signals crossing a period, or first started: the reads skipped
 * made first; when they next cross (lb, and s->load_next no later); the
 * policies' view of them (s->env_load, s->env_runnable) */
static void __attribute__((noinline))
cpu_sync_slow(struct sim *s, struct sim_cpu *c)
{
	uint64_t b;

	ea_pelt_update_read(
		&c->lload, s->load_read_t, s->now, c->lw > 0,
		(uint32_t)(c->lw > UINT32_MAX ? UINT32_MAX : c->lw));
	ea_pelt_update_read(&c->lrunnable, s->load_read_t, s->now, c->lnr > 0,
			    1024 * c->lnr);
	b = umin(ea_pelt_next_period(&c->lload),
		 ea_pelt_next_period(&c->lrunnable));
	c->lb = b;
	if (b < s->load_next)
		s->load_next = b;
	publish(s, c);
}

/*
 * c's signals up to date. Within their period (before lb) the update
 * adds what the skipped reads would have added and more: the reads need
 * not be made first.
 */
static inline void cpu_sync(struct sim *s, struct sim_cpu *c)
{
	if (s->now >= c->lb) {
		cpu_sync_slow(s, c);
		return;
	}
	ea_pelt_update_within(
		&c->lload, s->now, c->lw > 0,
		(uint32_t)(c->lw > UINT32_MAX ? UINT32_MAX : c->lw));
	ea_pelt_update_within(&c->lrunnable, s->now, c->lnr > 0, 1024 * c->lnr);
}

/* t's signal up to date: its skipped reads (sim_load_task(), the last at
 * lread_t) made first when the update crosses a period */
static void task_sync(struct sim *s, struct sim_task *t)
{
	if (s->now < ea_pelt_next_period(&t->lsig))
		ea_pelt_update_within(&t->lsig, s->now, t->lrun, 1024);
	else
		ea_pelt_update_read(&t->lsig, t->lread_t, s->now, t->lrun,
				    1024);
}

/* The task's sums into (sign 1) or out of (-1) cpu's. */
static void move_sums(struct sim *s, struct sim_task *t, int cpu, int sign)
{
	struct sim_cpu *c = &s->cpus[cpu];
	uint64_t l = t->lsig.util_sum / 1024 * t->weight, r = t->lsig.util_sum;

	if (sign > 0) {
		c->lload.util_sum += l;
		c->lrunnable.util_sum += r;
	} else {
		c->lload.util_sum =
			c->lload.util_sum > l ? c->lload.util_sum - l : 0;
		c->lrunnable.util_sum = c->lrunnable.util_sum > r
						? c->lrunnable.util_sum - r
						: 0;
	}
	c->lload.util_avg = avg_of(&c->lload);
	c->lrunnable.util_avg = avg_of(&c->lrunnable);
	publish(s, c);
}

/* The task becomes runnable on cpu (woken there, or moved there). */
void sim_load_join(struct sim *s, int task, int cpu)
{
	struct sim_task *t = &s->tasks[task];
	struct sim_cpu *c = &s->cpus[cpu];

	if (t->rt || !s->policy->reads_load)
		return;
	task_sync(s, t);
	cpu_sync(s, c);
	if (t->load_cpu != cpu) {
		if (t->load_cpu >= 0) {
			cpu_sync(s, &s->cpus[t->load_cpu]);
			move_sums(s, t, t->load_cpu, -1);
		}
		move_sums(s, t, cpu, 1);
		t->load_cpu = cpu;
	}
	c->lw += t->weight;
	c->lnr++;
	t->lrun = true;
}

/* The task stops being runnable on cpu (it sleeps, or moves away). */
void sim_load_leave(struct sim *s, int task, int cpu)
{
	struct sim_task *t = &s->tasks[task];
	struct sim_cpu *c = &s->cpus[cpu];

	if (t->rt || !t->lrun || !s->policy->reads_load)
		return;
	task_sync(s, t);
	cpu_sync(s, c);
	c->lw = c->lw > t->weight ? c->lw - t->weight : 0;
	c->lnr = c->lnr ? c->lnr - 1 : 0;
	t->lrun = false;
}

uint32_t sim_load_cpu(struct sim *s, int cpu)
{
	cpu_sync(s, &s->cpus[cpu]);
	return s->cpus[cpu].lload.util_avg;
}

/*
 * Every CPU's load_avg and runnable_avg into s->env_load and
 * s->env_runnable, as if each CPU's signals were brought up to date: those
 * whose update would cross a period are (no CPU's before s->load_next);
 * the others' update changes no util_avg, and is made good by their next
 * (cpu_sync()). The arrays hold every CPU's figures as they change.
 */
void sim_load_cpus(struct sim *s)
{
	if (s->now >= s->load_next) {
		s->load_next = UINT64_MAX;
		for (int i = 0; i < s->ncpus; i++) {
			struct sim_cpu *c = &s->cpus[i];

			if (c->lb <= s->now)
				cpu_sync_slow(s, c);
			else if (c->lb < s->load_next)
				s->load_next = c->lb;
		}
	}
	s->load_read_t = s->now;
}

uint32_t sim_load_task(struct sim *s, int task)
{
	struct sim_task *t = &s->tasks[task];

	/* a read within the period changes no util_avg: skipped */
	if (s->now < ea_pelt_next_period(&t->lsig))
		t->lread_t = s->now;
	else
		task_sync(s, t);
	return (uint32_t)((uint64_t)t->lsig.util_avg * t->weight / 1024);
}

/* init_entity_runnable_average() for a new task, before it joins. */
void sim_load_new_task(struct sim *s, int task)
{
	struct sim_task *t = &s->tasks[task];

	if (!s->policy->reads_load)
		return;
	t->lsig = (struct ea_pelt){.last_ns = s->now, .started = true};
	t->lsig.util_sum = (uint64_t)(EA_PELT_LOAD_AVG_MAX - 1024) * 1024;
	t->lsig.util_avg = 1024;
}
