/* SPDX-License-Identifier: GPL-2.0-only */
/* What integrating a cluster reads of its CPUs' states (src/energy/acct-agg.c). */
#ifndef EATRACE_ENERGY_ACCT_AGG_H
#define EATRACE_ENERGY_ACCT_AGG_H

#include <stdbool.h>

#include "eatrace/energy.h"

/* In the trace (a->cpus[cpu].st is its state), and powered: neither
 * suspended (the suspend power covers the clusters) nor offline. */
static inline bool ea_acct_present(const struct ea_acct *a, int cpu)
{
	return cpu < a->st_known && a->cpus[cpu].st.mode <= EA_CPU_IDLE;
}

/*
 * Cluster ci's aggregate from its CPUs' states (a->cpus[].st): busy and
 * present CPUs, the sharers (who[]), the highest busy cap index, the
 * shallowest idle state; agg_ok until a state changes in any of it. A
 * function of those states alone: made whenever they are as they are.
 */
void ea_acct_aggregate(struct ea_acct *a, int ci, const struct ea_cluster *cl);

#endif
