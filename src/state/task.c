// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-task reconstruction: run state, runnable wait, activations, wakeups
 * and migrations, counted within the analysis window. A task's runtime is
 * the busy time its CPUs are charged to it (state/cpu.c).
 */
#include <stdlib.h>
#include <string.h>

#include "state/task-switch.h"

static size_t slot_of(int32_t pid, size_t nslots)
{
	return ((uint32_t)pid * 2654435761u) & (nslots - 1);
}

static int rehash(struct task_table *t)
{
	size_t n = t->nslots ? t->nslots * 2 : 1024;
	struct task_slot *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -1;
	for (size_t i = 0; i < t->n; i++) {
		size_t j;

		if (tidx_covers(t->by_order[i]->pid))
			continue; /* in the index */
		j = slot_of(t->by_order[i]->pid, n);
		while (slots[j].idx)
			j = (j + 1) & (n - 1);
		slots[j].pid = t->by_order[i]->pid;
		slots[j].idx = (int32_t)i + 1;
	}
	free(t->slots);
	t->slots = slots;
	t->nslots = n;
	return 0;
}

static struct ea_task *lookup(const struct task_table *t, int32_t pid)
{
	size_t j;

	if (tidx_covers(pid))
		return tidx_get(&t->idx, pid);
	if (!t->nslots)
		return NULL;
	for (j = slot_of(pid, t->nslots); t->slots[j].idx; j = (j + 1) & (t->nslots - 1))
		if (t->slots[j].pid == pid)
			return t->by_order[t->slots[j].idx - 1];
	return NULL;
}

struct ea_task *task_find(const struct ea_state *s, int32_t pid)
{
	return pid > 0 ? lookup(&s->tasks, pid) : NULL;
}

struct ea_task *task_get_slow(struct ea_state *s, int32_t pid,
			      const char *comm)
{
	struct task_table *t = &s->tasks;
	bool hashed = !tidx_covers(pid);
	struct ea_task *task;
	size_t j;

	if (pid <= 0)
		return NULL;
	task = lookup(t, pid);
	if (task) {
		if (comm && comm[0])
			memcpy(task->comm, comm, EA_COMM_LEN);
		return task;
	}
	if (hashed && (t->nhash + 1) * 2 > t->nslots && rehash(t))
		return NULL;
	if (t->n == t->cap) {
		size_t n = t->cap ? t->cap * 2 : 256;
		struct ea_task **p = realloc(t->by_order, n * sizeof(*p));

		if (!p)
			return NULL;
		t->by_order = p;
		t->cap = n;
	}
	task = calloc(1, sizeof(*task));
	if (!task)
		return NULL;
	if (!hashed && tidx_set(&t->idx, pid, task)) {
		free(task);
		return NULL;
	}
	task->pid = pid;
	task->cpu = -1;
	task->pelt_cpu = -1;
	task->woken_cpu = -1;
	task->prio = -1;
	/*
	 * A pid higher than any met so far, first met in a record of another
	 * task: perhaps forked by it (state/cpu.c, pelt_task_in() decides at
	 * its first switch-in, from the comm a child inherits).
	 */
	if (pid > s->pid_hwm) {
		const struct ea_event *ev = s->applying;
		int32_t cur = !ev ? -1 : ev->type == EA_EV_SWITCH ?
			      ev->sw.prev_pid : ev->cur_pid;

		if (s->pid_hwm > 0 && cur > 0 && cur != pid)
			task->fork_parent = cur;
		s->pid_hwm = pid;
	}
	if (comm)
		memcpy(task->comm, comm, EA_COMM_LEN);
	t->by_order[t->n++] = task;
	if (!hashed)
		return task;
	for (j = slot_of(pid, t->nslots); t->slots[j].idx; j = (j + 1) & (t->nslots - 1))
		;
	t->slots[j].pid = pid;
	t->slots[j].idx = (int32_t)t->n;
	t->nhash++;
	return task;
}

void task_table_free(struct task_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->by_order[i]);
	free(t->by_order);
	free(t->slots);
	tidx_free(&t->idx);
	memset(t, 0, sizeof(*t));
}

/* task_wakeup() out of line, for state.c's apply() */
void task_wakeup(struct ea_state *s, const struct ea_event *ev)
{
	task_wake(s, ev);
}

void task_apply(struct ea_state *s, const struct ea_event *ev)
{
	switch (ev->type) {
	case EA_EV_SWITCH:
		task_switch_out(s, ev, NULL);
		task_switch_in(s, ev);
		break;
	case EA_EV_WAKEUP:
	case EA_EV_WAKING:
	case EA_EV_WAKEUP_NEW:
		task_wake(s, ev);
		break;
	default:
		break;
	}
}

void task_finish(struct ea_state *s)
{
	for (size_t i = 0; i < s->tasks.n; i++) {
		struct ea_task *t = s->tasks.by_order[i];

		if (t->run == EA_TASK_RUNNABLE)
			t->wait_ns += task_span(s, t->since, s->last_ts);
		t->since = s->last_ts;
	}
}
