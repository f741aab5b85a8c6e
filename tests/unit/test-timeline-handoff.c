// SPDX-License-Identifier: GPL-2.0-only
/*
 * The timeline's changes handed to a thread of their own
 * (src/output/timeline-handoff.c, tl_changes_handoff()): every change
 * handed over reaches the thread's function once, in order, whether none,
 * part of a block, exactly a block or many blocks were handed over, and
 * when the thread falls behind by more than the blocks there may be (the
 * writer waits, nothing is lost); a record whose changes are handed over
 * reads back as the one recorded directly, also while published and read
 * on a third thread, and after tl_changes_free() without a seal. A tap
 * (tl_handoff_tap()) sees every change after the thread's function, on
 * its thread, in order, the block's before the next block reaches the
 * function; once cleared it is never called again, even while a block is
 * being given (so that its context may be freed at once).
 *
 * Expected values: the changes handed over themselves (their index in
 * pid, so that order and count show), and the record written without the
 * hand-over (tl_changes_put(), the path before it existed); for the tap,
 * the function's own count of the changes (all given to it before the
 * tap may see them) and its thread's id.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "eatrace/html.h"
#include "output/timeline-changes.h"
#include "output/timeline-handoff.h"

struct got {
	size_t n; /* changes seen */
	bool bad; /* one out of order */
	bool slow; /* sleep now and then: the writer gets ahead */
};

static void take(void *ctx, const struct ea_tl_change *v, size_t n)
{
	struct got *g = ctx;

	for (size_t i = 0; i < n; i++) {
		if (v[i].pid != (int32_t)g->n || v[i].t0 != g->n * 3 ||
		    v[i].cpu != g->n % 5)
			g->bad = true;
		g->n++;
	}
	if (g->slow && g->n % (TL_HO_BLOCK * 8) < n) {
		struct timespec ts = {0, 2000000};

		nanosleep(&ts, NULL);
	}
}

/* Change k (t0 = 3k, pid k, CPU k % 5: what take() and the taps check)
 * written at *at, as tl_changes_add() writes: a new block when full. */
static void put_change(struct tl_handoff *h, struct ea_tl_change **at,
		       struct ea_tl_change **lim, size_t k)
{
	if (*at == *lim) {
		*at = tl_handoff_next(h, *at, lim);
		assert_non_null(*at);
	}
	*(*at)++ = (struct ea_tl_change){.t0 = k * 3,
					 .t1 = k * 3 + 1,
					 .pid = (int32_t)k,
					 .cpu = (uint16_t)(k % 5)};
}

/* n changes through a hand-over, as tl_changes_add() writes them. */
static void hand(size_t n, bool slow)
{
	struct tl_handoff *h;
	struct ea_tl_change *at = NULL, *lim = NULL;
	struct got g = {.slow = slow};

	assert_int_equal(tl_handoff_start(&h, take, &g), 0);
	for (size_t k = 0; k < n; k++) {
		put_change(h, &at, &lim, k);
	}
	tl_handoff_finish(h, at);
	assert_false(g.bad);
	assert_int_equal(g.n, n);
}

static void test_all_in_order(void **state)
{
	size_t ns[] = {0,
		       1,
		       TL_HO_BLOCK - 1,
		       TL_HO_BLOCK,
		       TL_HO_BLOCK + 1,
		       (size_t)TL_HO_BLOCK * 3 + 7};

	(void)state;
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		hand(ns[i], false);
}

/* More blocks than may be held while the thread sleeps: the writer
 * waits for room. */
static void test_writer_waits(void **state)
{
	(void)state;
	hand((size_t)TL_HO_BLOCK * (TL_HO_MAX_BLOCKS * 3) + 11, true);
}

/* Change k of a record: contiguous on 3 CPUs, some fields changing. */
static struct ea_tl_change change(size_t k)
{
	return (struct ea_tl_change){
		.cpu = (uint16_t)(k % 3),
		.t0 = 1000 + k * 10,
		.t1 = 1000 + k * 10 + 7 + k % 13,
		.pid = (int32_t)(100 + k % 7),
		.freq_khz = (uint32_t)(k % 100 ? 1800000 : 900000),
		.idle_state = (int16_t)(k % 50 ? -1 : 1),
		.mode = (uint8_t)(k % 4 ? 1 : 2),
	};
}

/* Field for field (the struct has padding). */
static bool same(const struct ea_tl_change *a, const struct ea_tl_change *b)
{
	return a->cpu == b->cpu && a->mode == b->mode && a->t0 == b->t0 &&
	       a->t1 == b->t1 && a->pid == b->pid &&
	       a->freq_khz == b->freq_khz && a->idle_state == b->idle_state;
}

/* A third thread reading a published record while it is written. */
struct reader {
	struct tl_changes *s;
	struct ea_tl_reader *r;
	size_t got;
	bool bad;
};

static void *read_published(void *arg)
{
	struct reader *d = arg;
	struct ea_tl_change out;

	do {
		while (tl_reader_next(d->r, &out)) {
			struct ea_tl_change want = change(d->got++);

			if (!same(&want, &out))
				d->bad = true;
		}
	} while (tl_reader_wait(d->r, d->s));
	return NULL;
}

