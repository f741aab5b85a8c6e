// SPDX-License-Identifier: GPL-2.0-only
/*
 * The shared array growth rule (src/util/grow.c): the first capacity, the
 * doubling until the need fits, nothing done when it already fits, and
 * the sizes that overflow refused with the array left as it was.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "util/grow.h"

#define UNUSED __attribute__((unused))

static void test_first_and_doubling(void **state UNUSED)
{
	int *a = NULL;
	size_t cap = 0;

	/* empty: the first capacity, 16 */
	assert_int_equal(ea_grow((void **)&a, &cap, 1, sizeof(*a), 16), 0);
	assert_non_null(a);
	assert_int_equal(cap, 16);
	a[15] = 7;
	/* 16 fits in 16: unchanged */
	assert_int_equal(ea_grow((void **)&a, &cap, 16, sizeof(*a), 16), 0);
	assert_int_equal(cap, 16);
	/* 17: doubled once, 32; the items kept */
	assert_int_equal(ea_grow((void **)&a, &cap, 17, sizeof(*a), 16), 0);
	assert_int_equal(cap, 32);
	assert_int_equal(a[15], 7);
	/* 100: 32 -> 64 -> 128 */
	assert_int_equal(ea_grow((void **)&a, &cap, 100, sizeof(*a), 16), 0);
	assert_int_equal(cap, 128);
	a[99] = 1;
	free(a);
}

static void test_first_zero_means_one(void **state UNUSED)
{
	char *a = NULL;
	size_t cap = 0;

	/* first 0 counts as 1: need 3 -> 1, 2, 4 */
	assert_int_equal(ea_grow((void **)&a, &cap, 3, 1, 0), 0);
	assert_int_equal(cap, 4);
	free(a);
}

static void test_overflow_refused(void **state UNUSED)
{
	int *a = NULL;
	size_t cap = 0;

	assert_int_equal(ea_grow((void **)&a, &cap, 4, sizeof(*a), 4), 0);
	assert_int_equal(cap, 4);
	/* SIZE_MAX items of 4 bytes cannot be counted in a size_t */
	assert_int_equal(ea_grow((void **)&a, &cap, SIZE_MAX, sizeof(*a), 4), -1);
	assert_int_equal(cap, 4);
	/* SIZE_MAX / 2 + 2 items: doubling would pass SIZE_MAX */
	assert_int_equal(ea_grow((void **)&a, &cap, SIZE_MAX / 2 + 2, 1, 4), -1);
	assert_int_equal(cap, 4);
	assert_non_null(a);
	free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_and_doubling),
		cmocka_unit_test(test_first_zero_means_one),
		cmocka_unit_test(test_overflow_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
