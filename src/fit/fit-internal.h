/* SPDX-License-Identifier: GPL-2.0-only */
/* What the files of src/fit share beyond include/eatrace/fit.h. */
#ifndef EATRACE_FIT_INTERNAL_H
#define EATRACE_FIT_INTERNAL_H

#include "eatrace/fit.h"

/* The windows of a run: features (nrows x coefs.n, row-major), the
 * measurements, the rows' descriptions. */
struct ea_fit_rows {
	double *A, *b;
	struct ea_fit_row *row;
	size_t n, cap;
};

/*
 * Append the rows of input number `input` of cfg (rows.c), adding its
 * rails to r->rails and setting r->input_rows and r->input_dropped for it.
 * 0, or -1 with err ("FILE:LINE: cause" for bad measurements).
 */
int ea_fit_rows_of_input(struct ea_fit *r, const struct ea_fit_config *cfg,
			 int input, struct ea_fit_rows *rs, struct ea_err *err);

/*
 * The rows as the fit weighs them (weights.c): *WA, *Wb (malloc'ed; the
 * caller frees) are rs->A and rs->b with each row divided by its weight's
 * root; sets r->relative. 0, or -1 out of memory.
 */
int ea_fit_weigh(struct ea_fit *r, const struct ea_fit_rows *rs, bool equal,
		 double **WA, double **Wb);

#endif
