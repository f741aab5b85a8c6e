// SPDX-License-Identifier: GPL-2.0-only
/*
 * `eatrace diff --html`: every run of each side by name and value, their
 * spread and outliers, as a strip chart on one axis and a table
 * (docs/html.md). An outlier is a run outside its side's Tukey fences,
 * [Q1 - 1.5 IQR, Q3 + 1.5 IQR] (quartiles by linear interpolation), with
 * 4 runs or more on the side: fewer give no fences worth the name.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "eatrace/output.h"
#include "output/html-common.h"

#define STRIP_H 46.0 /* px per side */
#define MIN_FENCE_RUNS 4

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The q-quantile of sorted x[0..n) by linear interpolation (numpy's
 * default). */
static double quantile(const double *x, int n, double q)
{
	double h = (n - 1) * q;
	int lo = (int)floor(h);

	return lo + 1 < n ? x[lo] + (h - lo) * (x[lo + 1] - x[lo]) : x[n - 1];
}

/* The fences of side s: false when it has too few runs for them. */
static bool fences(const struct ea_diff_side *s, double *lo, double *hi)
{
	double *x, q1, q3;

	if (s->n < MIN_FENCE_RUNS || !(x = malloc(s->n * sizeof(*x))))
		return false;
	for (int i = 0; i < s->n; i++)
		x[i] = s->runs[i].value;
	qsort(x, s->n, sizeof(*x), cmp_double);
	q1 = quantile(x, s->n, 0.25);
	q3 = quantile(x, s->n, 0.75);
	*lo = q1 - 1.5 * (q3 - q1);
	*hi = q3 + 1.5 * (q3 - q1);
	free(x);
	return true;
}

static bool outlier(const struct ea_diff_side *s, int i)
{
	double lo, hi;

	return fences(s, &lo, &hi) &&
	       (s->runs[i].value < lo || s->runs[i].value > hi);
}

static void strip(FILE *f, const struct ea_diff *d, const char *unit)
{
	struct svg_plot p = {120, 30, HTML_W - 160, 2 * STRIP_H, 0, 0, 0, 2};
	double vmin = INFINITY, vmax = -INFINITY, pad;
	char b[32];

	for (int s = 0; s < 2; s++)
		for (int i = 0; i < d->side[s].n; i++) {
			vmin = fmin(vmin, d->side[s].runs[i].value);
			vmax = fmax(vmax, d->side[s].runs[i].value);
		}
	if (!(vmax >= vmin))
		return;
	pad = vmax > vmin ? (vmax - vmin) * 0.08 : fabs(vmax) * 0.05 + 1e-9;
	p.xmin = vmin - pad;
	p.xmax = vmax + pad;
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%.0f\" "
		"data-chart=\"runs\">\n",
		HTML_W, p.y + p.h + 50);
	fprintf(f,
		"<g class=\"axis\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		"y2=\"%.1f\"/>",
		p.x, p.y + p.h, p.x + p.w, p.y + p.h);
	for (int k = 0; k <= 4; k++) {
		double v = p.xmin + (p.xmax - p.xmin) * k / 4;

		fprintf(f,
			"<text x=\"%.1f\" y=\"%.1f\" "
			"text-anchor=\"middle\">%s</text>",
			svg_px(&p, v), p.y + p.h + 16, svg_num(b, v));
	}
	fprintf(f,
		"<text class=\"label\" x=\"%.1f\" y=\"%.1f\" "
		"text-anchor=\"middle\">value (",
		p.x + p.w / 2, p.y + p.h + 36);
	svg_esc(f, unit);
	fputs(")</text></g>\n", f);
	for (int s = 0; s < 2; s++) {
		const struct ea_diff_side *side = &d->side[s];
		double y = p.y + (s + 0.5) * STRIP_H;
		const char *color = s ? "#e15759" : "#7f8fa6";

		fprintf(f,
			"<text class=\"label\" x=\"%.1f\" y=\"%.1f\" "
			"text-anchor=\"end\">%s (n=%d)</text>\n",
			p.x - 10, y + 4, side->name, side->n);
		/* mean and, with 2+ runs, mean +- sd (drawn within the axis) */
		if (side->n > 1) {
			double x0 = fmax(side->mean - side->sd, p.xmin);
			double x1 = fmin(side->mean + side->sd, p.xmax);

			fprintf(f,
				"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" "
				"height=\"%.1f\" fill=\"%s\" "
				"fill-opacity=\"0.15\" "
				"data-side=\"%s\" data-sd=\"%.17g\"/>\n",
				svg_px(&p, x0), y - 14,
				svg_px(&p, x1) - svg_px(&p, x0), 28.0, color,
				side->name, side->sd);
		}
		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"%s\" "
			"stroke-width=\"2\" data-side=\"%s\" "
			"data-mean=\"%.17g\"/>\n",
			svg_px(&p, side->mean), y - 16, svg_px(&p, side->mean),
			y + 16, color, side->name, side->mean);
		for (int i = 0; i < side->n; i++) {
			const struct ea_diff_run *r = &side->runs[i];
			bool out = outlier(side, i);

			fprintf(f,
				"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" "
				"fill=\"%s\" "
				"fill-opacity=\"0.75\" stroke=\"%s\" "
				"stroke-width=\"%d\" "
				"data-side=\"%s\" data-run=\"%d\" "
				"data-value=\"%.17g\"%s><title>",
				svg_px(&p, r->value), y, color,
				out ? "#b42318" : "#333", out ? 3 : 1,
				side->name, i, r->value,
				out ? " data-outlier=\"1\"" : "");
			svg_esc(f, r->path);
			fprintf(f, ": %s ", svg_num(b, r->value));
			svg_esc(f, unit);
			fputs(out ? " (outlier)</title></circle>\n"
				  : "</title></circle>\n",
			      f);
		}
	}
	fputs("</svg>\n", f);
}

