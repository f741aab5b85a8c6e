/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What `eatrace model fit` and `eatrace model check --measured` print
 * (src/output/fit-text.c, fit-json.c, html-fit.c; keys in docs/json.md,
 * method in docs/model-fit.md).
 */
#ifndef EATRACE_FIT_REPORT_H
#define EATRACE_FIT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "eatrace/fit.h"
#include "eatrace/model.h"

struct ea_fit_finding {
	enum ea_severity sev;
	char *msg;
};

struct ea_fit_report {
	const struct ea_fit *fit;
	const struct ea_fit_config *cfg;
	bool check; /* model check --measured: no fit */
	const char *output; /* the fitted model's file; NULL: none */
	/* `model check` of the fitted model (fit) or of the model (check) */
	const struct ea_fit_finding *findings;
	int nfindings, errors, warnings;
	bool quiet; /* errors only among the findings */
	/* check: the gates (NaN: none) and what failed them */
	double max_error_pct, max_window_error_pct;
	int gate_failures;
};

void ea_fit_render_text(FILE *f, const struct ea_fit_report *r);
void ea_fit_render_json(FILE *f, const struct ea_fit_report *r);
void ea_fit_render_html(FILE *f, const struct ea_fit_report *r);

/* Shared by the renderers (fit-text.c): the estimate of a window. */
static inline double ea_fit_row_estimate(const struct ea_fit_report *r,
					 const struct ea_fit_row *w)
{
	return r->fit->fitted_ok ? w->after : w->before;
}

#endif
