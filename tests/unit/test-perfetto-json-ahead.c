// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON --perfetto file's slices and counters encoded ahead, during the
 * run (ea_perfetto_ahead_start_as(..., EA_PERFETTO_JSON, ...),
 * src/output/perfetto-json-ahead.c): the file is byte for byte the one
 * written without, whatever the encoder may hold (1 byte, a few slices,
 * the cap, more than the file) and wherever the cap cuts (none, early,
 * late, just past the end); the cap's cut is found from the text and the
 * task names (holes filled at the end: traces with many tasks, and a text
 * trace); it is taken whenever it reached the record's end or the cap's
 * cut (an encoder holding at most the cap always does: the CLI's use), and
 * not when it stopped short of both (no cap, too little held); a failed
 * run's encoder is joined and freed; a protobuf writer ignores it.
 *
 * Expected values: the JSON written without an encoder (the pass at the
 * end of the run, the behaviour before the encoder existed).
 */
#include <string.h>

#include "perfetto-render.h"

static const char *const traces[] = {
	"traces/cfs/fork-loaded.dat",
	"traces/cfs/mixed.dat",
	"traces/demo/tc2-seven-tasks.txt",
};

/*
 * The JSON encoder's file: trace priced with tc2 (format fmt), capped at
 * cap bytes (0: none), with an encoder ahead holding at most max bytes
 * (use AHEAD_USED, *taken: whether the file took it), or none
 * (perfetto-render.h).
 */
static char *render(const char *trace, enum ea_perfetto_format fmt,
		    enum use use, long long max, long long cap, size_t *len,
		    bool *taken)
{
	return perfetto_render(trace, EA_PERFETTO_JSON, fmt, use, max, cap,
			       len, taken);
}

static void test_same_bytes(void **state)
{
	bool taken;

	(void)state;
	for (size_t k = 0; k < sizeof(traces) / sizeof(traces[0]); k++) {
		size_t full_len;
		char *full = render(traces[k], EA_PERFETTO_JSON, AHEAD_NONE, 0,
				    0, &full_len, &taken);
		/* caps: none, cutting early, late, just past the end */
		long long caps[] = {0, (long long)full_len / 5,
				    (long long)full_len * 9 / 10,
				    (long long)full_len + 1};
		/* the most it holds: 0 stands for the cap itself */
		long long maxes[] = {1, 200, 5000, 0, 1ll << 30};

		assert_true(full_len > 1000);
		for (size_t c = 0; c < sizeof(caps) / sizeof(caps[0]); c++) {
			size_t want_len;
			char *want = render(traces[k], EA_PERFETTO_JSON,
					    AHEAD_NONE, 0, caps[c], &want_len,
					    &taken);

			/* the early cap cuts */
			if (c == 1)
				assert_true(want_len < full_len);
			for (size_t x = 0; x < sizeof(maxes) / sizeof(maxes[0]);
			     x++) {
				long long max = maxes[x] ? maxes[x] : caps[c];
				size_t len;
				char *got = render(traces[k], EA_PERFETTO_JSON,
						   AHEAD_USED, max, caps[c],
						   &len, &taken);

				if (len != want_len || memcmp(got, want, len))
					fail_msg("%s, cap %lld, ahead %lld: "
						 "%zu bytes, not %zu or not the same",
						 traces[k], caps[c], max, len,
						 want_len);
				/* held all, or the cap (which cuts, or is
				 * past the end: all): taken */
				if (max == 1ll << 30 || (!maxes[x] && caps[c]))
					assert_true(taken);
				/* one byte: stopped at the first check, short
				 * of the end, and of the cap but when that cuts
				 * at once */
				if (max == 1 && !caps[c])
					assert_false(taken);
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
	bool taken;

	(void)state;
	assert_null(render(traces[1], EA_PERFETTO_JSON, AHEAD_FREED_FIRST, 0,
			   0, &len, &taken));
	assert_null(render(traces[1], EA_PERFETTO_JSON, AHEAD_UNSEALED, 0, 0,
			   &len, &taken));
	assert_null(render(traces[1], EA_PERFETTO_JSON, AHEAD_UNSEALED, 1, 0,
			   &len, &taken));
}

/* A protobuf writer ignores a JSON encoder: the file as without. */
static void test_protobuf_ignores(void **state)
{
	size_t want_len, len;
	bool taken;
	char *want = render(traces[2], EA_PERFETTO_PROTOBUF, AHEAD_NONE, 0, 0,
			    &want_len, &taken);
	char *got = render(traces[2], EA_PERFETTO_PROTOBUF, AHEAD_USED, 0, 0,
			   &len, &taken);

	(void)state;
	assert_false(taken);
	assert_int_equal(len, want_len);
	assert_memory_equal(got, want, len);
	free(want);
	free(got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_bytes),
		cmocka_unit_test(test_error_paths),
		cmocka_unit_test(test_protobuf_ignores),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
