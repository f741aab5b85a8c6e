// SPDX-License-Identifier: GPL-2.0-only
/*
 * How far estimates are from the measurements (docs/model-fit.md
 * "Error figures"), over the windows of one rail or of all rails:
 *
 *   total error  = (sum estimate - sum measured) / sum measured x 100
 *   MAE          = mean over windows of |estimate - measured|
 *   MAE %        = sum |estimate - measured| / sum measured x 100
 *                  (the MAE relative to the mean window's energy)
 *   max window % = the largest |estimate - measured| / measured of a
 *                  window with energy (NaN when none has any)
 *
 * and the worst windows: the largest |estimate - measured|.
 */
#include <math.h>
#include <stdlib.h>

#include "eatrace/fit.h"

void ea_fit_error(const struct ea_fit_row *rows, size_t n, int rail, bool after,
		  double *measured, size_t *nwin, struct ea_fit_err *e)
{
	double sm = 0, se = 0, sabs = 0, worst = NAN;
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		const struct ea_fit_row *w = &rows[i];
		double est = after ? w->after : w->before,
		       d = est - w->measured;

		if (rail >= 0 && w->rail != rail)
			continue;
		k++;
		sm += w->measured;
		se += est;
		sabs += fabs(d);
		if (w->measured > 0 && !(fabs(d) / w->measured * 100 <= worst))
			worst = fabs(d) / w->measured * 100;
	}
	*measured = sm;
	*nwin = k;
	e->estimate = se;
	e->total_pct = sm > 0 ? (se - sm) / sm * 100 : NAN;
	e->mae = k ? sabs / (double)k : NAN;
	e->mae_pct = sm > 0 ? sabs / sm * 100 : NAN;
	e->max_abs_pct = worst;
}

struct by {
	const struct ea_fit_row *rows;
	bool after;
};

static double miss(const struct by *b, size_t i)
{
	const struct ea_fit_row *w = &b->rows[i];

	return fabs((b->after ? w->after : w->before) - w->measured);
}

static int by_miss(const void *a, const void *b, void *ctx)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	double mx = miss(ctx, x), my = miss(ctx, y);

	if (mx != my)
		return mx > my ? -1 : 1;
	return x < y ? -1 : x > y;
}

int ea_fit_worst(const struct ea_fit_row *rows, size_t n, bool after, int k,
		 size_t *out)
{
	size_t *idx = malloc((n ? n : 1) * sizeof(*idx));
	struct by ctx = {rows, after};

	if (!idx)
		return -1;
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	qsort_r(idx, n, sizeof(*idx), by_miss, &ctx);
	if ((size_t)k > n)
		k = (int)n;
	for (int i = 0; i < k; i++)
		out[i] = idx[i];
	free(idx);
	return k;
}
