// SPDX-License-Identifier: GPL-2.0-only
/* Tasks by pid in a two-level table: see state/task-index.h. */
#include <stdbool.h>
#include <stdlib.h>

#include "state/task-index.h"

int tidx_set(struct task_index *x, int32_t pid, struct ea_task *t)
{
	uint32_t hi = (uint32_t)pid >> TIDX_SHIFT;

	if (!x->page) {
		x->page = calloc(TIDX_PIDS / TIDX_PAGE, sizeof(*x->page));
		if (!x->page)
			return -1;
	}
	if (!x->page[hi]) {
		x->page[hi] = calloc(TIDX_PAGE, sizeof(**x->page));
		if (!x->page[hi])
			return -1;
	}
	x->page[hi][(uint32_t)pid & (TIDX_PAGE - 1)] = t;
	return 0;
}

void tidx_free(struct task_index *x)
{
	if (x->page) {
		for (uint32_t i = 0; i < TIDX_PIDS / TIDX_PAGE; i++)
			free(x->page[i]);
		free(x->page);
	}
	x->page = NULL;
}
