// SPDX-License-Identifier: GPL-2.0-only
/*
 * Pieces shared by the HTML reports: page frame and style, power-over-time
 * charts from a timeline, per-state bars, task bars (docs/html.md).
 * Every drawn value carries its exact figure in a data-* attribute and a
 * <title> tooltip, so tests (and curious readers) can check the pictures.
 */
#include <stdlib.h>
#include <string.h>

#include "eatrace/model-verdict.h"
#include "eatrace/output.h"
#include "output/html-common.h"

#define MAX_BINS 300	/* drawn buckets per chart */
#define LABEL_W 150.0
#define VALUE_W 260.0
#define ROW_H 20.0
#define ROW_GAP 6.0

static const char style[] =
	"body{font:14px/1.4 system-ui,-apple-system,'Segoe UI',sans-serif;"
	"margin:24px auto;max-width:1140px;color:#222;background:#fff}\n"
	"h1{font-size:24px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 4px;"
	"border-bottom:1px solid #ddd;padding-bottom:4px}\n"
	"h3{font-size:15px;margin:16px 0 2px}\n"
	".meta{color:#555;margin:0 0 12px}.note{color:#555;font-size:13px;margin:2px 0 6px}\n"
	".cards{display:flex;flex-wrap:wrap;gap:12px;margin:12px 0}\n"
	".card{border:1px solid #ddd;border-radius:6px;padding:8px 14px;min-width:140px}\n"
	".card b{display:block;font-size:20px}.card span{color:#555;font-size:12px}\n"
	"svg{display:block;margin:4px 0 8px}\n"
	"svg text{font:12px system-ui,sans-serif;fill:#333}\n"
	"svg .label{font-size:13px;fill:#222}\n"
	"svg .axis line{stroke:#888;stroke-width:1}\n"
	"svg .axis line.grid{stroke:#e4e4e4}\n"
	"svg .hit{fill:transparent}svg .hit:hover{fill:rgba(0,0,0,.08)}\n"
	"svg text.in{font-size:11px}svg text.light{fill:#fff}\n"
	"table{border-collapse:collapse;margin:8px 0}"
	"td,th{border:1px solid #ddd;padding:3px 8px;text-align:right}"
	"th{background:#f4f4f4}td:first-child,th:first-child{text-align:left}\n"
	"td.better{color:#1a7f37}td.worse{color:#b42318}\n"
	".warn{border:1px solid #b42318;background:#fdecea;color:#7a1a12;"
	"border-radius:6px;padding:8px 14px;margin:12px 0}\n"
	".headline{font-size:15px;margin:8px 0}\n"
	"ul.notes li{margin:2px 0}\n"
	".side{display:flex;flex-wrap:wrap;gap:16px}\n";

void html_head(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
	      "<meta name=\"generator\" content=\"eatrace\"/>\n<title>", f);
	svg_esc(f, title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", style);
}

void html_foot(FILE *f)
{
	fputs("<p class=\"note\">Written by eatrace. Hover a bar or a column of a "
	      "chart for its exact figures.</p>\n</body>\n</html>\n", f);
}

const char *html_e(char *buf, const struct ea_energy_unit *u, ea_energy_t e)
{
	return ea_eu_fmt(buf, u, e);
}

