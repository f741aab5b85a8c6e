// SPDX-License-Identifier: GPL-2.0-only
/*
 * ea_replay_sensitivity() (eatrace/replay.h, docs/replay.md
 * "Sensitivity"): how much of each policy's answer is wakeup energy. The
 * report's own timelines priced without it (what `report --no-wakeups`
 * prices: their energy less its wakeup part), and every policy replayed
 * again on a copy of the model whose wakeup energies are zero, for the
 * policies whose placement reads them (eas-rfc's energy_diff does).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "replay/runs.h"

void ea_sensitivity_free(struct ea_sensitivity *s)
{
	free(s->pol);
	memset(s, 0, sizeof(*s));
}

/* A copy of m sharing all but its clusters and idle states, whose
 * wakeup energies are zero; free with free_copy(). */
static struct ea_model *no_wakeups(const struct ea_model *m)
{
	struct ea_model *c = malloc(sizeof(*c));

	if (!c)
		return NULL;
	*c = *m;
	c->clusters =
		calloc(m->nclusters ? m->nclusters : 1, sizeof(*c->clusters));
	if (!c->clusters) {
		free(c);
		return NULL;
	}
	for (int i = 0; i < m->nclusters; i++) {
		struct ea_cluster *cl = &c->clusters[i];

		*cl = m->clusters[i];
		cl->idles = malloc((cl->nidles ? cl->nidles : 1) *
				   sizeof(*cl->idles));
		if (!cl->idles) {
			c->nclusters = i;
			return c; /* the caller sees the count short */
		}
		for (int k = 0; k < cl->nidles; k++) {
			cl->idles[k] = m->clusters[i].idles[k];
			cl->idles[k].core_wakeup = cl->idles[k].cluster_wakeup =
				0;
			cl->idles[k].core_wakeup_u = 0;
			cl->idles[k].cluster_wakeup_u = 0;
		}
	}
	return c;
}

static void free_copy(struct ea_model *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->nclusters; i++)
		free(c->clusters[i].idles);
	free(c->clusters);
	free(c);
}

static double ratio(double a, double b)
{
	return b > 0 ? a / b : NAN;
}

int ea_replay_sensitivity(const struct ea_workload *w,
			  const struct ea_replay_config *cfgs, int npol,
			  const struct ea_replay_result *res, int baseline,
			  int threads, struct ea_sensitivity *s,
			  struct ea_err *err)
{
	struct rp_job *jobs = NULL;
	struct rp_job_out *out = NULL;
	struct ea_model *m0 = NULL;
	double eb = 0, wb = 0;
	int rc = -1;

	memset(s, 0, sizeof(*s));
	s->npol = npol;
	s->baseline = baseline;
	if (npol < 1)
		return 0;
	s->pol = calloc(npol, sizeof(*s->pol));
	m0 = no_wakeups(cfgs[0].model);
	if (!s->pol || !m0 || m0->nclusters != cfgs[0].model->nclusters) {
		ea_err_set(err, "out of memory");
		goto out;
	}
	jobs = calloc(1, sizeof(*jobs));
	out = calloc((size_t)npol, sizeof(*out));
	if (!jobs || !out) {
		ea_err_set(err, "out of memory");
		goto out;
	}
	/* one job, every policy on the recording's workload as it is, priced
	 * to their common end together */
	jobs[0] = (struct rp_job){.model = m0, .policy = -1};
	if (rp_run_jobs(w, cfgs, npol, jobs, 1, threads, out, NULL, NULL, err))
		goto out;
	if (baseline >= 0) {
		eb = ea_energy_to_double(
			ea_energy_total(&res[baseline].acct.total));
		wb = ea_energy_to_double(
			ea_energy_wakeup(&res[baseline].acct.total));
	}
	for (int i = 0; i < npol; i++) {
		struct ea_sensitivity_policy *p = &s->pol[i];
		double e = ea_energy_to_double(
			       ea_energy_total(&res[i].acct.total)),
		       wk = ea_energy_to_double(
			       ea_energy_wakeup(&res[i].acct.total));

		s->decisions += out[i].decisions;
		s->placements += out[i].placements;
		p->wakeup_share = e > 0 ? wk / e : NAN;
		p->energy_resimulated = out[i].energy;
		p->ratio_repriced = p->ratio_resimulated = NAN;
		if (baseline < 0)
			continue;
		p->ratio_repriced = ratio(e - wk, eb - wb);
		p->ratio_resimulated =
			ratio(out[i].energy, out[baseline].energy);
	}
	rc = 0;
out:
	free_copy(m0);
	free(jobs);
	free(out);
	return rc;
}
