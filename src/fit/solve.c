// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fit itself (docs/model-fit.md "Method"): with the held coefficients
 * at their initial values, the free ones x minimise the squared error of
 * the windows, sum over windows (A_w . x - measured_w)^2, subject to the
 * constraints kept (constraints.c, among them x >= 0):
 *
 *  1. the held part of each estimate is moved to the measurement side;
 *  2. each free column is scaled to unit norm (wakeup counts and seconds
 *     differ by orders of magnitude; the scaling changes nothing but the
 *     conditioning);
 *  3. lsi.c solves the constrained problem;
 *  4. round-off is removed: a value below 1e-12 of the largest is 0,
 *     and one 1e-16 below the bound it must not go below is set to it
 *     (`model check` compares exactly);
 *  5. the residuals give sigma^2 = RSS / (windows - free coefficients),
 *     and the covariance of the free coefficients sigma^2 (A^T A)^-1
 *     (from GSL's QR: R^-1 R^-T), whose diagonal gives each standard
 *     error; an interval is +- t x se, t the Student-t quantile of GSL
 *     (gsl_cdf_tdist_Pinv) for that many degrees of freedom. The interval
 *     is the unconstrained one: a coefficient held at a bound by an
 *     active constraint is flagged (at_bound).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "eatrace/fit.h"

static double value(const struct ea_fit_constraint *c, const double *x)
{
	double v = 0;

	for (int k = 0; k < c->nterms; k++)
		v += c->g[k] * x[c->idx[k]];
	return v;
}

void ea_fit_enforce(double *x, const bool *held,
		    const struct ea_fit_constraint *cons, int ncons)
{
	for (int pass = 0; pass < 100; pass++) {
		bool changed = false;

		for (int i = 0; i < ncons; i++) {
			const struct ea_fit_constraint *c = &cons[i];
			int k = -1;
			double rest = 0;

			if (value(c, x) >= c->h)
				continue;
			/* move a free term: one with g > 0 up, else one down */
			for (int t = 0; t < c->nterms; t++)
				if (!held[c->idx[t]] && (k < 0 || c->g[t] > 0))
					k = t;
			if (k < 0)
				continue; /* only held terms: as initial */
			for (int t = 0; t < c->nterms; t++)
				if (t != k)
					rest += c->g[t] * x[c->idx[t]];
			x[c->idx[k]] = (c->h - rest) / c->g[k];
			for (int ulp = 0; ulp < 64 && value(c, x) < c->h; ulp++)
				x[c->idx[k]] = nextafter(
					x[c->idx[k]],
					c->g[k] > 0 ? INFINITY : -INFINITY);
			changed = true;
		}
		if (!changed)
			return;
	}
}

/* se[k] of the free columns (scaled E, nrows x p): sqrt(diag((E^T E)^-1)) x
 * sigma. */
static int std_errors(const double *E, size_t nrows, int p, double sigma,
		      double *se)
{
	gsl_matrix *QR = gsl_matrix_alloc(nrows, (size_t)p);
	gsl_vector *tau = gsl_vector_alloc((size_t)p);
	gsl_matrix_view R;
	int rc = -1;

	if (!QR || !tau)
		goto out;
	for (size_t r = 0; r < nrows; r++)
		for (int k = 0; k < p; k++)
			gsl_matrix_set(QR, r, (size_t)k, E[r * p + k]);
	if (gsl_linalg_QR_decomp(QR, tau))
		goto out;
	R = gsl_matrix_submatrix(QR, 0, 0, (size_t)p, (size_t)p);
	/* zero the Householder vectors below the diagonal: R alone */
	for (int i = 0; i < p; i++)
		for (int j = 0; j < i; j++)
			gsl_matrix_set(&R.matrix, (size_t)i, (size_t)j, 0);
	if (gsl_linalg_tri_invert(CblasUpper, CblasNonUnit, &R.matrix))
		goto out;
	/* (R^-1 R^-T)_kk = sum_j (R^-1)_kj^2 */
	for (int k = 0; k < p; k++) {
		double s = 0;

		for (int j = k; j < p; j++)
			s += gsl_matrix_get(&R.matrix, (size_t)k, (size_t)j) *
			     gsl_matrix_get(&R.matrix, (size_t)k, (size_t)j);
		se[k] = sqrt(s) * sigma;
	}
	rc = 0;
out:
	gsl_matrix_free(QR);
	gsl_vector_free(tau);
	return rc;
}

int ea_fit_solve(const double *A, const double *b, size_t nrows, int n,
		 const bool *held, const double *x0,
		 const struct ea_fit_constraint *cons, int ncons,
		 double confidence, struct ea_fit_solution *sol)
{
	int p = 0, mg = 0, rc = -1;
	int *col = malloc((size_t)n * sizeof(*col));
	int *pos = malloc((size_t)n * sizeof(*pos));
	double *d = malloc((size_t)n * sizeof(*d));
	double *E = NULL, *bp = malloc((nrows ? nrows : 1) * sizeof(*bp));
	double *G = NULL, *h = NULL, *z = NULL, *se = NULL, rss = 0, top = 0;

	gsl_set_error_handler_off();
	if (!col || !pos || !d || !bp)
		goto out;
	for (int j = 0; j < n; j++) {
		pos[j] = -1;
		sol->x[j] = x0[j];
		sol->se[j] = NAN;
		if (!held[j]) {
			pos[j] = p;
			col[p++] = j;
		}
	}
	sol->p = p;
	sol->dof = (int)nrows - p;
	sol->sigma = NAN;
	sol->t = NAN;
	if (!p) {
		rc = 0;
		goto out;
	}
	if ((size_t)p > nrows)
		goto out;
	E = malloc(nrows * (size_t)p * sizeof(*E));
	G = calloc((size_t)(ncons ? ncons : 1) * (size_t)p, sizeof(*G));
	h = calloc((size_t)(ncons ? ncons : 1), sizeof(*h));
	z = calloc((size_t)p, sizeof(*z));
	se = calloc((size_t)p, sizeof(*se));
	if (!E || !G || !h || !z || !se)
		goto out;
	/* 1, 2: the held part to the right-hand side; free columns scaled */
	for (int k = 0; k < p; k++) {
		double s = 0;

		for (size_t r = 0; r < nrows; r++)
			s += A[r * n + col[k]] * A[r * n + col[k]];
		d[k] = s > 0 ? sqrt(s) : 1;
	}
	for (size_t r = 0; r < nrows; r++) {
		double held_part = 0;

		for (int j = 0; j < n; j++)
			if (held[j])
				held_part += A[r * n + j] * x0[j];
		bp[r] = b[r] - held_part;
		for (int k = 0; k < p; k++)
			E[r * p + k] = A[r * n + col[k]] / d[k];
	}
	/* the constraints on the free coefficients, in scaled units */
	for (int i = 0; i < ncons; i++) {
		const struct ea_fit_constraint *c = &cons[i];
		double hh = c->h;
		bool any = false;

		for (int t = 0; t < c->nterms; t++) {
			int j = c->idx[t];

			if (held[j]) {
				hh -= c->g[t] * x0[j];
			} else {
				G[(size_t)mg * p + pos[j]] +=
					c->g[t] / d[pos[j]];
				any = true;
			}
		}
		if (!any)
			continue;
		h[mg++] = hh;
	}
	/* 3 */
	if (ea_lsi(E, bp, (int)nrows, p, G, h, mg, z))
		goto out;
	for (int k = 0; k < p; k++)
		sol->x[col[k]] = z[k] / d[k];
	/* 4, and round-off around 0 (LDP's 1e-13 for a true 0) set to 0 */
	for (int k = 0; k < p; k++)
		top = fmax(top, fabs(sol->x[col[k]]));
	for (int k = 0; k < p; k++)
		if (fabs(sol->x[col[k]]) < 1e-12 * top)
			sol->x[col[k]] = 0;
	ea_fit_enforce(sol->x, held, cons, ncons);
	/* 5 */
	for (size_t r = 0; r < nrows; r++) {
		double e = -bp[r];

		for (int k = 0; k < p; k++)
			e += A[r * n + col[k]] * sol->x[col[k]];
		rss += e * e;
	}
	if (sol->dof > 0) {
		sol->sigma = sqrt(rss / sol->dof);
		sol->t = gsl_cdf_tdist_Pinv(0.5 + confidence / 2, sol->dof);
		if (std_errors(E, nrows, p, sol->sigma, se))
			goto out;
		for (int k = 0; k < p; k++)
			sol->se[col[k]] = se[k] / d[k];
	}
	rc = 0;
out:
	free(col);
	free(pos);
	free(d);
	free(E);
	free(bp);
	free(G);
	free(h);
	free(z);
	free(se);
	return rc;
}
