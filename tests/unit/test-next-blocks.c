// SPDX-License-Identifier: GPL-2.0-only
/*
 * A reader's next() a block at a time (src/input/next-blocks.c), on a
 * thread of its own (two jobs, blocks of 3 events and of the default
 * size) and on the caller's (one job), against a scripted reader whose
 * events, positions, end and error are known here: every event in order,
 * each named by the position the reader gave right after it (nb_pos()
 * after nb_block_at()), the end's position; the reader's error after the
 * events before it; an event input.c's checks refuse (time going back, a
 * CPU past the trace's) ends the stream with input.c's message naming
 * its position, never the reader's later error though next_n() read past
 * it; nb_lock() keeps the decoding thread out; nb_free() in the middle
 * (the thread working or asleep on a full ring) returns. The readers'
 * entries (nb_reader_*()): the environment's "0" or a reader that cannot
 * leaves next() to the reader, its number sets the block's size, the
 * first read begins with the file's compressed and bytes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "eatrace/input.h"
#include "input/next-blocks.h"

#define NEV 5000
#define END_POS 999999u

/* The scripted reader: events ev[0..n) (event i at position 10 i + 7),
 * then the end (fail < 0) or an error (fail >= 0: after fail events). */
struct fake {
	struct ea_event ev[NEV];
	size_t n, i;
	long fail;
	uint64_t cur;
	atomic_long calls;
};

static int fake_next_n(void *priv, struct ea_event *ev, uint64_t *pos,
		       uint32_t n, uint32_t *got, struct ea_err *err)
{
	struct fake *f = priv;
	uint32_t k = 0;

	atomic_fetch_add(&f->calls, 1);
	while (k < n) {
		if (f->fail >= 0 && f->i == (size_t)f->fail) {
			*got = k;
			f->cur = END_POS;
			return ea_err_set(err, "fake: broken at %zu", f->i);
		}
		if (f->i == f->n) {
			*got = k;
			f->cur = END_POS;
			return 0;
		}
		ev[k] = f->ev[f->i];
		f->cur = pos[k] = 10 * f->i + 7;
		f->i++;
		k++;
	}
	*got = k;
	return 1;
}

static uint64_t fake_pos(void *priv)
{
	return ((struct fake *)priv)->cur;
}

static void fake_where_at(void *priv, uint64_t pos, char *buf, size_t n)
{
	(void)priv;
	snprintf(buf, n, "at %llu", (unsigned long long)pos);
}

/* n events on CPUs 0 to 3, one nanosecond apart from 1000 (switches of
 * pids 1 to 9: every one passes the checks) */
static struct fake *make(size_t n, long fail)
{
	struct fake *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->n = n;
	f->fail = fail;
	for (size_t i = 0; i < n; i++) {
		struct ea_event *e = &f->ev[i];

		e->ts = 1000 + i;
		e->cpu = (int32_t)(i % 4);
		e->cur_pid = (int32_t)(1 + i % 9);
		e->type = EA_EV_SWITCH;
		e->sw.prev_pid = e->cur_pid;
		e->sw.next_pid = (int32_t)(1 + (i + 1) % 9);
	}
	return f;
}

/* On the heap, as the fake: a test that fails leaves the thread running
 * on them, not on a stack frame the next test reuses. */
static struct nb *start(struct fake *f, int jobs, uint32_t blk)
{
	struct nb_src src = {f, fake_next_n, fake_pos, fake_where_at, "fake", 4};
	struct nb *b = calloc(1, sizeof(*b));

	assert_non_null(b);
	ea_input_set_jobs(jobs);
	nb_init(b, &src, blk);
	/* past EA_APART_MIN_BYTES: the thread from two jobs */
	nb_begin(b, false, 64u << 20);
	assert_int_equal(nb_threaded(b), jobs >= 2);
	return b;
}

static void stop(struct nb *b, struct fake *f)
{
	nb_free(b);
	free(b);
	free(f);
}

/*
 * Read the whole stream a block at a time: each event and its position
 * checked against the script; the return of the last call (0 or -1, err)
 * and how many events came.
 */
static int read_all(struct nb *b, const struct fake *f, size_t *count,
		    struct ea_err *err)
{
	const struct ea_event *evs;
	size_t n, k = 0;
	int rc;

