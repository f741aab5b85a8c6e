// SPDX-License-Identifier: GPL-2.0-only
/*
 * One run of `eatrace model fit` or `model check --measured`
 * (include/eatrace/fit.h, docs/model-fit.md): the rows of every trace
 * (rows.c); then, for a fit, what is held (by rule, then what the rows
 * cannot determine), the constrained fit of the rest, the fitted model;
 * and the error figures of the initial (and fitted) model.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fit/fit-internal.h"

static double dot(const double *a, const double *x, int n)
{
	double s = 0;

	for (int j = 0; j < n; j++)
		s += a[j] * x[j];
	return s;
}

/* Held before the fit: --hold, implicit idle states, clusters no rail
 * measures. -1 with err for a --hold that matches nothing. */
static int held_by_rule(struct ea_fit *r, const struct ea_fit_config *cfg,
			bool *held, char (*reason)[160], struct ea_err *err)
{
	const struct ea_coefs *cs = &r->coefs;
	bool *mark = calloc((size_t)cs->n, sizeof(*mark));

	if (!mark)
		return ea_err_set(err, "out of memory");
	for (int k = 0; k < cfg->nhold; k++) {
		if (!ea_coefs_match(cs, cfg->hold[k], mark)) {
			free(mark);
			return ea_err_set(err,
					  "--hold %s: no coefficient of model "
					  "%s has that key (keys: %s, %s, ...; "
					  "'eatrace model fit --help')",
					  cfg->hold[k], r->initial->name,
					  cs->c[0].key,
					  cs->c[cs->n > 1 ? 1 : 0].key);
		}
	}
	for (int i = 0; i < cs->n; i++) {
		const struct ea_coef *c = &cs->c[i];
		bool measured = c->cluster < 0;

		for (int k = 0; k < r->nrails && !measured; k++)
			measured = r->rails[k].feeds[c->cluster];
		if (mark[i]) {
			held[i] = true;
			snprintf(reason[i], 160, "--hold");
		} else if (!measured) {
			held[i] = true;
			snprintf(reason[i], 160,
				 "not determined: no rail measures cluster %s",
				 r->initial->clusters[c->cluster].name);
		} else if (c->cluster >= 0 && c->kind >= EA_CK_CORE_IDLE &&
			   c->kind <= EA_CK_CLUSTER_WAKEUP &&
			   r->initial->clusters[c->cluster].idle_implicit) {
			held[i] = true;
			snprintf(reason[i], 160,
				 "the model file has no idle states (the "
				 "implicit one stays at 0)");
		}
	}
	free(mark);
	return 0;
}

static void source_text(char *buf, size_t n, const struct ea_fit *r,
			const struct ea_fit_config *cfg, size_t nrows)
{
	size_t len = (size_t)snprintf(
		buf, n, "eatrace model fit of %s to measured energy (",
		r->initial->path ? r->initial->path : r->initial->name);

	for (int i = 0; i < cfg->nin && len < n; i++) {
		const char *t = strrchr(cfg->in[i].trace, '/');

		if (i == 4 && cfg->nin > 5) {
			len += (size_t)snprintf(buf + len, n - len,
						", and %d more traces",
						cfg->nin - 4);
			break;
		}
		len += (size_t)snprintf(
			buf + len, n - len, "%s%s%s", i ? ", " : "",
			t ? t + 1 : cfg->in[i].trace,
			cfg->in[i].measured ? "" : " (power rails)");
	}
	if (len < n)
		len += (size_t)snprintf(
			buf + len, n - len,
			"): %zu windows; %d coefficients fitted by least "
			"squares (%s weights) under the initial table's "
			"physical constraints, %d held at their initial "
			"values; residual sd %.3g%s per window. Initial "
			"source: %s",
			nrows, r->nfitted, r->relative ? "relative" : "equal",
			r->nheld, r->relative ? r->sigma * 100 : r->sigma,
			r->relative ? "% of the measured energy"
				    : r->initial->power_unit,
			r->initial->source && *r->initial->source
				? r->initial->source
				: "(none)");
	(void)len;
}

