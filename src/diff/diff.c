// SPDX-License-Identifier: GPL-2.0-only
/* `eatrace diff`: price every run, normalise, compare the two sides. */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "eatrace/diff.h"
#include "eatrace/pipeline.h"

const char *ea_norm_name(enum ea_norm n)
{
	return n == EA_NORM_TIME ? "time" : n == EA_NORM_WORK ? "work" : "none";
}

const char *ea_norm_unit(enum ea_norm n)
{
	return n == EA_NORM_TIME ? "" : n == EA_NORM_WORK ? " x s per capacity-s" : " x s";
}

static int add_task(struct ea_diff_run *r, const char *comm, double e)
{
	for (size_t i = 0; i < r->ntasks; i++)
		if (!strcmp(r->tasks[i].comm, comm)) {
			r->tasks[i].energy += e;
			return 0;
		}
	if (r->ntasks == r->task_cap) {
		size_t cap = r->task_cap ? r->task_cap * 2 : 16;
		struct ea_diff_task *t = realloc(r->tasks, cap * sizeof(*t));

		if (!t)
			return -1;
		r->tasks = t;
		r->task_cap = cap;
	}
	snprintf(r->tasks[r->ntasks].comm, EA_COMM_LEN, "%s", comm);
	r->tasks[r->ntasks++].energy = e;
	return 0;
}

static int summarise(struct ea_diff_run *r, const struct ea_acct *a,
		     enum ea_norm norm, struct ea_err *err)
{
	const struct ea_model *m = a->model;
	uint64_t work = 0, span = a->win_end - a->win_start;

	r->ncpus = a->trace_ncpus;
	r->energy = ea_energy_to_double(ea_energy_total(&a->total));
	r->busy = ea_energy_to_double(ea_energy_busy(&a->total));
	r->idle = ea_energy_to_double(ea_energy_idle(&a->total));
	r->wakeup = ea_energy_to_double(ea_energy_wakeup(&a->total));
	r->duration_s = (double)span / 1e9;
	for (int i = 0; i < a->trace_ncpus && i < a->ncpus; i++) {
		work += a->cpus[i].work;
		r->wakeups += a->cpus[i].wakeups;
	}
	r->work_cap_s = (double)work / 1024.0 / 1e9;
	r->norm = norm == EA_NORM_TIME ? r->duration_s :
		  norm == EA_NORM_WORK ? r->work_cap_s : 1;
	if (!(r->norm > 0))
		return ea_err_set(err, "%s: %s is zero: cannot normalise by %s",
				  r->path, norm == EA_NORM_TIME ? "duration" : "work",
				  ea_norm_name(norm));
	r->value = r->energy / r->norm;
	for (int c = 0; c < m->nclusters && c < EA_DIFF_MAX_CLUSTERS; c++) {
		const struct ea_cluster *cl = &m->clusters[c];

		r->cluster_energy[c] =
			ea_energy_to_double(ea_energy_total(&a->clusters[c].e)) / r->norm;
		r->pstate_s[c] = calloc(cl->ncaps + 1, sizeof(double));
		r->cstate_s[c] = calloc(cl->nidles + 1, sizeof(double));
		if (!r->pstate_s[c] || !r->cstate_s[c])
			return ea_err_set(err, "out of memory");
		for (int k = 0; k < cl->ncaps; k++)
			r->pstate_s[c][k] = span ? (double)a->clusters[c].pstates[k].ns / span : 0;
		for (int k = 0; k < cl->nidles; k++)
			r->cstate_s[c][k] = span ? (double)a->clusters[c].cstates[k].ns / span : 0;
	}
	for (size_t i = 0; i < a->ntasks; i++)
		if (add_task(r, a->tasks[i].comm,
			     ea_energy_to_double(ea_energy_total(&a->tasks[i].e)) / r->norm))
			return ea_err_set(err, "out of memory");
	return 0;
}

int ea_diff_add_run(struct ea_diff_side *side, const char *trace,
		    enum ea_norm norm, struct ea_err *err)
{
	struct ea_state_config cfg = { .ncpus = -1 };
	struct ea_acct_config acfg = { 0 };
	struct ea_diff_run *r, *runs;
	struct ea_consumer cons;
	struct ea_acct acct;
	struct ea_run run;
	int rc;

