// SPDX-License-Identifier: GPL-2.0-only
/*
 * A task's activation store (src/replay/act-store.c): every activation and
 * waker reads back as it was pushed, those whose figures fit the 28-byte
 * form and those kept whole (each field past its width, below its block's
 * base, work not a whole multiple of the CPU time), across block bases, in
 * a view (k0) too; a waker's sync and task set later read back. The
 * expected values are the pushed ones, written out below.
 */
#include <stdlib.h>

#include "harness.h"
#include "replay/workload.h"

#define S 1000000000ull /* ns per s */

static bool same_act(struct rp_act x, struct rp_act y)
{
	return !memcmp(&x, &y, sizeof(x));
}

static bool same_waker(struct rp_waker x, struct rp_waker y)
{
	return !memcmp(&x, &y, sizeof(x));
}

/*
 * Activation k of the test task: release 100 s + k ms, eligible 2 us
 * later, ends 30 us after that, ran 20 us at capacity 1024, switched in
 * at event 10 + 7k, blocked 4 events later, on CPU k % 3; woken by task
 * k % 5 on CPU 1. Some are changed so that a field does not fit (below).
 */
static void make(size_t k, struct rp_act *a, struct rp_waker *wk)
{
	memset(a, 0, sizeof(*a));
	a->release = 100 * S + k * 1000000;
	a->eligible = a->release + 2000;
	a->end = a->eligible + 30000;
	a->ran_ns = 20000;
	a->work = 20000ull * 1024;
	a->seq_in = 10 + 7 * k;
	a->seq_out = a->seq_in + 4;
	a->cpu = (int64_t)(k % 3);
	a->flags = RP_ACT_RAN | RP_ACT_SEG1;
	*wk = (struct rp_waker){(int32_t)(k % 5), 1, RP_WAKER_TASK, 0};
	switch (k) {
	case 3: /* released before its block's base (activation 0) */
		a->release = 99 * S;
		a->eligible = a->release;
		break;
	case 5: /* 2^34 ns after its base: past 34 bits */
		a->release = 100 * S + (1ull << 34);
		a->eligible = a->release;
		a->end = a->eligible + 30000;
		break;
	case 7: /* eligible 2^20 ns after release: past 20 bits */
		a->eligible = a->release + (1ull << 20);
		a->end = a->eligible + 30000;
		break;
	case 11: /* runs 2^26 - 1 ns: end - eligible + 1 past 26 bits */
		a->end = a->eligible + (1ull << 26) - 1;
		break;
	case 13: /* work not CPU time x a capacity */
		a->work = 20000ull * 1024 + 1;
		break;
	case 17: /* capacity 2048: past 11 bits */
		a->work = 20000ull * 2048;
		break;
	case 19: /* CPU time 2^26 ns (the end fits: 2^26 - 2 after) */
		a->ran_ns = 1ull << 26;
		a->work = a->ran_ns;
		a->end = a->eligible + (1ull << 26) - 2;
		break;
	case 23: /* blocked 2^16 events after its switch-in */
		a->seq_out = a->seq_in + (1ull << 16);
		break;
	case 29: /* open, never ran: no end, no events, no CPU */
		a->end = 0;
		a->ran_ns = a->work = 0;
		a->seq_in = a->seq_out = 0;
		a->cpu = -1;
		a->flags = RP_ACT_OPEN;
		*wk = (struct rp_waker){-1, -1, RP_WAKER_NONE, 0};
		break;
	case 31: /* CPU 1023: past 10 bits as cpu + 1 */
		a->cpu = 1023;
		break;
	case 37: /* waker task 2^22 - 1: past 22 bits as task + 1 */
		wk->task = (1 << 22) - 1;
		break;
	case 43: /* every field at the largest that fits: packed */
		a->end = a->eligible + (1ull << 26) - 2;
		a->ran_ns = (1ull << 26) - 1;
		a->work = a->ran_ns * 2047;
		a->seq_out = a->seq_in + (1ull << 16) - 2;
		a->cpu = 1022;
		wk->task = (1 << 22) - 2;
		wk->cpu = 1022;
		break;
	case 41: /* work without CPU time */
		a->ran_ns = 0;
		break;
	case 64: /* a block's first, kept whole: the base is still its own */
		a->eligible = a->release + (1ull << 21);
		a->end = a->eligible + 30000;
		break;
	case 65: /* after it, by its base (one event later in the block) */
		a->seq_in = 10 + 7 * 64 + 1;
		a->seq_out = a->seq_in + 4;
		break;
	case 66: /* before its block's base event: kept whole */
		a->seq_in = 5;
		a->seq_out = 9;
		break;
	}
}

#define N 200

static void round_trip(void **unused)
{
	struct rp_task t;
	size_t wide = 0;

	memset(&t, 0, sizeof(t));
	for (size_t k = 0; k < N; k++) {
		struct rp_act a;
		struct rp_waker wk;

		make(k, &a, &wk);
		assert_int_equal(rp_store_push(&t, k, &a, &wk), 0);
	}
	for (size_t k = 0; k < N; k++) {
		struct rp_act a;
		struct rp_waker wk;

		make(k, &a, &wk);
		assert_true(same_act(rp_task_stored(&t, k), a));
		assert_true(same_act(rp_task_act(&t, k), a));
		assert_true(same_waker(rp_task_waker(&t, k), wk));
		wide += t.packs[k].wide;
	}
	/* 3, 5, 7, 11, 13, 17, 19, 23, 31, 37, 41, 64, 66 (29, 43 and 65
	 * fit) */
	assert_int_equal(wide, 13);
	assert_int_equal(t.nwides, 13);
	assert_true(t.packs[29].wide == 0 && t.packs[43].wide == 0 &&
		    t.packs[65].wide == 0);

	/* set later: sync on 2 (packed) and 7 (whole), tasks renumbered */
	rp_store_set_sync(&t, 2);
	rp_store_set_sync(&t, 7);
	assert_int_equal(rp_store_set_waker_task(&t, 2, 42), 0);
	assert_int_equal(rp_store_set_waker_task(&t, 7, -1), 0);
	assert_int_equal(rp_store_set_waker_task(&t, 8, (1 << 22) - 1), -1);
	assert_true(same_waker(rp_task_waker(&t, 2),
			       (struct rp_waker){42, 1, RP_WAKER_TASK, 1}));
	assert_true(same_waker(rp_task_waker(&t, 7),
			       (struct rp_waker){-1, 1, RP_WAKER_TASK, 1}));
	assert_true(same_waker(rp_task_waker(&t, 8),
			       (struct rp_waker){3, 1, RP_WAKER_TASK, 0}));

	/* a view from activation 60 on reads the same from its k = 0 */
	{
		struct rp_task v = t;

		v.view = true;
		v.k0 = 60;
		v.nacts = N - 60;
		for (size_t k = 0; k + 60 < N; k++) {
			struct rp_act a;
			struct rp_waker wk;

			make(k + 60, &a, &wk);
			assert_true(same_act(rp_task_stored(&v, k), a));
			assert_true(same_waker(rp_task_waker(&v, k), wk));
		}
		rp_store_free(&v); /* a view's: frees nothing */
	}
	rp_store_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
