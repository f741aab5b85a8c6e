// SPDX-License-Identifier: GPL-2.0-only
/*
 * The per-CPU state machine: applies events to each CPU's running task,
 * cpuidle state and frequency, derives the state consumers see, and reports
 * every change (with PELT kept up to date along the way).
 */
#include <stdlib.h>
#include <string.h>

#include "state/cpu.h"
#include "state/task-switch.h"

static void cpu_init_one(struct ea_state *s, int i)
{
	struct ea_cpu *c = &s->cpus[i];
	const struct la_cpu *la = la_cpu(&s->la, i);

	struct la_cpu far;
	struct ea_event ev;
	bool lost = false;

	memset(c, 0, sizeof(*c));
	c->since = s->first_ts;
	c->flags = EA_INF_START;
	c->cpuidle_state = (int16_t)s->cfg.swapper_idle_state;
	if (!(la && la->seen) && s->cfg.first_event &&
	    s->cfg.first_event(s->cfg.first_ctx, i, &ev, &lost) > 0) {
		/* Its first record comes after the look-ahead: read ahead. */
		memset(&far, 0, sizeof(far));
		la_first_sight(&far, &ev, ev.type == EA_EV_SWITCH ?
					   ev.sw.prev_pid : ev.cur_pid);
		far.has_cpuidle = ev.type == EA_EV_IDLE;
		far.lost_first = lost;
		la = &far;
		s->counts.start_far++;
	}
	if (la && la->seen) {
		c->curr = la->init_pid;
		c->has_cpuidle = la->has_cpuidle;
		c->in_cpuidle = !la->init_busy;
		if (la->init_unknown || la->tentative) {
			c->flags |= EA_INF_UNKNOWN;
			c->cpuidle_state = (int16_t)s->cfg.unknown_idle_state;
		}
		if (la->lost_first)
			c->flags |= EA_INF_UNKNOWN | EA_INF_LOST;
		if (c->curr > 0 && s->track_tasks) {
			/* it ran from the start: its runtime counts from there */
			struct ea_task *t = task_get(s, c->curr, NULL);

			if (t && t->run == EA_TASK_UNKNOWN) {
				t->run = EA_TASK_RUNNING;
				t->cpu = i;
				t->since = s->first_ts;
			}
		}
	} else {
		/* No event at all: unknown, priced idle in the unknown state;
		 * or offline, if the caller says so. */
		c->curr = 0;
		c->has_cpuidle = true;
		c->in_cpuidle = true;
		c->cpuidle_state = (int16_t)s->cfg.unknown_idle_state;
		s->counts.start_guessed++;
		if (s->cfg.absent_offline) {
			c->offline = true;
			s->counts.absent_offline++;
		} else {
			c->flags |= EA_INF_UNKNOWN;
		}
	}
}

static inline struct ea_cpu_state derive(const struct ea_state *s,
					   const struct ea_cpu *c)
{
	struct ea_cpu_state st;

	if (s->suspended || c->offline) {
		st.mode = s->suspended ? EA_CPU_SUSPENDED : EA_CPU_OFFLINE;
		st.freq_khz = 0;
		st.inferred = c->flags & EA_INF_START;
		st.pid = 0;
		st.idle_state = EA_IDLE_NONE;
		return st;
	}
	st.mode = EA_CPU_BUSY;
	st.freq_khz = c->freq;
	st.inferred = c->flags;
	st.pid = c->curr;
	st.idle_state = EA_IDLE_NONE;
	if (c->has_cpuidle) {
		if (c->in_cpuidle) {
			st.mode = EA_CPU_IDLE;
			st.idle_state = c->cpuidle_state;
		}
	} else if (c->curr == 0) {
		st.mode = EA_CPU_IDLE;
		st.idle_state = (int16_t)s->cfg.swapper_idle_state;
		st.inferred |= EA_INF_SWAPPER;
	}
	return st;
}

static inline bool same_state(const struct ea_cpu_state *a,
			      const struct ea_cpu_state *b)
{
	return a->pid == b->pid && a->mode == b->mode &&
	       a->inferred == b->inferred && a->idle_state == b->idle_state &&
	       a->freq_khz == b->freq_khz;
}

int cpu_grow(struct ea_state *s, int ncpus)
{
	struct ea_cpu *p;

	if (ncpus <= s->ncpus)
		return 0;
	p = realloc(s->cpus, ncpus * sizeof(*p));
	if (!p)
		return -1;
	s->cpus = p;
	for (int i = s->ncpus; i < ncpus; i++) {
		cpu_init_one(s, i);
		s->cpus[i].st = derive(s, &s->cpus[i]);
	}
	s->ncpus = ncpus;
	return 0;
}

