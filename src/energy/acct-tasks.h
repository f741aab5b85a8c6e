/* SPDX-License-Identifier: GPL-2.0-only */
/* The accountant's tasks by pid (src/energy/acct-tasks.c). */
#ifndef EATRACE_ENERGY_ACCT_TASKS_H
#define EATRACE_ENERGY_ACCT_TASKS_H

#include <stddef.h>
#include <stdint.h>

#include "energy/part.h"
#include "eatrace/energy.h"

/* pid's first slot in a->task_slots (n slots, a power of two) */
static inline size_t ea_acct_slot_of(int32_t pid, size_t n)
{
	return ((uint32_t)pid * 2654435761u) & (n - 1);
}

/* pid's entry, made (zeroed, last in a->tasks) when it has none; NULL out
 * of memory. */
struct ea_task_acct *ea_acct_task(struct ea_acct *a, int32_t pid);

/* v into pid's part through ea_acct_task(), which CPU cpu then remembers
 * as its last payer (cpus[cpu].last_pid, last_task); a->error out of
 * memory. */
void ea_acct_charge_task_slow(struct ea_acct *a, int cpu, int32_t pid,
			      enum part part, ea_energy_t v);

#endif
