// SPDX-License-Identifier: GPL-2.0-only
/* `eatrace diff` for people: the verdict line, the text report, and the
 * n/a cells it shares with the Markdown form (src/output/diff-cells.h). */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

#include "eatrace/diff.h"
#include "eatrace/escape.h"
#include "eatrace/model-verdict.h"
#include "diff/rows.h"
#include "output/diff-cells.h"

static const char *const word[] = {
	[EA_VERDICT_PASS] = "PASS",
	[EA_VERDICT_FAIL] = "FAIL",
	[EA_VERDICT_INCONCLUSIVE] = "INCONCLUSIVE",
};

/* --models A B: the paired figures (src/diff/paired.c). */
static const char *paired_line(const struct ea_diff *d, char *buf, size_t n,
			       const char *counted)
{
	const struct ea_diff_paired *p = &d->paired;
	char more[160];

	if (d->verdict == EA_VERDICT_INCONCLUSIVE) {
		if (p->traces_needed)
			snprintf(more, sizeof(more), "; %d traces would resolve a change of this size at this spread of per-trace ratios",
				 p->traces_needed);
		else
			snprintf(more, sizeof(more), "; the change is at the threshold: no number of traces would resolve it");
		snprintf(buf, n, "INCONCLUSIVE%s: energy %+.2f%% (paired, %d traces: %.0f%% CI %+.2f%% .. %+.2f%%) straddles the threshold %+.2f%%: price more traces%s",
			 counted, d->change_pct, p->n, 100 * d->confidence,
			 d->ci_low_pct, d->ci_high_pct, d->max_increase_pct, more);
	} else if (d->stats) {
		snprintf(buf, n, "%s: energy %+.2f%% (paired, %d traces: %.0f%% CI %+.2f%% .. %+.2f%%), threshold %+.2f%%",
			 word[d->verdict], d->change_pct, p->n, 100 * d->confidence,
			 d->ci_low_pct, d->ci_high_pct, d->max_increase_pct);
	} else {
		snprintf(buf, n, "%s: energy %+.2f%%, threshold %+.2f%% (paired, one trace with a ratio: no confidence interval)",
			 word[d->verdict], d->change_pct, d->max_increase_pct);
	}
	return buf;
}

void ea_diff_model_warnings(FILE *f, const struct ea_diff *d, bool markdown)
{
	const struct ea_model *models[2] = { d->side[0].model, d->side[1].model };
	char msg[512], e[4 * sizeof(msg) + 1];

	for (int i = 0; i < 2; i++)
		if ((!i || models[1] != models[0]) &&
		    ea_model_verdict_msg(models[i], msg, sizeof(msg)))
			fprintf(f, markdown ? "> **warning**: %s\n\n" : "warning: %s\n",
				ea_esc_term_buf(e, sizeof(e), msg));
}

const char *ea_diff_verdict_line(const struct ea_diff *d, char *buf, size_t n)
{
	char counted[32] = "", more[128] = "";

	if (d->verdict == EA_VERDICT_INCONCLUSIVE &&
	    d->inconclusive_as != EA_VERDICT_INCONCLUSIVE)
		snprintf(counted, sizeof(counted), " (counted as %s)",
			 ea_verdict_name(d->inconclusive_as));
	if (d->models_mode)
		return paired_line(d, buf, n, counted);
	if (d->verdict == EA_VERDICT_INCONCLUSIVE) {
		if (d->runs_needed)
			snprintf(more, sizeof(more), "; %d runs per side would resolve a change of this size",
				 d->runs_needed);
		else
			snprintf(more, sizeof(more), "; the change is at the threshold: no number of runs would resolve it");
		snprintf(buf, n, "INCONCLUSIVE%s: energy %+.2f%% (%.0f%% CI %+.2f%% .. %+.2f%%) straddles the threshold %+.2f%%: run more iterations%s",
			 counted, d->change_pct, 100 * d->confidence, d->ci_low_pct,
			 d->ci_high_pct, d->max_increase_pct, more);
	} else if (d->stats) {
		snprintf(buf, n, "%s: energy %+.2f%% (%.0f%% CI %+.2f%% .. %+.2f%%), threshold %+.2f%%",
			 word[d->verdict], d->change_pct,
			 100 * d->confidence, d->ci_low_pct, d->ci_high_pct,
			 d->max_increase_pct);
	} else {
		snprintf(buf, n, "%s: energy %+.2f%%, threshold %+.2f%% (one run on a side: no confidence interval)",
			 word[d->verdict], d->change_pct, d->max_increase_pct);
	}
	return buf;
}

double ea_diff_pct(double a, double b)
{
	if (isnan(a) || isnan(b) || (!a && b))
		return NAN;
	return a ? 100 * (b - a) / a : 0;
}

