// SPDX-License-Identifier: GPL-2.0-only
/* The accountant's tasks in order of energy, most first (eatrace/energy.h). */
#include <stdlib.h>

#include "eatrace/energy.h"

static int by_energy(const void *x, const void *y)
{
	const struct ea_task_acct *a = *(const struct ea_task_acct *const *)x;
	const struct ea_task_acct *b = *(const struct ea_task_acct *const *)y;
	ea_energy_t ea = ea_energy_total(&a->e), eb = ea_energy_total(&b->e);

	if (ea != eb)
		return ea < eb ? 1 : -1;
	return (a->pid > b->pid) - (a->pid < b->pid);
}

const struct ea_task_acct **ea_acct_tasks_by_energy(const struct ea_acct *a)
{
	const struct ea_task_acct **v = malloc((a->ntasks + 1) * sizeof(*v));

	if (!v)
		return NULL;
	for (size_t i = 0; i < a->ntasks; i++)
		v[i] = &a->tasks[i];
	qsort(v, a->ntasks, sizeof(*v), by_energy);
	return v;
}
