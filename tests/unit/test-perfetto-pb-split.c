// SPDX-License-Identifier: GPL-2.0-only
/*
 * The protobuf --perfetto file's changes encoded by two threads at the end
 * of the run (ea_perfetto_split(), src/output/perfetto-pb-split.c):
 *  - pf_pb_skip(), the thread's taking in of the changes before its first,
 *    on a hand-made sequence whose states are derived by hand from what
 *    the encoder writes (the derivation beside each step);
 *  - the file byte for byte the one the caller alone writes, and cut at
 *    the same time, at caps from none and one byte to past the file's end
 *    (cutting before the thread's first change, inside its changes: the
 *    caller goes on from there by itself, not at all), with one process
 *    and two (replay's); the thread's blocks taken with no cap and
 *    whenever the cap cuts past them; and with the thread stopped short
 *    by what it may hold, the caller going on from its reader.
 *
 * Expected values: by hand (the skip), and the file written without the
 * split (the behaviour before it existed).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "eatrace/state.h"
#include "output/perfetto-pb-split.h"
#include "perfetto-render.h"

static const char *const traces[] = {
	"traces/cfs/fork-loaded.dat",
	"traces/cfs/mixed.dat",
	"traces/cfs/pingpong-loaded.dat",
};

static struct ea_tl_change ch(int cpu, int mode, uint64_t t0, uint64_t t1,
			      int32_t pid, uint32_t khz, int idle)
{
	return (struct ea_tl_change){.t0 = t0,
				     .t1 = t1,
				     .pid = pid,
				     .freq_khz = khz,
				     .idle_state = (int16_t)idle,
				     .mode = (uint8_t)mode,
				     .cpu = (uint16_t)cpu};
}

/* cs's state is (started, last_ts, f, i, pending, pending_end). */
static void expect(const struct cpu_seq *cs, bool started, uint64_t last,
		   long long f, long long i, bool pending, uint64_t end)
{
	assert_int_equal(cs->started, started);
	assert_int_equal(cs->last_ts, last);
	assert_int_equal(cs->f, f);
	assert_int_equal(cs->i, i);
	assert_int_equal(cs->pending, pending);
	if (pending)
		assert_int_equal(cs->pending_end, end);
}

/* The interned name id of pid on cs's sequence (0: none). */
static uint64_t iid(const struct cpu_seq *cs, int32_t pid)
{
	for (size_t j = 0; j < cs->names.cap; j++)
		if (cs->names.val[j] && cs->names.pid[j] == pid)
			return cs->names.val[j];
	return 0;
}

/*
 * Two CPUs, time origin 100 ns; CPU 0's OPP when busy at an unknown one
 * is 1000 kHz. A sequence starts with f -2 and i -3 (neither an OPP nor
 * an idle state: the first values are written), as perfetto-pb.c's
 * describe() sets them.
 */
