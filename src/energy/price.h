/* SPDX-License-Identifier: GPL-2.0-only */
/* A model's powers quantised for exact integer accounting. */
#ifndef EATRACE_ENERGY_PRICE_H
#define EATRACE_ENERGY_PRICE_H

#include "eatrace/energy.h"

struct cluster_price {
	int64_t *cap_core, *cap_cluster;	/* 1e-9 power_unit */
	int64_t *idle_core, *idle_cluster;	/* 1e-9 power_unit */
	ea_energy_t *wake_core, *wake_cluster;	/* 1e-18 power_unit x s */
	int64_t offline;	/* one offline CPU, 1e-9 power_unit */
};

struct ea_prices {
	struct cluster_price *cl;
	int ncl;
	int64_t suspend;	/* the whole system suspended, 1e-9 power_unit */
};

int ea_prices_new(struct ea_prices **p, const struct ea_model *m, bool zero_wakeups);
void ea_prices_free(struct ea_prices *p);

#endif
