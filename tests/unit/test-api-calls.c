// SPDX-License-Identifier: GPL-2.0-only
/*
 * The library's calls (src/output/api.c, api-replay.c): a caller's
 * ea_progress_enabled is as it was after each, failed or not; a --policy
 * list too long for ea_replay_json's buffer is an error, not cut short.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "eatrace/batch.h"
#include "eatrace/eatrace.h"
#include "eatrace/progress.h"

#define UNUSED __attribute__((unused))
#define MISSING "no-such-trace.dat"

static void test_progress_kept(void **state UNUSED)
{
	struct ea_replay_request rq = { .model = "tc2", .policies = "bogus" };
	char *out = NULL, *err = NULL;

	for (int on = 0; on <= 1; on++) {
		ea_progress_enabled = on;
		assert_int_equal(ea_replay_json(MISSING, &rq, &out, &err), -1);
		ea_free(err);
		assert_int_equal(ea_progress_enabled, on);
		assert_int_equal(ea_batch_rows_text(MISSING, "tc2", "bogus", NULL, &out, &err), -1);
		ea_free(err);
		assert_int_equal(ea_progress_enabled, on);
		assert_int_not_equal(ea_stats_json(MISSING, &out, &err), 0);
		ea_free(out);
		ea_free(err);
		assert_int_equal(ea_progress_enabled, on);
	}
}

/* "recorded", 300 commas, "bogus": cut at 255 characters the bad name was
 * lost (and the missing file reported instead) */
static void test_long_policy_list(void **state UNUSED)
{
	char list[400];
	struct ea_replay_request rq = { .model = "tc2", .policies = list };
	char *out = NULL, *err = NULL;

	strcpy(list, "recorded");
	memset(list + 8, ',', 300);
	strcpy(list + 308, "bogus");
	assert_int_equal(ea_replay_json(MISSING, &rq, &out, &err), -1);
	assert_null(out);
	assert_non_null(err);
	assert_non_null(strstr(err, "--policy: list longer than 255 characters"));
	ea_free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_progress_kept),
		cmocka_unit_test(test_long_policy_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
