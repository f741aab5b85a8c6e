// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ring of event blocks between a decoding thread and the reading one
 * (src/input/evring.c): how deep it is and when a side asleep is woken.
 *
 * - A consumer asleep on an empty ring is woken by the first block put
 *   (evr_put()), not only once half the ring is full: the producer here
 *   puts one block and then waits for the consumer to have taken it, so
 *   with the half-ring wake the consumer would sleep until the producer
 *   gives up waiting (10 s) and goes on, which the test counts a failure.
 * - The producer fills all EVR_NBLK blocks before it waits: it counts the
 *   blocks it got from evr_take_free() while the consumer takes none;
 *   the count must be EVR_NBLK exactly (the next evr_take_free() blocks,
 *   seen as no progress for 50 ms).
 * - Every block comes out once, in order (block k carries n = k + 1).
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <cmocka.h>

#include "input/evring.h"

#define NPUT 100

struct job {
	struct evring q;
	atomic_int put; /* blocks put so far */
	atomic_int taken; /* blocks the consumer has taken */
	atomic_int late; /* the producer gave up waiting for it */
	int stop_after; /* put so many, then wait for taken */
};

static void sleep_ms(long ms)
{
	struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};

	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

/* Wait (10 s at most) until *v reaches want: false on timeout. */
static bool wait_for(atomic_int *v, int want)
{
	for (int i = 0; i < 10000; i++) {
		if (atomic_load(v) >= want)
			return true;
		sleep_ms(1);
	}
	return false;
}

static void *producer(void *arg)
{
	struct job *j = arg;

	for (int k = 0; k < NPUT; k++) {
		struct evr_blk *b = evr_take_free(&j->q);

		if (!b)
			return NULL;
		if (j->stop_after && !k)
			sleep_ms(50); /* the consumer asleep first */
		b->n = (uint32_t)k + 1;
		b->status = k == NPUT - 1;
		evr_put(&j->q, b);
		atomic_fetch_add(&j->put, 1);
		/* one block put: the consumer must get it without more */
		if (k + 1 == j->stop_after && !wait_for(&j->taken, 1))
			atomic_store(&j->late, 1);
	}
	return NULL;
}

/* The consumer, asleep on the empty ring, gets the first block put. */
static void test_first_block_wakes(void **state)
{
	static struct job j;

	(void)state;
	atomic_init(&j.put, 0);
	atomic_init(&j.taken, 0);
	atomic_init(&j.late, 0);
	j.stop_after = 1;
	assert_int_equal(evr_start(&j.q, producer, &j), 0);
	for (uint32_t k = 1; k <= NPUT; k++) {
		struct evr_blk *b = evr_take_full(&j.q);

		assert_int_equal(b->n, k); /* in order, once each */
		atomic_fetch_add(&j.taken, 1);
		evr_release(&j.q, b);
	}
	evr_stop(&j.q);
	assert_int_equal(atomic_load(&j.put), NPUT);
	assert_int_equal(atomic_load(&j.late), 0);
}

/* The producer fills EVR_NBLK blocks, no more, while none is taken. */
static void test_depth(void **state)
{
	static struct job j;
	int seen;

	(void)state;
	atomic_init(&j.put, 0);
	atomic_init(&j.taken, 0);
	atomic_init(&j.late, 0);
	j.stop_after = 0;
	assert_int_equal(evr_start(&j.q, producer, &j), 0);
	assert_true(wait_for(&j.put, EVR_NBLK));
	sleep_ms(50); /* no progress: the producer waits for a block */
	seen = atomic_load(&j.put);
	assert_int_equal(seen, EVR_NBLK);
	for (uint32_t k = 1; k <= NPUT; k++) {
		struct evr_blk *b = evr_take_full(&j.q);

		assert_int_equal(b->n, k);
		evr_release(&j.q, b);
	}
	evr_stop(&j.q);
	assert_int_equal(atomic_load(&j.put), NPUT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_block_wakes),
		cmocka_unit_test(test_depth),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
