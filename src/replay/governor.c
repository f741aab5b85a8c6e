// SPDX-License-Identifier: GPL-2.0-only
/*
 * Frequency governors of the replay. `recorded` follows the trace's own
 * cpu_frequency timeline (sim.c does that); the others pick an OPP per
 * frequency domain from the simulated utilisation:
 *  - schedutil: the lowest OPP whose capacity covers 1.25 x the util of the
 *    domain's busiest CPU (get_next_freq(): freq = 1.25 x max_freq x
 *    util / max_cap, then the lowest OPP at or above it);
 *  - performance: the highest OPP; powersave: the lowest.
 */
#include <string.h>

#include "replay/replay-internal.h"

static const char *const names[] = { "recorded", "schedutil", "performance",
				     "powersave" };

int rp_gov_parse(const char *name)
{
	for (int i = 0; i < (int)(sizeof(names) / sizeof(names[0])); i++)
		if (!strcmp(name, names[i]))
			return i;
	return -1;
}

bool ea_replay_governor_valid(const char *name)
{
	return rp_gov_parse(name) >= 0;
}

int rp_gov_cap_idx(enum rp_gov g, const struct ea_cluster *cl, uint32_t util)
{
	uint64_t want = (uint64_t)util + (util >> 2);
	int k;

	switch (g) {
	case RP_GOV_POWERSAVE:
		return 0;
	case RP_GOV_SCHEDUTIL:
		for (k = 0; k < cl->ncaps - 1; k++)
			if (cl->caps[k].cap >= want)
				break;
		return k;
	default:
		return cl->ncaps - 1;
	}
}
