// SPDX-License-Identifier: GPL-2.0-only
/*
 * Statistics of `eatrace diff`, against values computed independently:
 * Student t quantiles from standard tables, Welch's figures by hand.
 */
#include <math.h>

#include "harness.h"
#include "eatrace/diff.h"

/* Two-sided 95% (p = 0.975) and others, from any t table. */
static void test_t_quantiles(void **unused)
{
	assert_true(fabs(ea_t_quantile(0.975, 10) - 2.228138852) < 1e-6);
	assert_true(fabs(ea_t_quantile(0.975, 1) - 12.70620474) < 1e-5);
	assert_true(fabs(ea_t_quantile(0.95, 5) - 2.015048373) < 1e-6);
	assert_true(fabs(ea_t_quantile(0.995, 30) - 2.749995654) < 1e-6);
	assert_true(fabs(ea_t_quantile(0.5, 7)) < 1e-9);
	/* Non-integer df (Welch): between its integer neighbours. */
	assert_true(ea_t_quantile(0.975, 4.5) < ea_t_quantile(0.975, 4) &&
		    ea_t_quantile(0.975, 4.5) > ea_t_quantile(0.975, 5));
	/* CDF symmetry and a table value: P(T <= 2.228) at df 10 = 0.975. */
	assert_true(fabs(ea_t_cdf(2.228138852, 10) - 0.975) < 1e-8);
	assert_true(fabs(ea_t_cdf(-1.5, 3) + ea_t_cdf(1.5, 3) - 1) < 1e-12);
}

/*
 * x = {10, 12, 11}: mean 11, s^2 = (1 + 1 + 0) / 2 = 1
 * y = {14, 15, 13, 16}: mean 14.5, s^2 = (0.25 + 0.25 + 2.25 + 2.25) / 3 = 5/3
 * Welch: v1 = 1/3, v2 = (5/3)/4 = 5/12, se = sqrt(1/3 + 5/12) = sqrt(0.75)
 * df = 0.75^2 / ((1/3)^2 / 2 + (5/12)^2 / 3) = 0.5625 / 0.11342593 = 4.9592
 */
static void test_welch(void **unused)
{
	const double x[] = { 10, 12, 11 }, y[] = { 14, 15, 13, 16 };
	double mx, sx, my, sy, se, df;

	ea_mean_sd(x, 3, &mx, &sx);
	ea_mean_sd(y, 4, &my, &sy);
	assert_true(mx == 11 && fabs(sx - 1) < 1e-12);
	assert_true(my == 14.5 && fabs(sy * sy - 5.0 / 3) < 1e-12);
	ea_welch(mx, sx, 3, my, sy, 4, &se, &df);
	assert_true(fabs(se - sqrt(0.75)) < 1e-12);
	assert_true(fabs(df - 4.959184) < 1e-5);
	/* No spread: zero standard error, the interval is a point. */
	ea_welch(5, 0, 3, 6, 0, 3, &se, &df);
	assert_true(se == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t_quantiles),
		cmocka_unit_test(test_welch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
