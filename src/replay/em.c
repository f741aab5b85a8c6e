// SPDX-License-Identifier: GPL-2.0-only
/*
 * Mainline's energy model (kernel/power/energy_model.c) over the cost
 * model: one power per CPU and OPP, the cluster's power folded into it in
 * equal shares, and the OPPs it marks inefficient. feec prices with it,
 * schedutil skips its inefficient OPPs. Platform layer: the model only.
 */
#include "replay/platform.h"

int64_t rp_em_power_u(const struct ea_cluster *cl, int k)
{
	return cl->caps[k].core_power_u +
	       cl->caps[k].cluster_power_u / cl->ncpus;
}

int rp_em_efficient(const struct ea_cluster *cl, int k)
{
	uint32_t fmax = cl->caps[cl->ncaps - 1].freq_khz;
	unsigned __int128 best = 0;
	int best_k = cl->ncaps - 1;

	/* from the top down: a state is efficient when it costs less than
	 * every higher one; k maps to the lowest efficient state >= k */
	for (int j = cl->ncaps - 1; j >= k; j--) {
		unsigned __int128 cost =
			(unsigned __int128)rp_em_power_u(cl, j) * fmax /
			(cl->caps[j].freq_khz ? cl->caps[j].freq_khz : 1);

		if (j == cl->ncaps - 1 || cost < best) {
			best = cost;
			best_k = j;
		}
	}
	return best_k;
}
