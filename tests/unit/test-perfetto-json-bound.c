// SPDX-License-Identifier: GPL-2.0-only
/*
 * A capped JSON --perfetto file's bound on the timeline's record
 * (ea_perfetto_json_bound(), src/output/perfetto-json-bound.c,
 * src/output/timeline-bound.h): the file is byte for byte the one written
 * from the whole record, at caps from one byte to past the file's end
 * (cutting before the first check, at it, between checks, on the last
 * slices, not at all), written at the end of the run and with the JSON
 * encoded ahead (the CLI's -j 3, with the record's thread); the
 * record is shorter wherever the cap cuts early (the bound does drop
 * changes); no cap: refused, every change recorded.
 *
 * Expected values: the JSON written from the whole record (no bound: the
 * behaviour before it existed), and its record's count of changes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "eatrace/energy.h"
#include "eatrace/html.h"
#include "eatrace/perfetto.h"
#include "eatrace/pipeline.h"
#include "output/perfetto-json-text.h"
#include "perfetto-render.h"

static const char *const traces[] = {
	"traces/cfs/fork-loaded.dat",
	"traces/cfs/mixed.dat",
	"traces/cfs/pingpong-loaded.dat",
};

/* How the record is made and the file written. */
enum how { PLAIN, BOUND, BOUND_AHEAD };

/*
 * The JSON of trace priced with tc2 capped at cap bytes (0: none), the
 * record bounded (how != PLAIN), the JSON encoded ahead holding the cap
 * (BOUND_AHEAD); its bytes (malloc'd, *len of them), the record's count of
 * changes in *nch, where the cap cut in *cut (UINT64_MAX: nowhere).
 */
static char *render(const char *trace, enum how how, long long cap, size_t *len,
		    size_t *nch, uint64_t *cut)
{
	struct render_opts o = {
		.fmt = EA_PERFETTO_JSON, .cap = cap, .bound = how != PLAIN};
	struct render_out r = {0};
	char *buf;

	if (how == BOUND_AHEAD) {
		o.use = AHEAD_USED;
		o.ahead_fmt = EA_PERFETTO_JSON;
		o.max = cap;
	}
	buf = perfetto_render_with(trace, &o, &r);
	if (how == BOUND_AHEAD)
		assert_true(r.taken);
	*len = r.len;
	*nch = r.nch;
	*cut = r.cut;
	return buf;
}

static void test_same_bytes(void **state)
{
	(void)state;
	for (size_t k = 0; k < sizeof(traces) / sizeof(traces[0]); k++) {
		size_t full_len, all;
		uint64_t full_cut;
		char *full =
			render(traces[k], PLAIN, 0, &full_len, &all, &full_cut);
		long long step = (long long)full_len / 41;
		size_t shorter = 0;

		/* enough changes for several checks and a bound before the
		 * end */
		assert_true(all > 4 * 256);
		/* no cap: no bound, every change */
		{
			size_t len, n;
			uint64_t cut;
			char *got = render(traces[k], BOUND, 0, &len, &n, &cut);

			assert_int_equal(n, all);
			assert_true(cut == UINT64_MAX);
			assert_int_equal(len, full_len);
			assert_memory_equal(got, full, len);
			free(got);
		}
		/* caps of 1 byte, 1 slice's least, then every step to
		 * past the end */
		for (long long cap = 1; cap < (long long)full_len + 2 * step;
		     cap = cap < 200 ? cap * 7 : cap + step) {
			size_t want_len, want_n;
			uint64_t want_cut;
			char *want = render(traces[k], PLAIN, cap, &want_len,
					    &want_n, &want_cut);

			assert_int_equal(want_n, all);
			for (int h = BOUND; h <= BOUND_AHEAD; h++) {
				size_t len, n;
				uint64_t cut;
				char *got = render(traces[k], (enum how)h, cap,
						   &len, &n, &cut);

				if (len != want_len || memcmp(got, want, len) ||
				    cut != want_cut)
					fail_msg("%s, cap %lld, how %d: %zu "
						 "bytes, not %zu or not the "
						 "same, "
						 "or cut at %llu, not %llu",
						 traces[k], cap, h, len,
						 want_len,
						 (unsigned long long)cut,
						 (unsigned long long)want_cut);
				assert_true(n <= all);
				shorter += n < all;
				free(got);
			}
			free(want);
		}
		/* the early caps' records were cut (the file's cut is
		 * somewhere: the caps below the file's size) */
		assert_true(shorter >= 3 * 10);
		free(full);
	}
}

/* The bound's least slice: the shortest a slice can be, written by hand
 * (process 1, CPU 0: thread 1, the empty name, both times 0, pid 1,
 * frequency 0); and no slice of the traces' files is shorter. */
static void test_slice_min(void **state)
{
	static const char least[] =
		"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"\",\"cat\":"
		"\"task\",\"ts\":0.000,\"dur\":0.000,\"args\":{\"pid\":1,"
		"\"freq_khz\":0}}";

	(void)state;
	assert_int_equal(PJ_SLICE_MIN_BYTES, sizeof(least) - 1);
	for (size_t k = 0; k < sizeof(traces) / sizeof(traces[0]); k++) {
		size_t len, n, slices = 0;
		uint64_t cut;
		char *full = render(traces[k], PLAIN, 0, &len, &n, &cut);

		full[len] = 0;
		for (char *l = strstr(full, "{\"ph\":\"X\""); l;
		     l = strstr(l + 1, "{\"ph\":\"X\"")) {
			size_t ll = strcspn(l, "\n");

			/* the line, less the "," before its newline */
			ll -= l[ll] == '\n' && l[ll - 1] == ',';
			assert_true(ll >= PJ_SLICE_MIN_BYTES);
			slices++;
		}
		assert_true(slices > 100);
		free(full);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slice_min),
		cmocka_unit_test(test_same_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
