/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The task machine (task.c), for state.c and cpu.c: the task table (tasks
 * by pid, in order of first appearance) and each task's run state,
 * waits, wakeups and migrations (its runtime: state/cpu.c).
 */
#ifndef EATRACE_STATE_TASK_H
#define EATRACE_STATE_TASK_H

#include <string.h>

#include "state/state-internal.h"

/* task_get() of a task not in the index yet, or of a pid it does not
 * cover: found in the hash, or made. */
struct ea_task *task_get_slow(struct ea_state *s, int32_t pid,
			      const char *comm);

/* Find or create the task, its comm set from comm when that is not empty;
 * NULL for the idle task, unknown pids, or out of memory. Inline: a
 * switch looks its two tasks up several times. */
static inline struct ea_task *task_get(struct ea_state *s, int32_t pid,
				       const char *comm)
{
	struct ea_task *t;

	if (pid <= 0)
		return NULL;
	if (!tidx_covers(pid) || !(t = tidx_get(&s->tasks.idx, pid)))
		return task_get_slow(s, pid, comm);
	if (comm && comm[0])
		memcpy(t->comm, comm, EA_COMM_LEN);
	return t;
}
struct ea_task *task_find(const struct ea_state *s, int32_t pid);
void task_apply(struct ea_state *s, const struct ea_event *ev);
/* task_apply() of a sched_waking, sched_wakeup or sched_wakeup_new */
void task_wakeup(struct ea_state *s, const struct ea_event *ev);
void task_finish(struct ea_state *s);
void task_table_free(struct task_table *t);

#endif
