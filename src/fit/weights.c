// SPDX-License-Identifier: GPL-2.0-only
/* How the fit weighs its windows (src/fit/fit-internal.h). */
#include <stdlib.h>

#include "fit/fit-internal.h"

/*
 * The rows as the fit weighs them (docs/model-fit.md "Weights"): with
 * relative weights (the default) each window's row and measurement are
 * divided by its measured energy, floored at 1% of its rail's mean window
 * (an idle window must not weigh a thousand times a busy one), so the fit
 * minimises the squared relative errors: the right weighting for a meter
 * whose error is a share of its reading. Equal weights: as they are.
 */
int ea_fit_weigh(struct ea_fit *r, const struct ea_fit_rows *rs, bool equal,
		 double **WA, double **Wb)
{
	int n = r->coefs.n;
	double *mean = calloc((size_t)r->nrails + 1, sizeof(*mean));
	size_t *count = calloc((size_t)r->nrails + 1, sizeof(*count));

	*WA = malloc(rs->n * (size_t)n * sizeof(double));
	*Wb = malloc((rs->n ? rs->n : 1) * sizeof(double));
	if (!mean || !count || !*WA || !*Wb) {
		free(mean);
		free(count);
		return -1;
	}
	for (size_t i = 0; i < rs->n; i++) {
		mean[rs->row[i].rail] += rs->b[i];
		count[rs->row[i].rail]++;
	}
	for (int k = 0; k < r->nrails; k++)
		mean[k] /= (double)(count[k] ? count[k] : 1);
	for (size_t i = 0; i < rs->n; i++) {
		double floor = mean[rs->row[i].rail] * 0.01, s = 1;

		if (!equal)
			s = rs->b[i] > floor ? rs->b[i] : floor > 0 ? floor : 1;
		for (int j = 0; j < n; j++)
			(*WA)[i * (size_t)n + j] = rs->A[i * (size_t)n + j] / s;
		(*Wb)[i] = rs->b[i] / s;
	}
	r->relative = !equal;
	free(mean);
	free(count);
	return 0;
}
