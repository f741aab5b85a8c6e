// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which coefficients the measured windows determine (docs/model-fit.md
 * "What the data determine"). A coefficient is held at its initial value
 * when
 *
 *  - its feature is 0 in every window (an OPP never used, a state never
 *    entered, no wakeup from a state, no offline or suspended time), or
 *  - the windows determine only a combination of it with others: the
 *    free columns of the design are linearly dependent. GSL's SVD of the
 *    column-scaled design gives the dependencies (right singular vectors
 *    of singular values below 1e-9 of the largest); of the coefficients
 *    in one, the first in a fixed order is held, and the SVD is redone,
 *    until none is left.
 *
 * The order, held first: idle core powers (deepest state first), idle
 * cluster powers (deepest first), suspend and offline powers, cluster
 * wakeups, core wakeups, busy cluster powers, busy core powers. One
 * dependency is always there when every CPU of a cluster is present in
 * every window: busy + idle CPU-seconds add up to NCPUS x the window, and
 * cluster-busy + cluster-idle seconds to the window, so adding d to every
 * core power and NCPUS x d less to every cluster power changes no
 * estimate. The rule then holds the deepest idle state's core power (a
 * power-gated core's, usually 0), which anchors that split.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "eatrace/fit.h"

#define RANK_TOL 1e-9 /* relative singular value taken as 0 */
#define PART_TOL 1e-6 /* a coefficient takes part in a dependency */

/* Lower: held first (see above). */
static long priority(const struct ea_coefs *cs, const struct ea_model *m, int i)
{
	const struct ea_coef *c = &cs->c[i];
	int ncaps = c->cluster >= 0 ? m->clusters[c->cluster].ncaps : 0;
	int nidles = c->cluster >= 0 ? m->clusters[c->cluster].nidles : 0;
	long p;

	switch (c->kind) {
	case EA_CK_CORE_IDLE:
		p = 100 + (nidles - 1 - c->state);
		break;
	case EA_CK_CLUSTER_IDLE:
		p = 200 + (nidles - 1 - c->state);
		break;
	case EA_CK_SUSPEND:
		p = 300;
		break;
	case EA_CK_OFFLINE:
		p = 310;
		break;
	case EA_CK_CLUSTER_WAKEUP:
		p = 400 + (nidles - 1 - c->state);
		break;
	case EA_CK_CORE_WAKEUP:
		p = 500 + (nidles - 1 - c->state);
		break;
	case EA_CK_CLUSTER_BUSY:
		p = 600 + (ncaps - 1 - c->state) % 100;
		break;
	default:
		p = 800 + (ncaps - 1 - c->state) % 100;
		break;
	}
	return p * 100000 + i;
}

static const char *unused_reason(const struct ea_coef *c)
{
	switch (c->kind) {
	case EA_CK_CORE_BUSY:
		return "not determined: no CPU busy at this OPP in the "
		       "measured windows";
	case EA_CK_CLUSTER_BUSY:
		return "not determined: the cluster never busy at this OPP in "
		       "the measured windows";
	case EA_CK_CORE_IDLE:
		return "not determined: no CPU idle in this state in the "
		       "measured windows";
	case EA_CK_CLUSTER_IDLE:
		return "not determined: the cluster never all idle in this "
		       "state in the measured windows";
	case EA_CK_CORE_WAKEUP:
		return "not determined: no CPU woke from this state in the "
		       "measured windows";
	case EA_CK_CLUSTER_WAKEUP:
		return "not determined: the cluster never woke from this state "
		       "in the measured windows";
	case EA_CK_OFFLINE:
		return "not determined: no CPU offline in the measured windows";
	default:
		return "not determined: never suspended in the measured "
		       "windows";
	}
}

/*
 * The right singular vectors of the free columns (scaled to unit norm)
 * whose singular values are ~0, as columns of V (p x p) flagged in null[].
 * Returns how many, or -1.
 */