/* Characters (UTF-8 code points) of s. */
static int chars(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* About the widest a 13 px system-ui character is (capitals, digits). */
#define CHAR_W 7.8

double html_label_w(const char *const *labels, int n)
{
	double w = LABEL_W;

	for (int i = 0; i < n; i++)
		if (labels[i] && CHAR_W * chars(labels[i]) + 16 > w)
			w = CHAR_W * chars(labels[i]) + 16;
	return w < HTML_W / 2 ? w : HTML_W / 2;
}

static void warn_note(void *arg, const char *kind, const char *msg)
{
	FILE *f = arg;

	fputs("<p class=\"warn\" data-model-check=\"fail\"><b>Warning:</b> ", f);
	svg_esc(f, msg);
	fputs(".</p>\n", f);
}

void html_model_warnings(FILE *f, const struct ea_model *const *models, int n)
{
	ea_model_verdict_notes(models, n, warn_note, f);
}

/* Buckets grouped g at a time for drawing. */
static size_t bins(const struct ea_timeline *t, size_t *g)
{
	*g = (t->nbuckets + MAX_BINS - 1) / MAX_BINS;
	if (!*g)
		*g = 1;
	return (t->nbuckets + *g - 1) / *g;
}

static void bin_span(const struct ea_timeline *t, size_t g, size_t i,
		     uint64_t *t0, uint64_t *t1)
{
	uint64_t a, b;
	size_t last = (i + 1) * g - 1;

	if (last >= t->nbuckets)
		last = t->nbuckets - 1;
	ea_timeline_bucket(t, i * g, t0, &a);
	ea_timeline_bucket(t, last, &b, t1);
}

static ea_energy_t bin_e(const struct ea_timeline *t, size_t g, size_t i, int col)
{
	ea_energy_t e = 0;

	for (size_t b = i * g; b < (i + 1) * g && b < t->nbuckets; b++)
		e += ea_timeline_at(t, b, col);
	return e;
}

/* Mean power over [t0, t1) of energy e, in u's unit of power. */
static double power_of(const struct ea_energy_unit *u, ea_energy_t e, uint64_t t0,
		       uint64_t t1)
{
	return t1 > t0 ? ea_eu_energy(u, e) / ((double)(t1 - t0) / 1e9) : 0;
}

double html_power_chart(FILE *f, const char *id, const struct ea_timeline *t,
			const int *cols, const char *const *names,
			const char *const *colors, int n,
			const struct ea_energy_unit *u, double ymax, int height)
{
	const char *power_unit = u->power;
	size_t g, nb = bins(t, &g);
	double *x = calloc(nb + 1, sizeof(*x));
	double *v = calloc(nb * (n ? n : 1), sizeof(*v));
	struct svg_plot p = { 72, 40, HTML_W - 92, height - 90, 0, 0, 0, 0 };
	double peak = 0, lx = p.x;
	char ylabel[64], b1[EA_EU_BUF], b2[64];
	uint64_t t0, t1;

	if (!x || !v) {
		free(x);
		free(v);
		return ymax;
	}
	for (size_t i = 0; i < nb; i++) {
		double sum = 0;

		bin_span(t, g, i, &t0, &t1);
		x[i] = (double)(t0 - t->start) / 1e9;
		x[i + 1] = (double)(t1 - t->start) / 1e9;
		for (int s = 0; s < n; s++) {
			v[s * nb + i] = power_of(u, bin_e(t, g, i, cols[s]), t0, t1);
			sum += v[s * nb + i];
		}
		if (sum > peak)
			peak = sum;
	}
	if (!(ymax > 0))
		ymax = svg_nice_max(peak);
	p.xmax = x[nb] > 0 ? x[nb] : 1;
	p.ymax = ymax;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" role=\"img\" data-chart=\"%s\" data-bin-s=\"%s\">\n",
		HTML_W, height, HTML_W, height, id,
		ea_fmt_s(b1, nb ? (uint64_t)(t->width * g) : 0));
	for (int s = 0; s < n; s++)
		lx = svg_legend_item(f, lx, 20, colors[s], names[s]);
	snprintf(ylabel, sizeof(ylabel), "power (%s)", power_unit);
	svg_axes(f, &p, "time since the start of the window (s)", ylabel);
	svg_stack(f, &p, x, v, n, (int)nb, colors);
	/* Hover columns with the exact energies of each bin. */
	for (size_t i = 0; i < nb; i++) {
		double sum = 0;

		bin_span(t, g, i, &t0, &t1);
		fprintf(f, "<rect class=\"hit\" x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
			"data-t0=\"%s\" data-t1=\"%s\" data-e=\"",
			svg_px(&p, x[i]), p.y, svg_px(&p, x[i + 1]) - svg_px(&p, x[i]),
			p.h, ea_fmt_s(b1, t0 - t->start), ea_fmt_s(b2, t1 - t->start));
		for (int s = 0; s < n; s++)
			fprintf(f, "%s%s", s ? " " : "", html_e(b1, u, bin_e(t, g, i, cols[s])));
		fprintf(f, "\"><title>%s to %s s", svg_num(b1, x[i]), svg_num(b2, x[i + 1]));
		for (int s = n - 1; s >= 0; s--) {
			fputs("\n", f);
			svg_esc(f, names[s]);
			fprintf(f, ": %s ", svg_num(b1, v[s * nb + i]));
			svg_esc(f, power_unit);
			sum += v[s * nb + i];
		}
		fprintf(f, "\ntotal: %s ", svg_num(b1, sum));
		svg_esc(f, power_unit);
		fputs("</title></rect>\n", f);
	}
	fputs("</svg>\n", f);
	fprintf(f, "<p class=\"note\">Mean power over bins of %s ms (energy in the bin / its length).</p>\n",
		svg_num(b1, (double)t->width * (double)g / 1e6));
	free(x);
	free(v);
	return ymax;
}

