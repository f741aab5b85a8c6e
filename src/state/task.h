/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The task machine (task.c), for state.c and cpu.c: the task table (tasks
 * by pid, in order of first appearance) and each task's run state,
 * waits, wakeups and migrations (its runtime: state/cpu.c).
 */
#ifndef EATRACE_STATE_TASK_H
#define EATRACE_STATE_TASK_H

#include "state/state-internal.h"

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
