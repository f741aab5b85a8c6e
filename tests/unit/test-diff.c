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

/*
 * Runs per side to resolve a change: base mean 100, both sides sd 10, a
 * change of +5% against a threshold of +1% (gap 4 points), 95%. With n
 * runs a side, se = sqrt(2 x 100 / n), df = (2v)^2 / (2 v^2 / (n-1)) =
 * 2(n-1), half-width = t(0.975, df) x se (in % of the base mean 100).
 * Resolved when t^2 x 200 / n < 16, i.e. n > 12.5 t^2. From a t table:
 * n = 49: df 96, t = 1.98498, 12.5 t^2 = 49.25 > 49: not yet;
 * n = 50: df 98, t = 1.98447, 12.5 t^2 = 49.23 < 50: resolved.
 */
static void test_runs_needed(void **unused)
{
	assert_int_equal(ea_runs_needed(100, 10, 10, 5, 1, 0.95), 50);
	/* symmetric: a change 4 points below the threshold as well */
	assert_int_equal(ea_runs_needed(100, 10, 10, -3, 1, 0.95), 50);
	/* at the threshold exactly no n resolves it */
	assert_int_equal(ea_runs_needed(100, 10, 10, 1, 1, 0.95), 0);
	/* sd 0: two runs a side already give a point interval */
	assert_int_equal(ea_runs_needed(100, 0, 0, 5, 1, 0.95), 2);
}

/* Fill a side with values (no traces: ea_diff_compute uses only these). */
static void side_values(struct ea_diff_side *s, struct ea_diff_run *r,
			const double *v, int n)
{
	memset(r, 0, n * sizeof(*r));
	for (int i = 0; i < n; i++) {
		r[i].value = v[i];
		r[i].ncpus = 2;
	}
	s->runs = r;
	s->n = n;
}

/*
 * The three outcomes, threshold +1%, 95%:
 * base {100, 100, 100}, new {150, 50, 100}: means 100 and 100, a change
 * of 0 with a wide interval (sd of new 50): it straddles +1%: inconclusive.
 * new {90, 91, 89}: change -10%, sd 1 and 0: the interval is all below: pass.
 * new {120, 121, 119}: change +20%, all above: fail.
 */
static void test_verdicts(void **unused)
{
	const double base[] = { 100, 100, 100 }, wide[] = { 150, 50, 100 },
		     lower[] = { 90, 91, 89 }, higher[] = { 120, 121, 119 };
	const struct { const double *v; enum ea_verdict as, want; bool fail; } cases[] = {
		{ wide, EA_VERDICT_INCONCLUSIVE, EA_VERDICT_INCONCLUSIVE, false },
		{ wide, EA_VERDICT_PASS, EA_VERDICT_INCONCLUSIVE, false },
		{ wide, EA_VERDICT_FAIL, EA_VERDICT_INCONCLUSIVE, true },
		{ lower, EA_VERDICT_INCONCLUSIVE, EA_VERDICT_PASS, false },
		{ higher, EA_VERDICT_INCONCLUSIVE, EA_VERDICT_FAIL, true },
	};
	struct ea_diff_run rb[3], rn[3];
	struct ea_err err;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ea_diff d = { .max_increase_pct = 1, .confidence = 0.95,
				     .inconclusive_as = cases[i].as };

		side_values(&d.side[0], rb, base, 3);
		side_values(&d.side[1], rn, cases[i].v, 3);
		d.side[0].name = "base";
		d.side[1].name = "new";
		assert_int_equal(ea_diff_compute(&d, &err), 0);
		assert_int_equal(d.verdict, cases[i].want);
		assert_int_equal(d.fail, cases[i].fail);
		/* runs_needed only when inconclusive; here sd_new 50, gap 1
		 * point: n > (t x 50 / 1)^2 ~ 9604 */
		if (cases[i].want == EA_VERDICT_INCONCLUSIVE)
			assert_true(d.runs_needed > 9604 && d.runs_needed < 9700);
		else
			assert_int_equal(d.runs_needed, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t_quantiles),
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_runs_needed),
		cmocka_unit_test(test_verdicts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
