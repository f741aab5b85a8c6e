// SPDX-License-Identifier: GPL-2.0-only
/*
 * The statistics of `eatrace diff`: mean and sample standard deviation,
 * Welch's standard error and degrees of freedom, and Student's t
 * distribution and its quantile (GSL's).
 */
#include <math.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>

#include "eatrace/diff.h"

void ea_mean_sd(const double *x, int n, double *mean, double *sd)
{
	double m = 0, ss = 0;

	for (int i = 0; i < n; i++)
		m += x[i];
	m = n ? m / n : 0;
	for (int i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	*mean = m;
	*sd = n > 1 ? sqrt(ss / (n - 1)) : 0;
}

void ea_welch(double m1, double s1, int n1, double m2, double s2, int n2,
	      double *se, double *df)
{
	double v1 = s1 * s1 / n1, v2 = s2 * s2 / n2;

	(void)m1;
	(void)m2;
	*se = sqrt(v1 + v2);
	if (v1 + v2 == 0) {
		*df = n1 + n2 - 2; /* no spread: the interval is a point */
		return;
	}
	*df = (v1 + v2) * (v1 + v2) / (v1 * v1 / (n1 - 1) + v2 * v2 / (n2 - 1));
}

/*
 * Student's t distribution: GSL's (gsl_cdf_tdist_P, gsl_cdf_tdist_Pinv),
 * for real degrees of freedom (Welch's are fractional). GSL's error
 * handler aborts by default: off, so a domain error gives NaN instead.
 */
double ea_t_cdf(double t, double df)
{
	gsl_set_error_handler_off();
	return gsl_cdf_tdist_P(t, df);
}

double ea_t_quantile(double p, double df)
{
	gsl_set_error_handler_off();
	return gsl_cdf_tdist_Pinv(p, df);
}

/* Half-width (percent of mean_base) of the Welch interval with n runs a side.
 */
static double half_width_pct(double mean_base, double vb, double vn, int n,
			     double confidence)
{
	double se, df;

	ea_welch(0, sqrt(vb), n, 0, sqrt(vn), n, &se, &df);
	return 100 * ea_t_quantile(0.5 + confidence / 2, df) * se / mean_base;
}

/* Context of the Welch interval's half-width for ea_smallest_n(). */
struct welch_width {
	double mean_base, vb, vn, confidence;
};

static double welch_width_pct(int n, const void *ctx)
{
	const struct welch_width *w = ctx;

	return half_width_pct(w->mean_base, w->vb, w->vn, n, w->confidence);
}

int ea_smallest_n(double (*width)(int n, const void *ctx), const void *ctx,
		  double gap)
{
	int lo = 1, hi = 2;

	if (!(gap > 0))
		return 0;
	/* the half-width shrinks as n grows: double, then bisect */
	while (!(width(hi, ctx) < gap)) {
		if (hi >= 1000000)
			return 0;
		lo = hi;
		hi = hi * 2 > 1000000 ? 1000000 : hi * 2;
	}
	while (hi - lo > 1) {
		int mid = lo + (hi - lo) / 2;

		if (width(mid, ctx) < gap)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

int ea_runs_needed(double mean_base, double sd_base, double sd_new,
		   double change_pct, double thr_pct, double confidence)
{
	struct welch_width w = {mean_base, sd_base * sd_base, sd_new * sd_new,
				confidence};

	if (!(mean_base > 0))
		return 0;
	return ea_smallest_n(welch_width_pct, &w, fabs(change_pct - thr_pct));
}

/* Pass when the whole interval is at or below the threshold, fail when it
 * is all above, else inconclusive (the gate of both diff modes). */
enum ea_verdict ea_gate_verdict(double ci_low_pct, double ci_high_pct,
				double max_increase_pct)
{
	if (ci_high_pct <= max_increase_pct)
		return EA_VERDICT_PASS;
	if (ci_low_pct > max_increase_pct)
		return EA_VERDICT_FAIL;
	return EA_VERDICT_INCONCLUSIVE;
}

const char *ea_verdict_name(enum ea_verdict v)
{
	return v == EA_VERDICT_FAIL	      ? "fail"
	       : v == EA_VERDICT_INCONCLUSIVE ? "inconclusive"
					      : "pass";
}
