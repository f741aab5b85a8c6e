// SPDX-License-Identifier: GPL-2.0-only
/*
 * `eatrace model fit --html FILE` and `model check --measured --html
 * FILE`: per trace and rail, the measured power against the estimated one
 * over time (each window's energy / its length), and the residuals
 * ((estimated - measured) / measured per window), initial and fitted; the
 * error table; the coefficients with their intervals; model check of the
 * result (docs/html.md).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "eatrace/fit-report.h"
#include "eatrace/unit.h"
#include "output/html-common.h"

#define MAX_CHARTS 16
#define C_MEAS "#222222"
#define C_INIT "#9aa7b8"
#define C_FIT "#e15759"

/* The windows of one input and rail, in time order (rows are). */
static size_t select_rows(const struct ea_fit *fit, int input, int rail,
			  size_t *idx)
{
	size_t n = 0;

	for (size_t i = 0; i < fit->nrows; i++)
		if (fit->rows[i].input == input && fit->rows[i].rail == rail)
			idx[n++] = i;
	return n;
}

static double power_of(double e, const struct ea_fit_row *w)
{
	return e / ((double)(w->t1 - w->t0) / 1e9);
}

static void polyline(FILE *f, const struct svg_plot *p,
		     const struct ea_fit *fit, const size_t *idx, size_t n,
		     int which, const char *color, const char *name,
		     bool residual)
{
	uint64_t t0 = fit->rows[idx[0]].t0;

	fprintf(f,
		"<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" "
		"data-series=\"%s\" data-n=\"%zu\" points=\"",
		color, which ? "1.2" : "1.6", name, n);
	for (size_t k = 0; k < n; k++) {
		const struct ea_fit_row *w = &fit->rows[idx[k]];
		double e = which == 0	? w->measured
			   : which == 1 ? w->before
					: w->after;
		double x = ((double)(w->t0 + w->t1) / 2 - (double)t0) / 1e9, y;

		if (residual)
			y = w->measured > 0
				    ? (e - w->measured) / w->measured * 100
				    : 0;
		else
			y = power_of(e, w);
		if (y > p->ymax)
			y = p->ymax;
		if (y < p->ymin)
			y = p->ymin;
		fprintf(f, "%s%.1f,%.1f", k ? " " : "", svg_px(p, x),
			svg_py(p, y));
	}
	fputs("\"/>\n", f);
}

static void chart(FILE *f, const struct ea_fit_report *r, const size_t *idx,
		  size_t n, bool residual)
{
	const struct ea_fit *fit = r->fit;
	const struct ea_fit_row *first = &fit->rows[idx[0]],
				*last = &fit->rows[idx[n - 1]];
	struct svg_plot p = {70,  30, HTML_W - 100,
			     170, 0,  (double)(last->t1 - first->t0) / 1e9,
			     0,	  1};
	double top = 0;
	char unit[64];

	for (size_t k = 0; k < n; k++) {
		const struct ea_fit_row *w = &fit->rows[idx[k]];
		double v[3] = {w->measured, w->before, w->after};

		for (int s = 0; s < (fit->fitted_ok ? 3 : 2); s++) {
			double y =
				residual ? (w->measured > 0
						    ? fabs(v[s] - w->measured) /
							      w->measured * 100
						    : 0)
					 : power_of(v[s], w);

			if (y > top)
				top = y;
		}
	}
	p.ymax = svg_nice_max(top);
	if (residual) {
		/* 1, 2 or 4 x 10^k: svg_axes()'s ticks from -ymax then hit 0 */
		double k = pow(10, floor(log10(top > 0 ? top : 1)));

		p.ymax = top <= k	? k
			 : top <= 2 * k ? 2 * k
			 : top <= 4 * k ? 4 * k
					: 10 * k;
		p.ymin = -p.ymax;
	}
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"250\" "
		"data-chart=\"%s\">\n",
		HTML_W, residual ? "residuals" : "power");
	{
		double x = 70;

		if (!residual)
			x = svg_legend_item(f, x, 16, C_MEAS, "measured");
		x = svg_legend_item(f, x, 16, C_INIT,
				    fit->fitted_ok ? "initial model" : "model");
		if (fit->fitted_ok)
			svg_legend_item(f, x, 16, C_FIT, "fitted model");
	}
	if (residual)
		snprintf(unit, sizeof(unit), "error per window, %%");
	else
		snprintf(unit, sizeof(unit), "mean power, %s",
			 fit->initial->power_unit);
	svg_axes(f, &p, "time from the first window, s", unit);
	if (residual)
		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#222\" stroke-width=\"0.8\"/>\n",
			p.x, svg_py(&p, 0), p.x + p.w, svg_py(&p, 0));
	else
		polyline(f, &p, fit, idx, n, 0, C_MEAS, "measured", false);
	polyline(f, &p, fit, idx, n, 1, C_INIT, "initial", residual);
	if (fit->fitted_ok)
		polyline(f, &p, fit, idx, n, 2, C_FIT, "fitted", residual);
	fputs("</svg>\n", f);
}

