// SPDX-License-Identifier: GPL-2.0-only
/* `eatrace diff --html FILE`: base against new, side by side. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "eatrace/output.h"
#include "diff/rows.h"
#include "output/html-common.h"

#define BH 14.0

/* Pairs of bars, base over new, for each category. */
static void pairs(FILE *f, const char *const *cats, const double *base,
		  const double *new, int n, const char *unit, const char *id)
{
	double scale = 0, y = 30, lx = 10, lw = html_label_w(cats, n);
	char b[32];

	if (lw < 170)	/* the label column fits the longest name */
		lw = 170;
	for (int i = 0; i < n; i++) {
		if (base[i] > scale)
			scale = base[i];
		if (new[i] > scale)
			scale = new[i];
	}
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" "
		"data-chart=\"%s\">\n", HTML_W, 36 + n * (2 * BH + 12), id);
	lx = svg_legend_item(f, lx, 16, "#9aa7b8", "base (mean)");
	svg_legend_item(f, lx, 16, "#e15759", "new (mean)");
	for (int i = 0; i < n; i++) {
		const double v[2] = { base[i], new[i] };

		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", lw - 8, y + BH + 4);
		svg_esc(f, cats[i]);
		fputs("</text>\n", f);
		for (int k = 0; k < 2; k++) {
			double w = scale > 0 ? v[k] / scale * (HTML_W - lw - 260) : 0;

			/* NaN: that side's model has no such cluster (--models
			 * A B with different tables): no bar, said in words */
			if (isnan(v[k])) {
				fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" data-side=\"%s\">"
					"none in this model</text>\n", lw + 6,
					y + k * BH + BH - 3, k ? "new" : "base");
				continue;
			}

			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
				"fill=\"%s\" data-side=\"%s\" data-v=\"%.17g\"><title>",
				lw, y + k * BH, w, BH - 1, k ? "#e15759" : "#9aa7b8",
				k ? "new" : "base", v[k]);
			svg_esc(f, cats[i]);
			fprintf(f, ", %s: %s ", k ? "new" : "base", svg_num(b, v[k]));
			svg_esc(f, unit);
			fputs("</title></rect>\n", f);
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">%s", lw + w + 6,
				y + k * BH + BH - 3, svg_num(b, v[k]));
			if (k && base[i] > 0 && !isnan(new[i]))
				fprintf(f, " (%+.1f%%)", 100 * (new[i] - base[i]) / base[i]);
			fputs("</text>\n", f);
		}
		y += 2 * BH + 12;
	}
	fputs("</svg>\n", f);
}

/* --models: each trace under both models, its ratio (src/diff/paired.c). */
static void pairs_table(FILE *f, const struct ea_diff *d, const char *unit)
{
	const struct ea_diff_side *bs = &d->side[0], *ns = &d->side[1];
	char b[32];

	fputs("<h2>Per trace (paired)</h2>\n<p class=\"note\">The same traces priced by both "
	      "models; the change is the geometric mean of the per-trace ratios, its "
	      "interval Student&#39;s t on their logarithms.</p>\n", f);
	fputs("<table data-table=\"pairs\">\n<tr><th>trace</th><th>base (", f);
	svg_esc(f, unit);
	fputs(")</th><th>new (", f);
	svg_esc(f, unit);
	fputs(")</th><th>change</th></tr>\n", f);
	for (int i = 0; i < bs->n; i++) {
		const char *why;
		double r;

		fputs("<tr><td>", f);
		svg_esc(f, bs->runs[i].path);
		fprintf(f, "</td><td data-v=\"%.17g\">%s</td>", bs->runs[i].value,
			svg_num(b, bs->runs[i].value));
		fprintf(f, "<td data-v=\"%.17g\">%s</td>", ns->runs[i].value,
			svg_num(b, ns->runs[i].value));
		if (ea_diff_pair_ratio(d, i, &r, &why)) {
			fputs("<td>n/a: ", f);
			svg_esc(f, why);
			fputs(" (left out)</td></tr>\n", f);
		} else {
			fprintf(f, "<td data-ratio=\"%.17g\">%+.2f%%</td></tr>\n", r,
				100 * (r - 1));
		}
	}
	fputs("</table>\n", f);
}