void ea_diff_na_add(struct ea_diff_na *na, const char *fmt, ...)
{
	va_list ap;

	if (na->n == EA_DIFF_NA_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(na->line[na->n++], sizeof(na->line[0]), fmt, ap);
	va_end(ap);
}

void ea_diff_na_row(struct ea_diff_na *na, const struct ea_diff *d,
		    const char *label, double x, double y, bool rate)
{
	char e[4 * 4096 + 1];

	for (int s = 0; rate && s < 2; s++) {
		const struct ea_diff_run *z = ea_diff_zero_run(&d->side[s]);

		if (z && isnan(s ? y : x))
			ea_diff_na_add(na, "%s, %s: run %s lasts 0 s: it has no rate",
				       label, d->side[s].name,
				       ea_esc_term_buf(e, sizeof(e), z->path));
	}
	if (!isnan(x) && !isnan(y) && !x && y)
		ea_diff_na_add(na, "%s: the base is 0: no change in percent", label);
}

static void share_pair(FILE *f, bool percent, double x, double y)
{
	for (int i = 0; i < 2; i++) {
		double v = i ? y : x;

		if (i)
			fputc(' ', f);
		if (isnan(v))
			fprintf(f, "%14s", "-");
		else if (percent)
			fprintf(f, "%13.2f%%", 100 * v);
		else
			fprintf(f, "%14.6g", v);
	}
}

/* A change column: "%+8.2f%%", or "n/a" (ea_diff_pct()). */
static void change_cell(FILE *f, double pct)
{
	if (isnan(pct))
		fprintf(f, " %9s\n", "n/a");
	else
		fprintf(f, " %+8.2f%%\n", pct);
}

/* A value column: "%14.6g" (prec 6) or "%14.1f" (prec 1), "n/a" for NaN
 * (a rate of a run of 0 s). */
static void value_cell(FILE *f, double v, int prec)
{
	if (isnan(v))
		fprintf(f, " %14s", "n/a");
	else if (prec == 1)
		fprintf(f, " %14.1f", v);
	else
		fprintf(f, " %14.6g", v);
}

/* One "where (mean per run)" row of values x (base) and y (new). */
static void row(FILE *f, struct ea_diff_na *na, const struct ea_diff *d,
		const char *label, double x, double y, int prec, bool rate)
{
	fprintf(f, "%-24s", label);
	value_cell(f, x, prec);
	value_cell(f, y, prec);
	change_cell(f, ea_diff_pct(x, y));
	ea_diff_na_row(na, d, label, x, y, rate);
}

static void na_lines(FILE *f, const struct ea_diff_na *na)
{
	for (int i = 0; i < na->n; i++)
		fprintf(f, "  n/a: %s\n", na->line[i]);
}

/* --models: the traces as pairs, with their ratios (src/diff/paired.c). */
static void pairs_text(FILE *f, const struct ea_diff *d)
{
	const struct ea_diff_side *b = &d->side[0], *n = &d->side[1];
	const struct ea_diff_paired *p = &d->paired;
	char e[4 * 4096 + 1];

	fprintf(f, "\n%-40s %14s %14s %9s\n", "pairs (same trace, base model -> new)",
		"base", "new", "change");
	for (int i = 0; i < b->n; i++) {
		const char *why;
		double r;

		fprintf(f, "  %-38s %14.6g %14.6g", ea_esc_term_buf(e, sizeof(e), b->runs[i].path),
			b->runs[i].value, n->runs[i].value);
		if (ea_diff_pair_ratio(d, i, &r, &why))
			fprintf(f, " %9s  (%.3f s; %s: left out)\n", "n/a",
				b->runs[i].duration_s, why);
		else
			fprintf(f, " %+8.2f%%  (%.3f s)\n", 100 * (r - 1),
				b->runs[i].duration_s);
	}
	fprintf(f, "ln(new / base) over %d trace%s: mean %.6g", p->n,
		p->n == 1 ? "" : "s", p->mean_log);
	if (d->stats)
		fprintf(f, ", sd %.6g; t(%g) = %.6g", p->sd_log, d->df, d->t);
	fprintf(f, "; change = exp(mean) - 1 (the geometric mean of the ratios)\n");
}

static void sides_text(FILE *f, const struct ea_diff *d, const char *unit)
{
	char e1[4 * 4096 + 1], e2[4 * EA_NAME_LEN + 1];

	for (int s = 0; s < 2; s++) {
		const struct ea_diff_side *side = &d->side[s];

		fprintf(f, "\n%s (model %s): n=%d mean %.6g",
			ea_esc_term_buf(e1, sizeof(e1), side->name),
			ea_esc_term_buf(e2, sizeof(e2), side->model->name),
			side->n, side->mean);
		if (side->n > 1)
			fprintf(f, " sd %.3g (%.2f%%)", side->sd,
				side->mean ? 100 * side->sd / side->mean : 0);
		fputc('\n', f);
		/* paired: the runs are listed once, as pairs, below */
		for (int i = 0; !d->models_mode && i < side->n; i++)
			fprintf(f, "  %-40s %12.6g  (%.6g %s in %.3f s)\n",
				ea_esc_term_buf(e1, sizeof(e1), side->runs[i].path),
				side->runs[i].value, side->runs[i].energy,
				ea_esc_term_buf(e2, sizeof(e2), unit), side->runs[i].duration_s);
	}
	if (d->models_mode)
		pairs_text(f, d);
}

void ea_diff_render_text(FILE *f, const struct ea_diff *d)
{
	const struct ea_diff_side *b = &d->side[0], *n = &d->side[1];
	struct ea_energy_unit ut;
	struct ea_diff_task_delta *t;
	struct ea_diff_na na = { .n = 0 };
	char buf[512], e1[4 * 64 + 1], e2[4 * EA_NAME_LEN + 1], vu[64];
	size_t nt;

	fprintf(f, "%s\n", ea_diff_verdict_line(d, buf, sizeof(buf)));
	ea_diff_model_warnings(f, d, false);
	fprintf(f, "\nnormalised by %s: values in %s\n", ea_norm_name(d->norm),
		ea_esc_term_buf(e1, sizeof(e1), ea_diff_value_unit(d, vu, sizeof(vu))));
	sides_text(f, d, ea_diff_unit(d, &ut)->energy);
	fprintf(f, "\n%-24s %14s %14s %9s\n", "where (mean per run)", "base", "new", "change");
	row(f, &na, d, "busy", ea_diff_side_mean(b, offsetof(struct ea_diff_run, busy)),
	    ea_diff_side_mean(n, offsetof(struct ea_diff_run, busy)), 6, false);
	row(f, &na, d, "idle", ea_diff_side_mean(b, offsetof(struct ea_diff_run, idle)),
	    ea_diff_side_mean(n, offsetof(struct ea_diff_run, idle)), 6, false);
	row(f, &na, d, "wakeups (energy)",
	    ea_diff_side_mean(b, offsetof(struct ea_diff_run, wakeup)),
	    ea_diff_side_mean(n, offsetof(struct ea_diff_run, wakeup)), 6, false);
	row(f, &na, d, "idle exits per s", ea_diff_wakeups_mean(b),
	    ea_diff_wakeups_mean(n), 1, true);
	for (int c = 0; c < ea_diff_nclusters(d); c++) {
		const char *other, *name = ea_diff_cluster_name(d, c, &other);
		double x = ea_diff_cluster_mean(b, c), y = ea_diff_cluster_mean(n, c);
		char e3[4 * EA_NAME_LEN + 1], label[2 * sizeof(e3) + 32];
		struct ea_diff_row *rows;
		int nr;

		ea_esc_term_buf(e2, sizeof(e2), name);
		if (other)
			snprintf(label, sizeof(label), "cluster %s (new: %s)", e2,
				 ea_esc_term_buf(e3, sizeof(e3), other));
		else
			snprintf(label, sizeof(label), "cluster %s", e2);
		fprintf(f, "%-24s ", label);
		share_pair(f, false, x, y);
		if (isnan(x) || isnan(y))
			fputs("        -\n", f);
		else {
			change_cell(f, ea_diff_pct(x, y));
			ea_diff_na_row(&na, d, label, x, y, false);
		}
		/* P-states matched by frequency, C-states by name; "-": that
		 * side's model has no such state (src/diff/rows.h). */
		nr = ea_diff_pstate_rows(d, c, &rows);
		for (int i = 0; i < nr; i++) {
			x = ea_diff_pstate_mean(b, c, rows[i].k[0]);
			y = ea_diff_pstate_mean(n, c, rows[i].k[1]);
			if ((x && !isnan(x)) || (y && !isnan(y))) {
				fprintf(f, "  %-22u ", ea_diff_row_freq(d, c, &rows[i]));
				share_pair(f, true, x, y);
				fputs(" of time\n", f);
			}
		}
		free(rows);
		nr = ea_diff_cstate_rows(d, c, &rows);
		for (int i = 0; i < nr; i++) {
			x = ea_diff_cstate_mean(b, c, rows[i].k[0]);
			y = ea_diff_cstate_mean(n, c, rows[i].k[1]);
			if ((x && !isnan(x)) || (y && !isnan(y))) {
				fprintf(f, "  %-22s ", ea_esc_term_buf(e2, sizeof(e2),
						ea_diff_row_cstate(d, c, &rows[i])));
				share_pair(f, true, x, y);
				fputs(" of time\n", f);
			}
		}
		free(rows);
	}
	na_lines(f, &na);
	nt = ea_diff_task_deltas(d, &t);
	if (nt)
		fprintf(f, "\n%-24s %14s %14s\n", "tasks that moved most", "base", "new");
	for (size_t i = 0; i < nt && i < 10; i++)
		fprintf(f, "%-24s %14.6g %14.6g\n",
			ea_esc_term_buf(e2, sizeof(e2), t[i].comm), t[i].base, t[i].new);
	free(t);
}
