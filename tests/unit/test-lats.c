// SPDX-License-Identifier: GPL-2.0-only
/*
 * A run's latencies in 4 bytes each (src/replay/lats.c): the percentiles
 * (nearest rank: the value at index ceil(n p / 100) - 1 of the sorted
 * values) and the max, with values of 2^32 ns and more and with zeros,
 * worked out by hand below, and on many values against a sort.
 */
#include <stdlib.h>

#include "harness.h"
#include "replay/simulator.h"

#define G (1ull << 32)

static void put_all(struct sim_lats *l, const uint64_t *v, size_t n)
{
	assert_int_equal(sim_lats_init(l, 4), 0);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(sim_lats_put(l, v[i]), 0);
	assert_int_equal(l->n, n);
}

/*
 * Sorted: 0 0 0 1 5 7 9 G+1 G+3 3G. n = 10: p50 at index 4 (5), p90 at
 * index 8 (G + 3), p99 at index 9 (3G), max 3G.
 */
static void by_hand(void **unused)
{
	const uint64_t v[] = {0, 3 * G, 7, G + 3, 0, 1, G + 1, 9, 5, 0};
	struct sim_lats l;
	uint64_t q[4] = {0};

	put_all(&l, v, 10);
	assert_int_equal(l.nzero, 3);
	sim_lats_percentiles(&l, q);
	assert_true(q[0] == 5 && q[1] == G + 3 && q[2] == 3 * G &&
		    q[3] == 3 * G);
	sim_lats_free(&l);
}

/* Nine zeros and a 4: p50 (index 4) and p90 (index 8) are 0, p99
 * (index 9) and the max 4; all zeros: all 0. */
static void zeros(void **unused)
{
	const uint64_t v[] = {0, 0, 0, 0, 4, 0, 0, 0, 0, 0};
	const uint64_t z[] = {0, 0, 0};
	struct sim_lats l;
	uint64_t q[4] = {9, 9, 9, 9};

	put_all(&l, v, 10);
	sim_lats_percentiles(&l, q);
	assert_true(q[0] == 0 && q[1] == 0 && q[2] == 4 && q[3] == 4);
	sim_lats_free(&l);
	put_all(&l, z, 3);
	q[0] = q[1] = q[2] = q[3] = 9;
	sim_lats_percentiles(&l, q);
	assert_true(q[0] == 0 && q[1] == 0 && q[2] == 0 && q[3] == 0);
	/* cleared: empty, the percentiles left alone */
	sim_lats_clear(&l);
	assert_int_equal(l.n, 0);
	q[0] = 7;
	sim_lats_percentiles(&l, q);
	assert_true(q[0] == 7);
	sim_lats_free(&l);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* 100 001 values drawn over [0, 5G) with many repeats and zeros: the
 * percentiles are the sorted copy's values at the nearest ranks. */
static void against_sort(void **unused)
{
	const size_t n = 100001;
	uint64_t *v = malloc(n * sizeof(*v)), x = 12345, q[4];
	struct sim_lats l;
	const unsigned p[3] = {50, 90, 99};

	assert_non_null(v);
	for (size_t i = 0; i < n; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		v[i] = (x >> 33) % 7 == 0 ? 0
					  : (x >> 11) % (5 * G) / 1000 * 1000;
	}
	put_all(&l, v, n);
	sim_lats_percentiles(&l, q);
	qsort(v, n, sizeof(*v), cmp_u64);
	for (int i = 0; i < 3; i++)
		assert_true(q[i] == v[(n * p[i] + 99) / 100 - 1]);
	assert_true(q[3] == v[n - 1]);
	assert_true(v[n - 1] >= 4 * G); /* values past 32 bits were there */
	sim_lats_free(&l);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(by_hand),
		cmocka_unit_test(zeros),
		cmocka_unit_test(against_sort),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