double html_timeline_peak(const struct ea_timeline *t, bool cpus,
			  const struct ea_energy_unit *u)
{
	size_t g, nb = bins(t, &g);
	double peak = 0;
	uint64_t t0, t1;

	for (size_t i = 0; i < nb; i++) {
		double sum = 0;

		bin_span(t, g, i, &t0, &t1);
		for (int c = cpus ? 0 : t->ncpus; c < (cpus ? t->ncpus : t->ncols); c++)
			sum += power_of(u, bin_e(t, g, i, c), t0, t1);
		if (sum > peak)
			peak = sum;
	}
	return peak;
}

void html_timeline_charts(FILE *f, const struct ea_timeline *t, const char *id,
			  const struct ea_energy_unit *u, double ymax_cl,
			  double ymax_cpu)
{
	const struct ea_model *m = t->acct->model;
	int n = t->ncols, ncl = 0, ncpu = 0;
	int *cols = calloc(n, sizeof(*cols));
	const char **names = calloc(n, sizeof(*names));
	const char **colors = calloc(n, sizeof(*colors));
	char (*lab)[EA_NAME_LEN + 24] = calloc(n, sizeof(*lab));
	char (*col)[8] = calloc(n, sizeof(*col));
	char cid[64];

	if (!cols || !names || !colors || !lab || !col)
		goto out;
	for (int i = 0; i < m->nclusters; i++) {
		cols[ncl] = t->ncpus + i;
		snprintf(lab[ncl], sizeof(lab[0]), "%s", m->clusters[i].name);
		names[ncl] = lab[ncl];
		colors[ncl] = svg_cat(i);
		ncl++;
	}
	fputs("<h3>By cluster (stacked)</h3>\n", f);
	snprintf(cid, sizeof(cid), "%s-clusters", id);
	html_power_chart(f, cid, t, cols, names, colors, ncl, u, ymax_cl, 300);

	/* CPUs, grouped by cluster: shades of the cluster's colour. */
	for (int i = 0; i < m->nclusters; i++) {
		const struct ea_cluster *cl = &m->clusters[i];
		int k = 0;

		for (int j = 0; j < cl->ncpus; j++) {
			int c = cl->cpus[j];
			unsigned r, gg, b;

			if (c >= t->acct->trace_ncpus || !ea_acct_cpu_selected(t->acct, c))
				continue;
			cols[ncpu] = c;
			snprintf(lab[ncpu], sizeof(lab[0]), "CPU %d (%s)", c, cl->name);
			names[ncpu] = lab[ncpu];
			sscanf(svg_cat(i), "#%2x%2x%2x", &r, &gg, &b);
			/* from darker to lighter than the cluster's colour */
			if (cl->ncpus > 1) {
				int pc = -35 + 90 * k / (cl->ncpus - 1);	/* percent */

				r = pc < 0 ? r * (100 + pc) / 100 : r + (255 - r) * pc / 100;
				gg = pc < 0 ? gg * (100 + pc) / 100 : gg + (255 - gg) * pc / 100;
				b = pc < 0 ? b * (100 + pc) / 100 : b + (255 - b) * pc / 100;
			}
			snprintf(col[ncpu], sizeof(col[0]), "#%02x%02x%02x", r, gg, b);
			colors[ncpu] = col[ncpu];
			ncpu++;
			k++;
		}
	}
	fputs("<h3>By CPU (stacked; each CPU carries its share of its cluster's power)</h3>\n", f);
	snprintf(cid, sizeof(cid), "%s-cpus", id);
	html_power_chart(f, cid, t, cols, names, colors, ncpu, u, ymax_cpu, 320);
out:
	free(cols);
	free(names);
	free(colors);
	free(lab);
	free(col);
}

