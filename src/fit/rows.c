// SPDX-License-Identifier: GPL-2.0-only
/*
 * The rows of a fit from one trace (src/fit/fit-internal.h): its
 * measurement windows (a CSV, or its power rails), merged as --window
 * says; one pass of the trace through the state stage with the features
 * consumer and the accountant; one row per window, the features of the
 * clusters its rail measures, in seconds and counts.
 *
 * Every pass checks the identity the fit rests on: the features priced
 * with the model give the accountant's energy for each cluster over the
 * whole trace, exactly (suspended energy apart).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "eatrace/input.h"
#include "eatrace/pipeline.h"
#include "eatrace/rails.h"
#include "fit/fit-internal.h"

#define MAX_CELLS (1u << 27) /* rows x coefficients kept in memory */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static const char *fmt_s(char *buf, uint64_t ns)
{
	snprintf(buf, 32, "%llu.%09llu", (unsigned long long)(ns / 1000000000u),
		 (unsigned long long)(ns % 1000000000u));
	return buf;
}

/* The run's rail of this name (compared without regard to case), added
 * with its clusters when new. -1 with err. */
static int global_rail(struct ea_fit *r, const struct ea_fit_config *cfg,
		       const struct ea_meas *ms, int k, struct ea_err *err)
{
	const struct ea_model *m = r->initial;
	struct ea_fit_rail *rl;
	const char *by;
	bool *feeds;
	int n;

	for (int i = 0; i < r->nrails; i++)
		if (!strcasecmp(r->rails[i].name, ms->rails[k]))
			return i;
	feeds = calloc((size_t)m->nclusters + 1, sizeof(*feeds));
	if (!feeds)
		return ea_err_set(err, "out of memory");
	n = ea_fit_rail_feeds(m, cfg->maps, cfg->nmaps, ms->rails[k],
			      ms->subsys[k], feeds, &by, err);
	if (n <= 0) {
		free(feeds);
		if (n < 0)
			return -1;
		return ea_err_set(
			err,
			"%s:%u: rail '%s' feeds no cluster of model %s: say "
			"which with --rail %s=CLUSTER[+CLUSTER...]",
			ms->source, ms->rail_line[k], ms->rails[k], m->name,
			ms->rails[k]);
	}
	rl = realloc(r->rails, (size_t)(r->nrails + 1) * sizeof(*rl));
	if (!rl) {
		free(feeds);
		return ea_err_set(err, "out of memory");
	}
	r->rails = rl;
	rl = &r->rails[r->nrails];
	memset(rl, 0, sizeof(*rl));
	snprintf(rl->name, sizeof(rl->name), "%s", ms->rails[k]);
	rl->feeds = feeds;
	rl->mapped_by = by;
	return r->nrails++;
}

/* The power rails of a trace: its windows, for the rails that feed a
 * cluster. */
static int rails_of(struct ea_meas **out, const struct ea_model *m,
		    const struct ea_fit_config *cfg, const char *trace,
		    struct ea_err *err)
{
	const struct ea_input_info *info;
	struct ea_input *in;
	bool *use = NULL, *feeds = NULL;
	double uws_per_unit;
	int rc = -1, nuse = 0;
	char names[256] = "";

