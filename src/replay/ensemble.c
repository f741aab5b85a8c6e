// SPDX-License-Identifier: GPL-2.0-only
/*
 * ea_replay_ensemble() (eatrace/replay.h, docs/replay.md "Ensemble"): the
 * policies replayed on n perturbed copies of the workload, one copy per
 * member shared by every policy; the mean of each policy's energy and of
 * its ratio to the baseline (geometric, paired: the same copy under both),
 * each with the t interval in which one more perturbed replay's answer
 * falls (a prediction interval, on the logarithms for the ratios): the
 * spread of the answer under perturbations, which does not shrink as n
 * grows, unlike the interval of the mean.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "replay/interval.h"
#include "replay/runs.h"
#include "replay/workload.h"

/* splitmix64 (as workload-perturb.c's): the members' cuts and seeds. */
static uint64_t mix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

const char *ea_ensemble_verdict_name(enum ea_ensemble_verdict v)
{
	switch (v) {
	case EA_ENSEMBLE_BASELINE:
		return "baseline";
	case EA_ENSEMBLE_SAVES:
		return "saves";
	case EA_ENSEMBLE_COSTS:
		return "costs";
	case EA_ENSEMBLE_INCONCLUSIVE:
		return "inconclusive";
	default:
		return NULL;
	}
}

void ea_ensemble_free(struct ea_ensemble *e)
{
	for (int i = 0; e->pol && i < e->npol; i++) {
		free(e->pol[i].energy);
		free(e->pol[i].ratio);
	}
	free(e->pol);
	free(e->cut_ns);
	memset(e, 0, sizeof(*e));
}

/* Policy i's figures from the members' energies (e->pol[*].energy). */
static void summarise(struct ea_ensemble *e, int i)
{
	struct ea_ensemble_policy *p = &e->pol[i];
	int n = e->cfg.n, b = e->cfg.baseline;
	double conf = e->cfg.confidence;

	rp_t_interval(p->energy, n, conf, RP_INTERVAL_PREDICT, &p->energy_mean,
		      &p->energy_lo, &p->energy_hi);
	p->ratio_mean = p->ratio_lo = p->ratio_hi = NAN;
	p->verdict = EA_ENSEMBLE_NONE;
	if (!p->ratio)
		return;
	for (int m = 0; m < n; m++)
		p->ratio[m] = p->energy[m] / e->pol[b].energy[m];
	if (i == b) {
		/* exactly 1 in every member */
		p->ratio_mean = p->ratio_lo = p->ratio_hi = 1;
		p->verdict = EA_ENSEMBLE_BASELINE;
		return;
	}
	if (!rp_log_t_interval(p->ratio, n, conf, RP_INTERVAL_PREDICT,
			       &p->ratio_mean, &p->ratio_lo, &p->ratio_hi))
		return;
	p->verdict = p->ratio_hi < 1   ? EA_ENSEMBLE_SAVES
		     : p->ratio_lo > 1 ? EA_ENSEMBLE_COSTS
				       : EA_ENSEMBLE_INCONCLUSIVE;
}

int ea_replay_ensemble(const struct ea_workload *w,
		       const struct ea_replay_config *cfgs, int npol,
		       const struct ea_ensemble_config *cfg,
		       struct ea_ensemble *e, struct ea_err *err)
{
	const struct ea_workload_counts *c = ea_workload_counts(w);
	uint64_t x = cfg->seed, win_ns = c->win_end - c->win_start;
	struct rp_job_out *out = NULL;
	struct rp_job *jobs = NULL;
	int n = cfg->n, rc = -1;

	memset(e, 0, sizeof(*e));
	e->cfg = *cfg;
	e->npol = npol;
	if (n < 2 || npol < 1)
		return ea_err_set(
			err, "replay: an ensemble needs 2 members or more");
	if (cfg->baseline >= npol)
		return ea_err_set(err, "replay: no such baseline");
	/* 1% of the window at most, so that every member covers 99% of it
	 * or more (the cut counts from the trace's start) */
	e->cut_range_ns = win_ns / 100;
	if (e->cut_range_ns > cfg->cut_max_ns)
		e->cut_range_ns = cfg->cut_max_ns;
	if (e->cut_range_ns > w->cfg.early_ns)
		e->cut_range_ns = w->cfg.early_ns;
	e->cut_ns = calloc(n, sizeof(*e->cut_ns));
	e->pol = calloc(npol, sizeof(*e->pol));
	jobs = calloc(n, sizeof(*jobs));
	out = calloc((size_t)n * npol, sizeof(*out));
	if (!e->cut_ns || !e->pol || !jobs || !out)
		goto oom;
	for (int i = 0; i < npol; i++) {
		e->pol[i].energy = calloc(n, sizeof(double));
		if (!e->pol[i].energy)
			goto oom;
		if (cfg->baseline >= 0) {
			e->pol[i].ratio = calloc(n, sizeof(double));
			if (!e->pol[i].ratio)
				goto oom;
		}
	}
	/* the members, drawn in order from the seed alone */
	for (int m = 0; m < n; m++) {
		uint64_t r = mix(&x);

		e->cut_ns[m] = e->cut_range_ns == UINT64_MAX
				       ? r
				       : r % (e->cut_range_ns + 1);
		jobs[m] = (struct rp_job){.perturb = true,
					  .cut_ns = e->cut_ns[m],
					  .jitter_ns = cfg->jitter_ns,
					  .seed = mix(&x),
					  .policy = -1};
	}
	if (rp_run_jobs(w, cfgs, npol, jobs, n, cfg->threads, out,
			cfg->progress, cfg->progress_ctx, err))
		goto out;
	for (int m = 0; m < n; m++)
		for (int i = 0; i < npol; i++) {
			const struct rp_job_out *o = &out[m * npol + i];

			/* the member covers win_ns - its cut: scaled to the
			 * whole window, as if its power held there too */
			e->pol[i].energy[m] =
				o->win_ns ? o->energy * ((double)win_ns /
							 (double)o->win_ns)
					  : NAN;
			e->decisions += o->decisions;
			e->placements += o->placements;
		}
	for (int i = 0; i < npol; i++)
		summarise(e, i);
	rc = 0;
	goto out;
oom:
	ea_err_set(err, "out of memory");
out:
	free(jobs);
	free(out);
	return rc;
}