/* ---- horizontal stacked bars ---- */

struct seg {
	const char *kind;	/* pstate, cstate, busy, idle, wakeup */
	int index;
	double v;		/* for drawing */
	const char *exact;	/* data-v */
	char color[8];
	char label[48];		/* short, drawn inside when it fits */
	char tip[256];
};

/* A row of bars after a label column lw px wide. */
static void bar_row(FILE *f, double lw, double y, const char *label, const char *attrs,
		    const struct seg *s, int n, double scale, const char *value)
{
	double x = lw, total = 0;

	for (int i = 0; i < n; i++)
		total += s[i].v;
	fprintf(f, "<g %s>\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", attrs,
		lw - 8, y + ROW_H * 0.7);
	svg_esc(f, label);
	fputs("</text>\n", f);
	for (int i = 0; i < n; i++) {
		double w = scale > 0 ? s[i].v / scale * (HTML_W - lw - VALUE_W) : 0;
		char pct[32];

		snprintf(pct, sizeof(pct), "%.1f%%", total > 0 ? 100 * s[i].v / total : 0);
		fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\" "
			"data-kind=\"%s\" data-index=\"%d\" data-v=\"%s\"><title>",
			x, y, w, ROW_H, s[i].color, s[i].kind, s[i].index, s[i].exact);
		svg_esc(f, s[i].tip);
		fprintf(f, " (%s of the row)</title></rect>\n", pct);
		if (w > 7.0 * (double)strlen(s[i].label) + 6 && s[i].label[0]) {
			unsigned r, g, b;

			sscanf(s[i].color, "#%2x%2x%2x", &r, &g, &b);
			fprintf(f, "<text class=\"in%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
				0.299 * r + 0.587 * g + 0.114 * b < 140 ? " light" : "",
				x + w / 2, y + ROW_H * 0.7);
			svg_esc(f, s[i].label);
			fputs("</text>\n", f);
		}
		x += w;
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", x + 6, y + ROW_H * 0.7);
	svg_esc(f, value);
	fputs("</text>\n</g>\n", f);
}

static void freq_label(char *buf, size_t n, uint32_t khz)
{
	if (khz >= 1000 && khz % 1000 == 0)
		snprintf(buf, n, "%u MHz", khz / 1000);
	else
		snprintf(buf, n, "%.1f MHz", khz / 1000.0);
}

