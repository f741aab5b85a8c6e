// SPDX-License-Identifier: GPL-2.0-only
/*
 * `eatrace diff --models A B`: the paired comparison (src/diff/paired.c)
 * against figures worked out by hand, Student t quantiles from a table.
 */
#include <math.h>

#include "harness.h"
#include "eatrace/diff.h"

static const struct ea_model model = {.name = "m"};

/* Runs of both sides: the same traces, values base[i] and new[i]. */
static void pairs(struct ea_diff *d, struct ea_diff_run *rb,
		  struct ea_diff_run *rn, const double *base, const double *new,
		  int n)
{
	static char path[] = "t";

	memset(rb, 0, n * sizeof(*rb));
	memset(rn, 0, n * sizeof(*rn));
	for (int i = 0; i < n; i++) {
		rb[i].value = base[i];
		rn[i].value = new[i];
		rb[i].ncpus = rn[i].ncpus = 2;
		rb[i].path = rn[i].path = path;
		rb[i].duration_s = rn[i].duration_s = 1;
	}
	d->side[0] = (struct ea_diff_side){
		.name = "base", .model = &model, .runs = rb, .n = n};
	d->side[1] = (struct ea_diff_side){
		.name = "new", .model = &model, .runs = rn, .n = n};
	d->models_mode = true;
	d->confidence = 0.95;
}

/*
 * Three traces, 40 under model A each, 50, 60, 70 under model B: ratios
 * 1.25, 1.5, 1.75.
 *   ln 1.25 = 0.223144, ln 1.5 = 0.405465, ln 1.75 = 0.559616
 *   mean = 1.188225 / 3 = 0.396075
 *   deviations -0.172931, +0.009390, +0.163541; squares 0.0299052,
 *   0.0000882, 0.0267456, sum 0.0567390; s^2 = 0.0283695, s = 0.168433
 *   se = s / sqrt 3 = 0.0972446; t(0.975, 2) = 4.302653 (table)
 *   half-width = 4.302653 x 0.0972446 = 0.418410
 *   interval: exp(0.396075 -+ 0.418410) - 1 = exp(-0.022335) - 1 =
 *   -2.2087%, exp(0.814485) - 1 = +125.80%
 *   change: exp(0.396075) - 1 = +48.598% (the cube root of
 *   1.25 x 1.5 x 1.75 = 3.28125 is 1.485980)
 * Threshold +100%: the interval straddles it. Traces needed: the gap
 * |0.396075 - ln 2| = |0.396075 - 0.693147| = 0.297072 must exceed
 * t(n-1) s / sqrt n: n = 3: 0.418410 (no); n = 4: t(0.975, 3) = 3.182446,
 * 3.182446 x 0.168433 / 2 = 0.268014 (yes): 4.
 * Threshold +150%: all of it below: pass. Threshold -5%: all above: fail.
 */
static void test_three_pairs(void **unused)
{
	const double base[] = {40, 40, 40}, new[] = {50, 60, 70};
	struct ea_diff_run rb[3], rn[3];
	struct ea_diff d = {0};
	struct ea_err err;

	pairs(&d, rb, rn, base, new, 3);
	d.max_increase_pct = 100;
	assert_int_equal(ea_diff_compute(&d, &err), 0);
	assert_int_equal(d.paired.n, 3);
	assert_int_equal(d.paired.left_out, 0);
	assert_true(fabs(d.paired.mean_log - 0.396075) < 1e-6);
	assert_true(fabs(d.paired.sd_log - 0.168433) < 1e-6);
	assert_true(fabs(d.t - 4.302653) < 1e-6);
	assert_true(d.df == 2);
	assert_true(fabs(d.change_pct - 48.598) < 1e-3);
	assert_true(fabs(d.ci_low_pct - -2.2087) < 1e-3);
	assert_true(fabs(d.ci_high_pct - 125.80) < 1e-2);
	assert_int_equal(d.verdict, EA_VERDICT_INCONCLUSIVE);
	assert_int_equal(d.paired.traces_needed, 4);
	assert_int_equal(d.runs_needed, 0);

	d.max_increase_pct = 150;
	assert_int_equal(ea_diff_compute(&d, &err), 0);
	assert_int_equal(d.verdict, EA_VERDICT_PASS);
	assert_false(d.fail);
	d.max_increase_pct = -5;
	assert_int_equal(ea_diff_compute(&d, &err), 0);
	assert_int_equal(d.verdict, EA_VERDICT_FAIL);
	assert_true(d.fail);
}

