// SPDX-License-Identifier: GPL-2.0-only
/*
 * The look-ahead's rings (state/lookahead.c) start small and double as
 * they fill. The FIFO must give events back in the order pushed whatever
 * slot its head is at when it grows, and not_before()'s timestamps (the
 * ring_ts of the event cap - 1 back) must survive ring_ts's growth.
 */
#include <string.h>

#include "harness.h"
#include "state/lookahead.h"

/* cpu_frequency events: nothing for the scanner to resync or synthesise */
static void freq_event(struct ea_event *ev, uint64_t i)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = EA_EV_FREQ;
	ev->ts = 1000 + 10 * i;
	ev->cpu = (int)(i % 3);
	ev->cur_pid = -1;
	ev->freq.cpu = ev->cpu;
	ev->freq.freq_khz = (uint32_t)(100000 + i);	/* the event's number */
}

/*
 * Push n events through a look-ahead of cap events, popping when full
 * (as the state does) and, every `extra` pushes, one more: the head is
 * then anywhere in the ring when it grows. Every event must come back
 * once, in order.
 */
static void fifo_order(size_t cap, uint64_t n, uint64_t extra)
{
	struct lookahead la;
	struct ea_event ev;
	const struct ea_event *out;
	uint64_t next = 0;	/* the event the next pop must return */
	size_t slots_seen = 0;

	assert_int_equal(la_init(&la, cap), 0);
	for (uint64_t i = 0; i < n; i++) {
		while (la_full(&la)) {
			out = la_pop(&la);
			assert_non_null(out);
			assert_int_equal(out->freq.freq_khz, 100000 + next);
			next++;
		}
		freq_event(&ev, i);
		assert_int_equal(la_push(&la, &ev), 0);
		if (extra && i % extra == 0 && (out = la_pop(&la))) {
			assert_int_equal(out->freq.freq_khz, 100000 + next);
			next++;
		}
		if (la.mask + 1 > slots_seen)
			slots_seen = la.mask + 1;
	}
	while ((out = la_pop(&la))) {
		assert_int_equal(out->freq.freq_khz, 100000 + next);
		next++;
	}
	assert_int_equal(next, n);
	/* it grew to hold cap events, and no further than the power of two */
	assert_true(slots_seen >= (cap < n ? cap : n));
	assert_true(slots_seen <= la.slots);
	la_free(&la);
}

static void test_fifo_grows_in_order(void **unused)
{
	fifo_order(32768, 100000, 0);	/* fills, grows 1024 -> 32768 */
	fifo_order(32768, 100000, 3);	/* head mid-ring at each growth */
	fifo_order(5000, 20000, 7);	/* cap not a power of two */
	fifo_order(3, 50, 2);		/* shorter than the first slots */
	fifo_order(32768, 500, 0);	/* a short trace stays small */
}

/* A short trace never touches a full-depth ring. */
static void test_short_trace_small_rings(void **unused)
{
	struct lookahead la;
	struct ea_event ev;

	assert_int_equal(la_init(&la, 32768), 0);
	for (uint64_t i = 0; i < 600; i++) {
		freq_event(&ev, i);
		assert_int_equal(la_push(&la, &ev), 0);
	}
	/* 600 held: the first 1024 slots of each ring */
	assert_int_equal(la.mask + 1, 1024);
	assert_int_equal(la.ts_mask + 1, 1024);
	assert_int_equal(la.slots, 32768);
	la_free(&la);
}

/*
 * ring_ts holds event k's ts at k & ts_mask: after it grew (1024 -> 2048
 * -> 4096), every event pushed so far is still at its own slot, and once
 * full size it keeps the last `slots` of them.
 */
static void test_ring_ts_survives_growth(void **unused)
{
	struct lookahead la;
	struct ea_event ev;
	const uint64_t n = 3000;

	assert_int_equal(la_init(&la, 4096), 0);
	for (uint64_t i = 0; i < n; i++) {
		freq_event(&ev, i);
		assert_non_null(la_scan(&la, &ev));	/* ts only, no FIFO */
	}
	assert_int_equal(la.ts_mask + 1, 4096);
	for (uint64_t k = 0; k < n; k++)
		assert_int_equal(la.ring_ts[k & la.ts_mask], 1000 + 10 * k);
	for (uint64_t i = n; i < 10000; i++) {
		freq_event(&ev, i);
		assert_non_null(la_scan(&la, &ev));
	}
	assert_int_equal(la.ts_mask + 1, 4096);	/* never past slots */
	for (uint64_t k = 10000 - 4096; k < 10000; k++)
		assert_int_equal(la.ring_ts[k & la.ts_mask], 1000 + 10 * k);
	la_free(&la);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fifo_grows_in_order),
		cmocka_unit_test(test_short_trace_small_rings),
		cmocka_unit_test(test_ring_ts_survives_growth),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
