// SPDX-License-Identifier: GPL-2.0-only
/*
 * Student's t intervals of a mean or of one more draw, plain and on
 * logarithms (interval.h), with GSL's t quantile. Not src/diff/tstat.c's:
 * replay and diff are one layer, and neither calls the other.
 */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>

#include "replay/interval.h"

static bool interval(const double *x, int n, double conf, bool logs,
		     enum rp_interval_kind kind, double *mean, double *lo,
		     double *hi)
{
	double m = 0, ss = 0, half, t;

	*mean = *lo = *hi = NAN;
	if (n < 2 || !(conf > 0 && conf < 1))
		return false;
	for (int i = 0; i < n; i++) {
		double v = logs ? log(x[i]) : x[i];

		if (!isfinite(v) || (logs && !(x[i] > 0)))
			return false;
		m += v;
	}
	m /= n;
	for (int i = 0; i < n; i++) {
		double d = (logs ? log(x[i]) : x[i]) - m;

		ss += d * d;
	}
	/* GSL's error handler aborts by default: off, NaN instead */
	gsl_set_error_handler_off();
	t = gsl_cdf_tdist_Pinv(1 - (1 - conf) / 2, n - 1);
	half = t * sqrt(ss / (n - 1)) *
	       (kind == RP_INTERVAL_PREDICT ? sqrt(1 + 1.0 / n) : 1 / sqrt(n));
	if (logs) {
		*mean = exp(m);
		*lo = exp(m - half);
		*hi = exp(m + half);
	} else {
		*mean = m;
		*lo = m - half;
		*hi = m + half;
	}
	return isfinite(half);
}

bool rp_t_interval(const double *x, int n, double conf,
		   enum rp_interval_kind kind, double *mean, double *lo,
		   double *hi)
{
	return interval(x, n, conf, false, kind, mean, lo, hi);
}

bool rp_log_t_interval(const double *x, int n, double conf,
		       enum rp_interval_kind kind, double *gmean, double *lo,
		       double *hi)
{
	return interval(x, n, conf, true, kind, gmean, lo, hi);
}
