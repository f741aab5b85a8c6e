/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Tasks by pid in a two-level table (task-index.c): a pid below
 * TIDX_PIDS finds its task in two loads, without the hash's probing, so
 * that the state machines can look a task up again wherever they need it
 * instead of caching it. Pages of TIDX_PAGE pointers are made as pids
 * fall in them: a few kilobytes for a trace's usual few hundred tasks.
 * Pids at or above TIDX_PIDS (none under Linux's PID_MAX_LIMIT) are not
 * kept here: the task table's hash finds them.
 */
#ifndef EATRACE_STATE_TASK_INDEX_H
#define EATRACE_STATE_TASK_INDEX_H

#include <stdbool.h>
#include <stdint.h>

#define TIDX_PIDS (1u << 22)	/* Linux's PID_MAX_LIMIT */
#define TIDX_SHIFT 8
#define TIDX_PAGE (1u << TIDX_SHIFT)

struct ea_task;

struct task_index {
	struct ea_task ***page;	/* TIDX_PIDS / TIDX_PAGE, NULL until used */
};

/* Whether pid is kept in the index (else only in the hash). */
static inline bool tidx_covers(int32_t pid)
{
	return (uint32_t)pid < TIDX_PIDS;
}

/* pid's task, or NULL (pid > 0, tidx_covers(pid)) */
static inline struct ea_task *tidx_get(const struct task_index *x,
				       int32_t pid)
{
	struct ea_task **p;

	if (!x->page)
		return NULL;
	p = x->page[(uint32_t)pid >> TIDX_SHIFT];
	return p ? p[(uint32_t)pid & (TIDX_PAGE - 1)] : NULL;
}

/* Keep t for pid (tidx_covers(pid)): 0, or -1 out of memory. */
int tidx_set(struct task_index *x, int32_t pid, struct ea_task *t);
void tidx_free(struct task_index *x);

#endif
