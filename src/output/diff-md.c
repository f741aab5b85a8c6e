// SPDX-License-Identifier: GPL-2.0-only
/* `eatrace diff -f markdown`: the text report's tables, for review comments. */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

#include "eatrace/diff.h"
#include "eatrace/escape.h"
#include "diff/rows.h"
#include "output/diff-cells.h"

/* A name in a table cell: escaped for the terminal, '|' and '`' (which
 * would end the cell or the code span) as '_'. */
static void md_name(FILE *f, const char *s)
{
	char e[4 * 4096 + 1];

	for (const char *p = ea_esc_term_buf(e, sizeof(e), s); *p; p++)
		fputc(*p == '|' || *p == '`' ? '_' : *p, f);
}

static void md_value(FILE *f, double v, int prec)
{
	if (isnan(v))
		fputs(" n/a |", f);
	else if (prec == 1)
		fprintf(f, " %.1f |", v);
	else
		fprintf(f, " %.6g |", v);
}

static void md_row(FILE *f, struct ea_diff_na *na, const struct ea_diff *d,
		   const char *label, double x, double y, int prec, bool rate)
{
	double pct = ea_diff_pct(x, y);

	fprintf(f, "| %s |", label);
	md_value(f, x, prec);
	md_value(f, y, prec);
	if (isnan(pct))
		fputs(" n/a |\n", f);
	else
		fprintf(f, " %+.2f%% |\n", pct);
	ea_diff_na_row(na, d, label, x, y, rate);
}

/* A share of time (P-state or C-state): "-" where that side's model has
 * no such state; the change in percentage points. */
static void md_share(FILE *f, const char *cluster, const char *state, double x,
		     double y)
{
	fputs("| ", f);
	md_name(f, cluster);
	fputs(state, f);
	fputs(", share of time |", f);
	for (int i = 0; i < 2; i++) {
		double v = i ? y : x;

		if (isnan(v))
			fputs(" - |", f);
		else
			fprintf(f, " %.2f%% |", 100 * v);
	}
	if (isnan(x) || isnan(y))
		fputs(" - |\n", f);
	else
		fprintf(f, " %+.2f pp |\n", 100 * (y - x));
}

static void md_states(FILE *f, const struct ea_diff *d, int c, const char *name)
{
	const struct ea_diff_side *b = &d->side[0], *n = &d->side[1];
	char label[EA_NAME_LEN + 32];
	struct ea_diff_row *rows;
	int nr;

	nr = ea_diff_pstate_rows(d, c, &rows);
	for (int i = 0; i < nr; i++) {
		double x = ea_diff_pstate_mean(b, c, rows[i].k[0]);
		double y = ea_diff_pstate_mean(n, c, rows[i].k[1]);

		if ((x && !isnan(x)) || (y && !isnan(y))) {
			snprintf(label, sizeof(label), " at %u kHz",
				 ea_diff_row_freq(d, c, &rows[i]));
			md_share(f, name, label, x, y);
		}
	}
	free(rows);
	nr = ea_diff_cstate_rows(d, c, &rows);
	for (int i = 0; i < nr; i++) {
		double x = ea_diff_cstate_mean(b, c, rows[i].k[0]);
		double y = ea_diff_cstate_mean(n, c, rows[i].k[1]);
		char st[4 * EA_NAME_LEN + 1];
		const char *p = ea_esc_term_buf(
			st, sizeof(st), ea_diff_row_cstate(d, c, &rows[i]));

		if ((x && !isnan(x)) || (y && !isnan(y))) {
			snprintf(label, sizeof(label), " in %s", p);
			for (char *q = label; *q; q++)
				if (*q == '|' || *q == '`')
					*q = '_';
			md_share(f, name, label, x, y);
		}
	}
	free(rows);
}

/* --models: one row per trace, its ratio (src/diff/paired.c). */
static void md_pairs(FILE *f, const struct ea_diff *d, const char *unit)
{
	const struct ea_diff_side *b = &d->side[0], *n = &d->side[1];
	const struct ea_diff_paired *p = &d->paired;

	fputs("\n| trace (paired) | base (", f);
	md_name(f, unit);
	fputs(") | new (", f);
	md_name(f, unit);
	fputs(") | change |\n|---|---:|---:|---:|\n", f);
	for (int i = 0; i < b->n; i++) {
		const char *why;
		double r;

		fputs("| `", f);
		md_name(f, b->runs[i].path);
		fprintf(f, "` | %.6g | %.6g |", b->runs[i].value,
			n->runs[i].value);
		if (ea_diff_pair_ratio(d, i, &r, &why))
			fprintf(f, " n/a (%s: left out) |\n", why);
		else
			fprintf(f, " %+.2f%% |\n", 100 * (r - 1));
	}
	fprintf(f, "\nln(new / base) over %d trace%s: mean %.6g", p->n,
		p->n == 1 ? "" : "s", p->mean_log);
	if (d->stats)
		fprintf(f, ", sd %.6g, t(%g) = %.6g", p->sd_log, d->df, d->t);
	fputs("; the change is exp(mean) - 1, the geometric mean of the "
	      "ratios.\n",
	      f);
}