static void test_skip_by_hand(void **state)
{
	struct tracks k = {0};
	struct cpu_seq *c0, *c1;
	struct ea_tl_change v;

	(void)state;
	assert_int_equal(pf_tracks_alloc(&k, 1, 2), 0);
	c0 = &k.cpu[0];
	c1 = &k.cpu[1];
	for (int c = 0; c < 2; c++) {
		k.cpu[c].f = -2;
		k.cpu[c].i = -3;
	}
	c0->assumed_khz = 1000;
	/* CPU 0 busy (pid 7, OPP unknown) 150-200: its sequence starts at
	 * 150 - 100 = 50 (the start packet's time); a slice BEGIN there with
	 * the assumed 1000 kHz and no idle state (-1); pid 7 interned as 1;
	 * its END pending at 200 - 100 = 100 */
	v = ch(0, EA_CPU_BUSY, 150, 200, 7, 0, 0);
	assert_true(pf_pb_skip(&k, &v, 100));
	expect(c0, true, 50, 1000, -1, true, 100);
	assert_int_equal(iid(c0, 7), 1);
	/* idle (state 2) 200-300, at 100: the pending END at 100 carries the
	 * idle stretch's values (it starts where the slice ends): f 0, i 2,
	 * and no counter after it (the values did not change) */
	v = ch(0, EA_CPU_IDLE, 200, 300, 0, 0, 2);
	assert_true(pf_pb_skip(&k, &v, 100));
	expect(c0, true, 100, 0, 2, false, 0);
	/* idle, state 2 again, at 250: nothing written, nothing moves */
	v = ch(0, EA_CPU_IDLE, 350, 400, 0, 0, 2);
	assert_true(pf_pb_skip(&k, &v, 100));
	expect(c0, true, 100, 0, 2, false, 0);
	/* idle state 1 at 300: a counter packet there */
	v = ch(0, EA_CPU_IDLE, 400, 450, 0, 0, 1);
	assert_true(pf_pb_skip(&k, &v, 100));
	expect(c0, true, 300, 0, 1, false, 0);
	/* busy, pid 9 at 2000 kHz, 450-600: a BEGIN at 350, pid 9 interned
	 * as 2, the END pending at 500 */
	v = ch(0, EA_CPU_BUSY, 450, 600, 9, 2000, 0);
	assert_true(pf_pb_skip(&k, &v, 100));
	expect(c0, true, 350, 2000, -1, true, 500);
	assert_int_equal(iid(c0, 9), 2);
	/* busy, pid 7 again at 500-550: the END at 500 and a BEGIN at 500
	 * (pid 7 already interned: no new id) */
	v = ch(0, EA_CPU_BUSY, 600, 650, 7, 2000, 0);
	assert_true(pf_pb_skip(&k, &v, 100));
	expect(c0, true, 500, 2000, -1, true, 550);
	assert_int_equal(c0->names.n, 2);
	assert_int_equal(iid(c0, 7), 1);
	/* idle (state 0) from 600, not where the slice ended (550): the END
	 * at 550 with the slice's values, then counters at 600 for the OPP
	 * (0) and the idle state (0) */
	v = ch(0, EA_CPU_IDLE, 700, 800, 0, 0, 0);
	assert_true(pf_pb_skip(&k, &v, 100));
	expect(c0, true, 600, 0, 0, false, 0);
	/* no length, or a CPU past the tracks': not encoded, CPU 1 not
	 * started */
	v = ch(1, EA_CPU_BUSY, 300, 300, 5, 0, 0);
	assert_true(pf_pb_skip(&k, &v, 100));
	v = ch(5, EA_CPU_BUSY, 300, 400, 5, 0, 0);
	assert_true(pf_pb_skip(&k, &v, 100));
	expect(c1, false, 0, -2, -3, false, 0);
	/* CPU 1 busy (pid 7, OPP unknown: its assumed is 0) from before the
	 * origin (50, at 0) to 120 (at 20): its sequence starts at 0, pid 7
	 * interned as 1 on its own sequence */
	v = ch(1, EA_CPU_BUSY, 50, 120, 7, 0, 0);
	assert_true(pf_pb_skip(&k, &v, 100));
	expect(c1, true, 0, 0, -1, true, 20);
	assert_int_equal(iid(c1, 7), 1);
	/* suspended from 120 (at 20): the END at 20 carries its values (no
	 * OPP: 0, no idle state: -1), the same as the slice's, so no
	 * counter */
	v = ch(1, EA_CPU_SUSPENDED, 120, 130, 0, 0, 0);
	assert_true(pf_pb_skip(&k, &v, 100));
	expect(c1, true, 20, 0, -1, false, 0);
	/* CPU 0 untouched by CPU 1's */
	expect(c0, true, 600, 0, 0, false, 0);
	pf_tracks_free(&k);
}

/* Where the thread starts: 7/10 of the changes (rounded down, at least
 * 1), none below the minimum or below 2. */
