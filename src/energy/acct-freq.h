/* SPDX-License-Identifier: GPL-2.0-only */
/* The accountant's frequencies to cap states (src/energy/acct-freq.c). */
#ifndef EATRACE_ENERGY_ACCT_FREQ_H
#define EATRACE_ENERGY_ACCT_FREQ_H

#include <stdint.h>

#include "eatrace/energy.h"

/* The cap index charged while a CPU's frequency is unknown (cfg.assumed_khz
 * or the cluster's highest). */
int ea_acct_assumed_index(const struct ea_acct *a, const struct ea_cluster *cl);

/* The cap index a busy CPU's core is priced at for len ns at freq (0:
 * unknown): the model's exact state, else the nearest, counting len as
 * assumed_freq_ns or unmodelled_freq_ns. Memoised in exact_freq/exact_cap. */
int ea_acct_cap_index(struct ea_acct *a, const struct ea_cluster *cl, int cpu,
		      uint32_t freq, uint64_t len);

/* The nearest cap index of the frequency a busy CPU runs at, memoised in
 * near_freq/near_cap. */
int ea_acct_busy_cap(struct ea_acct *a, const struct ea_cluster *cl, int cpu,
		     uint32_t freq);

/* A busy sharer's share e of its cluster's energy, when its frequency was
 * not reported or is not the model's: energy that rests on it. */
void ea_acct_freq_assumed(struct ea_acct *a, const struct ea_cluster *cl,
			  int cpu, ea_energy_t e);

#endif
