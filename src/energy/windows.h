/* SPDX-License-Identifier: GPL-2.0-only */
/* The accountant's time windows (--interval): src/energy/windows.c. */
#ifndef EATRACE_ENERGY_WINDOWS_H
#define EATRACE_ENERGY_WINDOWS_H

#include <stdbool.h>
#include <stdint.h>

#include "energy/part.h"
#include "eatrace/energy.h"

/* Grow a->windows to n (> a->nwindows) zeroed windows. false, with
 * a->error set, when memory runs out. */
bool ea_acct_grow_windows(struct ea_acct *a, size_t n);

/* power over [t0, t1) into the windows it spans (a->error past the limit) */
void ea_acct_charge_windows_slow(struct ea_acct *a, enum part part,
				 int64_t power, uint64_t t0, uint64_t t1);

/* energy v of the instant t into its window */
void ea_acct_charge_window_at_slow(struct ea_acct *a, enum part part,
				   ea_energy_t v, uint64_t t);

/*
 * With cfg.cpu_only: energy e of [t0, t1) (t0 < t1) that is the selected
 * CPUs' share of a cluster's or the system's, spread over the windows in
 * proportion to time, the remainder to the last: the windows still add
 * up to the total exactly.
 */
void ea_acct_charge_windows_share(struct ea_acct *a, enum part part,
				  ea_energy_t e, uint64_t t0, uint64_t t1);

/* Time windows are optional (--interval): no call when there are none. */
static inline void charge_windows(struct ea_acct *a, enum part part,
				  int64_t power, uint64_t t0, uint64_t t1)
{
	if (a->cfg.interval_ns)
		ea_acct_charge_windows_slow(a, part, power, t0, t1);
}

static inline void charge_window_at(struct ea_acct *a, enum part part,
				    ea_energy_t v, uint64_t t)
{
	if (a->cfg.interval_ns)
		ea_acct_charge_window_at_slow(a, part, v, t);
}

#endif