void ea_diff_render_html(FILE *f, const struct ea_diff *d)
{
	const struct ea_diff_side *bs = &d->side[0], *ns = &d->side[1];
	const struct ea_model *m = bs->model;
	int ncl = ea_diff_nclusters(d);
	char cname[EA_DIFF_MAX_CLUSTERS][2 * EA_NAME_LEN + 16];
	int n = 4 + ncl;
	const char *cats[4 + EA_DIFF_MAX_CLUSTERS];
	double base[4 + EA_DIFF_MAX_CLUSTERS], new[4 + EA_DIFF_MAX_CLUSTERS];
	struct ea_diff_task_delta *td = NULL;
	const struct ea_model *models[2] = { bs->model, ns->model };
	size_t ntd;
	char unit[64], b[32];
	static const size_t off[4] = {
		offsetof(struct ea_diff_run, value), offsetof(struct ea_diff_run, busy),
		offsetof(struct ea_diff_run, idle), offsetof(struct ea_diff_run, wakeup),
	};
	static const char *const names[4] = { "total (normalised)", "busy", "idle", "wakeups" };

	ea_diff_value_unit(d, unit, sizeof(unit));
	html_head(f, "eatrace diff");
	fprintf(f, "<h1>Energy change: base against new</h1>\n<p class=\"meta\">%d base "
		"run(s), %d new run(s), model <code>", bs->n, ns->n);
	svg_esc(f, m->name);
	fprintf(f, "</code>, normalisation <code>%s</code> (", ea_norm_name(d->norm));
	svg_esc(f, unit);
	fputs(").</p>\n", f);
	html_model_warnings(f, models, 2);
	fputs("<div class=\"cards\">\n", f);
	fprintf(f, "<div class=\"card\" data-change-pct=\"%.17g\"><b>%+.2f%%</b><span>%s</span></div>\n",
		d->change_pct, d->change_pct,
		d->models_mode ? "change: the geometric mean of the per-trace ratios"
			       : "change of the mean");
	if (d->stats && d->models_mode)
		fprintf(f, "<div class=\"card\" data-ci-low-pct=\"%.17g\" data-ci-high-pct=\"%.17g\">"
			"<b>%+.2f%% to %+.2f%%</b><span>%g%% confidence interval (paired: t on "
			"the log ratios of %d traces)</span></div>\n", d->ci_low_pct,
			d->ci_high_pct, d->ci_low_pct, d->ci_high_pct, 100 * d->confidence,
			d->paired.n);
	else if (d->stats)
		fprintf(f, "<div class=\"card\"><b>%+.2f%% to %+.2f%%</b><span>%g%% confidence "
			"interval (Welch)</span></div>\n", d->ci_low_pct, d->ci_high_pct,
			100 * d->confidence);
	else if (d->models_mode)
		fputs("<div class=\"card\"><b>n/a</b><span>confidence interval (needs 2+ traces "
		      "with a ratio)</span></div>\n", f);
	else
		fputs("<div class=\"card\"><b>n/a</b><span>confidence interval (needs 2+ runs "
		      "a side)</span></div>\n", f);
	fprintf(f, "<div class=\"card\"><b>%s</b><span>gate: max increase %s%%</span></div>\n",
		ea_verdict_name(d->verdict), svg_num(b, d->max_increase_pct));
	fputs("</div>\n", f);

	/* Normalised means, as the text report gives them. */
	for (int i = 0; i < 4; i++) {
		cats[i] = names[i];
		base[i] = ea_diff_side_mean(bs, off[i]);
		new[i] = ea_diff_side_mean(ns, off[i]);
	}
	for (int c = 0; c < ncl; c++) {
		const char *other, *name = ea_diff_cluster_name(d, c, &other);

		/* clusters paired by index: both names when they differ */
		snprintf(cname[c], sizeof(cname[c]), "%s%s%s", name,
			 other ? " / " : "", other ? other : "");
		cats[4 + c] = cname[c];
		base[4 + c] = ea_diff_cluster_mean(bs, c);
		new[4 + c] = ea_diff_cluster_mean(ns, c);
	}
	html_diff_runs(f, d);
	if (d->models_mode)
		pairs_table(f, d, unit);
	fputs("<h2>Where it changed</h2>\n<p class=\"note\">Means over the runs of each side, in ", f);
	svg_esc(f, unit);
	fputs(".</p>\n", f);
	pairs(f, cats, base, new, n, unit, "sides");

	ntd = ea_diff_task_deltas(d, &td);
	if (ntd) {
		int k = ntd > 12 ? 12 : (int)ntd;
		const char *tc[12];
		double tb[12], tn[12];

		for (int i = 0; i < k; i++) {
			tc[i] = td[i].comm;
			tb[i] = td[i].base;
			tn[i] = td[i].new;
		}
		fputs("<h2>Tasks whose energy moved most</h2>\n", f);
		pairs(f, tc, tb, tn, k, unit, "tasks");
	}
	free(td);
	html_foot(f);
}
