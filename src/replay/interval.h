/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Student's t intervals (interval.c): of the ensemble members' energies,
 * and on logarithms for their ratios to a baseline (docs/replay.md
 * "Ensemble").
 */
#ifndef EATRACE_REPLAY_INTERVAL_H
#define EATRACE_REPLAY_INTERVAL_H

#include <stdbool.h>

/* Of the mean, or of one more draw (a prediction interval). */
enum rp_interval_kind {
	RP_INTERVAL_MEAN, /* m -+ t s / sqrt(n) */
	RP_INTERVAL_PREDICT, /* m -+ t s sqrt(1 + 1 / n) */
};

/*
 * The mean m of x[0, n) and its interval at confidence conf (0.95), with
 * t = t(1 - (1 - conf) / 2, n - 1) and s the sample standard deviation
 * (n - 1 in its denominator). false (NaNs) when n < 2, conf is not in
 * (0, 1) or some x is not finite.
 */
bool rp_t_interval(const double *x, int n, double conf,
		   enum rp_interval_kind kind, double *mean, double *lo,
		   double *hi);
/*
 * The same on ln x, back with exp: the geometric mean of x[0, n) and its
 * interval, for ratios. false (NaNs) when n < 2 or some x is not > 0.
 */
bool rp_log_t_interval(const double *x, int n, double conf,
		       enum rp_interval_kind kind, double *gmean, double *lo,
		       double *hi);

#endif
