// SPDX-License-Identifier: GPL-2.0-only
/*
 * The accountant's tasks: an entry per pid, made at its first charge (the
 * order of a->tasks), found through an open-addressing hash by pid, and
 * for most pids through a table by pid too (acct-tasks.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "energy/acct-tasks.h"

/* Index idx (tasks[] index + 1) as pid's in the table by pid: 0, or -1
 * out of memory. */
static int page_set(struct ea_acct *a, int32_t pid, int32_t idx)
{
	int32_t **page;

	if ((uint32_t)pid >= ACCT_PIDS)
		return 0;
	if (!a->task_pages) {
		a->task_pages = calloc(ACCT_PIDS / ACCT_PAGE,
				       sizeof(*a->task_pages));
		if (!a->task_pages)
			return -1;
	}
	page = &a->task_pages[(uint32_t)pid >> ACCT_PAGE_SHIFT];
	if (!*page) {
		*page = calloc(ACCT_PAGE, sizeof(**page));
		if (!*page)
			return -1;
	}
	(*page)[(uint32_t)pid & (ACCT_PAGE - 1)] = idx;
	return 0;
}

int ea_acct_task_pages_new(struct ea_acct *a)
{
	a->task_pages = calloc(ACCT_PIDS / ACCT_PAGE, sizeof(*a->task_pages));
	return a->task_pages ? 0 : -1;
}

void ea_acct_task_pages_free(struct ea_acct *a)
{
	for (size_t i = 0; a->task_pages && i < ACCT_PIDS / ACCT_PAGE; i++)
		free(a->task_pages[i]);
	free(a->task_pages);
	a->task_pages = NULL;
}

struct ea_task_acct *ea_acct_task(struct ea_acct *a, int32_t pid)
{
	size_t j;

	if (a->task_nslots) {
		for (j = ea_acct_slot_of(pid, a->task_nslots); a->task_slots[j].idx;
		     j = (j + 1) & (a->task_nslots - 1))
			if (a->task_slots[j].pid == pid)
				return &a->tasks[a->task_slots[j].idx - 1];
	}
	if ((a->ntasks + 1) * 2 > a->task_nslots) {
		size_t n = a->task_nslots ? a->task_nslots * 2 : 256;
		struct ea_acct_slot *slots = calloc(n, sizeof(*slots));

		if (!slots)
			return NULL;
		for (size_t i = 0; i < a->ntasks; i++) {
			for (j = ea_acct_slot_of(a->tasks[i].pid, n); slots[j].idx;
			     j = (j + 1) & (n - 1))
				;
			slots[j].pid = a->tasks[i].pid;
			slots[j].idx = (int32_t)i + 1;
		}
		free(a->task_slots);
		a->task_slots = slots;
		a->task_nslots = n;
	}
	if (a->ntasks == a->task_cap) {
		size_t n = a->task_cap ? a->task_cap * 2 : 128;
		struct ea_task_acct *t = realloc(a->tasks, n * sizeof(*t));

		if (!t)
			return NULL;
		a->tasks = t;
		a->task_cap = n;
	}
	/* in the table by pid first: made only when both have it */
	if (page_set(a, pid, (int32_t)a->ntasks + 1))
		return NULL;
	memset(&a->tasks[a->ntasks], 0, sizeof(a->tasks[0]));
	a->tasks[a->ntasks].pid = pid;
	for (j = ea_acct_slot_of(pid, a->task_nslots); a->task_slots[j].idx;
	     j = (j + 1) & (a->task_nslots - 1))
		;
	a->task_slots[j].pid = pid;
	a->task_slots[j].idx = (int32_t)++a->ntasks;
	return &a->tasks[a->ntasks - 1];
}

void ea_acct_charge_task_slow(struct ea_acct *a, int cpu, int32_t pid,
			      enum part part, ea_energy_t v)
{
	struct ea_cpu_acct *ca = &a->cpus[cpu];
	struct ea_task_acct *t = ea_acct_task(a, pid);

	if (!t) {
		snprintf(a->error, sizeof(a->error), "out of memory");
		return;
	}
	ca->last_pid = pid;
	ca->last_task = (int32_t)(t - a->tasks) + 1;
	add(&t->e, part, v);
}
