// SPDX-License-Identifier: GPL-2.0-only
/* `eatrace diff` for people, and its Markdown form for review comments. */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

#include "eatrace/diff.h"
#include "eatrace/escape.h"
#include "eatrace/model-verdict.h"
#include "diff/rows.h"

/* "warning: model X fails 'eatrace model check' (...)" for each side's
 * model that does (src/output/model-verdict.c); Markdown: a quote. */
static void model_warnings(FILE *f, const struct ea_diff *d, bool markdown)
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
	static const char *const word[] = {
		[EA_VERDICT_PASS] = "PASS",
		[EA_VERDICT_FAIL] = "FAIL",
		[EA_VERDICT_INCONCLUSIVE] = "INCONCLUSIVE",
	};
	char counted[32] = "", more[128] = "";

	if (d->verdict == EA_VERDICT_INCONCLUSIVE) {
		if (d->inconclusive_as != EA_VERDICT_INCONCLUSIVE)
			snprintf(counted, sizeof(counted), " (counted as %s)",
				 ea_verdict_name(d->inconclusive_as));
		if (d->runs_needed)
			snprintf(more, sizeof(more), "; %d runs per side would resolve a change of this size",
				 d->runs_needed);
		else
			snprintf(more, sizeof(more), "; the change is at the threshold: no number of runs would resolve it");
		snprintf(buf, n, "INCONCLUSIVE%s: energy %+.2f%% (%.0f%% CI %+.2f%% .. %+.2f%%) straddles the threshold +%.2f%%: run more iterations%s",
			 counted, d->change_pct, 100 * d->confidence, d->ci_low_pct,
			 d->ci_high_pct, d->max_increase_pct, more);
	} else if (d->stats) {
		snprintf(buf, n, "%s: energy %+.2f%% (%.0f%% CI %+.2f%% .. %+.2f%%), threshold +%.2f%%",
			 word[d->verdict], d->change_pct,
			 100 * d->confidence, d->ci_low_pct, d->ci_high_pct,
			 d->max_increase_pct);
	} else {
		snprintf(buf, n, "%s: energy %+.2f%%, threshold +%.2f%% (one run on a side: no confidence interval)",
			 word[d->verdict], d->change_pct, d->max_increase_pct);
	}
	return buf;
}

static double pct(double a, double b)
{
	return a ? 100 * (b - a) / a : (b ? INFINITY : 0);
}

/* Two values (base, new), 14 characters each, as "%14.6g" or, percent,
 * as "%13.2f%%"; "-" for one that is absent (NaN: that side's model has
 * no such cluster or state). */
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

/* One "where (mean per run)" row: the mean of the run field at offset. */
static void mean_row(FILE *f, const char *label, const struct ea_diff_side *b,
		     const struct ea_diff_side *n, size_t offset)
{
	double mb = ea_diff_side_mean(b, offset), mn = ea_diff_side_mean(n, offset);

	fprintf(f, "%-24s %14.6g %14.6g %+8.2f%%\n", label, mb, mn, pct(mb, mn));
}

