// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON --perfetto file's changes written by two threads at the end of
 * the run (ea_perfetto_split(), src/output/perfetto-json-split.c): the
 * file is byte for byte the one the caller alone writes, and cut at the
 * same time, at caps from none and one byte to past the file's end
 * (cutting before the thread's first change, at its first checks, late,
 * not at all), with the record bounded (perfetto-json-bound.c) or whole;
 * the thread's text is taken whenever the caller gets to its first change
 * (the cap not reached before), which the caps past its start show; the
 * file's second process (replay's) split too. Each in a temporary file,
 * where the thread writes its text into the file itself at the offset it
 * measured (perfetto-json-direct.c), and in memory (open_memstream(): no
 * descriptor), where it holds it in blocks for the caller: both take the
 * thread's text as often.
 *
 * Expected values: the JSON written without the split (the behaviour
 * before it existed).
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
#include "output/perfetto-priv.h"
#include "perfetto-render.h"

static const char *const traces[] = {
	"traces/cfs/fork-loaded.dat",
	"traces/cfs/mixed.dat",
	"traces/cfs/pingpong-loaded.dat",
};

/*
 * The JSON of trace priced with tc2 capped at cap bytes (0: none), with
 * two processes (the same timeline twice) when two; the record bounded
 * (bound), the changes split (split); its bytes (malloc'd, *len of
 * them), where the cap cut in *cut (UINT64_MAX: nowhere), how many
 * processes the split wrote in *taken.
 */
static char *render(const char *trace, long long cap, bool bound, bool split,
		    bool two, bool memory, size_t *len, uint64_t *cut,
		    size_t *taken)
{
	struct render_opts o = {.fmt = EA_PERFETTO_JSON,
				.cap = cap,
				.bound = bound,
				.split = split,
				.two = two,
				.memory = memory};
	struct render_out r = {0};
	char *buf = perfetto_render_with(trace, &o, &r);

	*len = r.len;
	*cut = r.cut;
	*taken = r.split_taken;
	return buf;
}

static void test_same_bytes(void **state)
{
	(void)state;
	for (size_t k = 0; k < sizeof(traces) / sizeof(traces[0]); k++) {
		size_t full_len, taken, taken_caps[2] = {0, 0};
		uint64_t full_cut;
		char *full = render(traces[k], 0, false, false, false, false,
				    &full_len, &full_cut, &taken);
		long long step = (long long)full_len / 17;

		for (long long cap = 0; cap < (long long)full_len + 2 * step;
		     cap = cap < 1     ? 1
			   : cap < 200 ? cap * 7
				       : cap + step) {
			for (int v = 0; v < 6; v++) {
				bool bound = v % 3 == 1, two = v % 3 == 2;
				bool mem = v >= 3;
				size_t want_len, len;
				uint64_t want_cut, cut;
				char *want = render(traces[k], cap, bound,
						    false, two, false,
						    &want_len, &want_cut,
						    &taken);
				char *got = render(traces[k], cap, bound, true,
						   two, mem, &len, &cut,
						   &taken);

				if (len != want_len || memcmp(got, want, len) ||
				    cut != want_cut)
					fail_msg(
						"%s, cap %lld, bound %d, two "
						"%d, memory %d: %zu bytes, not "
						"%zu or not the same, or cut "
						"at %llu, not %llu",
						traces[k], cap, bound, two, mem,
						len, want_len,
						(unsigned long long)cut,
						(unsigned long long)want_cut);
				/* no cap: every process split */
				if (!cap)
					assert_int_equal(taken, two ? 2 : 1);
				taken_caps[mem] += cap && taken;
				free(want);
				free(got);
			}
		}
		/* the caps past the thread's start took its text, as
		 * often written directly as held */
		assert_true(taken_caps[0] >= 3 * 5);
		assert_int_equal(taken_caps[0], taken_caps[1]);
		free(full);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
