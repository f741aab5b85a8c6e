// SPDX-License-Identifier: GPL-2.0-only
/* A process's tracks in the protobuf --perfetto file
 * (src/output/perfetto-pb-tracks.h). */
#include <stdlib.h>

#include "output/perfetto-pb-tracks.h"

int pf_tracks_alloc(struct tracks *k, int ncl, int ncpus)
{
	uint64_t *v = calloc((size_t)(2 * ncl + 2 * ncpus) + 1, sizeof(*v));

	k->cpu = calloc((size_t)ncpus + 1, sizeof(*k->cpu));
	if (!v || !k->cpu) {
		free(v);
		free(k->cpu);
		k->cpu = NULL;
		return -1;
	}
	k->cl_power = v;
	k->cl_wake = v + ncl;
	k->power = k->cl_wake + ncl;
	k->wake = k->power + ncpus;
	k->ncpus = ncpus;
	return 0;
}

void pf_tracks_free(struct tracks *k)
{
	for (int c = 0; c < k->ncpus; c++)
		ea_pf_pid_map_free(&k->cpu[c].names);
	free(k->cpu);
	free(k->cl_power);
}

bool pf_tracks_fit(const struct tracks *a, const struct tracks *k)
{
	if (a->seq != k->seq || k->ncpus > a->ncpus)
		return false;
	for (int c = 0; c < k->ncpus; c++) {
		const struct cpu_seq *x = &a->cpu[c], *y = &k->cpu[c];

		if (x->seq != y->seq || x->slices != y->slices ||
		    x->opp != y->opp || x->idle != y->idle ||
		    x->assumed_khz != y->assumed_khz)
			return false;
	}
	return true;
}
