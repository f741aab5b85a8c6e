// SPDX-License-Identifier: GPL-2.0-only
/*
 * The accountant's cluster aggregate (acct-agg.h): what integrating a
 * cluster reads of its CPUs' states, made when the general path
 * integrates it or a stretch of task switches opens.
 */
#include <string.h>

#include "energy/acct-agg.h"
#include "energy/acct-freq.h"

void ea_acct_aggregate(struct ea_acct *a, int ci, const struct ea_cluster *cl)
{
	struct ea_cluster_acct *ca = &a->clusters[ci];
	int nbusy = 0, npresent = 0, cap = -1, idle = -1;
	int pres[64];	/* the first 64 present CPUs */

	for (int i = 0; i < cl->ncpus; i++) {
		int cpu = cl->cpus[i];
		const struct ea_cpu_state *st;

		if (!ea_acct_present(a, cpu))
			continue;
		st = &a->cpus[cpu].st;
		if (npresent < 64)
			pres[npresent] = cpu;
		npresent++;
		if (st->mode == EA_CPU_BUSY) {
			int k = ea_acct_busy_cap(a, cl, cpu, st->freq_khz);

			if (k > cap)
				cap = k;
			if (nbusy < 64)
				ca->who[nbusy] = cpu;
			nbusy++;
		} else {
			int k = st->idle_state < 0 ? 0 : st->idle_state;

			if (idle < 0 || k < idle)
				idle = k;
		}
	}
	if (!nbusy)
		memcpy(ca->who, pres, (npresent < 64 ? npresent : 64) * sizeof(int));
	ca->nbusy = nbusy;
	ca->npresent = npresent;
	ca->cap = cap;
	ca->idle = idle;
	ca->agg_ok = true;
}