/* Capacity (0..1024) the CPU runs at, for PELT invariance. */
static uint32_t capacity_of(const struct ea_state *s, int cpu,
			    const struct ea_cpu *c, uint32_t freq)
{
	if (s->cfg.capacity)
		return s->cfg.capacity(s->cfg.cap_ctx, cpu, freq);
	if (!freq || !c->max_freq_seen)
		return 1024;
	return (uint32_t)((uint64_t)freq * 1024 / c->max_freq_seen);
}

/* capacity_of(), remembering cfg.capacity's last answer for the CPU. */
static inline uint32_t capacity_now(const struct ea_state *s, int cpu,
				    struct ea_cpu *c, uint32_t freq)
{
	if (!s->cfg.capacity)
		return capacity_of(s, cpu, c, freq);
	if (!c->cap_known || c->cap_freq != freq) {
		c->cap = s->cfg.capacity(s->cfg.cap_ctx, cpu, freq);
		c->cap_freq = freq;
		c->cap_known = true;
	}
	return c->cap;
}

static bool runs_task(const struct ea_cpu_state *st)
{
	return st->mode == EA_CPU_BUSY && st->pid != 0;
}

/* Bring CPU and running task util up to now, and account util statistics. */
static void pelt_advance(struct ea_state *s, int cpu, uint64_t now)
{
	struct ea_cpu *c = &s->cpus[cpu];
	bool running;
	uint32_t cap;
	uint64_t t0, t1, len;

	if (s->cfg.no_util)
		return;
	running = runs_task(&c->st);
	cap = capacity_now(s, cpu, c, c->st.freq_khz);
	t0 = c->pelt.started ? c->pelt.last_ns : c->since;
	t1 = now;
	len = st_clip(s, &t0, &t1);

	if (len) {
		c->util_integral += (double)c->pelt.util_avg * (double)len;
		c->util_ns += len;
		if (c->pelt.util_avg > c->util_max)
			c->util_max = c->pelt.util_avg;
	}
	ea_pelt_update(&c->pelt, now, running, cap);
	if (running && c->st.pid > 0) {
		struct ea_task *t = task_get(s, c->st.pid, NULL);

		if (t)
			ea_pelt_update(&t->pelt, now, true, cap);
	}
	if (st_in_window(s, now) && c->pelt.util_avg > c->util_max)
		c->util_max = c->pelt.util_avg;
}

/*
 * Whether t, at its first switch-in (ev, when it is that switch), is a task
 * forked during the trace: sched_wakeup_new said so, or its pid was the
 * highest yet when it first appeared, in a record of a task whose comm it
 * has (a child inherits its parent's comm until it execs).
 */
static bool forked(const struct ea_state *s, const struct ea_task *t,
		   const struct ea_event *ev)
{
	const struct ea_task *parent;
	const char *comm = t->comm, *pcomm;

	if (t->pelt_new)
		return true;
	if (t->fork_parent <= 0)
		return false;
	parent = task_find(s, t->fork_parent);
	if (!parent)
		return false;
	pcomm = parent->comm;
	/* the switch being applied names both with their comms of now */
	if (ev && ev->type == EA_EV_SWITCH && ev->sw.next_pid == t->pid) {
		comm = ev->sw.next_comm;
		if (ev->sw.prev_pid == parent->pid)
			pcomm = ev->sw.prev_comm;
	}
	return comm[0] && !strncmp(pcomm, comm, EA_COMM_LEN);
}

/*
 * A new task's util, as post_init_entity_util_avg() (4.19) gives it: half
 * the CPU's spare capacity (its share by load weight is larger for a CPU
 * whose load is mostly its util), its sum as util x LOAD_AVG_MAX.
 */
static void pelt_seed(const struct ea_state *s, int cpu, struct ea_task *t,
		      uint64_t now)
{
	long cap = ((long)1024 - (long)s->cpus[cpu].pelt.util_avg) / 2;

	memset(&t->pelt, 0, sizeof(t->pelt));
	t->pelt.started = true;
	t->pelt.last_ns = now;
	if (cap > 0) {
		t->pelt.util_avg = (uint32_t)cap;
		t->pelt.util_sum = (uint64_t)cap * EA_PELT_LOAD_AVG_MAX;
	}
}

/* Move t's util from the CPU that holds it to cpu (kernel: detach and
 * attach_entity_load_avg()). */
