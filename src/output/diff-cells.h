/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the text and Markdown forms of `eatrace diff` share
 * (src/output/diff-text.c): changes in percent that may be n/a, the
 * reasons printed under a table for each n/a in it, and the warning for a
 * model that fails 'eatrace model check'.
 */
#ifndef EATRACE_OUTPUT_DIFF_CELLS_H
#define EATRACE_OUTPUT_DIFF_CELLS_H

#include "eatrace/diff.h"

/* 100 (b - a) / a; NaN (shown "n/a") when a is 0 and b is not, or either
 * is NaN (absent, or a rate of a run of 0 s); 0 when both are 0. */
double ea_diff_pct(double a, double b);

/* The reasons for the n/a cells of one table, printed after it. */
#define EA_DIFF_NA_MAX 8
struct ea_diff_na {
	char line[EA_DIFF_NA_MAX][384];
	int n;
};

void ea_diff_na_add(struct ea_diff_na *na, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The reasons for row label's n/a: its base is 0 (x == 0), or a side's
 * rate is n/a (x or y NaN, rate true: that side has a run of 0 s). */
void ea_diff_na_row(struct ea_diff_na *na, const struct ea_diff *d,
		    const char *label, double x, double y, bool rate);

/* "warning: model X fails 'eatrace model check' (...)" for each side's
 * model that does (src/output/model-verdict.c); markdown: a quote. */
void ea_diff_model_warnings(FILE *f, const struct ea_diff *d, bool markdown);

#endif