void html_diff_runs(FILE *f, const struct ea_diff *d)
{
	struct ea_energy_unit ut;
	const struct ea_energy_unit *u = ea_diff_unit(d, &ut);
	char unit[64], b[32];
	int nout = 0;

	ea_diff_value_unit(d, unit, sizeof(unit));
	fputs("<h2>The runs</h2>\n<p class=\"note\">Each run's value (its "
	      "energy, "
	      "normalised) on one axis: the line is the side's mean, the band "
	      "its "
	      "mean &#177; sd. A ringed run lies outside its side's Tukey "
	      "fences "
	      "(Q1 - 1.5 IQR, Q3 + 1.5 IQR; sides of 4 runs or more).</p>\n",
	      f);
	strip(f, d, unit);
	fputs("<table "
	      "data-table=\"runs\">\n<tr><th>run</th><th>side</th><th>value (",
	      f);
	svg_esc(f, unit);
	fputs(")</th><th>energy (", f);
	svg_esc(f, u->energy);
	fputs(")</th><th>duration</th><th></th></tr>\n", f);
	for (int s = 0; s < 2; s++) {
		const struct ea_diff_side *side = &d->side[s];

		for (int i = 0; i < side->n; i++) {
			const struct ea_diff_run *r = &side->runs[i];
			bool out = outlier(side, i);

			nout += out;
			fprintf(f,
				"<tr data-side=\"%s\" "
				"data-run=\"%d\"%s><td><code>",
				side->name, i,
				out ? " data-outlier=\"1\"" : "");
			svg_esc(f, r->path);
			fprintf(f,
				"</code></td><td>%s</td><td "
				"data-value=\"%.17g\">%.6g</td>"
				"<td>%.6g</td><td>%s s</td><td>%s</td></tr>\n",
				side->name, r->value, r->value, r->energy,
				svg_num(b, r->duration_s),
				out ? "outlier" : "");
		}
		fprintf(f,
			"<tr data-side=\"%s\" data-summary=\"1\"><th>%s: mean "
			"of %d</th><th></th>"
			"<th>%.6g</th><th></th><th></th><th>",
			side->name, side->name, side->n, side->mean);
		if (side->n > 1)
			fprintf(f, "sd %.3g (%.2f%%)", side->sd,
				side->mean ? 100 * side->sd / fabs(side->mean)
					   : 0);
		else
			fputs("sd n/a (one run)", f);
		fputs("</th></tr>\n", f);
	}
	fputs("</table>\n", f);
	if (nout)
		fprintf(f,
			"<p class=\"note\" id=\"outliers\">%d run%s outside "
			"the fences: "
			"an outlier widens the interval; look at it before "
			"running more.</p>\n",
			nout, nout == 1 ? "" : "s");
}
