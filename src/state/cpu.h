/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The per-CPU state machine (cpu.c), for state.c: CPUs added as the trace
 * names them, events applied, each CPU's derived state reported to the
 * consumers when it changes. cpu_apply_other() is inline: the events it
 * takes (wakeups) are most of a trace.
 */
#ifndef EATRACE_STATE_CPU_H
#define EATRACE_STATE_CPU_H

#include "state/state-internal.h"

int cpu_grow(struct ea_state *s, int ncpus);
void cpu_apply(struct ea_state *s, const struct ea_event *ev);
/* cpu_apply() then task_apply() of a sched_switch not synthetic */
void cpu_switch(struct ea_state *s, const struct ea_event *ev);
/* Derive cpu's state again; tell the consumers if it changed. */
void cpu_update(struct ea_state *s, int cpu, uint64_t now);

/* cpu_touch() of an event known to be recorded (not EA_EVF_SYNTH) */
static inline void cpu_touch_rec(struct ea_state *s, int cpu,
				 const struct ea_event *ev)
{
	struct ea_cpu *c = &s->cpus[cpu];

	if (!c->seen) {
		c->seen = true;
		c->first_ts = ev->ts;
	}
	c->last_ts = ev->ts;
	c->flags &= ~EA_INF_START;
}

/* A recorded event concerns the CPU. */
static inline void cpu_touch(struct ea_state *s, int cpu,
			     const struct ea_event *ev)
{
	if (!(ev->flags & EA_EVF_SYNTH))
		cpu_touch_rec(s, cpu, ev);
}

/*
 * A record names another current task than the CPU's: whether it changes
 * it (counted either way). It does after lost events and when the task is
 * unknown; not where a resync placed the task (no record may undo it), nor
 * when a reader derived it (wrong where a switch-in was lost).
 */
bool cpu_takes_record(struct ea_state *s, const struct ea_cpu *c,
		      const struct ea_event *ev);

/* cpu_apply() for the events that only say which task is current (the
 * wakeups, most of a trace): inline, and no update() when nothing
 * derive() reads has changed. rec: the caller knows ev is recorded (not
 * EA_EVF_SYNTH); cpu_apply_other() does not. */
static inline __attribute__((always_inline)) void
cpu_apply_other_as(struct ea_state *s, const struct ea_event *ev, bool rec)
{
	struct ea_cpu *c = &s->cpus[ev->cpu];
	uint8_t flags = c->flags;

	if (rec)	/* the caller knows ev is recorded */
		cpu_touch_rec(s, ev->cpu, ev);
	else
		cpu_touch(s, ev->cpu, ev);
	/* The look-ahead has already made curr agree with cur_pid (a
	 * resync is placed after the CPU's earlier records), except after
	 * lost events, a task shown gone (curr -1), or where a reader
	 * derived cur_pid: cpu_takes_record() says. */
	if (ev->cur_pid >= 0 && c->curr != ev->cur_pid &&
	    cpu_takes_record(s, c, ev)) {
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

static inline void cpu_apply_other(struct ea_state *s,
				   const struct ea_event *ev)
{
	cpu_apply_other_as(s, ev, false);
}

void cpu_finish(struct ea_state *s);
/* sched_migrate_task: the task's util moves (kernel: detach/attach). */
void cpu_migrate(struct ea_state *s, const struct ea_event *ev);
uint32_t cpu_util_at(const struct ea_state *s, int cpu, uint64_t now);

#endif