void html_state_bars(FILE *f, const struct ea_acct *a, bool energy, const char *id,
		     const struct ea_energy_unit *u)
{
	const struct ea_model *m = a->model;
	double scale = 0;
	const char *eu = u->energy;
	char ex[64], b[64];

	for (int i = 0; i < a->trace_ncpus && i < a->ncpus; i++) {
		double v = energy ? ea_eu_energy(u, ea_energy_total(&a->cpus[i].e)) :
			   (double)(a->cpus[i].busy_ns + a->cpus[i].idle_ns) / 1e9;

		if (v > scale && ea_acct_cpu_selected(a, i))
			scale = v;
	}
	for (int ci = 0; ci < m->nclusters; ci++) {
		const struct ea_cluster *cl = &m->clusters[ci];
		int nseg = cl->ncaps + cl->nidles, rows = 0;
		struct seg *s;
		char (*exact)[EA_EU_BUF];
		double lx = 10, y;

		if (!ea_acct_cluster_selected(a, ci))	/* --cpus */
			continue;
		s = calloc(nseg, sizeof(*s));
		exact = calloc(nseg, sizeof(*exact));
		if (!s || !exact) {
			free(s);
			free(exact);
			return;
		}
		for (int j = 0; j < cl->ncpus; j++)
			rows += cl->cpus[j] < a->trace_ncpus && ea_acct_cpu_selected(a, cl->cpus[j]);
		rows += !energy;
		fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" "
			"data-chart=\"", HTML_W, 50 + rows * (ROW_H + ROW_GAP));
		/* names from a model: escaped like any attribute value */
		svg_esc(f, id);
		fputc('-', f);
		svg_esc(f, cl->name);
		fputs("\" data-cluster=\"", f);
		svg_esc(f, cl->name);
		fputs("\">\n<text class=\"label\" x=\"10\" y=\"16\">", f);
		svg_esc(f, cl->name);
		fputs(energy ? " (busy at each OPP, idle in each C-state):</text>\n" :
		      " (time busy at each OPP, idle in each C-state):</text>\n", f);
		/* legend */
		for (int k = 0; k < cl->ncaps; k++) {
			svg_warm(b, k, cl->ncaps);
			freq_label(ex, sizeof(ex), cl->caps[k].freq_khz);
			lx = svg_legend_item(f, lx, 38, b, ex);
		}
		for (int k = 0; k < cl->nidles; k++) {
			svg_cool(b, k, cl->nidles);
			lx = svg_legend_item(f, lx, 38, b, cl->idles[k].name);
		}
		y = 48;
		for (int r = 0; r < rows; r++) {
			const struct ea_pstate_acct *ps;
			const struct ea_cstate_acct *cs;
			char label[64], attrs[96], value[64];
			int cpu = -1;
			double tot = 0;

			if (r < rows - !energy) {
				int seen = 0;

				for (int j = 0; j < cl->ncpus; j++)
					if (cl->cpus[j] < a->trace_ncpus &&
					    ea_acct_cpu_selected(a, cl->cpus[j]) && seen++ == r)
						cpu = cl->cpus[j];
				ps = a->cpus[cpu].pstates;
				cs = a->cpus[cpu].cstates;
				snprintf(label, sizeof(label), "CPU %d", cpu);
				snprintf(attrs, sizeof(attrs), "data-cpu=\"%d\"", cpu);
			} else {
				ps = a->clusters[ci].pstates;
				cs = a->clusters[ci].cstates;
				snprintf(label, sizeof(label), "whole cluster");
				snprintf(attrs, sizeof(attrs), "data-cluster-row=\"%d\"", ci);
			}
			for (int k = 0; k < nseg; k++) {
				bool p = k < cl->ncaps;
				int idx = p ? k : k - cl->ncaps;
				char what[48];

				s[k].kind = p ? "pstate" : "cstate";
				s[k].index = idx;
				if (p)
					freq_label(what, sizeof(what), cl->caps[idx].freq_khz);
				else
					snprintf(what, sizeof(what), "%.40s", cl->idles[idx].name);
				if (p)
					svg_warm(s[k].color, idx, cl->ncaps);
				else
					svg_cool(s[k].color, idx, cl->nidles);
				if (energy) {
					ea_energy_t e = p ? ps[idx].energy : cs[idx].energy;

					s[k].v = ea_eu_energy(u, e);
					html_e(exact[k], u, e);
					snprintf(s[k].tip, sizeof(s[k].tip), "%s %s: %s %s%s",
						 label, what, svg_num(b, s[k].v), eu,
						 p ? "" : " (idle power and wakeups from this state)");
				} else {
					uint64_t ns = p ? ps[idx].ns : cs[idx].ns;

					s[k].v = (double)ns / 1e9;
					ea_fmt_s(exact[k], ns);
					snprintf(s[k].tip, sizeof(s[k].tip), "%s %s %s: %s s",
						 label, p ? "busy at" : "idle in", what,
						 svg_num(b, s[k].v));
				}
				s[k].exact = exact[k];
				snprintf(s[k].label, sizeof(s[k].label), "%s", what);
				tot += s[k].v;
			}
			if (energy)
				snprintf(value, sizeof(value), "%s %s", svg_num(b, tot), eu);
			else
				snprintf(value, sizeof(value), "%s s", svg_num(b, tot));
			bar_row(f, LABEL_W, y, label, attrs, s, nseg, scale, value);
			y += ROW_H + ROW_GAP;
		}
		fputs("</svg>\n", f);
		free(s);
		free(exact);
	}
}