	if (!strcmp(trace, "-"))
		return ea_err_set(err,
				  "-: a trace measured by its power rails is "
				  "read twice: not from standard input");
	if (ea_input_open(&in, trace, err))
		return -1;
	info = ea_input_info(in);
	if (!info->rails || !info->rails->n) {
		ea_err_set(err,
			   "%s: the trace has no power rails: give its "
			   "measurements as a CSV (--pair TRACE CSV)",
			   trace);
		goto out;
	}
	if (!ea_rails_unit(m->power_unit, &uws_per_unit)) {
		ea_err_set(err,
			   "%s: power rails measure uWs, and model %s's "
			   "power_unit '%s' is not W, mW, uW or nW: give the "
			   "measurements as a CSV in the model's unit",
			   trace, m->name, m->power_unit);
		goto out;
	}
	use = calloc(info->rails->n, sizeof(*use));
	feeds = calloc((size_t)m->nclusters + 1, sizeof(*feeds));
	if (!use || !feeds) {
		ea_err_set(err, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < info->rails->n; i++) {
		const struct ea_rail *rl = &info->rails->r[i];
		const char *by;
		int n = ea_fit_rail_feeds(m, cfg->maps, cfg->nmaps, rl->name,
					  rl->subsys, feeds, &by, err);

		if (n < 0)
			goto out;
		use[i] = n > 0;
		nuse += use[i];
		if (strlen(names) + strlen(rl->name) + 3 < sizeof(names))
			snprintf(names + strlen(names),
				 sizeof(names) - strlen(names), "%s%s",
				 i ? ", " : "", rl->name);
	}
	if (!nuse) {
		ea_err_set(err,
			   "%s: no power rail of the trace (%s) feeds a "
			   "cluster of model %s: say which with --rail "
			   "RAIL=CLUSTER[+CLUSTER...]",
			   trace, names, m->name);
		goto out;
	}
	rc = ea_meas_from_rails(out, trace, info->rails, use, uws_per_unit,
				err);
out:
	free(use);
	free(feeds);
	ea_input_close(in);
	return rc;
}

/* The segment bounds: every window's ends, and 0 and the end of time, so
 * that the segments cover the whole trace (the identity check). */
static uint64_t *bounds_of(const struct ea_meas *ms, size_t *n)
{
	uint64_t *b = malloc((2 * ms->n + 2) * sizeof(*b));
	size_t k = 0;

	if (!b)
		return NULL;
	b[k++] = 0;
	b[k++] = UINT64_MAX;
	for (size_t i = 0; i < ms->n; i++) {
		b[k++] = ms->w[i].t0;
		b[k++] = ms->w[i].t1;
	}
	qsort(b, k, sizeof(*b), cmp_u64);
	*n = 0;
	for (size_t i = 0; i < k; i++)
		if (!*n || b[*n - 1] != b[i])
			b[(*n)++] = b[i];
	return b;
}

static size_t seg_at(const struct ea_features *f, uint64_t t)
{
	size_t lo = 0, hi = f->nseg;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->bounds[mid] < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo; /* bounds[lo] == t: t is a bound */
}

/* The accountant's energy per cluster equals the features' (the fit's
 * foundation); an internal error otherwise. */
static int check_identity(const struct ea_features *f, const struct ea_acct *a,
			  const char *trace, struct ea_err *err)
{
	for (int ci = 0; ci < f->model->nclusters; ci++) {
		ea_energy_t e = 0, want = ea_energy_total(&a->clusters[ci].e) -
					  a->clusters[ci].e.suspended;
		char x[64], y[64];

		for (size_t s = 0; s < f->nseg; s++)
			e += ea_features_energy(f, s, ci, f->model);
		if (e != want)
			return ea_err_set(
				err,
				"%s: internal error: the fit's features give "
				"%s for cluster %s, the accountant %s",
				trace, ea_energy_fmt(x, e),
				f->model->clusters[ci].name,
				ea_energy_fmt(y, want));
	}
	return 0;
}

static int grow(struct ea_fit_rows *rs, int ncoefs)
{
	size_t n = rs->cap ? rs->cap * 2 : 1024;
	void *p;

	if (n * (size_t)ncoefs > MAX_CELLS &&
	    rs->n * (size_t)ncoefs < MAX_CELLS)
		n = MAX_CELLS / (size_t)ncoefs;
	if (n <= rs->n)
		return -1;
	if (!(p = realloc(rs->A, n * (size_t)ncoefs * sizeof(double))))
		return -1;
	rs->A = p;
	if (!(p = realloc(rs->b, n * sizeof(double))))
		return -1;
	rs->b = p;
	if (!(p = realloc(rs->row, n * sizeof(*rs->row))))
		return -1;
	rs->row = p;
	rs->cap = n;
	return 0;
}

/* One trace: its rows appended. */
int ea_fit_rows_of_input(struct ea_fit *r, const struct ea_fit_config *cfg,
			 int input, struct ea_fit_rows *rs, struct ea_err *err)
{
	const struct ea_fit_input *in = &cfg->in[input];
	const struct ea_model *m = r->initial;
	struct ea_acct_config acfg = {.assumed_khz = cfg->assumed_khz,
				      .no_tasks = true};
	struct ea_state_config scfg = cfg->scfg;
	struct ea_consumer cons[2];
	struct ea_features feat;
	struct ea_meas *ms = NULL;
	struct ea_acct acct;
	struct ea_run run;
	uint64_t *bounds = NULL, ws, we;
	size_t nb, before = rs->n;
	int *grail = NULL, rc = -1;
	char a[32], b[32], c[32], d[32];

	if (in->measured ? ea_meas_read_csv(&ms, in->measured, err)
			 : rails_of(&ms, m, cfg, in->trace, err))
		return -1;
	grail = calloc((size_t)ms->nrails + 1, sizeof(*grail));
	if (!grail) {
		ea_meas_free(ms);
		return ea_err_set(err, "out of memory");
	}
	for (int k = 0; k < ms->nrails; k++)
		if ((grail[k] = global_rail(r, cfg, ms, k, err)) < 0)
			goto out_meas;
	if (ea_meas_merge(ms, cfg->window_ns) ||
	    !(bounds = bounds_of(ms, &nb))) {
		ea_err_set(err, "out of memory");
		goto out_meas;
	}
	if (ea_features_init(&feat, m, &r->coefs, cfg->assumed_khz, bounds, nb,
			     err))
		goto out_meas;
	if (ea_acct_init(&acct, m, &acfg, err))
		goto out_feat;
	ea_acct_state_config(&acct, &scfg);
	scfg.ncpus = -1;
	scfg.no_util = true;
	scfg.no_tasks = true;
	cons[0] = (struct ea_consumer){&ea_features_ops, &feat};
	cons[1] = (struct ea_consumer){&ea_acct_ops, &acct};
	if (ea_run(&run, in->trace, &scfg, cons, 2, err))
		goto out_acct;
	if (ea_features_done(&feat, run.state, err) ||
	    ea_acct_done(&acct, run.state, err)) {
		char msg[sizeof(err->msg)];

		snprintf(msg, sizeof(msg), "%s", err->msg);
		ea_err_set(err, "%s: %s", in->trace, msg);
		goto out_run;
	}
	if (check_identity(&feat, &acct, in->trace, err))
		goto out_run;
	ea_state_window(run.state, &ws, &we);
	for (size_t i = 0; i < ms->n; i++) {
		const struct ea_meas_win *w = &ms->w[i];
		struct ea_fit_row *row;
		double *A;
		size_t s0, s1;

		if (w->t0 < ws || w->t1 > we) {
			if (ms->from_rails) {
				ms->dropped++;
				continue;
			}
			ea_err_set(err,
				   "%s:%u: the window %s..%s s is outside the "
				   "trace %s, which spans %s..%s s",
				   ms->source, w->line, fmt_s(a, w->t0),
				   fmt_s(b, w->t1), in->trace, fmt_s(c, ws),
				   fmt_s(d, we));
			goto out_run;
		}
		if (rs->n == rs->cap && grow(rs, r->coefs.n)) {
			ea_err_set(err,
				   "too many measurement windows (%zu): merge "
				   "them (--window MS)",
				   rs->n);
			goto out_run;
		}
		row = &rs->row[rs->n];
		A = rs->A + rs->n * (size_t)r->coefs.n;
		memset(A, 0, (size_t)r->coefs.n * sizeof(*A));
		*row = (struct ea_fit_row){.input = input,
					   .rail = grail[w->rail],
					   .t0 = w->t0,
					   .t1 = w->t1,
					   .line = w->line,
					   .measured = w->energy};
		rs->b[rs->n] = w->energy;
		s0 = seg_at(&feat, w->t0);
		s1 = seg_at(&feat, w->t1);
		for (size_t s = s0; s < s1; s++) {
			const uint64_t *v = ea_features_at(&feat, s);

			for (int ci = 0; ci < m->nclusters; ci++) {
				if (!r->rails[row->rail].feeds[ci])
					continue;
				for (int j = r->coefs.base[ci];
				     j < r->coefs.base[ci + 1]; j++)
					A[j] += ea_coef_is_wakeup(
							r->coefs.c[j].kind)
							? (double)v[j]
							: (double)v[j] / 1e9;
				A[r->coefs.n - 1] +=
					ea_features_suspend_share(&feat, s, ci);
			}
		}
		rs->n++;
	}
	r->input_rows[input] = rs->n - before;
	r->input_dropped[input] = ms->dropped;
	rc = 0;
out_run:
	ea_run_free(&run);
out_acct:
	ea_acct_free(&acct);
out_feat:
	ea_features_free(&feat);
out_meas:
	free(bounds);
	free(grail);
	ea_meas_free(ms);
	return rc;
}