/* The constraints active at x, in words; at_bound set on their free terms. */
static int active_constraints(struct ea_fit *r, const double *x,
			      const bool *held,
			      const struct ea_fit_constraint *cons, int ncons)
{
	r->active = calloc((size_t)(ncons ? ncons : 1), sizeof(*r->active));
	if (!r->active)
		return -1;
	for (int i = 0; i < ncons; i++) {
		const struct ea_fit_constraint *c = &cons[i];
		double v = 0, scale = fabs(c->h);
		bool free_term = false;

		for (int t = 0; t < c->nterms; t++) {
			v += c->g[t] * x[c->idx[t]];
			if (fabs(c->g[t] * x[c->idx[t]]) > scale)
				scale = fabs(c->g[t] * x[c->idx[t]]);
			free_term |= !held[c->idx[t]];
		}
		if (!free_term || v - c->h > 1e-9 * scale)
			continue;
		for (int t = 0; t < c->nterms; t++)
			if (!held[c->idx[t]])
				r->coef[c->idx[t]].at_bound = true;
		snprintf(r->active[r->nactive++], sizeof(*r->active), "%s",
			 c->what);
	}
	return 0;
}

static int do_fit(struct ea_fit *r, const struct ea_fit_config *cfg,
		  struct ea_fit_rows *rs, struct ea_err *err)
{
	const struct ea_coefs *cs = &r->coefs;
	int n = cs->n, ncons = 0, rc = -1;
	bool *held = calloc((size_t)n, sizeof(*held));
	char(*reason)[160] = calloc((size_t)n, sizeof(*reason));
	double *x0 = malloc((size_t)n * sizeof(*x0));
	double *x = malloc((size_t)n * sizeof(*x));
	double *se = malloc((size_t)n * sizeof(*se));
	struct ea_fit_constraint *cons = NULL;
	struct ea_fit_solution sol = {x, se, 0, 0, 0, 0};
	double *WA = NULL, *Wb = NULL;
	char source[2048];

