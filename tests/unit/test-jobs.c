// SPDX-License-Identifier: GPL-2.0-only
/*
 * ea_input_jobs_for(): the one rule for how many threads a reader of one
 * file uses. A compressed file gets ea_input_jobs(), and an uncompressed
 * one of EA_APART_MIN_BYTES of data or more; a smaller one 1 unless -j
 * (ea_input_set_jobs()) or EATRACE_JOBS asked.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>

#include "eatrace/input.h"

static int reset(void **state)
{
	(void)state;
	ea_input_set_jobs(0);
	unsetenv("EATRACE_JOBS");
	return 0;
}

/* nothing asked: the CPU-count default (2 with two CPUs or more) for a
 * compressed file and an uncompressed one of EA_APART_MIN_BYTES or more */
static void test_default(void **state)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int dflt = cpus >= 2 ? 2 : 1;

	assert_false(ea_input_jobs_explicit());
	assert_int_equal(ea_input_jobs_for(true, 0), dflt);
	assert_int_equal(ea_input_jobs_for(false, 0), 1);
	assert_int_equal(ea_input_jobs_for(false, EA_APART_MIN_BYTES - 1), 1);
	assert_int_equal(ea_input_jobs_for(false, EA_APART_MIN_BYTES), dflt);
	/* an empty EATRACE_JOBS asks nothing */
	setenv("EATRACE_JOBS", "", 1);
	assert_int_equal(ea_input_jobs_for(false, 0), 1);
	assert_int_equal(ea_input_jobs_for(false, EA_APART_MIN_BYTES), dflt);
}

static void test_option(void **state)
{
	ea_input_set_jobs(4);
	assert_int_equal(ea_input_jobs_for(true, 0), 4);
	assert_int_equal(ea_input_jobs_for(false, 0), 4);
	ea_input_set_jobs(1);
	assert_int_equal(ea_input_jobs_for(true, 0), 1);
	assert_int_equal(ea_input_jobs_for(false, 0), 1);
	assert_int_equal(ea_input_jobs_for(false, EA_APART_MIN_BYTES), 1);
}

static void test_env(void **state)
{
	setenv("EATRACE_JOBS", "3", 1);
	assert_int_equal(ea_input_jobs_for(true, 0), 3);
	assert_int_equal(ea_input_jobs_for(false, 0), 3);
	setenv("EATRACE_JOBS", "1", 1);
	assert_int_equal(ea_input_jobs_for(false, EA_APART_MIN_BYTES), 1);
	/* -j wins over the environment */
	ea_input_set_jobs(2);
	assert_int_equal(ea_input_jobs_for(false, 0), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_default, reset),
		cmocka_unit_test_setup(test_option, reset),
		cmocka_unit_test_setup(test_env, reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
