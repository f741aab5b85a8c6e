// SPDX-License-Identifier: GPL-2.0-only
/*
 * The statistics of `eatrace diff`: mean and sample standard deviation,
 * Welch's standard error and degrees of freedom, and Student's t
 * distribution (through the regularised incomplete beta function, by
 * Lentz's continued fraction) with its quantile by bisection.
 */
#include <math.h>

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
		*df = n1 + n2 - 2;	/* no spread: the interval is a point */
		return;
	}
	*df = (v1 + v2) * (v1 + v2) /
	      (v1 * v1 / (n1 - 1) + v2 * v2 / (n2 - 1));
}

/* Continued fraction for the incomplete beta function (modified Lentz). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1 - qab * x / qap, h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 1000; m++) {
		int m2 = 2 * m;
		double aa = m * (b - m) * x / ((qam + m2) * (a + m2)), del;

		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

/* Regularised incomplete beta I_x(a, b). */
static double beta_inc(double a, double b, double x)
{
	double bt;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		 b * log(1 - x));
	if (x < (a + 1) / (a + b + 2))
		return bt * beta_cf(a, b, x) / a;
	return 1 - bt * beta_cf(b, a, 1 - x) / b;
}

double ea_t_cdf(double t, double df)
{
	double tail, half;

	if (t * t < df) {	/* near the centre: I(t^2/(df+t^2); 1/2, df/2) */
		half = 0.5 * beta_inc(0.5, df / 2, t * t / (df + t * t));
		return t > 0 ? 0.5 + half : 0.5 - half;
	}
	tail = 0.5 * beta_inc(df / 2, 0.5, df / (df + t * t));
	return t > 0 ? 1 - tail : tail;
}

double ea_t_quantile(double p, double df)
{
	double lo = -1e6, hi = 1e6;

	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (ea_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* Half-width (percent of mean_base) of the Welch interval with n runs a side. */
static double half_width_pct(double mean_base, double vb, double vn, int n,
			     double confidence)
{
	double se, df;

	ea_welch(0, sqrt(vb), n, 0, sqrt(vn), n, &se, &df);
	return 100 * ea_t_quantile(0.5 + confidence / 2, df) * se / mean_base;
}

int ea_runs_needed(double mean_base, double sd_base, double sd_new,
		   double change_pct, double thr_pct, double confidence)
{
	double gap = fabs(change_pct - thr_pct), vb = sd_base * sd_base,
	       vn = sd_new * sd_new;
	int lo = 1, hi = 2;

	if (!(mean_base > 0))
		return 0;
	/* the half-width shrinks as n grows: double, then bisect */
	while (!(half_width_pct(mean_base, vb, vn, hi, confidence) < gap)) {
		if (hi >= 1000000)
			return 0;
		lo = hi;
		hi = hi * 2 > 1000000 ? 1000000 : hi * 2;
	}
	while (hi - lo > 1) {
		int mid = lo + (hi - lo) / 2;

		if (half_width_pct(mean_base, vb, vn, mid, confidence) < gap)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

const char *ea_verdict_name(enum ea_verdict v)
{
	return v == EA_VERDICT_FAIL ? "fail" : v == EA_VERDICT_INCONCLUSIVE ? "inconclusive" : "pass";
}