	if (!held || !reason || !x0 || !x || !se) {
		ea_err_set(err, "out of memory");
		goto out;
	}
	for (int j = 0; j < n; j++)
		x0[j] = cs->c[j].initial;
	if (held_by_rule(r, cfg, held, reason, err))
		goto out;
	if (ea_fit_weigh(r, rs, cfg->equal_weights, &WA, &Wb)) {
		ea_err_set(err, "out of memory");
		goto out;
	}
	if (ea_fit_identify(WA, rs->n, cs, r->initial, held, reason) ||
	    ea_fit_constraints(r->initial, cs, &cons, &ncons)) {
		ea_err_set(err, "out of memory (or GSL failed) finding what "
				"the windows determine");
		goto out;
	}
	r->nconstraints = ncons;
	if (ea_fit_solve(WA, Wb, rs->n, n, held, x0, cons, ncons, r->confidence,
			 &sol)) {
		ea_err_set(err, "the fit failed (GSL could not solve the "
				"constrained least squares)");
		goto out;
	}
	r->sigma = sol.sigma;
	r->dof = sol.dof;
	r->t_quantile = sol.t;
	for (int j = 0; j < n; j++) {
		r->nheld += held[j];
		r->nfitted += !held[j];
	}
	source_text(source, sizeof(source), r, cfg, rs->n);
	if (ea_fit_make_model(&r->fitted, r->initial, cs, x, held, cons, ncons,
			      source, "fitted model", err))
		goto out;
	for (int j = 0; j < n; j++) {
		struct ea_fit_coef *c = &r->coef[j];

		c->status = held[j] ? EA_COEF_HELD : EA_COEF_FITTED;
		snprintf(c->reason, sizeof(c->reason), "%s", reason[j]);
		c->value = x[j];
		c->se = se[j];
		c->ci_low = c->ci_high = NAN;
		if (!held[j] && !isnan(se[j]) && !isnan(sol.t)) {
			c->ci_low = x[j] - sol.t * se[j];
			c->ci_high = x[j] + sol.t * se[j];
		}
	}
	if (active_constraints(r, x, held, cons, ncons)) {
		ea_err_set(err, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < rs->n; i++)
		rs->row[i].after = dot(rs->A + i * (size_t)n, x, n);
	r->fitted_ok = true;
	rc = 0;
out:
	free(WA);
	free(Wb);
	free(held);
	free(reason);
	free(x0);
	free(x);
	free(se);
	free(cons);
	return rc;
}

int ea_fit_run(struct ea_fit *r, const struct ea_model *initial,
	       const struct ea_fit_config *cfg, struct ea_err *err)
{
	struct ea_fit_rows rs = {0};
	double *x0;
	int n;

	memset(r, 0, sizeof(*r));
	r->initial = initial;
	r->confidence = cfg->confidence > 0 ? cfg->confidence : 0.95;
	r->sigma = r->t_quantile = NAN;
	if (ea_coefs_build(&r->coefs, initial, err))
		return -1;
	n = r->coefs.n;
	r->coef = calloc((size_t)n, sizeof(*r->coef));
	r->input_rows = calloc((size_t)cfg->nin + 1, sizeof(*r->input_rows));
	r->input_dropped =
		calloc((size_t)cfg->nin + 1, sizeof(*r->input_dropped));
	if (!r->coef || !r->input_rows || !r->input_dropped)
		goto oom;
	for (int i = 0; i < cfg->nin; i++)
		if (ea_fit_rows_of_input(r, cfg, i, &rs, err))
			goto fail;
	for (int k = 0; k < cfg->nmaps; k++) {
		bool seen = false;

		for (int i = 0; i < r->nrails && !seen; i++)
			seen = !strcasecmp(r->rails[i].name, cfg->maps[k].rail);
		if (!seen) {
			ea_err_set(
				err,
				"--rail %s=%s: no measurement names a rail %s",
				cfg->maps[k].rail, cfg->maps[k].clusters,
				cfg->maps[k].rail);
			goto fail;
		}
	}
	if (!rs.n) {
		ea_err_set(err, "no measurement window inside the traces");
		goto fail;
	}
	x0 = malloc((size_t)n * sizeof(*x0));
	if (!x0)
		goto oom;
	for (int j = 0; j < n; j++) {
		x0[j] = r->coefs.c[j].initial;
		r->coef[j] = (struct ea_fit_coef){.status = EA_COEF_HELD,
						  .value = x0[j],
						  .se = NAN,
						  .ci_low = NAN,
						  .ci_high = NAN};
	}
	for (size_t i = 0; i < rs.n; i++)
		rs.row[i].before = rs.row[i].after =
			dot(rs.A + i * (size_t)n, x0, n);
	free(x0);
	if (cfg->fit && do_fit(r, cfg, &rs, err))
		goto fail;
	r->rows = rs.row;
	r->nrows = rs.n;
	r->A = rs.A;
	free(rs.b);
	rs = (struct ea_fit_rows){0};
	for (int k = 0; k < r->nrails; k++) {
		struct ea_fit_rail *rl = &r->rails[k];

		ea_fit_error(r->rows, r->nrows, k, false, &rl->measured,
			     &rl->nwin, &rl->before);
		ea_fit_error(r->rows, r->nrows, k, true, &rl->measured,
			     &rl->nwin, &rl->after);
	}
	{
		size_t nw;

		ea_fit_error(r->rows, r->nrows, -1, false, &r->all_measured,
			     &nw, &r->all_before);
		ea_fit_error(r->rows, r->nrows, -1, true, &r->all_measured, &nw,
			     &r->all_after);
	}
	r->worst = calloc((size_t)(cfg->nworst > 0 ? cfg->nworst : 1),
			  sizeof(*r->worst));
	if (!r->worst)
		goto oom;
	r->nworst = ea_fit_worst(r->rows, r->nrows, r->fitted_ok,
				 cfg->nworst > 0 ? cfg->nworst : 0, r->worst);
	if (r->nworst < 0)
		goto oom;
	return 0;
oom:
	ea_err_set(err, "out of memory");
fail:
	free(rs.A);
	free(rs.b);
	free(rs.row);
	ea_fit_free(r);
	return -1;
}

void ea_fit_free(struct ea_fit *r)
{
	ea_model_free(r->fitted);
	ea_coefs_free(&r->coefs);
	free(r->coef);
	for (int i = 0; i < r->nrails; i++)
		free(r->rails[i].feeds);
	free(r->rails);
	free(r->rows);
	free(r->A);
	free(r->input_rows);
	free(r->input_dropped);
	free(r->active);
	free(r->worst);
	memset(r, 0, sizeof(*r));
}
