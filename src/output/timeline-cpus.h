/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The state stage's CPU states as a consumer sees them change (for
 * src/output/timeline-acct.c): each CPU's state kept from the changes it
 * is told of, so that a task switch (ea_state_ops.task_switch, which
 * gives only the new pid) has the state it ends without asking the state
 * stage for it (ea_state_cpu(), out of line: a call, and a frame around
 * it, at each of rec.dat's 1.6 M switches).
 *
 * Exact because the state stage tells its consumers of every change of a
 * CPU's state, before making it (src/state/cpu.c: enter_as() and
 * enter_pid() set the state after telling; ea_state_cpu(s, cpu) is the
 * state before during the call, include/eatrace/state.h), except a CPU's
 * first state (cpu_grow()'s derive(), told to nobody). So a CPU's state
 * is known once the state stage was asked for it, or once a change of it
 * was told (cpu_change()'s new); from then on each change told keeps it
 * (cpu_change()'s new, task_switch()'s pid: the rest unchanged). The
 * trace's end (new NULL) forgets it, as a state not known.
 *
 * ci is the CPU's cluster (the model's cpu_cluster[]) while the state is
 * known and the CPU in a cluster, else -1: one test for both.
 */
#ifndef EATRACE_OUTPUT_TIMELINE_CPUS_H
#define EATRACE_OUTPUT_TIMELINE_CPUS_H

#include <stdint.h>

#include "eatrace/state.h"

struct tl_cpu_seen {
	struct ea_cpu_state st; /* the CPU's state now, when ci >= 0 */
	int32_t ci; /* its cluster, or -1: not known (or in no cluster) */
};

/* Not known yet (every CPU at first). */
static inline void tl_cpu_seen_forget(struct tl_cpu_seen *c)
{
	c->ci = -1;
}

/* The state now, read from the state stage (ea_state_cpu()); ci: the
 * CPU's cluster (-1: none). */
static inline void tl_cpu_seen_read(struct tl_cpu_seen *c,
				    const struct ea_cpu_state *st, int ci)
{
	c->st = *st;
	c->ci = ci;
}

/* A change told (cpu_change()): the CPU's state becomes *new, or is
 * forgotten at the trace's end (new NULL). */
static inline void tl_cpu_seen_change(struct tl_cpu_seen *c,
				      const struct ea_cpu_state *new, int ci)
{
	if (new)
		tl_cpu_seen_read(c, new, ci);
	else
		tl_cpu_seen_forget(c);
}

/* A task switch told (task_switch()): only the pid changes. */
static inline void tl_cpu_seen_switch(struct tl_cpu_seen *c, int32_t pid)
{
	c->st.pid = pid;
}

#endif