static void pelt_move(struct ea_state *s, struct ea_task *t, int cpu,
		      uint64_t now)
{
	int from = t->pelt_cpu >= 0 ? t->pelt_cpu : t->cpu;

	if (from == cpu && t->pelt_cpu == cpu)
		return;
	if (from >= 0 && from != cpu && from < s->ncpus) {
		pelt_advance(s, from, now);
		ea_pelt_detach(&s->cpus[from].pelt, &t->pelt);
	}
	if (from != cpu || t->pelt_cpu < 0)
		ea_pelt_attach(&s->cpus[cpu].pelt, &t->pelt);
	t->pelt_cpu = cpu;
}

/* A task starts running on cpu: decay its sleep, move its util here. */
static void pelt_task_in(struct ea_state *s, int cpu, int32_t pid, uint64_t now)
{
	struct ea_task *t;

	if (s->cfg.no_util)
		return;
	t = task_get(s, pid, NULL);
	if (!t)
		return;
	if (!t->pelt_seeded) {
		t->pelt_seeded = true;
		if (forked(s, t, s->applying)) {
			pelt_seed(s, cpu, t, now);
			pelt_move(s, t, cpu, now);
			return;
		}
	}
	ea_pelt_update(&t->pelt, now, false, 0);
	pelt_move(s, t, cpu, now);
}

void cpu_migrate(struct ea_state *s, const struct ea_event *ev)
{
	struct ea_task *t;
	int dest = ev->migrate.dest_cpu;

	if (s->cfg.no_util || dest < 0 || dest >= s->ncpus)
		return;
	t = task_find(s, ev->migrate.pid);
	if (!t || t->run == EA_TASK_RUNNING || !t->pelt_seeded)
		return;
	ea_pelt_update(&t->pelt, ev->ts, false, 0);
	pelt_advance(s, dest, ev->ts);
	pelt_move(s, t, dest, ev->ts);
}

/* An exiting task takes its util with it (kernel: task_dead_fair()). */
static void pelt_task_dead(struct ea_state *s, int cpu, int32_t pid)
{
	struct ea_task *t = s->cfg.no_util ? NULL : task_find(s, pid);

	if (!t)
		return;
	ea_pelt_detach(&s->cpus[t->pelt_cpu >= 0 ? t->pelt_cpu : cpu].pelt,
		       &t->pelt);
	memset(&t->pelt, 0, sizeof(t->pelt));
	t->pelt_cpu = -1;
}

__attribute__((noinline))
bool cpu_takes_record(struct ea_state *s, const struct ea_cpu *c,
		      const struct ea_event *ev)
{
	if (c->curr >= 0 && !(c->flags & EA_INF_LOST) &&
	    ((c->flags & EA_INF_RESYNC) || (ev->flags & EA_EVF_DERIVED))) {
		s->counts.records_overruled++;
		return false;
	}
	s->counts.curr_from_record++;
	return true;
}

/* task_get(s, pid, NULL) (pid > 0), through c's cache when it holds pid:
 * the task charged at a switch is most often the one switched in at the
 * one before (cpu_switch()). */
static inline struct ea_task *cpu_task(struct ea_state *s,
				       const struct ea_cpu *c, int32_t pid)
{
	if (c->task && c->task->pid == pid)
		return c->task;
	return task_get(s, pid, NULL);
}

/*
 * The busy time a task is charged on cpu is its runtime: [since, now) in
 * st, within the window. The same intervals as its energy, whatever the
 * task machine believes (a lost switch-in, a record correcting the task).
 */
static inline struct ea_task *charge_runtime(struct ea_state *s,
					     const struct ea_cpu *c,
					     uint64_t since, uint64_t now,
					     const struct ea_cpu_state *st)
{
	struct ea_task *t;

	if (st->mode != EA_CPU_BUSY || st->pid <= 0 || !s->track_tasks)
		return NULL;
	t = cpu_task(s, c, st->pid);
	if (t)
		t->runtime_ns += st_clip(s, &since, &now);
	return t;
}

/*
 * Whether a change from *old to *new (not the same) is a task switch on a
 * busy CPU with nothing inferred, all else alike: what a consumer's
 * task_switch() takes (struct ea_state_ops).
 */
static inline __attribute__((always_inline)) bool
task_switch_only(const struct ea_cpu_state *old, const struct ea_cpu_state *new)
{
	_Static_assert(EA_CPU_BUSY == 0, "task_switch_only(): busy is 0");
	return !(old->mode | old->inferred | new->mode | new->inferred) &&
	       old->idle_state == new->idle_state &&
	       old->freq_khz == new->freq_khz;
}