	while ((rc = nb_next_block(b, &evs, &n, err)) > 0) {
		assert_true(n >= 1);
		/* the block's last event is the one named */
		assert_int_equal(nb_pos(b), 10 * (k + n - 1) + 7);
		for (size_t i = 0; i < n; i++, k++) {
			assert_true(k < f->n);
			assert_memory_equal(&evs[i], &f->ev[k], sizeof(evs[i]));
			nb_block_at(b, i);
			assert_int_equal(nb_pos(b), 10 * k + 7);
		}
	}
	*count = k;
	return rc;
}

static const struct {
	int jobs;
	uint32_t blk;
} modes[] = {{2, 3}, {2, 0}, {1, 0}};

static void test_whole(void **unused)
{
	for (size_t m = 0; m < 3; m++) {
		struct fake *f = make(NEV, -1);
		struct ea_err err;
		struct nb *b;
		size_t k;

		b = start(f, modes[m].jobs, modes[m].blk);
		assert_int_equal(read_all(b, f, &k, &err), 0);
		assert_int_equal(k, NEV);
		assert_int_equal(nb_pos(b), END_POS);	/* after the end */
		/* and it stays ended */
		assert_int_equal(read_all(b, f, &k, &err), 0);
		stop(b, f);
	}
	ea_input_set_jobs(0);
}

/* One at a time (nb_next()): the same events, positions */
static void test_one_at_a_time(void **unused)
{
	for (size_t m = 0; m < 3; m++) {
		struct fake *f = make(NEV, -1);
		struct ea_event ev;
		struct ea_err err;
		struct nb *b;
		size_t k = 0;
		int rc;

		b = start(f, modes[m].jobs, modes[m].blk);
		while ((rc = nb_next(b, &ev, &err)) > 0) {
			assert_memory_equal(&ev, &f->ev[k], sizeof(ev));
			assert_int_equal(nb_pos(b), 10 * k + 7);
			k++;
		}
		assert_int_equal(rc, 0);
		assert_int_equal(k, NEV);
		stop(b, f);
	}
	ea_input_set_jobs(0);
}

/* The reader's error after 2345 events: those, then the error. */
static void test_reader_error(void **unused)
{
	for (size_t m = 0; m < 3; m++) {
		struct fake *f = make(NEV, 2345);
		struct ea_err err;
		struct nb *b;
		size_t k;

		b = start(f, modes[m].jobs, modes[m].blk);
		assert_int_equal(read_all(b, f, &k, &err), -1);
		assert_int_equal(k, 2345);
		assert_string_equal(err.msg, "fake: broken at 2345");
		assert_int_equal(nb_pos(b), END_POS);
		stop(b, f);
	}
	ea_input_set_jobs(0);
}

/*
 * Event 1500 refused by the checks (its time 1 ns before event 1499's,
 * or its CPU 4 of a 4-CPU trace), the reader's error 3 events later:
 * the events before it, then input.c's message naming event 1500's
 * position (15007), not the reader's error.
 */
static void test_check_error(void **unused)
{
	for (int how = 0; how < 2; how++)
		for (size_t m = 0; m < 3; m++) {
			struct fake *f = make(NEV, 1503);
			struct ea_err err;
			struct nb *b;
			size_t k;

			if (how == 0)
				f->ev[1500].ts = f->ev[1499].ts - 1;
			else
				f->ev[1500].cpu = 4;
			b = start(f, modes[m].jobs, modes[m].blk);
			assert_int_equal(read_all(b, f, &k, &err), -1);
			assert_int_equal(k, 1500);
			if (how == 0)
				assert_string_equal(
					err.msg, "fake:at 15007: timestamp 2498 ns "
						 "goes backwards (previous 2499 ns)");
			else
				assert_true(!strncmp(err.msg, "fake:at 15007: ", 15) &&
					    strstr(err.msg, "CPU 4"));
			assert_int_equal(nb_pos(b), 15007);
			stop(b, f);
		}
	ea_input_set_jobs(0);
}

/* Held, the lock keeps the decoding thread from calling next_n(): the
 * calls do not move while it is held (2 ms, twice), then go on. */
static void test_lock(void **unused)
{
	struct fake *f = make(NEV, -1);
	const struct timespec ms2 = {0, 2000000};
	const struct ea_event *evs;
	struct ea_err err;
	struct nb *b;
	size_t n;
	long c;

	b = start(f, 2, 1);	/* blocks of 1: next_n() called per event */
	assert_int_equal(nb_next_block(b, &evs, &n, &err), 1);
	for (int i = 0; i < 2; i++) {
		nb_lock(b);
		c = atomic_load(&f->calls);
		nanosleep(&ms2, NULL);
		assert_int_equal(atomic_load(&f->calls), c);
		nb_unlock(b);
		/* it may run again: the reader reads on */
		for (int j = 0; j < 20; j++)
			assert_int_equal(nb_next_block(b, &evs, &n, &err), 1);
	}
	stop(b, f);
	ea_input_set_jobs(0);
}

