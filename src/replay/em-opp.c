// SPDX-License-Identifier: GPL-2.0-only
/*
 * feec's OPP for a utilisation, as a table: em_cpu_energy() takes the
 * lowest OPP whose capacity covers the busiest CPU's util (with its 25%
 * headroom, at most the top capacity), then, unless the model uses every
 * OPP, the lowest efficient one at or above it (rp_em_efficient()). A
 * search over the OPPs at each of a decision's energy estimates; one read
 * here, the table made once per run and cluster (rp_cl_cache_new()).
 * Platform layer: the model only.
 */
#include "replay/platform.h"

/* The lowest OPP of cl covering util (util at most the top capacity). */
static int covering(const struct ea_cluster *cl, uint32_t util)
{
	int k;

	for (k = 0; k < cl->ncaps - 1; k++)
		if (cl->caps[k].cap >= util)
			break;
	return k;
}

size_t rp_em_opp_len(const struct ea_cluster *cl)
{
	uint32_t cap = cl->caps[cl->ncaps - 1].cap;

	return cap <= RP_EM_OPP_MAX_CAP ? (size_t)cap + 1 : 0;
}

void rp_em_opp_fill(const struct ea_cluster *cl, bool skip_inefficient,
		    uint16_t *t)
{
	size_t n = rp_em_opp_len(cl);
	int k = -1, v = 0;

	for (size_t u = 0; u < n; u++) {
		int ku = covering(cl, (uint32_t)u);

		/* the same OPP over a range of util: its mapping once */
		if (ku != k) {
			k = ku;
			v = skip_inefficient ? rp_em_efficient(cl, k) : k;
		}
		t[u] = (uint16_t)v;
	}
}