/* One consumer's change: its task_switch() when it has one and the
 * change is one (sw), else its cpu_change(). */
static inline __attribute__((always_inline)) void
tell(const struct state_change *ch, const struct ea_state *s, int cpu,
     uint64_t since, uint64_t now, const struct ea_cpu_state *old,
     const struct ea_cpu_state *new, bool sw)
{
	if (sw && ch->task_switch)
		ch->task_switch(ch->ctx, s, cpu, since, now, new->pid);
	else
		ch->change(ch->ctx, s, cpu, since, now, old, new);
}

/* cpu enters *st at now, sw: task_switch_only(&c->st, st): tell the
 * consumers. Returns the task charged the time before
 * (charge_runtime()), or NULL. Always inline: GCC kept it out of line, a
 * call and a frame more for every change. */
static inline __attribute__((always_inline)) struct ea_task *
enter_as(struct ea_state *s, struct ea_cpu *c, int cpu, uint64_t now,
	 const struct ea_cpu_state *st, bool sw)
{
	struct ea_task *t = charge_runtime(s, c, c->since, now, &c->st);

	if (s->two) {
		tell(&s->two[0], s, cpu, c->since, now, &c->st, st, sw);
		tell(&s->two[1], s, cpu, c->since, now, &c->st, st, sw);
	} else if (sw && s->ops->task_switch) {
		s->ops->task_switch(s->ctx, s, cpu, c->since, now, st->pid);
	} else {
		s->ops->cpu_change(s->ctx, s, cpu, c->since, now, &c->st, st);
	}
	c->st = *st;
	c->since = now;
	return t;
}

/* enter_as(), asking whether the change is a task switch */
static inline __attribute__((always_inline)) struct ea_task *
enter(struct ea_state *s, struct ea_cpu *c, int cpu, uint64_t now,
      const struct ea_cpu_state *st)
{
	return enter_as(s, c, cpu, now, st, task_switch_only(&c->st, st));
}

/*
 * enter_as() of c->st with pid for its task, a task switch (busy_plain()):
 * with one consumer that takes task_switch(), the new state is not built
 * (only its pid changes) and the task charged is busy for sure.
 */
static inline __attribute__((always_inline)) struct ea_task *
enter_pid(struct ea_state *s, struct ea_cpu *c, int cpu, uint64_t now,
	  int32_t pid)
{
	struct ea_task *t = NULL;

	if (s->two || !s->ops->task_switch) {
		struct ea_cpu_state st = c->st;

		st.pid = pid;
		return enter_as(s, c, cpu, now, &st, true);
	}
	if (c->st.pid > 0 && s->track_tasks) {	/* charge_runtime() */
		uint64_t since = c->since, end = now;

		t = cpu_task(s, c, c->st.pid);
		if (t)
			t->runtime_ns += st_clip(s, &since, &end);
	}
	s->ops->task_switch(s->ctx, s, cpu, c->since, now, pid);
	c->st.pid = pid;
	c->since = now;
	return t;
}

/*
 * Whether derive(s, c) is c->st but for its pid (c->curr), and a change
 * between the two a task switch (task_switch_only()): c is busy with
 * nothing inferred, was so when last derived, at the same frequency.
 * cpu_switch()'s common case, asked in fewer steps than derive(),
 * same_state() and task_switch_only() take.
 */
static inline bool busy_plain(const struct ea_state *s, const struct ea_cpu *c)
{
	return !c->flags && c->st.mode == EA_CPU_BUSY && !c->st.inferred &&
	       c->st.idle_state == EA_IDLE_NONE && c->st.freq_khz == c->freq &&
	       !s->suspended && !c->offline &&
	       (c->has_cpuidle ? !c->in_cpuidle : c->curr != 0);
}

/* cpu_update() with PELT (out of line: its frame would weigh on the
 * changes without) */
__attribute__((noinline))
static void update_util(struct ea_state *s, int cpu, uint64_t now)
{
	struct ea_cpu *c = &s->cpus[cpu];
	struct ea_cpu_state st = derive(s, c);

	if (same_state(&st, &c->st))
		return;
	pelt_advance(s, cpu, now);
	if (runs_task(&st) && (!runs_task(&c->st) || st.pid != c->st.pid))
		pelt_task_in(s, cpu, st.pid, now);
	enter(s, c, cpu, now, &st);
}

