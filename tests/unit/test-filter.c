// SPDX-License-Identifier: GPL-2.0-only
/* CPU lists and task selectors of --cpus and --task (eatrace/filter.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>

#include "eatrace/filter.h"

static void test_cpu_lists(void **unused)
{
	static const char *const bad[] = {"",	  ",",	"0,",	 ",0",	"2-1",
					  "1-",	  "-1", "a",	 "0 1", "1,,2",
					  "4096", "+1", "0-4096"};
	struct ea_filter f = {0};
	struct ea_err err;
	char b[64];
	bool *m;
	int n;

	assert_int_equal(ea_cpu_list_parse("0-1,4", &m, &n), 0);
	assert_int_equal(n, 5);
	assert_true(m[0] && m[1] && !m[2] && !m[3] && m[4]);
	assert_string_equal(ea_cpu_list_fmt(b, sizeof(b), m, n), "0-1,4");
	free(m);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(ea_cpu_list_parse(bad[i], &m, &n), -1);
		assert_null(m);
	}
	/* --cpus twice: the union, shown as ranges */
	assert_int_equal(ea_filter_add_cpus(&f, "6,2", &err), 0);
	assert_int_equal(ea_filter_add_cpus(&f, "3-4,0", &err), 0);
	assert_string_equal(ea_cpu_list_fmt(b, sizeof(b), f.cpus, f.ncpus),
			    "0,2-4,6");
	assert_true(ea_filter_cpu(&f, 6) && !ea_filter_cpu(&f, 5) &&
		    !ea_filter_cpu(&f, 7) && !ea_filter_cpu(&f, -1));
	assert_string_equal(
		ea_filter_describe(b, sizeof(b), f.cpus, f.ncpus, NULL),
		"CPUs 0,2-4,6");
	assert_int_equal(ea_filter_add_cpus(&f, "x", &err), -1);
	assert_string_equal(
		err.msg,
		"--cpus: 'x' is not a list of CPUs (as 0-1,4; at most 4095)");
	/* cut short */
	assert_string_equal(ea_cpu_list_fmt(b, 6, f.cpus, f.ncpus), "0,...");
	ea_filter_free(&f);
	/* no filter: every CPU and task */
	assert_true(ea_filter_cpu(NULL, 3) && ea_filter_cpu(&f, 3));
	assert_true(ea_filter_task(NULL, 3, "x") && ea_filter_task(&f, 3, "x"));
}

static void test_task_selectors(void **unused)
{
	struct ea_filter f = {0};
	struct ea_err err;
	char b[128];

	assert_int_equal(ea_filter_add_task(&f, "1234", &err), 0);
	assert_int_equal(ea_filter_add_task(&f, "kworker/*", &err), 0);
	assert_int_equal(ea_filter_add_task(&f, "[idle]", &err), 0);
	assert_true(ea_filter_task(&f, 1234, "anything"));
	assert_false(ea_filter_task(&f, 12345, "bash"));
	assert_true(ea_filter_task(&f, 7, "kworker/0:1"));
	assert_false(ea_filter_task(&f, 7, "kworker"));
	/* a pattern also matches its own text: "[idle]" (as a pattern, the
	 * one-character names i, d, l, e) */
	assert_true(ea_filter_task(&f, 0, "[idle]"));
	assert_true(ea_filter_task(&f, 0, "i"));
	assert_false(ea_filter_task(&f, 0, "idle"));
	assert_false(ea_filter_task(&f, 5, NULL));
	/* only the selectors that match are marked */
	assert_true(ea_filter_task_hit(&f, 9, "kworker/1:0"));
	assert_false(f.tasks[0].matched);
	assert_true(f.tasks[1].matched);
	assert_string_equal(ea_filter_tasks_fmt(b, sizeof(b), &f),
			    "1234 (none), kworker/*, [idle] (none)");
	ea_filter_free(&f);
	assert_int_equal(ea_filter_add_task(&f, "", &err), -1);
	assert_int_equal(ea_filter_add_task(&f, "2147483648", &err), -1);
	assert_string_equal(
		err.msg, "--task: '2147483648' is not a PID (0 to 2147483647)");
	assert_int_equal(ea_filter_add_task(&f, "2147483647", &err), 0);
	assert_true(ea_filter_task(&f, 2147483647, ""));
	ea_filter_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_lists),
		cmocka_unit_test(test_task_selectors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