static void split_segs(struct seg *s, char (*exact)[EA_EU_BUF], const struct ea_energy *e,
		       const char *who, const struct ea_energy_unit *u)
{
	const char *eu = u->energy;
	static const char *const kinds[3] = { "busy", "idle", "wakeup" };
	static const char *const colors[3] = { "#e15759", "#4e79a7", SVG_WAKE };
	ea_energy_t v[3] = { ea_energy_busy(e), ea_energy_idle(e), ea_energy_wakeup(e) };
	char b[32];

	for (int k = 0; k < 3; k++) {
		s[k].kind = kinds[k];
		s[k].index = k;
		s[k].v = ea_eu_energy(u, v[k]);
		s[k].exact = html_e(exact[k], u, v[k]);
		snprintf(s[k].color, sizeof(s[k].color), "%s", colors[k]);
		snprintf(s[k].label, sizeof(s[k].label), "%s", kinds[k]);
		snprintf(s[k].tip, sizeof(s[k].tip), "%s %s: %s %s", who, kinds[k],
			 svg_num(b, s[k].v), eu);
	}
}

void html_split_bars(FILE *f, const struct ea_acct *a, const char *id,
		     const struct ea_energy_unit *u)
{
	const struct ea_model *m = a->model;
	double scale = ea_eu_energy(u, ea_energy_total(&a->total)), y, lx = 10, lw;
	struct seg s[3];
	const char *eu = u->energy;
	char exact[3][EA_EU_BUF], b[32], label[80], attrs[64], value[64];

	memset(s, 0, sizeof(s));
	lw = LABEL_W;
	for (int i = 0; i < m->nclusters; i++) {
		const char *name = m->clusters[i].name;

		if (html_label_w(&name, 1) > lw)
			lw = html_label_w(&name, 1);
	}
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" "
		"data-chart=\"%s\">\n", HTML_W, 30 + (m->nclusters + 1) * (ROW_H + ROW_GAP), id);
	lx = svg_legend_item(f, lx, 16, "#e15759", "busy (core + cluster)");
	lx = svg_legend_item(f, lx, 16, "#4e79a7", "idle (core + cluster)");
	svg_legend_item(f, lx, 16, SVG_WAKE, "wakeups (idle exits)");
	y = 26;
	split_segs(s, exact, &a->total, "all CPUs", u);
	snprintf(value, sizeof(value), "%s %s", svg_num(b, scale), eu);
	bar_row(f, lw, y, "all CPUs", "data-total=\"1\"", s, 3, scale, value);
	for (int i = 0; i < m->nclusters; i++) {
		y += ROW_H + ROW_GAP;
		snprintf(label, sizeof(label), "%s", m->clusters[i].name);
		snprintf(attrs, sizeof(attrs), "data-cluster-index=\"%d\"", i);
		split_segs(s, exact, &a->clusters[i].e, label, u);
		snprintf(value, sizeof(value), "%s %s",
			 svg_num(b, ea_eu_energy(u, ea_energy_total(&a->clusters[i].e))), eu);
		bar_row(f, lw, y, label, attrs, s, 3, scale, value);
	}
	fputs("</svg>\n", f);
}