void cpu_update(struct ea_state *s, int cpu, uint64_t now)
{
	struct ea_cpu *c;
	struct ea_cpu_state st;

	if (!s->cfg.no_util) {
		update_util(s, cpu, now);
		return;
	}
	c = &s->cpus[cpu];
	st = derive(s, c);
	if (!same_state(&st, &c->st))
		enter(s, c, cpu, now, &st);
}

static void apply_freq(struct ea_state *s, const struct ea_event *ev)
{
	int target = ev->freq.cpu;
	int dom = -1;

	if (s->cfg.freq_domain && target < s->cfg.nfreq_domain)
		dom = s->cfg.freq_domain[target];
	for (int i = 0; i < s->ncpus; i++) {
		struct ea_cpu *c = &s->cpus[i];

		if (i != target && (dom < 0 || i >= s->cfg.nfreq_domain ||
				    s->cfg.freq_domain[i] != dom))
			continue;
		if (i != target)
			s->counts.freq_propagated++;
		if (ev->freq.freq_khz > c->max_freq_seen) {
			/* PELT's scale changes: account the past at the old one */
			pelt_advance(s, i, ev->ts);
			c->max_freq_seen = ev->freq.freq_khz;
		}
		c->freq = ev->freq.freq_khz;
		cpu_update(s, i, ev->ts);
	}
}

static void apply_idle(struct ea_state *s, const struct ea_event *ev)
{
	int cpu = ev->idle.cpu;
	struct ea_cpu *c = &s->cpus[cpu];

	cpu_touch(s, cpu, ev);
	c->flags &= ~(EA_INF_LOST | EA_INF_UNKNOWN);
	if (!c->has_cpuidle) {
		/* First cpu_idle for a CPU so far idle by pid 0: switch rule. */
		c->has_cpuidle = true;
		c->in_cpuidle = false;
	}
	if (ev->idle.state == EA_IDLE_EXIT) {
		if (c->in_cpuidle)
			c->in_cpuidle = false;
		else
			s->counts.idle_exit_unmatched++;
	} else {
		if (c->in_cpuidle)
			s->counts.idle_enter_nested++;
		c->in_cpuidle = true;
		c->cpuidle_state = (int16_t)ev->idle.state;
	}
	cpu_update(s, cpu, ev->ts);
}

/* suspend_resume machine_suspend: every CPU enters or leaves suspension. */
static void apply_suspend(struct ea_state *s, const struct ea_event *ev)
{
	bool on = ev->suspend.begin;

	if (on == s->suspended) {
		s->counts.suspend_unmatched++;
		return;
	}
	s->suspended = on;
	if (on)
		s->counts.suspends++;
	for (int i = 0; i < s->ncpus; i++)
		cpu_update(s, i, ev->ts);
}

enum { HP_NONE, HP_DOWN, HP_UP };

/*
 * A cpuhp step of CPU hp.cpu, recorded on ev->cpu. The steps of a walk
 * run partly on the CPU itself (its hotplug thread, its STARTING steps)
 * and partly on the CPU driving it; a take-down ends on the driver, a
 * bring-up's CPU comes alive when a step runs on it. So (as Wattson's
 * hotplug.sql): offline at the first step of a take-down recorded
 * elsewhere after one recorded on the CPU (the driver's first step,
 * kicking the CPU's thread, comes before); online at the first step of a
 * bring-up recorded on the CPU. The walk's direction comes from an enter:
 * target below the step is a take-down.
 */
static void apply_hotplug(struct ea_state *s, const struct ea_event *ev)
{
	int cpu = ev->hotplug.cpu;
	struct ea_cpu *c = &s->cpus[cpu];
	bool self = ev->cpu == cpu;

	if (ev->hotplug.enter) {
		uint8_t dir = ev->hotplug.step > ev->hotplug.target ? HP_DOWN :
								      HP_UP;

		if (dir != c->hp_dir) {
			c->hp_dir = dir;
			c->hp_self = false;
		}
	}
	if (c->hp_dir == HP_DOWN && !self && c->hp_self && !c->offline) {
		c->offline = true;
		s->counts.cpus_offlined++;
		/* its tasks have left; it comes back in its idle task */
		c->curr = 0;
		c->in_cpuidle = false;
		c->flags &= ~(EA_INF_LOST | EA_INF_UNKNOWN | EA_INF_RESYNC);
		cpu_update(s, cpu, ev->ts);
	} else if (c->hp_dir == HP_UP && self && c->offline) {
		c->offline = false;
		s->counts.cpus_onlined++;
		c->curr = 0;
		c->in_cpuidle = false;
		c->flags &= ~(EA_INF_LOST | EA_INF_UNKNOWN | EA_INF_RESYNC |
			      EA_INF_START);
		cpu_update(s, cpu, ev->ts);
	}
	if (self)
		c->hp_self = true;
}