void ea_diff_render_markdown(FILE *f, const struct ea_diff *d)
{
	const struct ea_diff_side *b = &d->side[0], *n = &d->side[1];
	struct ea_diff_task_delta *t;
	struct ea_diff_na na = {.n = 0};
	char buf[512], vu[64];
	size_t nt;

	fprintf(f, "### eatrace energy gate: %s\n\n",
		d->fail ? "FAIL"
		: d->verdict == EA_VERDICT_INCONCLUSIVE &&
				d->inconclusive_as == EA_VERDICT_INCONCLUSIVE
			? "INCONCLUSIVE"
			: "PASS");
	fprintf(f, "%s\n\n", ea_diff_verdict_line(d, buf, sizeof(buf)));
	ea_diff_model_warnings(f, d, true);
	ea_diff_value_unit(d, vu, sizeof(vu));
	fputs("| | runs | mean (", f);
	md_name(f, vu);
	fprintf(f, ", by %s) | sd | model |\n|---|---:|---:|---:|---|\n",
		ea_norm_name(d->norm));
	for (int s = 0; s < 2; s++) {
		fprintf(f, "| %s | %d | %.6g | %s%.3g | ", d->side[s].name,
			d->side[s].n, d->side[s].mean,
			d->side[s].n > 1 ? "" : "n/a ",
			d->side[s].n > 1 ? d->side[s].sd : 0);
		md_name(f, d->side[s].model->name);
		fputs(" |\n", f);
	}
	if (d->models_mode)
		md_pairs(f, d, vu);
	fputs("\n| where (mean per run, in ", f);
	md_name(f, vu);
	fputs(") | base | new | change |\n|---|---:|---:|---:|\n", f);
	md_row(f, &na, d, "busy",
	       ea_diff_side_mean(b, offsetof(struct ea_diff_run, busy)),
	       ea_diff_side_mean(n, offsetof(struct ea_diff_run, busy)), 6,
	       false);
	md_row(f, &na, d, "idle",
	       ea_diff_side_mean(b, offsetof(struct ea_diff_run, idle)),
	       ea_diff_side_mean(n, offsetof(struct ea_diff_run, idle)), 6,
	       false);
	md_row(f, &na, d, "wakeups (energy)",
	       ea_diff_side_mean(b, offsetof(struct ea_diff_run, wakeup)),
	       ea_diff_side_mean(n, offsetof(struct ea_diff_run, wakeup)), 6,
	       false);
	md_row(f, &na, d, "idle exits per s", ea_diff_wakeups_mean(b),
	       ea_diff_wakeups_mean(n), 1, true);
	for (int c = 0; c < ea_diff_nclusters(d); c++) {
		const char *other, *name = ea_diff_cluster_name(d, c, &other);
		double x = ea_diff_cluster_mean(b, c),
		       y = ea_diff_cluster_mean(n, c);
		char label[4 * EA_NAME_LEN + 16];

		fputs("| cluster ", f);
		md_name(f, name);
		if (other) {
			fputs(" (new: ", f);
			md_name(f, other);
			fputc(')', f);
		}
		fputs(" |", f);
		/* "-": that side's model has no cluster at this index */
		if (isnan(x) || isnan(y)) {
			fprintf(f,
				isnan(x) ? " - | %.6g | - |\n"
					 : " %.6g | - | - |\n",
				isnan(x) ? y : x);
		} else {
			double pct = ea_diff_pct(x, y);

			if (isnan(pct))
				fprintf(f, " %.6g | %.6g | n/a |\n", x, y);
			else
				fprintf(f, " %.6g | %.6g | %+.2f%% |\n", x, y,
					pct);
			snprintf(label, sizeof(label), "cluster %s", name);
			ea_diff_na_row(&na, d, label, x, y, false);
		}
		md_states(f, d, c, name);
	}
	if (na.n)
		fputc('\n', f);
	for (int i = 0; i < na.n; i++)
		fprintf(f, "n/a: %s  \n", na.line[i]);
	nt = ea_diff_task_deltas(d, &t);
	if (nt)
		fprintf(f, "\n| task | base | new |\n|---|---:|---:|\n");
	for (size_t i = 0; i < nt && i < 5; i++) {
		fputs("| `", f);
		md_name(f, t[i].comm);
		fprintf(f, "` | %.6g | %.6g |\n", t[i].base, t[i].new);
	}
	free(t);
}
