/* SPDX-License-Identifier: GPL-2.0-only */
/* A cluster's energy shared among its CPUs in integers. */
#ifndef EATRACE_ENERGY_SPLIT_H
#define EATRACE_ENERGY_SPLIT_H

#include <stdint.h>

#include "eatrace/energy.h"

/* e among n sharers: *share each, one more to the first *rem (< n). */
static inline void ea_acct_split(ea_energy_t e, int n, ea_energy_t *share,
				 int64_t *rem)
{
	if (n == 1) {
		*share = e;
		*rem = 0;
	} else if (e >= 0 && e <= (ea_energy_t)UINT64_MAX) {
		/* the same quotient without a 128-bit division */
		uint64_t u = (uint64_t)e, q;

		if (!(n & (n - 1)))	/* a power of two */
			q = u >> __builtin_ctz((unsigned int)n);
		else
			q = u / (uint64_t)n;
		*share = q;
		*rem = (int64_t)(u - q * (uint64_t)n);
	} else {
		*share = e / n;
		*rem = (int64_t)(e - *share * n);
	}
}

#endif