static void test_record_same(void **state)
{
	/* past several 2 MiB chunks of the record and many blocks */
	const size_t n = 3000000;
	struct tl_changes direct, ho;
	struct ea_tl_reader a = {0}, b = {0};
	struct tl_cpu_last la[3] = {0}, lb[3] = {0};
	struct ea_tl_change x, y;
	struct reader d = {.s = &ho};
	pthread_t th;
	size_t k = 0;

	(void)state;
	assert_int_equal(tl_changes_init(&direct, 3), 0);
	assert_int_equal(tl_changes_init(&ho, 3), 0);
	assert_int_equal(tl_changes_publish(&ho), 0);
	assert_int_equal(tl_changes_handoff(&ho), 0);
	assert_non_null(d.r = tl_reader_published(&ho));
	assert_int_equal(pthread_create(&th, NULL, read_published, &d), 0);
	for (size_t i = 0; i < n; i++) {
		struct ea_tl_change c = change(i);

		assert_int_equal(tl_changes_put(&direct, &c), 0);
		assert_int_equal(tl_changes_add(&ho, &c), 0);
	}
	tl_changes_seal(&ho);
	assert_null(ho.ho);
	assert_false(ho.failed);
	pthread_join(th, NULL);
	assert_false(d.bad);
	assert_int_equal(d.got, n);
	assert_int_equal(ho.count, n);
	/* the two records' bytes read back alike */
	a.s = &direct;
	a.last = la;
	b.s = &ho;
	b.last = lb;
	while (tl_reader_next(&a, &x)) {
		assert_true(tl_reader_next(&b, &y));
		assert_true(same(&x, &y));
		k++;
	}
	assert_false(tl_reader_next(&b, &y));
	assert_int_equal(k, n);
	ea_tl_reader_free(d.r);
	tl_changes_free(&direct);
	tl_changes_free(&ho);
}

/* Freed without a seal (a failed run): the thread ended, nothing leaks. */
static void test_free_unsealed(void **state)
{
	struct tl_changes s;

	(void)state;
	assert_int_equal(tl_changes_init(&s, 3), 0);
	assert_int_equal(tl_changes_handoff(&s), 0);
	for (size_t i = 0; i < TL_HO_BLOCK + 5; i++) {
		struct ea_tl_change c = change(i);

		assert_int_equal(tl_changes_add(&s, &c), 0);
	}
	tl_changes_free(&s);
	assert_null(s.ho);
}

/* The tap: checks what take() (the function, g) had when it is called. */
struct tapped {
	struct got *g; /* the function's count, read on the same thread */
	size_t n;
	bool bad, early; /* out of order; a block the function had not had */
	bool freed; /* its context freed: it must not be called */
	pthread_t th;
	bool th_set, other_thread;
	unsigned sleep_every; /* blocks: sleep 1 ms then (the clear races) */
};

static void tap(void *ctx, const struct ea_tl_change *v, size_t n)
{
	struct tapped *t = ctx;

	if (t->freed)
		t->bad = true;
	if (!t->th_set) {
		t->th = pthread_self();
		t->th_set = true;
	} else if (!pthread_equal(t->th, pthread_self())) {
		t->other_thread = true;
	}
	/* take() has had this block and none past it */
	if (t->g->n != t->n + n)
		t->early = true;
	for (size_t i = 0; i < n; i++) {
		if (v[i].pid != (int32_t)t->n || v[i].t0 != t->n * 3)
			t->bad = true;
		t->n++;
	}
	if (t->sleep_every && (t->n / TL_HO_BLOCK) % t->sleep_every == 0) {
		struct timespec ts = {0, 1000000};

		nanosleep(&ts, NULL);
	}
	if (t->freed) /* cleared while in here, and not waited for */
		t->bad = true;
}

/* n changes handed over with the tap set before the first; the tap
 * cleared after `clear_at` of them (none: never), then t->freed set. */
static void hand_tapped(size_t n, size_t clear_at, struct tapped *t,
			struct got *g)
{
	struct tl_handoff *h;
	struct ea_tl_change *at = NULL, *lim = NULL;

	t->g = g;
	assert_int_equal(tl_handoff_start(&h, take, g), 0);
	tl_handoff_tap(h, tap, t);
	for (size_t k = 0; k < n; k++) {
		if (k == clear_at) {
			tl_handoff_tap(h, NULL, NULL);
			t->freed = true;
		}
		put_change(h, &at, &lim, k);
	}
	tl_handoff_finish(h, at);
	assert_false(g->bad);
	assert_int_equal(g->n, n);
	assert_false(t->bad);
	assert_false(t->early);
	assert_false(t->other_thread);
}

static void test_tap_all_after_fn(void **state)
{
	size_t ns[] = {0, 1, TL_HO_BLOCK, (size_t)TL_HO_BLOCK * 3 + 7,
		       (size_t)TL_HO_BLOCK * (TL_HO_MAX_BLOCKS * 2) + 3};

	(void)state;
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		struct got g = {.slow = i == 4};
		struct tapped t = {0};

		hand_tapped(ns[i], SIZE_MAX, &t, &g);
		/* every change, on the hand-over's thread (not this one) */
		assert_int_equal(t.n, ns[i]);
		assert_true(!t.th_set || !pthread_equal(t.th, pthread_self()));
	}
}

/* Cleared while the thread is busy with blocks: a prefix of the changes
 * seen, whole blocks, and no call after the clear returned. */
static void test_tap_cleared(void **state)
{
	size_t at[] = {0, TL_HO_BLOCK / 2, (size_t)TL_HO_BLOCK * 5 + 1,
		       (size_t)TL_HO_BLOCK * 40};

	(void)state;
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		struct got g = {0};
		struct tapped t = {.sleep_every = 2};

		hand_tapped((size_t)TL_HO_BLOCK * 60, at[i], &t, &g);
		/* only blocks handed over before the clear (whole) */
		assert_true(t.n <= at[i]);
		assert_int_equal(t.n % TL_HO_BLOCK, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_in_order),
		cmocka_unit_test(test_writer_waits),
		cmocka_unit_test(test_record_same),
		cmocka_unit_test(test_free_unsealed),
		cmocka_unit_test(test_tap_all_after_fn),
		cmocka_unit_test(test_tap_cleared),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
