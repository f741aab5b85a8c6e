// SPDX-License-Identifier: GPL-2.0-only
/*
 * State reconstruction on hand-written fixtures (tests/fixtures/state/):
 * each inference rule, with the expected times worked out in the fixture's
 * header comment and repeated here.
 */
#include <string.h>

#include "harness.h"
#include "state/pelt.h"

#define FIX "tests/fixtures/state/"

static const struct ea_task *task(const struct fixture_run *f, int pid)
{
	return ea_state_task(f->run.state, pid);
}

/* Idle from pid 0 time; state before the first and after the last event. */
static void test_swapper_idle(void **unused)
{
	struct fixture_run f;
	const struct ea_cpu_stats *c0, *c1;

	fixture_run(&f, FIX "swapper-idle.txt", NULL, NULL);
	assert_int_equal(f.st.ncpus, 2);
	c0 = &f.st.cpus[0];
	c1 = &f.st.cpus[1];
	/* CPU0: a runs [0,300] us, pid 0 [300,1000]. */
	assert_int_equal(c0->busy_ns, 300 * US);
	assert_int_equal(c0->idle_ns, 700 * US);
	assert_int_equal(c0->inferred_ns, 700 * US);
	assert_int_equal(c0->inferred_swapper_ns, 700 * US);
	assert_false(c0->has_cpuidle);
	/* CPU1: pid 0 [0,400] before its first event, b runs [400,1000]. */
	assert_int_equal(c1->busy_ns, 600 * US);
	assert_int_equal(c1->idle_ns, 400 * US);
	assert_int_equal(c1->inferred_ns, 400 * US);
	assert_int_equal(c1->inferred_start_ns, 400 * US);
	/* Idle time is in the assumed state 0. */
	assert_int_equal(c0->idle[0].ns, 700 * US);
	assert_int_equal(task(&f, 10)->runtime_ns, 300 * US);
	assert_int_equal(task(&f, 20)->runtime_ns, 600 * US);
	assert_int_equal(f.st.counts.by_type[EA_EV_SWITCH], 4);
	fixture_free(&f);
}

/* cpu_idle with two states; residencies; CPU1's tail after its last event. */
static void test_cpuidle_residency(void **unused)
{
	struct fixture_run f;
	const struct ea_cpu_stats *c0, *c1;

	fixture_run(&f, FIX "cpuidle-freq.txt", NULL, NULL);
	c0 = &f.st.cpus[0];
	c1 = &f.st.cpus[1];
	assert_true(c0->has_cpuidle && c1->has_cpuidle);
	/* CPU0 busy [100,500] + [800,1000] = 600 us; OFF [0,100] + [500,800]. */
	assert_int_equal(c0->busy_ns, 600 * US);
	assert_int_equal(c0->idle[1].ns, 400 * US);
	assert_int_equal(c0->idle[1].entries, 2);
	assert_int_equal(c0->idle[1].min_ns, 100 * US);
	assert_int_equal(c0->idle[1].max_ns, 300 * US);
	assert_int_equal(c0->idle[1].sum_ns / c0->idle[1].periods, 200 * US);
	/* CPU0 exits idle at 100 and 800. */
	assert_int_equal(c0->idle_exits, 2);
	/* CPU1: WFI [0,200], busy [200,400], OFF [400,1000] (inferred tail). */
	assert_int_equal(c1->idle[0].ns, 200 * US);
	assert_int_equal(c1->busy_ns, 200 * US);
	assert_int_equal(c1->idle[1].ns, 600 * US);
	assert_int_equal(c1->inferred_end_ns, 600 * US);
	assert_int_equal(c1->inferred_ns, 600 * US);
	/* Frequencies: CPU0 1 GHz for [0,300], 2 GHz for [300,1000]. */
	assert_int_equal(c0->nfreqs, 2);
	assert_int_equal(c0->freqs[0].freq_khz, 1000000);
	assert_int_equal(c0->freqs[0].ns, 300 * US);
	assert_int_equal(c0->freqs[1].ns, 700 * US);
	fixture_free(&f);
}

/* A lost switch-in is resynchronised at the task's wakeup; a switch-in with
 * no wakeup infers one. */
static void test_resync_and_missing_wakeup(void **unused)
{
	struct fixture_run f;
	const struct ea_cpu_stats *c1;

	fixture_run(&f, FIX "resync.txt", NULL, NULL);
	c1 = &f.st.cpus[1];
	assert_int_equal(f.st.counts.resyncs, 1);
	assert_int_equal(f.st.counts.resync_from_wakeup, 1);
	/* a [0,100] + b [400,600] + a [800,900]; treating CPU1 as idle until
	 * b's switch-out would give 200 us, busy since 100 us 700 us. */
	assert_int_equal(c1->busy_ns, 400 * US);
	assert_int_equal(c1->idle_ns, 600 * US);
	assert_int_equal(c1->inferred_resync_ns, 200 * US);
	assert_int_equal(task(&f, 20)->runtime_ns, 200 * US);
	assert_int_equal(task(&f, 20)->wakeups, 1);
	assert_int_equal(task(&f, 20)->wait_ns, 0);
	assert_int_equal(task(&f, 10)->runtime_ns, 200 * US);
	assert_int_equal(task(&f, 10)->wakeups_inferred, 1);
	assert_int_equal(task(&f, 10)->activations, 1);
	assert_int_equal(f.st.counts.wakeups_inferred, 1);
	/* CPU0 idle from pid 0 before its first event at 1000 us. */
	assert_int_equal(f.st.cpus[0].idle_ns, 1000 * US);
	assert_int_equal(f.st.cpus[0].inferred_start_ns, 1000 * US);
	fixture_free(&f);
}

/*
 * PELT, worked by hand with the kernel's formulas: running at full capacity
 * for exactly 32 periods from zero, accumulate_sum() adds
 *   c1 = decay(1024, 32) = 512
 *   c2 = LOAD_AVG_MAX - decay(LOAD_AVG_MAX, 32) - 1024 = 47742 - 23870 - 1024
 *      = 22848
 *   c3 = 0
 * so util_sum = 23360 x 1024 and util_avg = util_sum / (47742 - 1024 + 0)
 * = 23920640 / 46718 = 512 (integer division). After 1 s it saturates within
 * 1% of 1024; 32 periods of sleep then halve it (y^32 = 1/2).
 */
static void test_pelt(void **unused)
{
	struct ea_pelt p = { 0 };
	uint32_t u;

	ea_pelt_update(&p, 1000000, false, 1024);
	u = ea_pelt_update(&p, 1000000 + 32 * 1024 * 1024ull, true, 1024);
	assert_int_equal(u, 512);
	u = ea_pelt_update(&p, 1000000000ull, true, 1024);
	assert_in_range(u, 1014, 1024);
	u = ea_pelt_update(&p, 1000000000ull + 32 * 1024 * 1024ull, false, 1024);
	assert_in_range(u, 507, 515);
	/* Half capacity halves what running adds. */
	memset(&p, 0, sizeof(p));
	ea_pelt_update(&p, 0, false, 512);
	u = ea_pelt_update(&p, 1000000000ull, true, 512);
	assert_in_range(u, 507, 512);
	assert_int_equal(ea_pelt_decay(47742, 32), 23870);	/* y^32 = 0.5 */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_swapper_idle),
		cmocka_unit_test(test_cpuidle_residency),
		cmocka_unit_test(test_resync_and_missing_wakeup),
		cmocka_unit_test(test_pelt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