static void err_row(FILE *f, const char *name, size_t nwin, double measured,
		    const struct ea_fit_err *e, const struct ea_fit_err *a)
{
	char b[32];

	fputs("<tr><td>", f);
	svg_esc(f, name);
	fprintf(f,
		"</td><td>%zu</td><td>%s</td><td>%+.2f%%</td><td>%.2f%%</td>",
		nwin, svg_num(b, measured), e->total_pct, e->mae_pct);
	if (a)
		fprintf(f, "<td>%+.2f%%</td><td>%.2f%%</td>", a->total_pct,
			a->mae_pct);
	fputs("</tr>\n", f);
}

static void coefficient_table(FILE *f, const struct ea_fit *fit)
{
	fprintf(f,
		"<h2>Coefficients</h2>\n<p class=\"note\">%.0f%% intervals "
		"from "
		"the residuals; held coefficients keep the initial value.</p>\n"
		"<table><tr><th>key</th><th>initial</th><th>fitted</"
		"th><th>change</th>"
		"<th>interval</th><th>note</th></tr>\n",
		fit->confidence * 100);
	for (int i = 0; i < fit->coefs.n; i++) {
		const struct ea_coef *c = &fit->coefs.c[i];
		const struct ea_fit_coef *fc = &fit->coef[i];

		fputs("<tr><td>", f);
		svg_esc(f, c->key);
		fprintf(f, "</td><td>%.6g</td><td>%.6g</td>", c->initial,
			fc->value);
		if (c->initial > 0 && fc->status == EA_COEF_FITTED)
			fprintf(f, "<td>%+.1f%%</td>",
				(fc->value - c->initial) / c->initial * 100);
		else
			fputs("<td>-</td>", f);
		if (isnan(fc->ci_low))
			fputs("<td>-</td>", f);
		else
			fprintf(f, "<td>[%.6g, %.6g]</td>", fc->ci_low,
				fc->ci_high);
		fputs("<td style=\"text-align:left\">", f);
		if (fc->status == EA_COEF_HELD)
			svg_esc(f, fc->reason);
		else if (fc->at_bound)
			fputs("at a constraint", f);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* `model check` of the fitted model (fit) or of the model (check), as the
 * text gives it. */
static void findings(FILE *f, const struct ea_fit_report *r)
{
	fprintf(f,
		"<h2>Model check of the %smodel</h2>\n<p class=\"note\" "
		"data-errors=\"%d\" data-warnings=\"%d\">%d error%s, %d "
		"warning%s</p>\n",
		r->check ? "" : "fitted ", r->errors, r->warnings, r->errors,
		r->errors == 1 ? "" : "s", r->warnings,
		r->warnings == 1 ? "" : "s");
	if (!r->nfindings)
		return;
	fputs("<ul class=\"notes\" id=\"model-check\">\n", f);
	for (int i = 0; i < r->nfindings; i++) {
		if (r->quiet && r->findings[i].sev != EA_SEV_ERROR)
			continue;
		fprintf(f, "<li>%s: ",
			r->findings[i].sev == EA_SEV_ERROR ? "error"
							   : "warning");
		svg_esc(f, r->findings[i].msg);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
}

void ea_fit_render_html(FILE *f, const struct ea_fit_report *r)
{
	const struct ea_fit *fit = r->fit;
	const struct ea_fit_config *cfg = r->cfg;
	size_t *idx = malloc((fit->nrows ? fit->nrows : 1) * sizeof(*idx));
	struct ea_energy_unit u;
	int charts = 0;

	html_head(f, r->check ? "eatrace model check --measured"
			      : "eatrace model fit");
	fprintf(f, "<h1>%s: ",
		r->check ? "Model against measurement" : "Model fit");
	svg_esc(f, fit->initial->name);
	fputs("</h1>\n<p class=\"meta\">", f);
	svg_esc(f, fit->initial->path ? fit->initial->path : "");
	fprintf(f, ", %zu windows of %d trace%s, %d rail%s", fit->nrows,
		cfg->nin, cfg->nin == 1 ? "" : "s", fit->nrails,
		fit->nrails == 1 ? "" : "s");
	if (fit->fitted_ok)
		fprintf(f, "; %d coefficients fitted, %d held", fit->nfitted,
			fit->nheld);
	/* units named as every page names them (docs/json.md "Units") */
	ea_energy_unit_native(&u, fit->initial->power_unit);
	fputs(". Energy in ", f);
	svg_esc(f, u.energy);
	fputs(", power in ", f);
	svg_esc(f, u.power);
	fputs(".</p>\n", f);
	/* the model the estimates rest on (the fitted one's check: below) */
	html_model_warnings(f, &fit->initial, 1);
	fputs("<h2>Error per "
	      "rail</h2>\n<table><tr><th>rail</th><th>windows</th>"
	      "<th>measured (",
	      f);
	svg_esc(f, u.energy);
	fputs(")</th>", f);
	fprintf(f, "<th>total error%s</th><th>MAE%s</th>",
		fit->fitted_ok ? ", initial" : "",
		fit->fitted_ok ? ", initial" : "");
	if (fit->fitted_ok)
		fputs("<th>total error, fitted</th><th>MAE, fitted</th>", f);
	fputs("</tr>\n", f);
	for (int k = 0; k < fit->nrails; k++)
		err_row(f, fit->rails[k].name, fit->rails[k].nwin,
			fit->rails[k].measured, &fit->rails[k].before,
			fit->fitted_ok ? &fit->rails[k].after : NULL);
	err_row(f, "all", fit->nrows, fit->all_measured, &fit->all_before,
		fit->fitted_ok ? &fit->all_after : NULL);
	fputs("</table>\n<h2>Measured and estimated over time</h2>\n", f);
	for (int i = 0; idx && i < cfg->nin; i++)
		for (int k = 0; k < fit->nrails; k++) {
			size_t n = select_rows(fit, i, k, idx);

			if (!n)
				continue;
			if (++charts > MAX_CHARTS)
				continue;
			fputs("<h3>", f);
			svg_esc(f, cfg->in[i].trace);
			fputs(", rail ", f);
			svg_esc(f, fit->rails[k].name);
			fputs("</h3>\n", f);
			chart(f, r, idx, n, false);
			chart(f, r, idx, n, true);
		}
	if (charts > MAX_CHARTS)
		fprintf(f,
			"<p class=\"note\">%d more traces and rails are not "
			"drawn "
			"(the first %d are).</p>\n",
			charts - MAX_CHARTS, MAX_CHARTS);
	if (fit->fitted_ok)
		coefficient_table(f, fit);
	findings(f, r);
	html_foot(f);
	free(idx);
}
