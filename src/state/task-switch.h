/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The task machine's common events, inline: a sched_switch's two tasks
 * (task_switch_out(), task_switch_in()) and a wakeup (task_wake()), for
 * task.c's task_apply() and for the passes that apply a switch or a wakeup
 * to the CPU and task machines at once (cpu.c's cpu_switch(),
 * feed-type.h).
 */
#ifndef EATRACE_STATE_TASK_SWITCH_H
#define EATRACE_STATE_TASK_SWITCH_H

#include "state/task.h"

static inline uint64_t task_span(const struct ea_state *s, uint64_t t0,
				 uint64_t t1)
{
	return st_clip(s, &t0, &t1);
}

/*
 * The switch ev's prev task leaves its CPU. known: the task of pid
 * ev->sw.prev_pid if the caller has it already (else NULL): task_get()
 * then only sets its comm.
 */
static inline void task_switch_out(struct ea_state *s,
				   const struct ea_event *ev,
				   struct ea_task *known)
{
	struct ea_task *t;

	if (known && known->pid == ev->sw.prev_pid) {
		t = known;
		if (ev->sw.prev_comm[0])	/* as task_get() does */
			memcpy(t->comm, ev->sw.prev_comm, EA_COMM_LEN);
	} else {
		t = task_get(s, ev->sw.prev_pid, ev->sw.prev_comm);
		if (!t)
			return;
	}
	if (ev->sw.prev_prio >= 0)
		t->prio = ev->sw.prev_prio;
	t->since = ev->ts;
	switch (ev->sw.prev_state) {
	case EA_PREV_RUNNABLE:
		t->run = EA_TASK_RUNNABLE;
		t->woken_at = 0;	/* preempted, not woken */
		if (st_in_window(s, ev->ts))
			t->preemptions++;
		break;
	case EA_PREV_DEAD:
		t->run = EA_TASK_DEAD;
		break;
	default:
		t->run = EA_TASK_SLEEPING;
		break;
	}
}

/* The switch ev's next task comes on its CPU: returns it (or NULL). */
static inline struct ea_task *task_switch_in(struct ea_state *s,
					     const struct ea_event *ev)
{
	struct ea_task *t = task_get(s, ev->sw.next_pid, ev->sw.next_comm);
	bool in_win = st_in_window(s, ev->ts);

	if (!t)
		return NULL;
	if (ev->sw.next_prio >= 0)
		t->prio = ev->sw.next_prio;
	switch (t->run) {
	case EA_TASK_RUNNABLE:
		t->wait_ns += task_span(s, t->since, ev->ts);
		if (t->woken_at && in_win)	/* woken, not preempted */
			t->activations++;
		break;
	case EA_TASK_SLEEPING:
	case EA_TASK_DEAD:
		/* No wakeup recorded: the wakeup is this switch-in. */
		if (in_win) {
			t->wakeups_inferred++;
			s->counts.wakeups_inferred++;
			t->activations++;
		}
		t->woken_at = ev->ts;
		break;
	default:	/* first sight or already running (resync) */
		break;
	}
	if (t->cpu >= 0 && t->cpu != ev->cpu && in_win)
		t->migrations++;
	t->run = EA_TASK_RUNNING;
	t->cpu = ev->cpu;
	t->since = ev->ts;
	return t;
}

/* A sched_waking, sched_wakeup or sched_wakeup_new (task_wakeup()).
 * Always inline: GCC kept it out of line for the per-type feeds, a call
 * and a frame more for most of a trace's events (feed-type.h). */
static inline __attribute__((always_inline)) void
task_wake(struct ea_state *s, const struct ea_event *ev)
{
	struct ea_task *t = s->woken;

	if (t && t->pid == ev->wake.pid) {
		if (ev->wake.comm[0])	/* as task_get() does */
			memcpy(t->comm, ev->wake.comm, EA_COMM_LEN);
	} else {
		t = task_get(s, ev->wake.pid, ev->wake.comm);
		if (!t)
			return;
		s->woken = t;
	}
	if (ev->wake.prio >= 0)
		t->prio = ev->wake.prio;
	if (ev->type == EA_EV_WAKEUP_NEW && !t->pelt_seeded)
		t->pelt_new = true;
	/* sched_waking then sched_wakeup: one wakeup, timed at the first. */
	if (t->run == EA_TASK_RUNNING ||
	    (t->run == EA_TASK_RUNNABLE && t->woken_at))
		return;
	if (t->run == EA_TASK_RUNNABLE)	/* preempted task woken: no change */
		return;
	t->run = EA_TASK_RUNNABLE;
	t->since = ev->ts;
	t->woken_at = ev->ts;
	t->woken_cpu = ev->wake.target_cpu;
	if (st_in_window(s, ev->ts))
		t->wakeups++;
}

#endif
