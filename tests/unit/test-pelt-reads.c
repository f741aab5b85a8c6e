// SPDX-License-Identifier: GPL-2.0-only
/*
 * A PELT signal read at many instants, updated at few (state/pelt-reads.h):
 * skipping the reads that stay within the signal's period and making the
 * last of them before the next update must leave the very figures an
 * update at every read leaves. The reference is that eager reader, made of
 * ea_pelt_update() calls (kernel/sched/pelt.c's arithmetic, tested in
 * test-energy.c and test-replay.c), and one case worked by hand.
 */
#include <stdlib.h>

#include "harness.h"
#include "state/pelt-reads.h"

static bool same(const struct ea_pelt *a, const struct ea_pelt *b)
{
	return a->last_ns == b->last_ns && a->util_sum == b->util_sum &&
	       a->period_contrib == b->period_contrib &&
	       a->util_avg == b->util_avg && a->started == b->started;
}

/*
 * By hand, running at cap 1024 from t = 0 (the first update starts the
 * signal: last_ns 0, nothing summed):
 *  - a read at 500 000 ns, within the first period: d = 500000 >> 10 =
 *    488 us, last_ns 488 x 1024 = 499 712, period_contrib 488, util_sum
 *    488 x 1024 = 499 712, util_avg still 0;
 *  - the update at 1 100 000 ns: d = (1100000 - 499712) >> 10 = 586 us,
 *    488 + 586 = 1074 = one period and 50 us: util_sum decayed once,
 *    499712 x y = (499712 x 4202935002) >> 32 = 489 004 (y^1 in the
 *    kernel's table: 0xffffffff x 0.5^(1/32), truncated, 4202935002);
 *    the contribution: the 1024 - 488 = 536 us left of the old period
 *    decayed once, (536 x 4202935002) >> 32 = 524, no whole period
 *    between (47742 - 46718 - 1024 = 0, 46718 = 47742 decayed once), the
 *    50 us of the new one: 574 us x 1024 = 587 776; util_sum 1 076 780,
 *    last_ns 1074 x 1024 = 1 099 776, period_contrib 50, util_avg
 *    1076780 / (47742 - 1024 + 50) = 23.
 * Without the read, the update at 1 100 000 ns decays nothing (util_sum 0)
 * and adds the whole 1024 us decayed once, (1024 x 4202935002) >> 32 =
 * 1002, and the 50: 1052 x 1024 = 1 077 248. That is why a skipped read
 * must still be made before the update that crosses.
 */
static void by_hand(void **unused)
{
	struct ea_pelt eager = {0}, lazy = {0}, skipped = {0};

	(void)unused;
	ea_pelt_update(&eager, 0, true, 1024);
	ea_pelt_update(&lazy, 0, true, 1024);
	ea_pelt_update(&skipped, 0, true, 1024);
	assert_int_equal(ea_pelt_next_period(&lazy), 1024 * 1024);

	ea_pelt_update(&eager, 500000, true, 1024);
	assert_int_equal(eager.util_sum, 499712);
	assert_int_equal(eager.period_contrib, 488);
	/* the lazy reader skips it: 500 000 is before the next period */
	assert_true(500000 < ea_pelt_next_period(&lazy));

	ea_pelt_update(&eager, 1100000, true, 1024);
	assert_int_equal(
		ea_pelt_update_read(&lazy, 500000, 1100000, true, 1024), 23);
	ea_pelt_update(&skipped, 1100000, true, 1024);
	assert_int_equal(eager.util_sum, 1076780);
	assert_int_equal(eager.last_ns, 1099776);
	assert_int_equal(eager.period_contrib, 50);
	assert_int_equal(eager.util_avg, 23);
	assert_true(same(&eager, &lazy));
	assert_int_equal(skipped.util_sum, 1077248);
}

static uint64_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/*
 * Random runs: reads (often microseconds apart, sometimes several periods,
 * sometimes at the same instant or right at the period's end) and changes
 * of the inputs (an update before the change, as sim-load.c's joins and
 * leaves make); the lazy reader reads only at or past
 * ea_pelt_next_period(). After every step both readers' util_avg agree,
 * and after every update the whole signal.
 */
static void random_runs(void **unused)
{
	uint64_t x = 88172645463325252ull;

	(void)unused;
	for (int run = 0; run < 200; run++) {
		struct ea_pelt eager = {0}, lazy = {0};
		uint64_t now = rnd(&x) % 5000000, read_t = 0;
		bool running = rnd(&x) & 1;
		uint32_t cap = (uint32_t)(rnd(&x) % 1025);
		int skipped = 0, updated = 0;

		for (int i = 0; i < 3000; i++) {
			uint64_t r = rnd(&x) % 100;

			if (r < 60)
				now += rnd(&x) % 40000; /* up to 39 us */
			else if (r < 70)
				now += rnd(&x) % 5000000; /* periods */
			else if (r < 75 && lazy.started &&
				 ea_pelt_next_period(&lazy) > now + 1)
				now = ea_pelt_next_period(&lazy) -
				      rnd(&x) % 2; /* at, or 1 ns before */
			/* else the same instant */
			if (rnd(&x) % 20 == 0) {
				/* the inputs change: both update first */
				ea_pelt_update(&eager, now, running, cap);
				ea_pelt_update_read(&lazy, read_t, now, running,
						    cap);
				assert_true(same(&eager, &lazy));
				running = rnd(&x) & 1;
				cap = (uint32_t)(rnd(&x) % 1025);
				updated++;
				continue;
			}
			/* a read */
			ea_pelt_update(&eager, now, running, cap);
			if (now < ea_pelt_next_period(&lazy)) {
				read_t = now;
				skipped++;
			} else {
				ea_pelt_update_read(&lazy, read_t, now, running,
						    cap);
				assert_true(same(&eager, &lazy));
				updated++;
			}
			assert_int_equal(eager.util_avg, lazy.util_avg);
		}
		/* both kinds happened */
		assert_true(skipped > 100 && updated > 10);
		ea_pelt_update(&eager, now + 3000000, running, cap);
		ea_pelt_update_read(&lazy, read_t, now + 3000000, running, cap);
		assert_true(same(&eager, &lazy));
	}
}

/* A read before the signal's first update starts it: never skipped. */
static void not_started(void **unused)
{
	struct ea_pelt p = {0};

	(void)unused;
	assert_int_equal(ea_pelt_next_period(&p), 0);
	ea_pelt_update_read(&p, 0, 7000, true, 512);
	assert_true(p.started);
	assert_int_equal(p.last_ns, 7000);
	assert_int_equal(ea_pelt_next_period(&p), 7000 + 1024 * 1024);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(by_hand),
		cmocka_unit_test(random_runs),
		cmocka_unit_test(not_started),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
