/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The state stage's data, shared by its files: struct ea_state with its
 * CPUs (struct ea_cpu) and its task table, one home below the files that
 * work on it. state.c, on top, feeds each event down to the per-CPU
 * machine (cpu.c, cpu.h) and the task machine (task.c, task.h); cpu.c
 * uses the task table too; run.c drives state.c.
 */
#ifndef EATRACE_STATE_INTERNAL_H
#define EATRACE_STATE_INTERNAL_H

#include "eatrace/state.h"
#include "state/lookahead.h"
#include "state/pelt.h"
#include "state/task-index.h"

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
	uint32_t cap_freq, cap;	/* cfg.capacity(cpu, cap_freq) is cap ... */
	bool cap_known;		/* ... once asked */
	bool offline;		/* taken offline by CPU hotplug */
	uint8_t hp_dir;		/* its last cpuhp walk: 0 none, 1 down, 2 up */
	bool hp_self;		/* a cpuhp event of that walk ran on itself */
	/* the task cpu_switch() last switched in here, or NULL: a cache for
	 * the runtime's charge (cpu_task()), good while its pid is the one
	 * asked for (a pid has one task, kept until the end) */
	struct ea_task *task;
	/* to 256 bytes, a power of two: s->cpus[i] is a shift away (every
	 * event applied finds its CPU's) */
	uint8_t pad[112];
};
_Static_assert(sizeof(struct ea_cpu) == 256, "struct ea_cpu: 256 bytes");

struct task_table {
	struct ea_task **by_order;	/* in order of first appearance */
	size_t n, cap;
	struct task_slot {
		int32_t pid;
		int32_t idx;		/* index + 1; 0: empty slot */
	} *slots;			/* open-addressing hash of the pids
					   idx does not cover */
	size_t nslots, nhash;		/* slots, and tasks in them */
	struct task_index idx;		/* the others by pid, two loads */
};

/* A consumer's cpu_change(), its task_switch() (or NULL) and its ctx */
struct state_change {
	void (*change)(void *ctx, const struct ea_state *s, int cpu,
		       uint64_t since, uint64_t now,
		       const struct ea_cpu_state *old,
		       const struct ea_cpu_state *new);
	void (*task_switch)(void *ctx, const struct ea_state *s, int cpu,
			    uint64_t since, uint64_t now, int32_t pid);
	void *ctx;
};

struct ea_state {
	struct ea_state_config cfg;
	const struct ea_state_ops *ops;
	/* ops->cpu_change() as two consumers' own, called in turn without
	 * a fan-out between (state_two_changes()), or NULL */
	const struct state_change *two;
	uint32_t event_types;	/* ops->event's, ~0: all, 0: no event() */
	void *ctx;
	/* Written per event by the look-ahead's thread when the applying
	 * is on another (handoff.h): lines of its own. */
	_Alignas(64) struct lookahead la;
	struct handoff *handoff;	/* let go events there, or NULL */
	_Alignas(64) bool started, finished;
	bool la_cut;		/* the look-ahead was cut at the start: its
				   rings shrink once drained (la_shrink()) */
	bool derived_in;	/* fed a derived event (feed-derived.h):
				   its blocks to state_feed_block_derived() */
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

/* ea_state_feed() of evs[0..n) in order: 0, or -1 with err and the
 * index of the event that failed in *at. The loop for recorded events:
 * once state_fed_derived(), state_feed_block_derived() (below). */
int state_feed_block(struct ea_state *s, const struct ea_event *evs, size_t n,
		     size_t *at, struct ea_err *err);

/*
 * state_feed_block() for a state fed derived events (feed-derived.c):
 * the same, each derived event offered to the per-type feeds for them
 * first. Once state_fed_derived(s), the caller's choice for the rest.
 */
int state_feed_block_derived(struct ea_state *s, const struct ea_event *evs,
			     size_t n, size_t *at, struct ea_err *err);

static inline bool state_fed_derived(const struct ea_state *s)
{
	return s->derived_in;
}

/* state.c's deliver() and go_held(), for feed-derived.c's go_typed()
 * (go-typed.h) */
int state_deliver(struct ea_state *s, const struct ea_event *ev,
		  struct ea_err *err);
int state_go_held(struct ea_state *s, const struct ea_event *ev,
		  struct ea_err *err);

/*
 * Whether state.c's feed_held() is its feed_steady(): started, a
 * look-ahead deeper than one event and no longer cut (la_shrink() done),
 * sorted input. Of these only la.sorted changes after (la_scan()).
 */
static inline bool state_steady(const struct ea_state *s)
{
	return s->started && s->la.cap > 1 && !s->la_cut && s->la.sorted;
}

/* Two consumers' cpu_change() (or task_switch()), called in this order,
 * for ops->cpu_change (which still gets the end's changes, cpu_finish());
 * two lives as long as s. */
void state_two_changes(struct ea_state *s, const struct state_change *two);

/*
 * The state stage on two threads (handoff.h): after state_handoff(s, h),
 * ea_state_feed() and state_finish_feed() (on the look-ahead's thread)
 * hand the events they let go to h; state_apply_handed() (on the other)
 * applies them until the end or an error (0 or -1 with err, the error
 * the look-ahead's thread handed over); then state_finish_apply().
 * ea_state_finish() is the two finishes in one.
 */
struct handoff;
void state_handoff(struct ea_state *s, struct handoff *h);
int state_apply_handed(struct ea_state *s, struct handoff *h,
		       struct ea_err *err);
int state_finish_feed(struct ea_state *s, struct ea_err *err);
void state_finish_apply(struct ea_state *s);

#endif
