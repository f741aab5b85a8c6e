/* SPDX-License-Identifier: GPL-2.0-only */
/* Pieces shared by the HTML reports (src/output/html-common.c). */
#ifndef EATRACE_OUTPUT_HTML_COMMON_H
#define EATRACE_OUTPUT_HTML_COMMON_H

#include <stdio.h>

#include "eatrace/html.h"
#include "output/svg.h"

#define HTML_W 1100	/* SVG width, px */

void html_head(FILE *f, const char *title);
void html_foot(FILE *f);
/* "mJ" for "mW", "J" for "W", else "UNIT·s". */
const char *html_energy_unit(char *buf, size_t n, const char *power_unit);
/* Text of an exact energy in data-* attributes. */
const char *html_e(char *buf, ea_energy_t e);

/*
 * Stacked power over time: one series per column cols[i] of t, named
 * names[i]. ymax > 0 forces the y scale (comparisons); returns the ymax used.
 * id: a short name for the chart (data-chart).
 */
double html_power_chart(FILE *f, const char *id, const struct ea_timeline *t,
			const int *cols, const char *const *names,
			const char *const *colors, int n, const char *power_unit,
			double ymax, int height);
/* Default: clusters stacked, and CPUs stacked coloured by cluster. */
void html_timeline_charts(FILE *f, const struct ea_timeline *t, const char *id,
			  double ymax_cl, double ymax_cpu);
/* The highest stacked total of a timeline's clusters / CPUs (power_unit). */
double html_timeline_peak(const struct ea_timeline *t, bool cpus);

/* Energy by P-state / C-state (energy) or residency (time) per CPU and cluster. */
void html_state_bars(FILE *f, const struct ea_acct *a, bool energy,
		     const char *id);
/* busy / idle / wakeup bars per cluster. */
void html_split_bars(FILE *f, const struct ea_acct *a, const char *id);
/* Cards: total energy, mean power, window, shares (html-report.c). */
void html_summary_cards(FILE *f, const struct ea_acct *a);
/* Top n tasks by energy. */
void html_task_bars(FILE *f, const struct ea_acct *a, int n, const char *id);

/* One bar per run (busy / idle / wakeup), same scale; e[i] NULL: skipped.
 * delta_pct[i] (NaN: none) printed after the value. */
void html_compare_bars(FILE *f, const struct ea_energy *const *e,
		       const char *const *names, const double *delta_pct, int n,
		       const char *power_unit, const char *id);

#endif
