/* SPDX-License-Identifier: GPL-2.0-only */
/* The state stage's private data, shared by its files. */
#ifndef EATRACE_STATE_INTERNAL_H
#define EATRACE_STATE_INTERNAL_H

#include "eatrace/state.h"
#include "state/lookahead.h"
#include "state/pelt.h"

struct ea_cpu {
	struct ea_cpu_state st;	/* derived state reported to consumers */
	uint64_t since;		/* ns: when st was entered */
	int32_t curr;		/* task on the CPU (0: idle task, -1 unknown) */
	bool in_cpuidle;	/* between cpu_idle enter and exit */
	int16_t cpuidle_state;
	bool has_cpuidle;	/* idle comes from cpu_idle events */
	uint8_t flags;		/* EA_INF_* to carry into the derived state */
	uint32_t freq;		/* kHz, 0 until reported */
	bool seen;		/* a recorded event concerned this CPU */
	uint64_t first_ts, last_ts;
	uint32_t max_freq_seen;
	struct ea_pelt pelt;
	double util_integral;	/* util_avg x ns within the window */
	uint64_t util_ns;
	uint32_t util_max;
	struct ea_task *recent[2];	/* tasks last looked up for this CPU */
	uint32_t cap_freq, cap;	/* cfg.capacity(cpu, cap_freq) is cap ... */
	bool cap_known;		/* ... once asked */
	bool offline;		/* taken offline by CPU hotplug */
	uint8_t hp_dir;		/* its last cpuhp walk: 0 none, 1 down, 2 up */
	bool hp_self;		/* a cpuhp event of that walk ran on itself */
};

struct task_table {
	struct ea_task **by_order;	/* in order of first appearance */
	size_t n, cap;
	struct task_slot {
		int32_t pid;
		int32_t idx;		/* index + 1; 0: empty slot */
	} *slots;			/* open-addressing hash */
	size_t nslots;
};

struct ea_state {
	struct ea_state_config cfg;
	const struct ea_state_ops *ops;
	uint32_t event_types;	/* ops->event's, ~0: all, 0: no event() */
	void *ctx;
	struct lookahead la;
	bool started, finished;
	uint64_t first_ts, last_ts;
	uint64_t win_start, win_end;
	struct ea_cpu *cpus;
	int ncpus;
	struct task_table tasks;
	bool track_tasks;	/* not cfg.no_tasks (with cfg.no_util) */
	struct ea_task *woken;	/* the task last woken (sched_waking is
				   followed by sched_wakeup of the same) */
	const struct ea_event *applying;	/* the event apply() is at */
	int32_t pid_hwm;	/* highest pid of a task met so far */
	bool suspended;		/* between machine_suspend begin and end */
	struct ea_state_counts counts;
};

/* ea_state_clip() and ea_state_in_window(), inline for the state's files */
static inline uint64_t st_clip(const struct ea_state *s, uint64_t *t0,
			       uint64_t *t1)
{
	return ea_clip_to(s->win_start, s->win_end, t0, t1);
}

static inline bool st_in_window(const struct ea_state *s, uint64_t t)
{
	return t >= s->win_start && t < s->win_end;
}

/* state.c: the caller feeds events whose timestamps never go backwards
 * (ea_input checks it): the look-ahead may then let events go as soon as
 * nothing later can change them (la_pop_early()). */
void state_input_sorted(struct ea_state *s);

/* cpu.c */
int cpu_grow(struct ea_state *s, int ncpus);
void cpu_start(struct ea_state *s);
void cpu_apply(struct ea_state *s, const struct ea_event *ev);
/* Derive cpu's state again; tell the consumers if it changed. */
void cpu_update(struct ea_state *s, int cpu, uint64_t now);

/* A recorded event concerns the CPU. */
static inline void cpu_touch(struct ea_state *s, int cpu,
			     const struct ea_event *ev)
{
	struct ea_cpu *c = &s->cpus[cpu];

	if (ev->flags & EA_EVF_SYNTH)
		return;
	if (!c->seen) {
		c->seen = true;
		c->first_ts = ev->ts;
	}
	c->last_ts = ev->ts;
	c->flags &= ~EA_INF_START;
}

/* cpu_apply() for the events that only say which task is current (the
 * wakeups, most of a trace): inline, and no update() when nothing
 * derive() reads has changed. */
static inline void cpu_apply_other(struct ea_state *s,
				   const struct ea_event *ev)
{
	struct ea_cpu *c = &s->cpus[ev->cpu];
	uint8_t flags = c->flags;

	cpu_touch(s, ev->cpu, ev);
	/* The look-ahead has already made curr agree with cur_pid, except
	 * after lost events or a task shown gone (curr -1). */
	if (ev->cur_pid >= 0 && c->curr != ev->cur_pid) {
		c->curr = ev->cur_pid;
		c->flags &= ~EA_INF_LOST;
	}
	/* A task's record proves the state; the idle task's only where
	 * pid 0 is idle (no cpu_idle: on such a CPU an interrupt runs in
	 * the idle task whether or not it was in a cpuidle state). */
	if ((c->flags & EA_INF_UNKNOWN) &&
	    (ev->cur_pid > 0 || (ev->cur_pid == 0 && !c->has_cpuidle)))
		c->flags &= ~(EA_INF_UNKNOWN | EA_INF_LOST);
	if (c->flags == flags && c->st.pid == c->curr)
		return;
	cpu_update(s, ev->cpu, ev->ts);
}
void cpu_finish(struct ea_state *s);
/* sched_migrate_task: the task's util moves (kernel: detach/attach). */
void cpu_migrate(struct ea_state *s, const struct ea_event *ev);
uint32_t cpu_util_at(const struct ea_state *s, int cpu, uint64_t now);

/* task.c */
struct ea_task *task_get(struct ea_state *s, int32_t pid, const char *comm);
/* task_get() through a small cache of the tasks last met on cpu. */
struct ea_task *task_get_on(struct ea_state *s, int cpu, int32_t pid,
			    const char *comm);
struct ea_task *task_find(const struct ea_state *s, int32_t pid);
void task_apply(struct ea_state *s, const struct ea_event *ev);
/* task_apply() of a sched_waking, sched_wakeup or sched_wakeup_new */
void task_wakeup(struct ea_state *s, const struct ea_event *ev);
void task_finish(struct ea_state *s);
void task_table_free(struct task_table *t);

#endif
