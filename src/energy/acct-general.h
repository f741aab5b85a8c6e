/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The accountant's general path: one CPU change of any kind priced
 * (src/energy/account.c), for the changes the fast path of its entry
 * (src/energy/account-switch.c) leaves to it.
 */
#ifndef EATRACE_ENERGY_ACCT_GENERAL_H
#define EATRACE_ENERGY_ACCT_GENERAL_H

#include <stdint.h>

#include "eatrace/energy.h"

void ea_acct_general_change(struct ea_acct *a, const struct ea_state *s, int cpu,
			    uint64_t since, uint64_t now,
			    const struct ea_cpu_state *old,
			    const struct ea_cpu_state *new);

#endif
