/* SPDX-License-Identifier: GPL-2.0-only */
/* The accountant's tasks by pid (src/energy/acct-tasks.c). */
#ifndef EATRACE_ENERGY_ACCT_TASKS_H
#define EATRACE_ENERGY_ACCT_TASKS_H

#include <stddef.h>
#include <stdint.h>

#include "energy/part.h"
#include "eatrace/energy.h"

/*
 * Besides the hash, the pids below ACCT_PIDS (Linux's PID_MAX_LIMIT: every
 * task's) find their entries in two loads: a->task_pages[pid >>
 * ACCT_PAGE_SHIFT][pid & (ACCT_PAGE - 1)] is tasks[] index + 1 (0: no
 * entry), pages made as pids fall in them. A task switch looks its new
 * task up there (src/energy/account-switch.c).
 */
#define ACCT_PIDS (1u << 22)
#define ACCT_PAGE_SHIFT 10
#define ACCT_PAGE (1u << ACCT_PAGE_SHIFT)

/* pid's tasks[] index + 1 (0 <= pid < ACCT_PIDS), 0 when it has no
 * entry; with per-task figures (the table is made with the accountant) */
static inline int32_t ea_acct_task_page_idx(const struct ea_acct *a,
					    int32_t pid)
{
	const int32_t *p = a->task_pages[(uint32_t)pid >> ACCT_PAGE_SHIFT];

	return p ? p[(uint32_t)pid & (ACCT_PAGE - 1)] : 0;
}

/* pid's first slot in a->task_slots (n slots, a power of two) */
static inline size_t ea_acct_slot_of(int32_t pid, size_t n)
{
	return ((uint32_t)pid * 2654435761u) & (n - 1);
}

/* pid's entry, made (zeroed, last in a->tasks) when it has none; NULL out
 * of memory. */
struct ea_task_acct *ea_acct_task(struct ea_acct *a, int32_t pid);
/* The table by pid made (with per-task figures: ea_acct_init()), freed
 * (ea_acct_free()); 0 or -1 out of memory. */
int ea_acct_task_pages_new(struct ea_acct *a);
void ea_acct_task_pages_free(struct ea_acct *a);

/* v into pid's part through ea_acct_task(), which CPU cpu then remembers
 * as its last payer (cpus[cpu].last_pid, last_task); a->error out of
 * memory. */
void ea_acct_charge_task_slow(struct ea_acct *a, int cpu, int32_t pid,
			      enum part part, ea_energy_t v);

#endif