	if (side->state_cfg) {
		cfg = *side->state_cfg;
		cfg.ncpus = -1;
	}
	if (side->acct_cfg)
		acfg = *side->acct_cfg;
	cfg.no_util = true;	/* the accountant alone reads no utilisation */
	runs = realloc(side->runs, (side->n + 1) * sizeof(*runs));
	if (!runs)
		return ea_err_set(err, "out of memory");
	side->runs = runs;
	r = &runs[side->n];
	memset(r, 0, sizeof(*r));
	if (!(r->path = strdup(trace)))
		return ea_err_set(err, "out of memory");
	side->n++;
	if (ea_acct_init(&acct, side->model, &acfg, err))
		return -1;
	ea_acct_state_config(&acct, &cfg);
	cons = (struct ea_consumer){ &ea_acct_ops, &acct };
	rc = ea_run(&run, trace, &cfg, &cons, 1, err);
	if (!rc) {
		struct ea_err e2;
		uint64_t ws, we;

		ea_state_window(run.state, &ws, &we);
		if ((cfg.win_start || cfg.win_end) && we <= ws)
			rc = ea_err_set(err, "%s: the window (--start/--end) is outside the trace: nothing to compare",
					trace);
		else if (ea_acct_done(&acct, run.state, &e2))
			rc = ea_err_set(err, "%s: %s", trace, e2.msg);
		else
			rc = summarise(r, &acct, norm, err);
		ea_run_free(&run);
	}
	ea_acct_free(&acct);
	return rc;
}

int ea_diff_compute(struct ea_diff *d, struct ea_err *err)
{
	struct ea_diff_side *b = &d->side[0], *n = &d->side[1];
	double se, lo, hi;

	for (int s = 0; s < 2; s++) {
		struct ea_diff_side *side = &d->side[s];
		double *v;

		if (!side->n)
			return ea_err_set(err, "the %s side has no traces", side->name);
		v = malloc(side->n * sizeof(*v));
		if (!v)
			return ea_err_set(err, "out of memory");
		for (int i = 0; i < side->n; i++)
			v[i] = side->runs[i].value;
		ea_mean_sd(v, side->n, &side->mean, &side->sd);
		free(v);
	}
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < d->side[s].n; i++)
			if (d->side[s].runs[i].ncpus != b->runs[0].ncpus)
				return ea_err_set(err,
						  "%s has %d CPUs but %s has %d: runs to compare must come from the same machine",
						  d->side[s].runs[i].path,
						  d->side[s].runs[i].ncpus,
						  b->runs[0].path, b->runs[0].ncpus);
	if (d->models_mode)
		return ea_diff_compute_paired(d, err);
	if (!(b->mean > 0))
		return ea_err_set(err, "the base side's energy is zero: no relative change");
	d->change_pct = 100 * (n->mean - b->mean) / b->mean;
	d->stats = b->n >= 2 && n->n >= 2;
	if (d->stats) {
		ea_welch(b->mean, b->sd, b->n, n->mean, n->sd, n->n, &se, &d->df);
		d->t = se > 0 ? ea_t_quantile(0.5 + d->confidence / 2, d->df) : 0;
		lo = (n->mean - b->mean) - d->t * se;
		hi = (n->mean - b->mean) + d->t * se;
		d->ci_low_pct = 100 * lo / b->mean;
		d->ci_high_pct = 100 * hi / b->mean;
		d->verdict = ea_gate_verdict(d->ci_low_pct, d->ci_high_pct,
					     d->max_increase_pct);
	} else {
		d->verdict = d->change_pct > d->max_increase_pct ? EA_VERDICT_FAIL
								 : EA_VERDICT_PASS;
	}
	d->runs_needed = 0;
	if (d->verdict == EA_VERDICT_INCONCLUSIVE)
		d->runs_needed = ea_runs_needed(b->mean, b->sd, n->sd, d->change_pct,
						d->max_increase_pct, d->confidence);
	d->fail = d->verdict == EA_VERDICT_FAIL ||
		  (d->verdict == EA_VERDICT_INCONCLUSIVE &&
		   d->inconclusive_as == EA_VERDICT_FAIL);
	return 0;
}

void ea_diff_free(struct ea_diff *d)
{
	for (int s = 0; s < 2; s++) {
		for (int i = 0; i < d->side[s].n; i++) {
			struct ea_diff_run *r = &d->side[s].runs[i];

			free(r->path);
			free(r->tasks);
			for (int c = 0; c < EA_DIFF_MAX_CLUSTERS; c++) {
				free(r->pstate_s[c]);
				free(r->cstate_s[c]);
			}
		}
		free(d->side[s].runs);
	}
}

