// SPDX-License-Identifier: GPL-2.0-only
/* Quantise a model's powers and wakeup energies to integers, once. */
#include <math.h>
#include <stdlib.h>

#include "energy/price.h"

static int64_t q(double x)
{
	return llround(x * (double)EA_POWER_QUANTUM);
}

int ea_prices_new(struct ea_prices **pp, const struct ea_model *m, bool zero_wakeups)
{
	struct ea_prices *p = calloc(1, sizeof(*p));

	*pp = p;
	if (!p || !(p->cl = calloc(m->nclusters ? m->nclusters : 1, sizeof(*p->cl))))
		return -1;
	p->ncl = m->nclusters;
	p->suspend = q(m->suspend_power);
	for (int i = 0; i < m->nclusters; i++) {
		const struct ea_cluster *c = &m->clusters[i];
		struct cluster_price *cp = &p->cl[i];
		int nc = c->ncaps ? c->ncaps : 1, ni = c->nidles ? c->nidles : 1;

		cp->cap_core = calloc(nc, sizeof(int64_t));
		cp->cap_cluster = calloc(nc, sizeof(int64_t));
		cp->idle_core = calloc(ni, sizeof(int64_t));
		cp->idle_cluster = calloc(ni, sizeof(int64_t));
		cp->wake_core = calloc(ni, sizeof(ea_energy_t));
		cp->wake_cluster = calloc(ni, sizeof(ea_energy_t));
		if (!cp->cap_core || !cp->cap_cluster || !cp->idle_core ||
		    !cp->idle_cluster || !cp->wake_core || !cp->wake_cluster)
			return -1;
		cp->offline = q(c->offline_power);
		for (int k = 0; k < c->ncaps; k++) {
			cp->cap_core[k] = q(c->caps[k].core_power);
			cp->cap_cluster[k] = q(c->caps[k].cluster_power);
		}
		for (int k = 0; k < c->nidles; k++) {
			cp->idle_core[k] = q(c->idles[k].core_power);
			cp->idle_cluster[k] = q(c->idles[k].cluster_power);
			if (zero_wakeups)
				continue;
			/* energy per wakeup, in 1e-18 units: 1e-9 quantum x 1e9 */
			cp->wake_core[k] = (ea_energy_t)q(c->idles[k].core_wakeup) *
					   EA_POWER_QUANTUM;
			cp->wake_cluster[k] = (ea_energy_t)q(c->idles[k].cluster_wakeup) *
					      EA_POWER_QUANTUM;
		}
	}
	return 0;
}

void ea_prices_free(struct ea_prices *p)
{
	if (!p)
		return;
	for (int i = 0; p->cl && i < p->ncl; i++) {
		free(p->cl[i].cap_core);
		free(p->cl[i].cap_cluster);
		free(p->cl[i].idle_core);
		free(p->cl[i].idle_cluster);
		free(p->cl[i].wake_core);
		free(p->cl[i].wake_cluster);
	}
	free(p->cl);
	free(p);
}
