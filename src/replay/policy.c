// SPDX-License-Identifier: GPL-2.0-only
/*
 * The policy table and the helpers policies share. Adding a policy is one
 * file defining a struct rp_policy plus one line in `policies` below.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "replay/replay-internal.h"

static const struct rp_policy *const policies[] = {
	&rp_policy_recorded,
	&rp_policy_eas_rfc,
	&rp_policy_feec,
	&rp_policy_cfs,
	&rp_policy_pack,
	&rp_policy_spread,
};

#define NPOLICIES ((int)(sizeof(policies) / sizeof(policies[0])))

int ea_replay_policy_count(void)
{
	return NPOLICIES;
}

const char *ea_replay_policy_name(int i)
{
	return i >= 0 && i < NPOLICIES ? policies[i]->name : NULL;
}

const char *ea_replay_policy_summary(int i)
{
	return i >= 0 && i < NPOLICIES ? policies[i]->summary : NULL;
}

int ea_replay_policy_find(const char *name)
{
	for (int i = 0; i < NPOLICIES; i++)
		if (!strcmp(policies[i]->name, name))
			return i;
	return -1;
}

bool ea_replay_policy_follows(const char *name)
{
	int i = ea_replay_policy_find(name);

	return i >= 0 && policies[i]->follow_segments;
}

const struct rp_policy *rp_policy_get(const char *name)
{
	int i = ea_replay_policy_find(name);

	return i < 0 ? NULL : policies[i];
}

/*
 * One table for the model's clusters; the per-OPP arrays of all of them
 * are one block per kind, cc[0]'s arrays at their start (freed through
 * those).
 */
struct rp_cl_cache *rp_cl_cache_new(const struct ea_model *m)
{
	struct rp_cl_cache *cc = calloc(m->nclusters ? m->nclusters : 1,
					sizeof(*cc));
	size_t total = 0, at = 0;
	long *pow;
	int64_t *em;
	struct rp_div *div;
	int *first, *eff;

	for (int ci = 0; ci < m->nclusters; ci++)
		total += m->clusters[ci].ncaps;
	pow = calloc(total ? 2 * total : 1, sizeof(*pow));
	em = calloc(total ? total : 1, sizeof(*em));
	div = calloc(total ? total : 1, sizeof(*div));
	first = calloc(total ? total : 1, sizeof(*first));
	eff = calloc(total ? total : 1, sizeof(*eff));
	if (!cc || !pow || !em || !div || !first || !eff) {
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
		for (int k = 0; k < cl->ncaps; k++) {
			core[k] = lround(cl->caps[k].core_power);
			cluster[k] = lround(cl->caps[k].cluster_power);
			c->em_pow[k] = rp_em_power_u(cl, k);
			c->em_eff[k] = rp_em_efficient(cl, k);
			rp_div_init(&d[k], cl->caps[k].cap ? cl->caps[k].cap : 1);
			f[k] = rp_rfc_curr_idx(cl, k);
		}
		c->rfc = (struct rp_rfc_pow){
			core, cluster, lround(idle->core_power),
			lround(idle->cluster_power),
			rp_rfc_wakeup_energy(idle->core_wakeup),
			rp_rfc_wakeup_energy(idle->cluster_wakeup), d, f
		};
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

static bool same_cluster(const struct rp_env *e, int a, int b)
{
	return e->model->cpu_cluster[a] == e->model->cpu_cluster[b];
}

int rp_select_cfs(const struct rp_env *e, const struct rp_wakee *p)
{
	int prev = p->prev_cpu, best = -1;

	if (rp_idle(e, prev))
		return prev;
	for (int i = 0; i < e->ncpus; i++)
		if (i != prev && same_cluster(e, i, prev) && rp_idle(e, i))
			return i;
	/* ties: the bigger CPU (as load / capacity would), then the lower
	 * id: the same choice whatever the platform's numbering of clusters */
	for (int i = 0; i < e->ncpus; i++)
		if (best < 0 || e->nr[i] < e->nr[best] ||
		    (e->nr[i] == e->nr[best] && (e->util[i] < e->util[best] ||
		     (e->util[i] == e->util[best] &&
		      rp_cap_orig(e, i) > rp_cap_orig(e, best)))))
			best = i;
	return best;
}
