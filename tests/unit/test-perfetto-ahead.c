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

/*
 * A JSON writer ignores it: the file is the one written without (more
 * than 100 bytes), the encoder not taken; an encoder never used is freed
 * whole (perfetto-render.h frees it).
 */
static void test_json_ignores(void **state)
{
	const struct render_opts with = {.fmt = EA_PERFETTO_JSON,
					 .use = AHEAD_USED,
					 .ahead_fmt = EA_PERFETTO_PROTOBUF};
	const struct render_opts without = {.fmt = EA_PERFETTO_JSON};
	struct render_out got = {0}, want = {0};
	char *gbuf, *wbuf;

	(void)state;
	gbuf = perfetto_render_with(traces[2], &with, &got);
	wbuf = perfetto_render_with(traces[2], &without, &want);
	assert_false(got.taken);
	assert_true(got.len > 100);
	assert_int_equal(got.len, want.len);
	assert_memory_equal(gbuf, wbuf, got.len);
	free(gbuf);
	free(wbuf);
	ea_perfetto_ahead_free(NULL);
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