void html_task_bars(FILE *f, const struct ea_acct *a, int n, const char *id,
		    const struct ea_energy_unit *u)
{
	const struct ea_task_acct **t = ea_acct_tasks_by_energy(a);
	double scale;
	const char *eu = u->energy;
	char exact[3][EA_EU_BUF], b[32], label[64], attrs[128], value[96], rt[32];
	struct seg s[3];
	double y, lx = 10, lw = LABEL_W;

	if (!t)
		return;
	memset(s, 0, sizeof(s));
	if ((size_t)n > a->ntasks)
		n = (int)a->ntasks;
	scale = n ? ea_eu_energy(u, ea_energy_total(&t[0]->e)) : 0;
	/* the label column fits the longest "comm (pid)" */
	for (int i = 0; i < n; i++) {
		const char *l = label;

		snprintf(label, sizeof(label), "%s (%d)", t[i]->comm, t[i]->pid);
		if (html_label_w(&l, 1) > lw)
			lw = html_label_w(&l, 1);
	}
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" "
		"data-chart=\"%s\">\n", HTML_W, 30 + n * (ROW_H + ROW_GAP), id);
	lx = svg_legend_item(f, lx, 16, "#e15759", "busy");
	lx = svg_legend_item(f, lx, 16, "#4e79a7", "idle (the idle task)");
	svg_legend_item(f, lx, 16, SVG_WAKE, "wakeups it paid");
	y = 26;
	for (int i = 0; i < n; i++) {
		snprintf(label, sizeof(label), "%s (%d)", t[i]->comm, t[i]->pid);
		snprintf(attrs, sizeof(attrs), "data-pid=\"%d\" data-energy=\"%s\"",
			 t[i]->pid, html_e(exact[0], u, ea_energy_total(&t[i]->e)));
		split_segs(s, exact, &t[i]->e, label, u);
		snprintf(value, sizeof(value), "%s %s, ran %s s, %llu wakeups",
			 svg_num(b, ea_eu_energy(u, ea_energy_total(&t[i]->e))), eu,
			 svg_num(rt, (double)t[i]->runtime_ns / 1e9),
			 (unsigned long long)t[i]->wakeups);
		bar_row(f, lw, y, label, attrs, s, 3, scale, value);
		y += ROW_H + ROW_GAP;
	}
	fputs("</svg>\n", f);
	free(t);
}

void html_compare_bars(FILE *f, const struct ea_energy *const *e,
		       const char *const *names, const double *delta_pct, int n,
		       const struct ea_energy_unit *u, const char *id)
{
	double scale = 0, y, lx = 10, lw = html_label_w(names, n);
	const char *eu = u->energy;
	char exact[3][EA_EU_BUF], b[32], attrs[128], value[96], ex[EA_EU_BUF];
	struct seg s[3];

	memset(s, 0, sizeof(s));
	for (int i = 0; i < n; i++)
		if (e[i] && ea_eu_energy(u, ea_energy_total(e[i])) > scale)
			scale = ea_eu_energy(u, ea_energy_total(e[i]));
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" "
		"data-chart=\"%s\">\n", HTML_W, 30 + n * (ROW_H + ROW_GAP), id);
	lx = svg_legend_item(f, lx, 16, "#e15759", "busy");
	lx = svg_legend_item(f, lx, 16, "#4e79a7", "idle");
	svg_legend_item(f, lx, 16, SVG_WAKE, "wakeups");
	y = 26;
	for (int i = 0; i < n; i++) {
		if (!e[i])
			continue;
		snprintf(attrs, sizeof(attrs), "data-run=\"%d\" data-energy=\"%s\"", i,
			 html_e(ex, u, ea_energy_total(e[i])));
		split_segs(s, exact, e[i], names[i], u);
		if (delta_pct && delta_pct[i] == delta_pct[i])
			snprintf(value, sizeof(value), "%s %s (%+.1f%%)",
				 svg_num(b, ea_eu_energy(u, ea_energy_total(e[i]))), eu,
				 delta_pct[i]);
		else
			snprintf(value, sizeof(value), "%s %s",
				 svg_num(b, ea_eu_energy(u, ea_energy_total(e[i]))), eu);
		bar_row(f, lw, y, names[i], attrs, s, 3, scale, value);
		y += ROW_H + ROW_GAP;
	}
	fputs("</svg>\n", f);
}