void ea_diff_render_text(FILE *f, const struct ea_diff *d)
{
	const struct ea_diff_side *b = &d->side[0], *n = &d->side[1];
	struct ea_energy_unit ut;
	const char *unit = ea_diff_unit(d, &ut)->energy;
	struct ea_diff_task_delta *t;
	char buf[256], e1[4 * 4096 + 1], e2[4 * EA_NAME_LEN + 1], vu[64];
	size_t nt;

	fprintf(f, "%s\n", ea_diff_verdict_line(d, buf, sizeof(buf)));
	model_warnings(f, d, false);
	fprintf(f, "\nnormalised by %s: values in %s\n", ea_norm_name(d->norm),
		ea_esc_term_buf(e1, sizeof(e1), ea_diff_value_unit(d, vu, sizeof(vu))));
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
		for (int i = 0; i < side->n; i++)
			fprintf(f, "  %-40s %12.6g  (%.6g %s in %.3f s)\n",
				ea_esc_term_buf(e1, sizeof(e1), side->runs[i].path),
				side->runs[i].value, side->runs[i].energy,
				ea_esc_term_buf(e2, sizeof(e2), unit), side->runs[i].duration_s);
	}
	fprintf(f, "\n%-24s %14s %14s %9s\n", "where (mean per run)", "base", "new", "change");
	mean_row(f, "busy", b, n, offsetof(struct ea_diff_run, busy));
	mean_row(f, "idle", b, n, offsetof(struct ea_diff_run, idle));
	mean_row(f, "wakeups (energy)", b, n,
		 offsetof(struct ea_diff_run, wakeup));
	fprintf(f, "%-24s %14.1f %14.1f %+8.2f%%\n", "idle exits per s",
		ea_diff_wakeups_mean(b), ea_diff_wakeups_mean(n),
		pct(ea_diff_wakeups_mean(b), ea_diff_wakeups_mean(n)));
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
		else
			fprintf(f, " %+8.2f%%\n", pct(x, y));
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
	nt = ea_diff_task_deltas(d, &t);
	if (nt)
		fprintf(f, "\n%-24s %14s %14s\n", "tasks that moved most", "base", "new");
	for (size_t i = 0; i < nt && i < 10; i++)
		fprintf(f, "%-24s %14.6g %14.6g\n",
			ea_esc_term_buf(e2, sizeof(e2), t[i].comm), t[i].base, t[i].new);
	free(t);
}

void ea_diff_render_markdown(FILE *f, const struct ea_diff *d)
{
	const struct ea_diff_side *b = &d->side[0], *n = &d->side[1];
	struct ea_diff_task_delta *t;
	char buf[256], vu[64];
	size_t nt;

	fprintf(f, "### eatrace energy gate: %s\n\n", d->fail ? "FAIL" : "PASS");
	fprintf(f, "%s\n\n", ea_diff_verdict_line(d, buf, sizeof(buf)));
	model_warnings(f, d, true);
	fprintf(f, "| | runs | mean (%s, by %s) | sd | model |\n|---|---:|---:|---:|---|\n",
		ea_diff_value_unit(d, vu, sizeof(vu)), ea_norm_name(d->norm));
	for (int s = 0; s < 2; s++)
		fprintf(f, "| %s | %d | %.6g | %s%.3g | %s |\n", d->side[s].name,
			d->side[s].n, d->side[s].mean, d->side[s].n > 1 ? "" : "n/a ",
			d->side[s].n > 1 ? d->side[s].sd : 0, d->side[s].model->name);
	fprintf(f, "\n| where | base | new | change |\n|---|---:|---:|---:|\n");
	for (int c = 0; c < ea_diff_nclusters(d); c++) {
		const char *other, *name = ea_diff_cluster_name(d, c, &other);
		double x = ea_diff_cluster_mean(b, c), y = ea_diff_cluster_mean(n, c);

		fprintf(f, "| cluster %s%s%s%s |", name, other ? " (new: " : "",
			other ? other : "", other ? ")" : "");
		/* "-": that side's model has no cluster at this index */
		if (isnan(x) || isnan(y))
			fprintf(f, isnan(x) ? " - | %.6g | - |\n" : " %.6g | - | - |\n",
				isnan(x) ? y : x);
		else
			fprintf(f, " %.6g | %.6g | %+.2f%% |\n", x, y, pct(x, y));
	}
	fprintf(f, "| idle exits per s | %.1f | %.1f | %+.2f%% |\n",
		ea_diff_wakeups_mean(b), ea_diff_wakeups_mean(n),
		pct(ea_diff_wakeups_mean(b), ea_diff_wakeups_mean(n)));
	nt = ea_diff_task_deltas(d, &t);
	if (nt)
		fprintf(f, "\n| task | base | new |\n|---|---:|---:|\n");
	for (size_t i = 0; i < nt && i < 5; i++) {
		char e[4 * EA_COMM_LEN + 1];

		fputs("| `", f);
		for (const char *p = ea_esc_term_buf(e, sizeof(e), t[i].comm); *p; p++)
			fputc(*p == '|' || *p == '`' ? '_' : *p, f);
		fprintf(f, "` | %.6g | %.6g |\n", t[i].base, t[i].new);
	}
	free(t);
}
