// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ensemble's t intervals (src/replay/interval.c): of the mean and of
 * one more draw, plain and on logarithms, against figures worked out by
 * hand, Student t quantiles from a table.
 */
#include <math.h>

#include "harness.h"
#include "replay/interval.h"

/*
 * 1, 2, 3, 4, 5: mean 3; squares of the deviations 4 + 1 + 0 + 1 + 4 =
 * 10, s^2 = 10 / 4 = 2.5; t(0.975, 4) = 2.776445 (table).
 *   mean:    half = 2.776445 x sqrt(2.5) / sqrt(5) = 2.776445 x sqrt(0.5)
 *            = 1.963243: [1.036757, 4.963243]
 *   predict: half = 2.776445 x sqrt(2.5) x sqrt(1 + 1/5)
 *            = 2.776445 x sqrt(3) = 4.808944: [-1.808944, 7.808944]
 */
static void test_plain(void **unused)
{
	const double x[] = {1, 2, 3, 4, 5};
	double m, lo, hi;

	assert_true(rp_t_interval(x, 5, 0.95, RP_INTERVAL_MEAN, &m, &lo, &hi));
	assert_float_equal(m, 3, 1e-12);
	assert_float_equal(lo, 1.036757, 1e-5);
	assert_float_equal(hi, 4.963243, 1e-5);
	assert_true(
		rp_t_interval(x, 5, 0.95, RP_INTERVAL_PREDICT, &m, &lo, &hi));
	assert_float_equal(m, 3, 1e-12);
	assert_float_equal(lo, -1.808944, 1e-5);
	assert_float_equal(hi, 7.808944, 1e-5);
}

/*
 * Ratios 1.25, 1.5, 1.75 (tests/unit/test-diff-paired.c's): logs mean
 * 0.396075, s = 0.168433; t(0.975, 2) = 4.302653 (table).
 *   geometric mean exp(0.396075) = 1.485980 (the cube root of 3.28125)
 *   mean:    half = 4.302653 x 0.168433 / sqrt(3) = 0.418410:
 *            exp(-0.022335) = 0.977913, exp(0.814485) = 2.258012
 *   predict: half = 4.302653 x 0.168433 x sqrt(4/3) = 0.836822:
 *            exp(-0.440747) = 0.643556, exp(1.232897) = 3.431154
 */
static void test_logs(void **unused)
{
	const double x[] = {1.25, 1.5, 1.75};
	double m, lo, hi;

	assert_true(
		rp_log_t_interval(x, 3, 0.95, RP_INTERVAL_MEAN, &m, &lo, &hi));
	assert_float_equal(m, 1.485980, 1e-5);
	assert_float_equal(lo, 0.977913, 1e-5);
	assert_float_equal(hi, 2.258012, 1e-5);
	assert_true(rp_log_t_interval(x, 3, 0.95, RP_INTERVAL_PREDICT, &m, &lo,
				      &hi));
	assert_float_equal(m, 1.485980, 1e-5);
	assert_float_equal(lo, 0.643556, 1e-5);
	assert_float_equal(hi, 3.431154, 1e-5);
}

/* Equal values: s = 0, the interval is the point (also on logs). */
static void test_equal(void **unused)
{
	const double x[] = {0.5, 0.5, 0.5, 0.5};
	double m, lo, hi;

	assert_true(
		rp_t_interval(x, 4, 0.95, RP_INTERVAL_PREDICT, &m, &lo, &hi));
	assert_float_equal(m, 0.5, 1e-12);
	assert_float_equal(lo, 0.5, 1e-12);
	assert_float_equal(hi, 0.5, 1e-12);
	assert_true(
		rp_log_t_interval(x, 4, 0.95, RP_INTERVAL_MEAN, &m, &lo, &hi));
	assert_float_equal(m, 0.5, 1e-12);
	assert_float_equal(lo, 0.5, 1e-12);
	assert_float_equal(hi, 0.5, 1e-12);
}

/* No interval: one value, a NaN, a ratio <= 0, a confidence of 1. */
static void test_none(void **unused)
{
	const double one[] = {2}, nan2[] = {1, NAN}, zero[] = {1, 0},
		     ok[] = {1, 2};
	double m = 0, lo = 0, hi = 0;

	assert_false(
		rp_t_interval(one, 1, 0.95, RP_INTERVAL_MEAN, &m, &lo, &hi));
	assert_true(isnan(m) && isnan(lo) && isnan(hi));
	assert_false(
		rp_t_interval(nan2, 2, 0.95, RP_INTERVAL_MEAN, &m, &lo, &hi));
	assert_true(isnan(m));
	assert_false(rp_log_t_interval(zero, 2, 0.95, RP_INTERVAL_MEAN, &m, &lo,
				       &hi));
	assert_true(isnan(m) && isnan(lo) && isnan(hi));
	/* zero is a fine plain value: mean 0.5 */
	assert_true(
		rp_t_interval(zero, 2, 0.95, RP_INTERVAL_MEAN, &m, &lo, &hi));
	assert_float_equal(m, 0.5, 1e-12);
	assert_false(rp_t_interval(ok, 2, 1, RP_INTERVAL_MEAN, &m, &lo, &hi));
	assert_true(isnan(m));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_logs),
		cmocka_unit_test(test_equal),
		cmocka_unit_test(test_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
