/* SPDX-License-Identifier: GPL-2.0-only */
/* Pieces shared by the HTML reports (src/output/html-common.c). */
#ifndef EATRACE_OUTPUT_HTML_COMMON_H
#define EATRACE_OUTPUT_HTML_COMMON_H

#include <stdio.h>

#include "eatrace/html.h"
#include "eatrace/unit.h"
#include "output/svg.h"

#define HTML_W 1100	/* SVG width, px */

void html_head(FILE *f, const char *title);
void html_foot(FILE *f);
/* Text of an exact energy in u, for data-* attributes (buf >= EA_EU_BUF). */
const char *html_e(char *buf, const struct ea_energy_unit *u, ea_energy_t e);
/* The width of a label column for labels[0..n) (at least 150 px). */
double html_label_w(const char *const *labels, int n);
/* Warnings shown above everything else: the models that fail 'eatrace
 * model check' (NULL entries and repeats skipped). */
void html_model_warnings(FILE *f, const struct ea_model *const *models, int n);

/*
 * Stacked power over time: one series per column cols[i] of t, named
 * names[i], in u's unit of power. ymax > 0 forces the y scale
 * (comparisons); returns the ymax used. id: a short name for the chart
 * (data-chart). Energies (data-e) in u.
 */
double html_power_chart(FILE *f, const char *id, const struct ea_timeline *t,
			const int *cols, const char *const *names,
			const char *const *colors, int n,
			const struct ea_energy_unit *u, double ymax, int height);
/* Default: clusters stacked, and CPUs stacked coloured by cluster. */
void html_timeline_charts(FILE *f, const struct ea_timeline *t, const char *id,
			  const struct ea_energy_unit *u, double ymax_cl,
			  double ymax_cpu);
/* The highest stacked total of a timeline's clusters / CPUs, in u's
 * unit of power. */
double html_timeline_peak(const struct ea_timeline *t, bool cpus,
			  const struct ea_energy_unit *u);

/* Energy by P-state / C-state (energy) or residency (time) per CPU and
 * cluster; energies in u. */
void html_state_bars(FILE *f, const struct ea_acct *a, bool energy,
		     const char *id, const struct ea_energy_unit *u);
/* busy / idle / wakeup bars per cluster. */
void html_split_bars(FILE *f, const struct ea_acct *a, const char *id,
		     const struct ea_energy_unit *u);
/* Cards: total energy, mean power, window, shares (html-report.c). */
void html_summary_cards(FILE *f, const struct ea_acct *a,
			const struct ea_energy_unit *u);
/* Top n tasks by energy. */
void html_task_bars(FILE *f, const struct ea_acct *a, int n, const char *id,
		    const struct ea_energy_unit *u);

/* One bar per run (busy / idle / wakeup), same scale; e[i] NULL: skipped.
 * delta_pct[i] (NaN: none) printed after the value. Energies in u. */
void html_compare_bars(FILE *f, const struct ea_energy *const *e,
		       const char *const *names, const double *delta_pct, int n,
		       const struct ea_energy_unit *u, const char *id);

/* diff --html: each run by name and value, spread and outliers
 * (src/output/html-diff-runs.c). */
void html_diff_runs(FILE *f, const struct ea_diff *d);

#endif