void cpu_apply(struct ea_state *s, const struct ea_event *ev)
{
	struct ea_cpu *c = &s->cpus[ev->cpu];

	switch (ev->type) {
	case EA_EV_SWITCH:
		cpu_touch(s, ev->cpu, ev);
		c->curr = ev->sw.next_pid;
		if (!(ev->flags & EA_EVF_SYNTH))
			c->flags &= ~(EA_INF_LOST | EA_INF_RESYNC | EA_INF_UNKNOWN);
		else if (ev->flags & EA_EVF_UNKNOWN)	/* a task shown gone */
			c->flags |= EA_INF_RESYNC | EA_INF_UNKNOWN;
		else
			c->flags |= EA_INF_RESYNC;
		cpu_update(s, ev->cpu, ev->ts);
		if (ev->sw.prev_state == EA_PREV_DEAD)
			pelt_task_dead(s, ev->cpu, ev->sw.prev_pid);
		return;
	case EA_EV_IDLE:
		apply_idle(s, ev);
		return;
	case EA_EV_FREQ:
		cpu_touch(s, ev->freq.cpu, ev);
		apply_freq(s, ev);
		return;
	case EA_EV_MIGRATE:
		cpu_apply_other(s, ev);
		cpu_migrate(s, ev);
		return;
	case EA_EV_SUSPEND:
		cpu_apply_other(s, ev);
		apply_suspend(s, ev);
		return;
	case EA_EV_HOTPLUG:
		cpu_apply_other(s, ev);
		apply_hotplug(s, ev);
		return;
	case EA_EV_LOST:
		cpu_touch(s, ev->cpu, ev);
		/* a synthetic one marks unknown time (a lost switch-out) */
		c->flags |= ev->flags & EA_EVF_SYNTH ? EA_INF_UNKNOWN :
			    EA_INF_LOST | EA_INF_UNKNOWN;
		cpu_update(s, ev->cpu, ev->ts);
		return;
	default:
		cpu_apply_other(s, ev);
		return;
	}
}

/*
 * cpu_apply() then task_apply() of a recorded (not synthetic) sched_switch,
 * in one pass: the same steps in the same order, the CPU's state derived
 * and entered inline, the task charged the time before it reused as the
 * prev task when it is that one.
 */
void cpu_switch(struct ea_state *s, const struct ea_event *ev)
{
	int cpu = ev->cpu;
	struct ea_cpu *c = &s->cpus[cpu];
	struct ea_task *charged = NULL;

	cpu_touch_rec(s, cpu, ev);
	c->curr = ev->sw.next_pid;
	c->flags &= ~(EA_INF_LOST | EA_INF_RESYNC | EA_INF_UNKNOWN);
	if (s->cfg.no_util && busy_plain(s, c)) {
		if (c->st.pid != c->curr)
			charged = enter_pid(s, c, cpu, ev->ts, c->curr);
	} else if (s->cfg.no_util) {
		struct ea_cpu_state st = derive(s, c);

		if (!same_state(&st, &c->st))
			charged = enter(s, c, cpu, ev->ts, &st);
	} else {
		update_util(s, cpu, ev->ts);
		if (ev->sw.prev_state == EA_PREV_DEAD)
			pelt_task_dead(s, cpu, ev->sw.prev_pid);
	}
	if (s->track_tasks) {
		task_switch_out(s, ev, charged);
		c->task = task_switch_in(s, ev);
	}
}

uint32_t cpu_util_at(const struct ea_state *s, int cpu, uint64_t now)
{
	const struct ea_cpu *c = &s->cpus[cpu];
	struct ea_pelt p = c->pelt;

	return ea_pelt_update(&p, now, runs_task(&c->st),
			      capacity_of(s, cpu, c, c->st.freq_khz));
}

void cpu_finish(struct ea_state *s)
{
	for (int i = 0; i < s->ncpus; i++) {
		struct ea_cpu *c = &s->cpus[i];

		pelt_advance(s, i, s->last_ts);
		charge_runtime(s, c, c->since, s->last_ts, &c->st);
		s->ops->cpu_change(s->ctx, s, i, c->since, s->last_ts, &c->st,
				   NULL);
		c->since = s->last_ts;
	}
}
