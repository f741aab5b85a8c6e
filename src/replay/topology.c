// SPDX-License-Identifier: GPL-2.0-only
/*
 * The platform as mainline's scheduling domains see it (docs/replay.md
 * "Topology"), from the model alone: which CPUs share a last-level cache
 * (the MC domain, sd_llc: each cluster its own unless clusters name the
 * same "llc"), the LLCs as the groups of the domain above (PKG), and
 * whether capacities differ (SD_ASYM_CPUCAPACITY, on the whole platform);
 * SIS_UTIL's scan limit of an LLC from its utilisation.
 */
#include <stdlib.h>
#include <string.h>

#include "replay/platform.h"

/* Whether clusters a and b of m share their last-level cache. */
static bool same_llc(const struct ea_model *m, int a, int b)
{
	const char *x = m->clusters[a].llc, *y = m->clusters[b].llc;

	if (a == b)
		return true;
	return x[0] && y[0] && !strcmp(x, y);
}

struct rp_topo *rp_topo_new(const struct ea_model *m, int ncpus)
{
	struct rp_topo *t = calloc(1, sizeof(*t));
	int *cl_llc = calloc(m->nclusters ? m->nclusters : 1, sizeof(int));

	if (!t || !cl_llc)
		goto fail;
	t->ncpus = ncpus;
	t->llc = calloc(ncpus ? ncpus : 1, sizeof(*t->llc));
	t->llc_size = calloc(ncpus ? ncpus : 1, sizeof(*t->llc_size));
	t->llc_first = calloc(ncpus ? ncpus : 1, sizeof(*t->llc_first));
	if (!t->llc || !t->llc_size || !t->llc_first)
		goto fail;
	for (int c = 0; c < m->nclusters; c++)
		cl_llc[c] = -1;
	/* LLCs numbered in the order of their first CPU */
	for (int i = 0; i < ncpus; i++) {
		int c = m->cpu_cluster[i];

		if (cl_llc[c] < 0) {
			for (int d = 0; d < m->nclusters; d++)
				if (cl_llc[d] >= 0 && same_llc(m, c, d))
					cl_llc[c] = cl_llc[d];
			if (cl_llc[c] < 0) {
				cl_llc[c] = t->nllc++;
				t->llc_first[cl_llc[c]] = i;
			}
		}
		t->llc[i] = cl_llc[c];
		t->llc_size[t->llc[i]]++;
	}
	t->asym = rp_asymmetric(m);
	free(cl_llc);
	return t;
fail:
	free(cl_llc);
	rp_topo_free(t);
	return NULL;
}

void rp_topo_free(struct rp_topo *t)
{
	if (!t)
		return;
	free(t->llc);
	free(t->llc_size);
	free(t->llc_first);
	free(t);
}

int rp_sis_util_nr_scan(uint64_t util_mean, int llc_size)
{
	uint64_t pct = RP_IMBALANCE_PCT,
		 tmp = util_mean * util_mean * pct * pct / (10000 * 1024);

	if (tmp > 1024)
		tmp = 1024;
	return (int)((1024 - tmp) * (uint64_t)llc_size / 1024);
}
