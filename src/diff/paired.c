// SPDX-License-Identifier: GPL-2.0-only
/*
 * `eatrace diff --models A B TRACE...`: the same traces priced by two
 * models are pairs, not two independent samples, and are compared as such.
 *
 * Per trace i, the ratio r_i = value_B / value_A of its normalised
 * energies; the change is the geometric mean of the ratios, and its
 * interval Student's t interval of the mean of ln r_i (n - 1 degrees of
 * freedom), mapped back: 100 (exp(mean +- t sd / sqrt(n)) - 1) percent.
 * Why ratios, and why their logs (docs/json.md "diff", README):
 *  - ratios, not differences: the traces differ in length and load by
 *    orders of magnitude (LISA's are 0.4 s and 9.3 s long), so differences
 *    of energy are dominated by the longest trace, while the ratio is the
 *    same kind of quantity on every trace: how much more model B charges
 *    for that recording;
 *  - logs: a ratio is bounded below by 0 and skewed (x2 and x0.5 are
 *    equally far from 1 on a log scale, not on a linear one); on the log
 *    scale the t interval is symmetric in relative terms, its bounds mapped
 *    back never pass -100%, and exp() keeps the order, so comparing the
 *    interval with the threshold in percent is comparing the log interval
 *    with ln(1 + threshold / 100).
 * A trace with zero energy under both models (a run of 0 s, or one the
 * models both price at 0) has no ratio: it is left out, and said so. Zero
 * under one model only has no finite ratio: refused, naming the trace.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "eatrace/diff.h"

int ea_diff_pair_ratio(const struct ea_diff *d, int i, double *ratio,
		       const char **why)
{
	double b = d->side[0].runs[i].value, n = d->side[1].runs[i].value;

	*ratio = NAN;
	*why = NULL;
	if (b == 0 && n == 0) {
		*why = "zero energy under both models";
		return 1;
	}
	if (!(b > 0) || !(n > 0)) {
		*why = "zero energy under one model only: no finite ratio";
		return -1;
	}
	*ratio = n / b;
	return 0;
}

/* Context of the paired log interval's half-width for ea_smallest_n(). */
struct log_width {
	double sd_log, confidence;
};

/* Half-width of the log interval with n pairs of sample sd sd_log. */
static double log_half_width(int n, const void *ctx)
{
	const struct log_width *w = ctx;

	return ea_t_quantile(0.5 + w->confidence / 2, n - 1) * w->sd_log /
	       sqrt(n);
}

int ea_pairs_needed(double sd_log, double gap_log, double confidence)
{
	struct log_width w = {sd_log, confidence};

	return ea_smallest_n(log_half_width, &w, gap_log);
}

int ea_diff_compute_paired(struct ea_diff *d, struct ea_err *err)
{
	struct ea_diff_paired *p = &d->paired;
	int n = d->side[0].n;
	double *logs, se, half;

	if (d->side[1].n != n)
		return ea_err_set(err,
				  "--models: %d traces priced by one model, %d "
				  "by the other",
				  n, d->side[1].n);
	logs = malloc((size_t)n * sizeof(*logs));
	if (!logs)
		return ea_err_set(err, "out of memory");
	p->n = p->left_out = 0;
	for (int i = 0; i < n; i++) {
		const char *why;
		double r;
		int rc = ea_diff_pair_ratio(d, i, &r, &why);

		if (rc < 0) {
			ea_err_set(err,
				   "%s: %s: %.6g under model %s, %.6g under "
				   "model %s (the paired comparison needs "
				   "energy under both)",
				   d->side[0].runs[i].path, why,
				   d->side[0].runs[i].value,
				   d->side[0].model->name,
				   d->side[1].runs[i].value,
				   d->side[1].model->name);
			free(logs);
			return -1;
		}
		if (rc > 0)
			p->left_out++;
		else
			logs[p->n++] = log(r);
	}
	if (!p->n) {
		free(logs);
		return ea_err_set(err, "no trace has energy under either "
				       "model: no ratio to compare");
	}
	ea_mean_sd(logs, p->n, &p->mean_log, &p->sd_log);
	free(logs);
	d->change_pct = 100 * expm1(p->mean_log);
	d->stats = p->n >= 2;
	d->runs_needed = 0;
	p->traces_needed = 0;
	if (d->stats) {
		d->df = p->n - 1;
		d->t = ea_t_quantile(0.5 + d->confidence / 2, d->df);
		se = p->sd_log / sqrt(p->n);
		half = d->t * se;
		d->ci_low_pct = 100 * expm1(p->mean_log - half);
		d->ci_high_pct = 100 * expm1(p->mean_log + half);
		/* as the unpaired gate */
		d->verdict = ea_gate_verdict(d->ci_low_pct, d->ci_high_pct,
					     d->max_increase_pct);
	} else {
		d->df = d->t = 0;
		d->verdict = d->change_pct > d->max_increase_pct
				     ? EA_VERDICT_FAIL
				     : EA_VERDICT_PASS;
	}
	/* straddling means max_increase_pct > -100: its log is finite */
	if (d->verdict == EA_VERDICT_INCONCLUSIVE)
		p->traces_needed = ea_pairs_needed(
			p->sd_log,
			fabs(p->mean_log - log1p(d->max_increase_pct / 100)),
			d->confidence);
	d->fail = d->verdict == EA_VERDICT_FAIL ||
		  (d->verdict == EA_VERDICT_INCONCLUSIVE &&
		   d->inconclusive_as == EA_VERDICT_FAIL);
	return 0;
}