/* Freed after 0, 1 or 2 blocks: the thread (busy, or asleep on a full
 * ring with blocks of 3) is stopped and joined. */
static void test_free_early(void **unused)
{
	static const size_t stops[] = {0, 1, 2};

	for (size_t s = 0; s < 3; s++)
		for (size_t m = 0; m < 3; m++) {
			struct fake *f = make(NEV, -1);
			const struct ea_event *evs;
			struct ea_err err;
			struct nb *b;
			size_t n;

			b = start(f, modes[m].jobs, modes[m].blk);
			for (size_t i = 0; i < stops[s]; i++)
				assert_int_equal(
					nb_next_block(b, &evs, &n, &err), 1);
			stop(b, f);
		}
	ea_input_set_jobs(0);
}

/* A reader set up by nb_reader_init() with env EATRACE_NB_TEST = val
 * (NULL: unset), on the heap as start()'s. */
static struct nb *reader(struct fake *f, const char *val, bool can,
			 bool compressed, uint64_t bytes)
{
	struct nb_src src = {f, fake_next_n, fake_pos, fake_where_at, "fake", 4};
	struct nb *b = calloc(1, sizeof(*b));

	assert_non_null(b);
	if (val)
		assert_int_equal(setenv("EATRACE_NB_TEST", val, 1), 0);
	else
		assert_int_equal(unsetenv("EATRACE_NB_TEST"), 0);
	nb_reader_init(b, &src, "EATRACE_NB_TEST", can, compressed, bytes);
	return b;
}

/*
 * Not read through (EATRACE_NB_TEST=0, or the reader cannot): next_block
 * 2 (the caller asks next()), one thread, unchecked, nothing decoded.
 * Read through: two threads said, checked once the first read began it;
 * blocks of EATRACE_NB_TEST=3 events on a thread of its own from two
 * jobs; a plain file of 1 KiB (below EA_APART_MIN_BYTES, no jobs asked)
 * on the caller's, in NB_LOCAL_BLK blocks.
 */
static void test_reader_entries(void **unused)
{
	static const struct {
		const char *val;
		bool can;
	} off[] = {{"0", true}, {NULL, false}, {"3", false}};
	const struct ea_event *evs;
	struct ea_err err;
	struct fake *f;
	struct nb *b;
	size_t n;

	for (size_t i = 0; i < 3; i++) {
		f = make(NEV, -1);
		b = reader(f, off[i].val, off[i].can, true, 64u << 20);
		assert_false(nb_reader_reads(b));
		assert_int_equal(nb_reader_next_block(b, &evs, &n, &err), 2);
		assert_int_equal(nb_reader_threads(b), 1);
		assert_false(nb_reader_checked(b));
		nb_reader_block_at(b, 0);
		assert_int_equal(atomic_load(&f->calls), 0);
		stop(b, f);
	}

	ea_input_set_jobs(2);
	f = make(NEV, -1);
	b = reader(f, "3", true, false, 64u << 20);
	assert_int_equal(nb_reader_threads(b), 2);
	assert_false(nb_reader_checked(b));
	nb_reader_block_at(b, 1);	/* before the first read: nothing */
	assert_int_equal(atomic_load(&f->calls), 0);
	assert_int_equal(nb_reader_next_block(b, &evs, &n, &err), 1);
	assert_true(nb_reader_checked(b));
	assert_true(nb_threaded(b));
	assert_int_equal(n, 3);
	nb_reader_block_at(b, 1);
	assert_int_equal(nb_pos(b), 17);	/* event 1: 10 * 1 + 7 */
	stop(b, f);

	ea_input_set_jobs(0);
	assert_int_equal(unsetenv("EATRACE_JOBS"), 0);
	f = make(NEV, -1);
	b = reader(f, NULL, true, false, 1024);
	assert_int_equal(nb_reader_threads(b), 2);
	assert_int_equal(nb_reader_next_block(b, &evs, &n, &err), 1);
	assert_false(nb_threaded(b));
	assert_int_equal(n, NB_LOCAL_BLK);
	stop(b, f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole),
		cmocka_unit_test(test_one_at_a_time),
		cmocka_unit_test(test_reader_error),
		cmocka_unit_test(test_check_error),
		cmocka_unit_test(test_lock),
		cmocka_unit_test(test_free_early),
		cmocka_unit_test(test_reader_entries),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
