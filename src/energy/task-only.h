/* SPDX-License-Identifier: GPL-2.0-only */
/* The accountant's task filter (eatrace/energy.h cfg.task_only). */
#ifndef EATRACE_ENERGY_TASK_ONLY_H
#define EATRACE_ENERGY_TASK_ONLY_H

#include "eatrace/energy.h"

/*
 * Whether the energy cpu charges to pid now belongs to a selected task: by
 * its pid, or its name in the state stage now (a->cur_state); the answer
 * is kept per CPU while its payer and the payer's name stay the same.
 */
bool ea_acct_task_selected(struct ea_acct *a, int cpu, int32_t pid);

#endif