double ea_diff_side_mean(const struct ea_diff_side *s, size_t offset)
{
	double sum = 0;

	for (int i = 0; i < s->n; i++)
		sum += *(const double *)((const char *)&s->runs[i] + offset) /
		       (offset == offsetof(struct ea_diff_run, value) ? 1 : s->runs[i].norm);
	return s->n ? sum / s->n : 0;
}

/* The attribution means are NaN (absent) for a cluster, P-state or
 * C-state that the side's model does not have (--models A B with
 * different tables: src/diff/rows.h), never a read past its tables. */
static bool has_cluster(const struct ea_diff_side *s, int c)
{
	return c >= 0 && c < s->model->nclusters && c < EA_DIFF_MAX_CLUSTERS;
}

double ea_diff_cluster_mean(const struct ea_diff_side *s, int c)
{
	double sum = 0;

	if (!has_cluster(s, c))
		return NAN;
	for (int i = 0; i < s->n; i++)
		sum += s->runs[i].cluster_energy[c];
	return s->n ? sum / s->n : 0;
}

double ea_diff_pstate_mean(const struct ea_diff_side *s, int c, int k)
{
	double sum = 0;

	if (!has_cluster(s, c) || k < 0 || k >= s->model->clusters[c].ncaps)
		return NAN;
	for (int i = 0; i < s->n; i++)
		sum += s->runs[i].pstate_s[c] ? s->runs[i].pstate_s[c][k] : 0;
	return s->n ? sum / s->n : 0;
}

double ea_diff_cstate_mean(const struct ea_diff_side *s, int c, int k)
{
	double sum = 0;

	if (!has_cluster(s, c) || k < 0 || k >= s->model->clusters[c].nidles)
		return NAN;
	for (int i = 0; i < s->n; i++)
		sum += s->runs[i].cstate_s[c] ? s->runs[i].cstate_s[c][k] : 0;
	return s->n ? sum / s->n : 0;
}

const struct ea_diff_run *ea_diff_zero_run(const struct ea_diff_side *s)
{
	for (int i = 0; i < s->n; i++)
		if (!(s->runs[i].duration_s > 0))
			return &s->runs[i];
	return NULL;
}

double ea_diff_wakeups_mean(const struct ea_diff_side *s)
{
	double sum = 0;

	if (ea_diff_zero_run(s))
		return NAN;
	for (int i = 0; i < s->n; i++)
		sum += (double)s->runs[i].wakeups / s->runs[i].duration_s;
	return s->n ? sum / s->n : 0;
}

static double task_mean(const struct ea_diff_side *s, const char *comm)
{
	double sum = 0;

	for (int i = 0; i < s->n; i++)
		for (size_t k = 0; k < s->runs[i].ntasks; k++)
			if (!strcmp(s->runs[i].tasks[k].comm, comm))
				sum += s->runs[i].tasks[k].energy;
	return s->n ? sum / s->n : 0;
}

static int by_abs_delta(const void *x, const void *y)
{
	const struct ea_diff_task_delta *a = x, *b = y;
	double da = fabs(a->new - a->base), db = fabs(b->new - b->base);

	if (da != db)
		return da < db ? 1 : -1;
	return strcmp(a->comm, b->comm);
}

size_t ea_diff_task_deltas(const struct ea_diff *d, struct ea_diff_task_delta **out)
{
	struct ea_diff_task_delta *v = NULL;
	size_t n = 0, cap = 0;

	*out = NULL;
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < d->side[s].n; i++)
			for (size_t k = 0; k < d->side[s].runs[i].ntasks; k++) {
				const char *comm = d->side[s].runs[i].tasks[k].comm;
				size_t j;

				for (j = 0; j < n && strcmp(v[j].comm, comm); j++)
					;
				if (j < n)
					continue;
				if (n == cap) {
					struct ea_diff_task_delta *p;

					cap = cap ? cap * 2 : 32;
					p = realloc(v, cap * sizeof(*v));
					if (!p) {
						free(v);
						return 0;
					}
					v = p;
				}
				snprintf(v[n].comm, EA_COMM_LEN, "%s", comm);
				v[n].base = task_mean(&d->side[0], comm);
				v[n].new = task_mean(&d->side[1], comm);
				n++;
			}
	if (n)
		qsort(v, n, sizeof(*v), by_abs_delta);
	*out = v;
	return n;
}