static void test_from(void **state)
{
	(void)state;
	assert_int_equal(pf_pb_split_from(0, 1000), 0);
	assert_int_equal(pf_pb_split_from(1001, 1000), 0);
	assert_int_equal(pf_pb_split_from(1, 1), 0);
	assert_int_equal(pf_pb_split_from(1, 2), 1);
	assert_int_equal(pf_pb_split_from(1, 8), 5); /* 5.6 */
	assert_int_equal(pf_pb_split_from(1, 19), 13); /* 13.3 */
	assert_int_equal(pf_pb_split_from(1000, 1000), 700);
}

/* The protobuf of trace priced with tc2, capped at cap bytes (0: none),
 * with a second process when two, split or not. */
static char *render(const char *trace, long long cap, bool split, bool two,
		    size_t *len, uint64_t *cut, size_t *taken)
{
	struct render_opts o = {.fmt = EA_PERFETTO_PROTOBUF,
				.cap = cap,
				.split = split,
				.two = two};
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
		size_t full_len, taken, taken_caps = 0;
		uint64_t full_cut;
		char *full = render(traces[k], 0, false, false, &full_len,
				    &full_cut, &taken);
		long long step = (long long)full_len / 17;

		assert_int_equal(taken, 0);
		for (long long cap = 0; cap < (long long)full_len + 2 * step;
		     cap = cap < 1     ? 1
			   : cap < 200 ? cap * 7
				       : cap + step) {
			for (int two = 0; two < 2; two++) {
				size_t want_len, len;
				uint64_t want_cut, cut;
				char *want = render(traces[k], cap, false, two,
						    &want_len, &want_cut,
						    &taken);
				char *got = render(traces[k], cap, true, two,
						   &len, &cut, &taken);

				if (len != want_len || memcmp(got, want, len) ||
				    cut != want_cut)
					fail_msg("%s, cap %lld, two %d: %zu "
						 "bytes, not %zu or not the "
						 "same, or cut at %llu, not "
						 "%llu",
						 traces[k], cap, two, len,
						 want_len,
						 (unsigned long long)cut,
						 (unsigned long long)want_cut);
				/* no cap: every process split */
				if (!cap)
					assert_int_equal(taken, two ? 2 : 1);
				taken_caps += cap && taken;
				free(want);
				free(got);
			}
		}
		/* the caps past the thread's changes took its blocks */
		assert_true(taken_caps >= 2 * 2);
		free(full);
	}
}

/*
 * The thread holding at most a few bytes (pf_pb_split_hold_max: as a file
 * past EA_PERFETTO_AHEAD_MAX_MB after its first change): its blocks are
 * taken all the same (no cap) and the caller goes on from where its reader
 * stopped: the same bytes.
 */
static void test_held_short(void **state)
{
	static const size_t holds[] = {1, 300, 5000};

	(void)state;
	for (size_t k = 0; k < sizeof(traces) / sizeof(traces[0]); k++) {
		size_t want_len, len, taken;
		uint64_t want_cut, cut;
		char *want = render(traces[k], 0, false, true, &want_len,
				    &want_cut, &taken);

		for (size_t h = 0; h < sizeof(holds) / sizeof(holds[0]); h++) {
			char *got;

			pf_pb_split_hold_max = holds[h];
			got = render(traces[k], 0, true, true, &len, &cut,
				     &taken);
			pf_pb_split_hold_max = 0;
			assert_int_equal(taken, 2);
			if (len != want_len || memcmp(got, want, len) ||
			    cut != want_cut)
				fail_msg("%s, holding %zu: %zu bytes, not %zu "
					 "or not the same",
					 traces[k], holds[h], len, want_len);
			free(got);
		}
		free(want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_skip_by_hand),
		cmocka_unit_test(test_from),
		cmocka_unit_test(test_held_short),
		cmocka_unit_test(test_same_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
