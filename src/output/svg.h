/* SPDX-License-Identifier: GPL-2.0-only */
/* Small inline-SVG drawing helpers for the HTML reports (src/output/svg.c). */
#ifndef EATRACE_OUTPUT_SVG_H
#define EATRACE_OUTPUT_SVG_H

#include <stdint.h>
#include <stdio.h>

#include "eatrace/energy.h"

/* Text for HTML and XML text and attribute values: ea_esc_html(). */
void svg_esc(FILE *f, const char *s);

/* Categorical colour i (clusters, policies); shade j of n (0 light). */
const char *svg_cat(int i);
void svg_warm(char *buf, int j, int n);	/* P-states: yellow -> red */
void svg_cool(char *buf, int j, int n);	/* C-states: light -> dark blue */
#define SVG_WAKE "#8e44ad"

/* "1.23", "456", "0.0123": about 3 significant digits. */
const char *svg_num(char *buf, double v);

/* A plot area in an SVG: pixels, and the data range drawn there. */
struct svg_plot {
	double x, y, w, h;		/* pixels: top left, size */
	double xmin, xmax, ymin, ymax;
};

double svg_px(const struct svg_plot *p, double x);
double svg_py(const struct svg_plot *p, double y);
/* Round ymax up to a nice number and draw grid, ticks and axis labels. */
double svg_nice_max(double v);
void svg_axes(FILE *f, const struct svg_plot *p, const char *xlabel,
	      const char *ylabel);

/*
 * Stacked step areas: nseries x nb values (vals[s * nb + b]) over bucket
 * edges x[0..nb]; series 0 at the bottom.
 */
void svg_stack(FILE *f, const struct svg_plot *p, const double *x,
	       const double *vals, int nseries, int nb,
	       const char *const *colors);

/* A legend row of swatches at (x, y); returns the x after it. */
double svg_legend_item(FILE *f, double x, double y, const char *color,
		       const char *label);

#endif
