// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pieces of `eatrace model fit` (include/eatrace/fit.h):
 *
 *  - the identity the fit rests on: the features of each --interval window
 *    priced with a model's quantised prices give the accountant's energy
 *    for that window, exactly (integers in 1e-18 power_unit x s), on the
 *    repository's traces (unknown time, several clusters, assumed OPPs,
 *    offline CPUs); the suspended part, which the accountant shares among
 *    CPUs in integers, within that rounding;
 *  - the NNLS and LSI solvers against problems solved by hand;
 *  - the identifiability rule on a design with the core/cluster split.
 */
#include <math.h>
#include <stdlib.h>

#include "harness.h"
#include "eatrace/fit.h"

#define FIX "tests/fixtures/"

/* One pass: the accountant with --interval, and the features over the
 * same windows (their bounds from a first pass). */
static void identity(const char *trace, const char *model_path,
		     uint64_t interval_ns, uint32_t assumed_khz,
		     bool absent_offline)
{
	struct ea_acct_config acfg = {.interval_ns = interval_ns,
				      .assumed_khz = assumed_khz};
	struct ea_state_config cfg = {.ncpus = -1,
				      .absent_offline = absent_offline};
	struct ea_consumer cons[2];
	struct ea_features feat;
	struct ea_model *m;
	struct ea_coefs cs;
	struct ea_acct a;
	struct ea_run run;
	struct ea_err err;
	uint64_t ws, we, *bounds;
	size_t nb = 0;
	ea_energy_t sum = 0, at_end = 0;

	if (ea_model_load(&m, model_path, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(ea_coefs_build(&cs, m, &err), 0);
	/* first pass: the window */
	assert_int_equal(ea_acct_init(&a, m, &acfg, &err), 0);
	ea_acct_state_config(&a, &cfg);
	cons[0] = (struct ea_consumer){&ea_acct_ops, &a};
	if (ea_run(&run, trace, &cfg, cons, 1, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(ea_acct_done(&a, run.state, &err), 0);
	ea_state_window(run.state, &ws, &we);
	ea_run_free(&run);
	ea_acct_free(&a);
	bounds = malloc(((we - ws) / interval_ns + 4) * sizeof(*bounds));
	assert_non_null(bounds);
	for (uint64_t t = ws; t < we; t += interval_ns)
		bounds[nb++] = t;
	bounds[nb++] = we;
	/*
	 * One more segment from the end on, for wakeups at the trace's very
	 * last instant: the accountant puts them in its totals and in its
	 * last window (closed at that instant), whether the duration is a
	 * multiple of the interval or not. The windows below follow that
	 * rule; the totals are compared over every segment.
	 */
	bounds[nb++] = UINT64_MAX;

	/* second pass: both */
	cfg = (struct ea_state_config){.ncpus = -1,
				       .absent_offline = absent_offline};
	assert_int_equal(ea_acct_init(&a, m, &acfg, &err), 0);
	assert_int_equal(
		ea_features_init(&feat, m, &cs, assumed_khz, bounds, nb, &err),
		0);
	ea_acct_state_config(&a, &cfg);
	cons[0] = (struct ea_consumer){&ea_features_ops, &feat};
	cons[1] = (struct ea_consumer){&ea_acct_ops, &a};
	if (ea_run(&run, trace, &cfg, cons, 2, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(ea_acct_done(&a, run.state, &err), 0);
	assert_int_equal(ea_features_done(&feat, run.state, &err), 0);
	assert_int_equal(feat.nseg, a.nwindows + 1);
	for (int ci = 0; ci < m->nclusters; ci++)
		at_end += ea_features_energy(&feat, feat.nseg - 1, ci, m);
	for (size_t s = 0; s < a.nwindows; s++) {
		const struct ea_energy *w = &a.windows[s];
		ea_energy_t e = 0;
		double susp = 0;

		if (s == a.nwindows - 1)
			e = at_end;
		for (int ci = 0; ci < m->nclusters; ci++) {
			e += ea_features_energy(&feat, s, ci, m);
			susp += ea_features_suspend_share(&feat, s, ci) *
				m->suspend_power;
		}
		if (e != ea_energy_total(w) - w->suspended) {
			char x[64], y[64];

			fail_msg("%s window %zu: features give %s, the "
				 "accountant %s",
				 trace, s, ea_energy_fmt(x, e),
				 ea_energy_fmt(y, ea_energy_total(w) -
							  w->suspended));
		}
		/* suspended: the accountant's integer shares, within 1e-9 */
		assert_true(fabs(susp - ea_energy_to_double(w->suspended)) <=
			    1e-9 * (1 + fabs(susp)));
		sum += e;
	}
	/* and the total, per cluster */
	for (int ci = 0; ci < m->nclusters; ci++) {
		ea_energy_t e = 0;

		for (size_t s = 0; s < feat.nseg; s++)
			e += ea_features_energy(&feat, s, ci, m);
		assert_true(e == ea_energy_total(&a.clusters[ci].e) -
					 a.clusters[ci].e.suspended);
	}
	assert_true(sum == ea_energy_total(&a.total) - a.total.suspended);
	ea_features_free(&feat);
	ea_acct_free(&a);
	ea_run_free(&run);
	ea_coefs_free(&cs);
	ea_model_free(m);
	free(bounds);
}

static void test_identity_tc2(void **state)
{
	(void)state;
	/* seven periodic tasks on two clusters, idle state 0 */
	identity("traces/demo/tc2-seven-tasks.txt", "models/tc2.json", 10000000,
		 0, false);
	/* the same with 1 ms windows and an assumed OPP */
	identity("traces/demo/tc2-seven-tasks.txt", "models/tc2.json", 1000000,
		 800000, false);
}

static void test_identity_generated(void **state)
{
	(void)state;
	/* two clusters, OPP changes, both idle states with distinct prices,
	 * wakeups (tests/fit/gen-trace.py --end-exits two-cluster.json 3 0.12,
	 * idle exits at the very end) */
	identity(FIX "fit/gen-seed3.txt", FIX "fit/two-cluster.json", 10000000,
		 0, false);
	identity(FIX "fit/gen-seed3.txt", FIX "fit/two-cluster.json", 1000000,
		 0, false);
	identity(FIX "fit/gen-seed3.txt", FIX "fit/two-cluster.json", 333333, 0,
		 false);
}

static void test_identity_recordings(void **state)
{
	(void)state;
	/* a trace.dat recording (unknown time, no cpu_idle: pid-0 idle) */
	identity("traces/diff/light-1.dat", "models/tc2.json", 10000000, 0,
		 false);
	/* CPU-bound tasks on juno-r0 (assumed OPP for CPUs without
	 * cpu_frequency) */
	identity("traces/replay/five-busy.txt", "models/juno-r0.json", 5000000,
		 0, false);
}

static void test_identity_hotplug_suspend(void **state)
{
	(void)state;
	/* CPU hotplug: offline power; an absent CPU offline */
	identity(FIX "suspend/hotplug-work.txt", FIX "suspend/model.json",
		 250000000, 0, true);
	identity(FIX "suspend/hotplug.txt", FIX "suspend/model.json", 100000000,
		 0, false);
	/* a CPU brought online into a fully idle cluster: its wakeup */
	identity(FIX "suspend/hotplug-wake.txt", FIX "suspend/wake-model.json",
		 500000000, 0, false);
	/* suspend: suspend_power shared among the CPUs */
	identity(FIX "suspend/suspend.txt", FIX "suspend/model.json", 100000000,
		 0, false);
}

/*
 * NNLS by hand: A = [1 0; 0 1; 1 1], b = (2, -1, 1).
 * Unconstrained: A^T A = [2 1; 1 2], A^T b = (3, 0), x = (2, -1): x2 < 0.
 * With x2 = 0 (its gradient at the solution below is A_2^T (b - A x)
 * = (-1 - 0) + (1 - 1.5) = -1.5 < 0, so it stays at 0): minimise
 * (x1 - 2)^2 + 1 + (x1 - 1)^2: x1 = 1.5. Solution (1.5, 0).
 */
static void test_nnls_by_hand(void **state)
{
	const double A[] = {1, 0, 0, 1, 1, 1}, b[] = {2, -1, 1};
	double x[2];

	(void)state;
	assert_int_equal(ea_nnls(A, b, 3, 2, x), 0);
	assert_true(fabs(x[0] - 1.5) < 1e-12);
	assert_true(x[1] == 0);
}

/*
 * NNLS where every column stays: A = I (3 x 3), b = (1, 2, 3): x = b.
 * And where all go: b = (-1, -2, -3): x = 0.
 */
static void test_nnls_trivial(void **state)
{
	const double A[] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
	const double b1[] = {1, 2, 3}, b2[] = {-1, -2, -3};
	double x[3];

	(void)state;
	assert_int_equal(ea_nnls(A, b1, 3, 3, x), 0);
	for (int i = 0; i < 3; i++)
		assert_true(fabs(x[i] - b1[i]) < 1e-12);
	assert_int_equal(ea_nnls(A, b2, 3, 3, x), 0);
	for (int i = 0; i < 3; i++)
		assert_true(x[i] == 0);
}

/*
 * LSI by hand: min ||x - (1, 3)|| subject to x1 - x2 >= 0: the projection
 * of (1, 3) on the half-plane x1 >= x2 is the nearest point of the line
 * x1 = x2: (2, 2). With also x2 >= 2.5: the nearest point of x1 = x2 >= 2.5
 * to (1, 3) is (2.5, 2.5) (on the line, t = 2 is below 2.5).
 * And x >= 0 alone on (-1, 3): (0, 3).
 */
static void test_lsi_by_hand(void **state)
{
	const double E[] = {1, 0, 0, 1}, f[] = {1, 3}, f2[] = {-1, 3};
	const double G1[] = {1, -1}, h1[] = {0};
	const double G2[] = {1, -1, 0, 1}, h2[] = {0, 2.5};
	const double G3[] = {1, 0, 0, 1}, h3[] = {0, 0};
	const double G4[] = {1, 0, -1, 0}, h4[] = {1, 0}; /* x1 >= 1, x1 <= 0 */
	double x[2];

	(void)state;
	assert_int_equal(ea_lsi(E, f, 2, 2, G1, h1, 1, x), 0);
	assert_true(fabs(x[0] - 2) < 1e-12 && fabs(x[1] - 2) < 1e-12);
	assert_int_equal(ea_lsi(E, f, 2, 2, G2, h2, 2, x), 0);
	assert_true(fabs(x[0] - 2.5) < 1e-12 && fabs(x[1] - 2.5) < 1e-12);
	assert_int_equal(ea_lsi(E, f2, 2, 2, G3, h3, 2, x), 0);
	assert_true(fabs(x[0]) < 1e-12 && fabs(x[1] - 3) < 1e-12);
	/* no constraint: the least-squares solution */
	assert_int_equal(ea_lsi(E, f, 2, 2, NULL, NULL, 0, x), 0);
	assert_true(fabs(x[0] - 1) < 1e-12 && fabs(x[1] - 3) < 1e-12);
	/* contradictory constraints: infeasible */
	assert_int_equal(ea_lsi(E, f, 2, 2, G4, h4, 2, x), 1);
}

/*
 * Identifiability on a design with the static split: one cluster of two
 * CPUs (tests/fixtures/energy/two-cpu.json: 2 OPPs, 2 idle states). In
 * every window, core busy + core idle CPU-seconds = 2 x the window and
 * cluster busy + cluster idle seconds = the window: the columns are
 * dependent, and the rule holds the deepest idle state's core power.
 * Columns of offline, suspend and every wakeup are 0: held as unused.
 */
static void test_identify_split(void **state)
{
	struct ea_model *m;
	struct ea_coefs cs;
	struct ea_err err;
	double *A;
	bool *held;
	char(*reason)[160];
	const int nw = 12;
	int idx;

	(void)state;
	if (ea_model_load(&m, FIX "energy/two-cpu.json", &err))
		fail_msg("%s", err.msg);
	assert_int_equal(ea_coefs_build(&cs, m, &err), 0);
	A = calloc((size_t)nw * cs.n, sizeof(*A));
	held = calloc((size_t)cs.n, sizeof(*held));
	reason = calloc((size_t)cs.n, sizeof(*reason));
	assert_true(A && held && reason);
	srand(7);
	for (int w = 0; w < nw; w++) {
		double *r = A + (size_t)w * cs.n;
		/* window 1 s: CPU-seconds busy at each OPP, idle in each state
		 */
		double b0 = (rand() % 100) / 200.0, b1 = (rand() % 100) / 200.0;
		double c0 = (rand() % 100) / 100.0 *
			    (1 - b0 - b1 > 0 ? 1 - b0 - b1 : 0);
		/* the cluster busy between the busiest CPU's share and both's
		 */
		double cb0 = b0 * (0.5 + (rand() % 50) / 100.0);
		double cb1 = b1 * (0.5 + (rand() % 50) / 100.0);
		double ci0 = (1 - cb0 - cb1) * (rand() % 100) / 100.0;

		r[ea_coef_index(&cs, m, 0, EA_CK_CORE_BUSY, 0)] = b0;
		r[ea_coef_index(&cs, m, 0, EA_CK_CORE_BUSY, 1)] = b1;
		r[ea_coef_index(&cs, m, 0, EA_CK_CORE_IDLE, 0)] = c0;
		r[ea_coef_index(&cs, m, 0, EA_CK_CORE_IDLE, 1)] =
			2 - b0 - b1 - c0;
		r[ea_coef_index(&cs, m, 0, EA_CK_CLUSTER_BUSY, 0)] = cb0;
		r[ea_coef_index(&cs, m, 0, EA_CK_CLUSTER_BUSY, 1)] = cb1;
		r[ea_coef_index(&cs, m, 0, EA_CK_CLUSTER_IDLE, 0)] = ci0;
		r[ea_coef_index(&cs, m, 0, EA_CK_CLUSTER_IDLE, 1)] =
			1 - cb0 - cb1 - ci0;
	}
	assert_int_equal(ea_fit_identify(A, (size_t)nw, &cs, m, held, reason),
			 0);
	idx = ea_coef_index(&cs, m, 0, EA_CK_CORE_IDLE, 1);
	for (int i = 0; i < cs.n; i++) {
		bool power = cs.c[i].kind <= EA_CK_CLUSTER_IDLE;

		/* every power but the deepest core idle one is free */
		assert_int_equal(held[i], !power || i == idx);
	}
	assert_non_null(strstr(reason[idx], "combination"));
	assert_non_null(
		strstr(reason[ea_coef_index(&cs, m, 0, EA_CK_CORE_WAKEUP, 0)],
		       "no CPU woke"));
	free(A);
	free(held);
	free(reason);
	ea_coefs_free(&cs);
	ea_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identity_tc2),
		cmocka_unit_test(test_identity_generated),
		cmocka_unit_test(test_identity_recordings),
		cmocka_unit_test(test_identity_hotplug_suspend),
		cmocka_unit_test(test_nnls_by_hand),
		cmocka_unit_test(test_nnls_trivial),
		cmocka_unit_test(test_lsi_by_hand),
		cmocka_unit_test(test_identify_split),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
