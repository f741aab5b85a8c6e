// SPDX-License-Identifier: GPL-2.0-only
/*
 * The 2014 RFC's energy figures of the cost model (seeds 006-008): its
 * wakeup energy per window from the model's per-wakeup energy, and its
 * current state of a CPU (curr_capacity, matched against the model's cap
 * states). eas-rfc prices with them; platform.c caches them per cluster.
 * Platform layer: the model only.
 */
#include <math.h>

#include "replay/platform.h"

int rp_rfc_curr_idx(const struct ea_cluster *cl, int k)
{
	uint32_t top = cl->caps[cl->ncaps - 1].freq_khz;
	long curr = top ? (long)((uint64_t)cl->caps[k].freq_khz * 1024 / top)
			: 1024;
	int i = rp_rfc_match_cap(cl, curr, 0);

	return i < cl->ncaps ? i : cl->ncaps - 1;
}

long rp_rfc_wakeup_energy(double per_wakeup)
{
	return lround(per_wakeup * 1024.0 * 1000.0 / 47742.0);
}
