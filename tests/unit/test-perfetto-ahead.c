// SPDX-License-Identifier: GPL-2.0-only
/*
 * The protobuf --perfetto file's packets encoded ahead, during the run
 * (ea_perfetto_ahead_start(), src/output/perfetto-pb.c and
 * perfetto-ahead.c): the file is byte for byte the one written without,
 * whether the thread encoded every change or stopped early at the bytes
 * it may hold (1 byte, a few packets, more than the file), with no cap and
 * with caps that cut the slices early, late and not at all (where the
 * encoded part is used and where it is dropped), on traces with many
 * tasks (names interned at the end) and on a text trace; an encoder
 * stopped before the run, or after a run whose timeline was never done
 * (the error paths), is joined and freed; a JSON writer ignores it.
 */
#include <string.h>

#include "perfetto-render.h"

static const char *const traces[] = {
	"traces/cfs/fork-loaded.dat",
	"traces/cfs/mixed.dat",
	"traces/demo/tc2-seven-tasks.txt",
};

/*
 * The protobuf of trace priced with tc2, capped at cap bytes (0: none),
 * with an encoder ahead holding at most max bytes (use AHEAD_USED), or
 * none (perfetto-render.h).
 */
static char *render(const char *trace, enum use use, long long max,
		    long long cap, size_t *len)
{
	return perfetto_render(trace, EA_PERFETTO_PROTOBUF, EA_PERFETTO_PROTOBUF,
			       use, max, cap, len, NULL);
}

static void test_same_bytes(void **state)
{
	(void)state;
	for (size_t k = 0; k < sizeof(traces) / sizeof(traces[0]); k++) {
		size_t full_len;
		char *full = render(traces[k], AHEAD_NONE, 0, 0, &full_len);
		/* caps: none, cutting early, late, just past the end */
		long long caps[] = {0, (long long)full_len / 5,
				    (long long)full_len * 9 / 10,
				    (long long)full_len + 1};
		long long maxes[] = {1, 200, 5000, 1ll << 30};

		assert_true(full_len > 1000);
		for (size_t c = 0; c < sizeof(caps) / sizeof(caps[0]); c++) {
			size_t want_len;
			char *want = render(traces[k], AHEAD_NONE, 0, caps[c],
					    &want_len);

			for (size_t x = 0; x < sizeof(maxes) / sizeof(maxes[0]);
			     x++) {
				size_t len;
				char *got = render(traces[k], AHEAD_USED,
						   maxes[x], caps[c], &len);

				if (len != want_len || memcmp(got, want, len))
					fail_msg("%s, cap %lld, ahead %lld: "
						 "%zu bytes, not %zu or not the same",
						 traces[k], caps[c], maxes[x],
						 len, want_len);
				free(got);
			}
			free(want);
		}
		free(full);
	}
}

static void test_error_paths(void **state)
{
	size_t len;

	(void)state;
	assert_null(render(traces[1], AHEAD_FREED_FIRST, 0, 0, &len));
	assert_null(render(traces[1], AHEAD_UNSEALED, 0, 0, &len));
	assert_null(render(traces[1], AHEAD_UNSEALED, 1, 0, &len));
}

/* A JSON writer ignores it; an encoder never used is freed whole. */
static void test_json_ignores(void **state)
{
	struct ea_state_config cfg = {.ncpus = -1};
	struct ea_acct_config acfg = {0};
	struct ea_perfetto_ahead *a;
	struct ea_timeline tl;
	struct ea_consumer cons[2];
	struct ea_perfetto *pf;
	struct ea_model *m;
	struct ea_acct acct;
	struct ea_run run;
	struct ea_err err;
	FILE *f = tmpfile();

	(void)state;
	assert_non_null(f);
	assert_int_equal(ea_model_load(&m, "models/tc2.json", &err), 0);
	assert_int_equal(ea_acct_init(&acct, m, &acfg, &err), 0);
	ea_acct_state_config(&acct, &cfg);
	cfg.ncpus = -1;
	assert_int_equal(ea_timeline_init(&tl, &acct, 0, 20000, true), 0);
	a = ea_perfetto_ahead_start(&tl, 0);
	assert_non_null(a);
	/* one encoder a timeline */
	cons[0] = (struct ea_consumer){&ea_acct_live_ops, &acct};
	cons[1] = (struct ea_consumer){&ea_timeline_ops, &tl};
	assert_int_equal(ea_run(&run, traces[2], &cfg, cons, 2, &err), 0);
	assert_int_equal(ea_acct_done(&acct, run.state, &err), 0);
	assert_int_equal(ea_timeline_done(&tl, run.state, &err), 0);
	assert_int_equal(ea_perfetto_begin(&pf, f), 0);
	ea_perfetto_use_ahead(pf, a);
	ea_perfetto_process(pf, "actual", &tl, run.state, 0);
	assert_int_equal(ea_perfetto_end(pf), 0);
	assert_true(ftell(f) > 100);
	ea_perfetto_ahead_free(a);
	ea_perfetto_ahead_free(NULL);
	ea_run_free(&run);
	fclose(f);
	ea_timeline_free(&tl);
	ea_acct_free(&acct);
	ea_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_bytes),
		cmocka_unit_test(test_error_paths),
		cmocka_unit_test(test_json_ignores),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
