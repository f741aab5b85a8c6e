// SPDX-License-Identifier: GPL-2.0-only
/*
 * Non-negative least squares: min ||A x - b|| subject to x >= 0, by
 * Lawson and Hanson's active-set algorithm ("Solving Least Squares
 * Problems", 1974, ch. 23, algorithm NNLS). GSL does the linear algebra:
 * each unconstrained subproblem on the passive columns is solved by GSL's
 * SVD (gsl_linalg_SV_decomp), singular values below a relative tolerance
 * dropped, so a degenerate passive set gives the minimum-norm solution
 * rather than a division by zero.
 *
 * The active-set logic, in short:
 *   P = {} (columns free to move), x = 0, w = A^T (b - A x) (the gradient);
 *   while some j outside P has w_j > tol:
 *     move the j with the largest w_j into P;
 *     loop: z = least squares on the columns of P (0 elsewhere);
 *       if every z_j (j in P) > 0: x = z, done;
 *       else step from x towards z as far as x stays >= 0, and move the
 *       columns that reached 0 out of P;
 *     w = A^T (b - A x).
 * A column whose first solve gives it no positive value is set aside
 * until x next changes (Lawson and Hanson's guard against cycling on
 * round-off). The loops are bounded (3n each); not converging is an error.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "eatrace/fit.h"

/*
 * z = argmin ||A_P z - b|| over the columns j with P[j], z_j = 0 for the
 * others (minimum norm when A_P is rank deficient). 0 or -1.
 */
static int ls_passive(const double *A, const double *b, int m, int n,
		      const bool *P, double *z)
{
	int p = 0, rows, *col = malloc((size_t)n * sizeof(int));
	gsl_matrix *U = NULL, *V = NULL;
	gsl_vector *S = NULL, *work = NULL;
	int rc = -1;

	if (!col)
		return -1;
	for (int j = 0; j < n; j++)
		if (P[j])
			col[p++] = j;
	memset(z, 0, (size_t)n * sizeof(*z));
	if (!p) {
		free(col);
		return 0;
	}
	rows = m > p ? m : p; /* GSL's SVD wants rows >= columns */
	U = gsl_matrix_calloc((size_t)rows, (size_t)p);
	V = gsl_matrix_alloc((size_t)p, (size_t)p);
	S = gsl_vector_alloc((size_t)p);
	work = gsl_vector_alloc((size_t)p);
	if (!U || !V || !S || !work)
		goto out;
	for (int i = 0; i < m; i++)
		for (int k = 0; k < p; k++)
			gsl_matrix_set(U, (size_t)i, (size_t)k,
				       A[(size_t)i * n + col[k]]);
	if (gsl_linalg_SV_decomp(U, V, S, work))
		goto out;
	{
		double smax = gsl_vector_get(S, 0);
		double tol = smax * DBL_EPSILON * rows * 10;

		/* z_P = V diag(1 / s) U^T b, small singular values dropped */
		for (int k = 0; k < p; k++) {
			double s = gsl_vector_get(S, (size_t)k), ub = 0;

			if (!(s > tol))
				continue;
			for (int i = 0; i < m; i++)
				ub += gsl_matrix_get(U, (size_t)i, (size_t)k) *
				      b[i];
			ub /= s;
			for (int r = 0; r < p; r++)
				z[col[r]] += gsl_matrix_get(V, (size_t)r,
							    (size_t)k) *
					     ub;
		}
	}
	rc = 0;
out:
	gsl_matrix_free(U);
	gsl_matrix_free(V);
	gsl_vector_free(S);
	gsl_vector_free(work);
	free(col);
	return rc;
}

/* w = A^T (b - A x) */
static void gradient(const double *A, const double *b, int m, int n,
		     const double *x, double *r, double *w)
{
	for (int i = 0; i < m; i++) {
		double s = b[i];

		for (int j = 0; j < n; j++)
			s -= A[(size_t)i * n + j] * x[j];
		r[i] = s;
	}
	for (int j = 0; j < n; j++) {
		double s = 0;

		for (int i = 0; i < m; i++)
			s += A[(size_t)i * n + j] * r[i];
		w[j] = s;
	}
}

int ea_nnls(const double *A, const double *b, int m, int n, double *x)
{
	double *z = malloc((size_t)n * sizeof(*z));
	double *w = malloc((size_t)n * sizeof(*w));
	double *r = malloc((size_t)(m > 0 ? m : 1) * sizeof(*r));
	bool *P = calloc((size_t)n, sizeof(*P));
	bool *aside = calloc((size_t)n, sizeof(*aside));
	double norm = 0, tol;
	int rc = -1;

	gsl_set_error_handler_off();
	if (!z || !w || !r || !P || !aside)
		goto out;
	memset(x, 0, (size_t)n * sizeof(*x));
	for (int j = 0; j < n; j++) { /* the 1-norm of A: the scale of w */
		double s = 0;

		for (int i = 0; i < m; i++)
			s += fabs(A[(size_t)i * n + j]);
		if (s > norm)
			norm = s;
	}
	tol = 10 * DBL_EPSILON * norm * (m > n ? m : n);
	gradient(A, b, m, n, x, r, w);
	for (int outer = 0; outer < 3 * n + 3; outer++) {
		int t = -1;

		for (int j = 0; j < n; j++)
			if (!P[j] && !aside[j] && w[j] > tol &&
			    (t < 0 || w[j] > w[t]))
				t = j;
		if (t < 0) {
			rc = 0;
			goto out;
		}
		P[t] = true;
		for (int inner = 0;; inner++) {
			double alpha = INFINITY;
			int jmin = -1;

			if (inner > 3 * n + 3 || ls_passive(A, b, m, n, P, z))
				goto out;
			if (!inner && !(z[t] > 0)) {
				/* round-off: t cannot help; leave it out */
				P[t] = false;
				aside[t] = true;
				break;
			}
			/* the longest step from x towards z keeping x >= 0 */
			for (int j = 0; j < n; j++) {
				double d = x[j] - z[j], a;

				if (!P[j] || z[j] > 0)
					continue;
				a = d > 0 ? x[j] / d : 0;
				if (a < alpha) {
					alpha = a;
					jmin = j;
				}
			}
			if (jmin < 0) { /* z is feasible: the new x */
				memcpy(x, z, (size_t)n * sizeof(*x));
				memset(aside, 0, (size_t)n * sizeof(*aside));
				break;
			}
			for (int j = 0; j < n; j++)
				x[j] += alpha * (z[j] - x[j]);
			x[jmin] = 0;
			for (int j = 0; j < n; j++)
				if (P[j] && x[j] <= 0) {
					P[j] = false;
					x[j] = 0;
				}
			memset(aside, 0, (size_t)n * sizeof(*aside));
		}
		gradient(A, b, m, n, x, r, w);
	}
out:
	free(z);
	free(w);
	free(r);
	free(P);
	free(aside);
	return rc;
}