static int dependencies(const double *A, size_t nrows, int n, const int *col,
			int p, gsl_matrix *V, bool *null)
{
	size_t rows = nrows > (size_t)p ? nrows : (size_t)p;
	gsl_matrix *B = gsl_matrix_calloc(rows, (size_t)p);
	gsl_vector *S = gsl_vector_alloc((size_t)p);
	gsl_vector *work = gsl_vector_alloc((size_t)p);
	double smax = 0;
	int nn = -1;

	if (!B || !S || !work)
		goto out;
	for (int k = 0; k < p; k++) {
		double norm = 0;

		for (size_t r = 0; r < nrows; r++)
			norm += A[r * n + col[k]] * A[r * n + col[k]];
		norm = sqrt(norm);
		for (size_t r = 0; r < nrows; r++)
			gsl_matrix_set(B, r, (size_t)k,
				       A[r * n + col[k]] / norm);
	}
	if (gsl_linalg_SV_decomp_jacobi(B, V, S))
		goto out;
	nn = 0;
	for (int k = 0; k < p; k++)
		if (gsl_vector_get(S, (size_t)k) > smax)
			smax = gsl_vector_get(S, (size_t)k);
	for (int k = 0; k < p; k++) {
		null[k] = gsl_vector_get(S, (size_t)k) <= RANK_TOL * smax;
		nn += null[k];
	}
out:
	gsl_matrix_free(B);
	gsl_vector_free(S);
	gsl_vector_free(work);
	return nn;
}

/* Hold the first coefficient (by priority) of one dependency; say why. */
static bool hold_one(const struct ea_coefs *cs, const struct ea_model *m,
		     const int *col, int p, const gsl_matrix *V,
		     const bool *null, bool *held, char (*reason)[160])
{
	int best = -1, bestk = -1;
	size_t len;

	for (int k = 0; k < p; k++) {
		if (!null[k])
			continue;
		for (int j = 0; j < p; j++)
			if (fabs(gsl_matrix_get(V, (size_t)j, (size_t)k)) >
				    PART_TOL &&
			    (best < 0 || priority(cs, m, col[j]) <
						 priority(cs, m, col[best]))) {
				best = j;
				bestk = k;
			}
	}
	if (best < 0)
		return false;
	held[col[best]] = true;
	len = (size_t)snprintf(reason[col[best]], 160,
			       "not determined alone: the windows measure only "
			       "its combination with");
	for (int j = 0, shown = 0; j < p && len < 150; j++) {
		if (j == best ||
		    fabs(gsl_matrix_get(V, (size_t)j, (size_t)bestk)) <=
			    PART_TOL)
			continue;
		if (shown == 3) {
			len += (size_t)snprintf(reason[col[best]] + len,
						160 - len, " ...");
			break;
		}
		len += (size_t)snprintf(reason[col[best]] + len, 160 - len,
					"%s %s", shown ? "," : "",
					cs->c[col[j]].key);
		shown++;
	}
	return true;
}

int ea_fit_identify(const double *A, size_t nrows, const struct ea_coefs *cs,
		    const struct ea_model *m, bool *held, char (*reason)[160])
{
	int n = cs->n, p, rc = -1;
	int *col = malloc((size_t)n * sizeof(*col));
	bool *null = calloc((size_t)n, sizeof(*null));

	gsl_set_error_handler_off();
	if (!col || !null)
		goto out;
	for (int j = 0; j < n; j++) {
		bool used = false;

		if (held[j])
			continue;
		for (size_t r = 0; r < nrows && !used; r++)
			used = A[r * n + j] != 0;
		if (!used) {
			held[j] = true;
			snprintf(reason[j], 160, "%s",
				 unused_reason(&cs->c[j]));
		}
	}
	for (;;) {
		gsl_matrix *V;
		int nn;

		p = 0;
		for (int j = 0; j < n; j++)
			if (!held[j])
				col[p++] = j;
		if (!p)
			break;
		V = gsl_matrix_alloc((size_t)p, (size_t)p);
		if (!V)
			goto out;
		nn = dependencies(A, nrows, n, col, p, V, null);
		if (nn > 0 && !hold_one(cs, m, col, p, V, null, held, reason))
			nn = 0;
		gsl_matrix_free(V);
		if (nn < 0)
			goto out;
		if (!nn)
			break;
	}
	rc = 0;
out:
	free(col);
	free(null);
	return rc;
}
