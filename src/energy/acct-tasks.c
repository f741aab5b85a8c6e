// SPDX-License-Identifier: GPL-2.0-only
/*
 * The accountant's tasks: an entry per pid, made at its first charge (the
 * order of a->tasks), found through an open-addressing hash by pid.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "energy/acct-tasks.h"

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
