// SPDX-License-Identifier: GPL-2.0-only
/*
 * The energies of a steady stretch's task switches deferred, and added
 * when the deferral ends: see acct-defer.h for what and why it is exact.
 */
#include "energy/acct-defer.h"

void ea_acct_defer_begin(struct ea_acct *a, struct ea_lazy_cluster *lc)
{
	lc->defer = true;
	lc->d_ns0 = lc->cla->busy_ns;
	lc->odd = 0;
	lc->podd = lc->n == 2 ? lc->pcl & 1 : 0;
	lc->d_pcl = lc->n == 2 ? lc->pcl : 2 * lc->pcl;
	for (int i = 0; i < lc->n; i++) {
		lc->shr[i]->d_ns0 = lc->sh[i]->busy_ns;
		lc->shr[i]->d_first = i == 0;
		if (lc->shr[i]->fast == LZ_STEADY)
			lc->shr[i]->fast = LZ_DEFER;
	}
	a->lz_ndefer++;
}

void ea_acct_defer_sync(struct ea_acct *a, struct ea_lazy_cluster *lc)
{
	struct ea_cluster_acct *cla = lc->cla;
	unsigned __int128 e;

	if (!lc->defer)
		return;
	e = (unsigned __int128)lc->pcl * (cla->busy_ns - lc->d_ns0);
	cla->e.cluster_busy += (ea_energy_t)e;
	if (lc->n == 2) {
		lc->sh[0]->e.cluster_busy += (ea_energy_t)((e + lc->odd) >> 1);
		lc->sh[1]->e.cluster_busy += (ea_energy_t)((e - lc->odd) >> 1);
	} else {
		lc->sh[0]->e.cluster_busy += (ea_energy_t)e;
	}
	for (int i = 0; i < lc->n; i++) {
		struct ea_cpu_acct *ca = lc->sh[i];
		ea_energy_t c = (ea_energy_t)((unsigned __int128)lc->shr[i]->pcore *
					      (ca->busy_ns - lc->shr[i]->d_ns0));

		ca->e.core_busy += c;
		cla->e.core_busy += c;
		if (lc->shr[i]->fast == LZ_DEFER)
			lc->shr[i]->fast = LZ_STEADY;
	}
	lc->defer = false;
	a->lz_ndefer--;
}

void ea_acct_defer_sync_all(struct ea_acct *a)
{
	for (int i = 0; a->lz_ndefer && i < a->model->nclusters; i++)
		ea_acct_defer_sync(a, &a->lz_cl[i]);
}

void ea_acct_sync(struct ea_acct *a)
{
	ea_acct_defer_sync_all(a);
}