/*
 * The LISA traces priced by juno-r0 and juno-r0-eas (the per-trace values
 * the text report gives): 622.600578 -> 2091.99502 (x3.360092) and
 * 12.360713 -> 72.0415129 (x5.828265). ln: 1.211968, 1.762720; mean
 * 1.487344, s = |1.762720 - 1.211968| / sqrt 2 = 0.389440; t(0.975, 1) =
 * 12.706205, half-width 12.706205 x 0.389440 / sqrt 2 = 3.498977:
 * exp(-2.011633) - 1 = -86.62%, exp(4.986321) - 1 = +14 540%; change
 * exp(1.487344) - 1 = +342.53%. Against +1%: inconclusive; traces needed:
 * gap 1.487344 - ln 1.01 = 1.477393; n = 3: t(0.975, 2) x 0.389440 /
 * sqrt 3 = 0.967422 < gap: 3. (Unpaired, the same runs gave "17 runs
 * per side would resolve".)
 */
static void test_lisa_pairs(void **unused)
{
	const double base[] = {622.600578, 12.360713},
		     new[] = {2091.99502, 72.0415129};
	struct ea_diff_run rb[2], rn[2];
	struct ea_diff d = {0};
	struct ea_err err;

	pairs(&d, rb, rn, base, new, 2);
	d.max_increase_pct = 1;
	assert_int_equal(ea_diff_compute(&d, &err), 0);
	assert_true(fabs(d.paired.mean_log - 1.487344) < 1e-6);
	assert_true(fabs(d.paired.sd_log - 0.389440) < 1e-6);
	assert_true(fabs(d.change_pct - 342.53) < 1e-2);
	assert_true(fabs(d.ci_low_pct - -86.62) < 1e-2);
	assert_true(fabs(d.ci_high_pct - 14540) < 1);
	assert_int_equal(d.verdict, EA_VERDICT_INCONCLUSIVE);
	assert_int_equal(d.paired.traces_needed, 3);
}

/*
 * Zero energy under both models: left out; one trace left: no interval,
 * the point estimate decides (60 / 40: +50%). Zero under one model only:
 * refused. Zero under both everywhere: refused.
 */
static void test_zero_pairs(void **unused)
{
	const double base[] = {0, 40}, new[] = {0, 60}, one[] = {40, 0};
	const double zeros[] = {0, 0};
	struct ea_diff_run rb[2], rn[2];
	struct ea_diff d = {0};
	struct ea_err err;
	const char *why;
	double r;

	pairs(&d, rb, rn, base, new, 2);
	d.max_increase_pct = 10;
	assert_int_equal(ea_diff_compute(&d, &err), 0);
	assert_int_equal(d.paired.n, 1);
	assert_int_equal(d.paired.left_out, 1);
	assert_false(d.stats);
	assert_true(fabs(d.change_pct - 50) < 1e-9);
	assert_int_equal(d.verdict, EA_VERDICT_FAIL);
	assert_int_equal(ea_diff_pair_ratio(&d, 0, &r, &why), 1);
	assert_true(isnan(r) && strstr(why, "both models"));

	pairs(&d, rb, rn, base, one, 2);
	assert_int_equal(ea_diff_compute(&d, &err), -1);
	assert_non_null(strstr(err.msg, "zero energy under one model only"));

	pairs(&d, rb, rn, zeros, zeros, 2);
	assert_int_equal(ea_diff_compute(&d, &err), -1);
	assert_non_null(strstr(err.msg, "no trace has energy"));
}

/* Identical ratios: sd 0, the interval is the point; two pairs resolve. */
static void test_pairs_needed(void **unused)
{
	assert_int_equal(ea_pairs_needed(0, 0.1, 0.95), 2);
	assert_int_equal(ea_pairs_needed(0.168433, 0.297072, 0.95), 4);
	/* at the threshold: no number of pairs */
	assert_int_equal(ea_pairs_needed(0.1, 0, 0.95), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_three_pairs),
		cmocka_unit_test(test_lisa_pairs),
		cmocka_unit_test(test_zero_pairs),
		cmocka_unit_test(test_pairs_needed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
