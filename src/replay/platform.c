// SPDX-License-Identifier: GPL-2.0-only
/*
 * The model's figures the replay's policies and governors read at every
 * decision, computed once per run and cluster (struct rp_cl_cache), and
 * whether the platform is asymmetric. Platform layer: the model only.
 */
#include <math.h>
#include <stdlib.h>

#include "replay/platform.h"

/*
 * One table for the model's clusters; the per-OPP arrays of all of them
 * are one block per kind, cc[0]'s arrays at their start (freed through
 * those).
 */
struct rp_cl_cache *rp_cl_cache_new(const struct ea_model *m)
{
	struct rp_cl_cache *cc =
		calloc(m->nclusters ? m->nclusters : 1, sizeof(*cc));
	size_t total = 0, at = 0, nopp = 0;
	uint16_t *opp;
	long *pow;
	int64_t *em;
	struct rp_div *div;
	int *first, *eff;

	for (int ci = 0; ci < m->nclusters; ci++) {
		total += m->clusters[ci].ncaps;
		nopp += 2 * rp_em_opp_len(&m->clusters[ci]);
	}
	opp = malloc(nopp ? nopp * sizeof(*opp) : 1);
	pow = calloc(total ? 2 * total : 1, sizeof(*pow));
	em = calloc(total ? total : 1, sizeof(*em));
	div = calloc(total ? total : 1, sizeof(*div));
	first = calloc(total ? total : 1, sizeof(*first));
	eff = calloc(total ? total : 1, sizeof(*eff));
	if (!cc || !pow || !em || !div || !first || !eff || !opp) {
		free(opp);
		free(eff);
		free(cc);
		free(pow);
		free(em);
		free(div);
		free(first);
		return NULL;
	}
	/* freed through cc[0], even when there is no cluster */
	cc[0].rfc.core = pow;
	cc[0].em_pow = em;
	cc[0].rfc.div = div;
	cc[0].rfc.first = first;
	cc[0].em_eff = eff;
	cc[0].em_opp_block = opp;
	nopp = 0;
	for (int ci = 0; ci < m->nclusters; ci++) {
		const struct ea_cluster *cl = &m->clusters[ci];
		const struct ea_idle_state *idle = &cl->idles[cl->nidles - 1];
		struct rp_cl_cache *c = &cc[ci];
		long *core = pow + 2 * at, *cluster = core + cl->ncaps;
		struct rp_div *d = div + at;
		int *f = first + at;

		c->em_pow = em + at;
		c->em_eff = eff + at;
		at += cl->ncaps;
		if (rp_em_opp_len(cl)) {
			for (int j = 0; j < 2; j++) {
				rp_em_opp_fill(cl, j, opp + nopp);
				c->em_opp[j] = opp + nopp;
				nopp += rp_em_opp_len(cl);
			}
		} else {
			c->em_opp[0] = c->em_opp[1] = NULL;
		}
		for (int k = 0; k < cl->ncaps; k++) {
			core[k] = lround(cl->caps[k].core_power);
			cluster[k] = lround(cl->caps[k].cluster_power);
			c->em_pow[k] = rp_em_power_u(cl, k);
			c->em_eff[k] = rp_em_efficient(cl, k);
			rp_div_init(&d[k],
				    cl->caps[k].cap ? cl->caps[k].cap : 1);
			f[k] = rp_rfc_curr_idx(cl, k);
		}
		c->rfc = (struct rp_rfc_pow){
			core,
			cluster,
			lround(idle->core_power),
			lround(idle->cluster_power),
			rp_rfc_wakeup_energy(idle->core_wakeup),
			rp_rfc_wakeup_energy(idle->cluster_wakeup),
			d,
			f};
	}
	return cc;
}

void rp_cl_cache_free(struct rp_cl_cache *cc)
{
	if (!cc)
		return;
	free((void *)cc[0].rfc.core);
	free(cc[0].em_pow);
	free(cc[0].em_eff);
	free(cc[0].em_opp_block);
	free((void *)cc[0].rfc.div);
	free((void *)cc[0].rfc.first);
	free(cc);
}

bool rp_asymmetric(const struct ea_model *m)
{
	for (int i = 1; i < m->nclusters; i++)
		if (m->clusters[i].caps[m->clusters[i].ncaps - 1].cap !=
		    m->clusters[0].caps[m->clusters[0].ncaps - 1].cap)
			return true;
	return false;
}
