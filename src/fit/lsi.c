// SPDX-License-Identifier: GPL-2.0-only
/*
 * Least squares with linear inequality constraints, min ||E x - f||
 * subject to G x >= h, by Lawson and Hanson's reduction to a least
 * distance problem ("Solving Least Squares Problems", 1974, ch. 23,
 * algorithms LSI and LDP), the one non-negative least squares (nnls.c)
 * doing the searching:
 *
 *  1. E = Q R (GSL's Householder QR); with f1 the first n entries of
 *     Q^T f, ||E x - f||^2 = ||R x - f1||^2 + a constant.
 *  2. y = R x - f1 turns the problem into min ||y|| subject to
 *     (G R^-1) y >= h - G R^-1 f1: a least distance problem (LDP).
 *  3. LDP: with M = [ (G R^-1)^T ; (h - G R^-1 f1)^T ] ((n+1) x mg) and
 *     e = (0, ..., 0, 1), solve the NNLS min ||M u - e||, u >= 0; its
 *     residual r = M u - e is 0 when the constraints are infeasible,
 *     else y = -r[0..n) / r[n].
 *  4. x = R^-1 (y + f1).
 *
 * Each constraint row is scaled to unit norm first (the same set). E must
 * have full column rank (the caller holds what the data cannot
 * determine, identify.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "eatrace/fit.h"

int ea_lsi(const double *E, const double *f, int m, int n, const double *G,
	   const double *h, int mg, double *x)
{
	gsl_matrix *QR = gsl_matrix_alloc((size_t)m, (size_t)n);
	gsl_vector *tau = gsl_vector_alloc((size_t)n);
	gsl_vector *qf = gsl_vector_alloc((size_t)m);
	gsl_vector *y = gsl_vector_alloc((size_t)n);
	double *M =
		calloc((size_t)(n + 1) * (size_t)(mg ? mg : 1), sizeof(double));
	double *e = calloc((size_t)n + 1, sizeof(double));
	double *u = calloc((size_t)(mg ? mg : 1), sizeof(double));
	gsl_vector_view f1;
	gsl_matrix_view R;
	double rmax = 0;
	int rc = -1;

	gsl_set_error_handler_off();
	if (!QR || !tau || !qf || !y || !M || !e || !u || m < n || n < 1)
		goto out;
	for (int i = 0; i < m; i++) {
		gsl_vector_set(qf, (size_t)i, f[i]);
		for (int j = 0; j < n; j++)
			gsl_matrix_set(QR, (size_t)i, (size_t)j,
				       E[(size_t)i * n + j]);
	}
	if (gsl_linalg_QR_decomp(QR, tau) || gsl_linalg_QR_QTvec(QR, tau, qf))
		goto out;
	R = gsl_matrix_submatrix(QR, 0, 0, (size_t)n, (size_t)n);
	f1 = gsl_vector_subvector(qf, 0, (size_t)n);
	for (int j = 0; j < n; j++)
		if (fabs(gsl_matrix_get(&R.matrix, (size_t)j, (size_t)j)) >
		    rmax)
			rmax = fabs(gsl_matrix_get(&R.matrix, (size_t)j,
						   (size_t)j));
	for (int j = 0; j < n; j++)
		if (!(fabs(gsl_matrix_get(&R.matrix, (size_t)j, (size_t)j)) >
		      rmax * 1e-13))
			goto out; /* not of full column rank */
	gsl_vector_set_zero(y);
	if (mg) {
		gsl_vector *g = gsl_vector_alloc((size_t)n);
		double feas = 0;

		if (!g)
			goto out;
		for (int i = 0; i < mg; i++) {
			double gf, norm = 0, hi = h[i];

			/* row i of G R^-1: R^T g' = g_i */
			for (int j = 0; j < n; j++) {
				gsl_vector_set(g, (size_t)j,
					       G[(size_t)i * n + j]);
				norm += G[(size_t)i * n + j] *
					G[(size_t)i * n + j];
			}
			norm = sqrt(norm);
			if (norm > 0) {
				gsl_vector_scale(g, 1 / norm);
				hi /= norm;
			}
			gsl_blas_dtrsv(CblasUpper, CblasTrans, CblasNonUnit,
				       &R.matrix, g);
			gsl_blas_ddot(g, &f1.vector, &gf);
			for (int j = 0; j < n; j++)
				M[(size_t)j * mg + i] =
					gsl_vector_get(g, (size_t)j);
			M[(size_t)n * mg + i] = hi - gf;
		}
		gsl_vector_free(g);
		e[n] = 1;
		if (ea_nnls(M, e, n + 1, mg, u))
			goto out;
		/* r = M u - e */
		for (int j = 0; j <= n; j++) {
			double s = -e[j];

			for (int i = 0; i < mg; i++)
				s += M[(size_t)j * mg + i] * u[i];
			e[j] = s;
			feas += s * s;
		}
		if (!(sqrt(feas) > 1e-12) || !(fabs(e[n]) > 1e-12)) {
			rc = 1; /* no x satisfies the constraints */
			goto out;
		}
		for (int j = 0; j < n; j++)
			gsl_vector_set(y, (size_t)j, -e[j] / e[n]);
	}
	/* x = R^-1 (y + f1) */
	gsl_vector_add(y, &f1.vector);
	gsl_blas_dtrsv(CblasUpper, CblasNoTrans, CblasNonUnit, &R.matrix, y);
	for (int j = 0; j < n; j++)
		x[j] = gsl_vector_get(y, (size_t)j);
	rc = 0;
out:
	gsl_matrix_free(QR);
	gsl_vector_free(tau);
	gsl_vector_free(qf);
	gsl_vector_free(y);
	free(M);
	free(e);
	free(u);
	return rc;
}
