// SPDX-License-Identifier: GPL-2.0-only
/*
 * The timeline's compact record of changes (src/output/timeline-changes.c):
 * what goes in comes back out, field for field and in order, through
 * ea_tl_reader: changes that repeat their CPU's last end, pid, OPP and
 * idle state, and ones that repeat none; extreme values (times near 0
 * and 2^64, a start after its end, negative and extreme pids and idle
 * states, every mode byte, CPUs past the header's three); enough changes
 * to fill several 2 MiB chunks; an empty record; a timeline that
 * recorded nothing. Published (tl_changes_publish()): a reader on
 * another thread reads the same changes while they are written, waiting
 * for more (tl_reader_wait()); one that stopped halfway goes on from there
 * once the record is sealed (tl_reader_resume()); one waiting when readers
 * are stopped returns.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "eatrace/html.h"
#include "output/timeline-changes.h"
#include "output/timeline-priv.h"

#define NCPUS 300

/* splitmix64: a fixed sequence, so that a failure repeats */
static uint64_t next_rand(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Change k of a sequence mixing the common case (contiguous on its CPU,
 * a few pids, one OPP) with rare extreme fields. */
static struct ea_tl_change make(uint64_t *x, uint64_t *cpu_end, uint64_t k)
{
	struct ea_tl_change c;
	uint64_t r = next_rand(x);
	int kind = (int)(r % 16);

	c.cpu = (uint16_t)(kind == 0 ? next_rand(x) % NCPUS : r % 3);
	c.t0 = cpu_end[c.cpu];
	c.t1 = c.t0 + 1000 + (next_rand(x) % 200000);
	c.pid = (int32_t)(1000 + next_rand(x) % 4);
	c.freq_khz = 1800000;
	c.idle_state = -1;
	c.mode = (uint8_t)(next_rand(x) % 2);
	switch (kind) {
	case 1: /* a start anywhere, even after the end */
		c.t0 = next_rand(x);
		break;
	case 2:
		c.t1 = next_rand(x);
		break;
	case 3:
		c.pid = (int32_t)(uint32_t)next_rand(x);
		break;
	case 4:
		c.freq_khz = (uint32_t)next_rand(x);
		break;
	case 5:
		c.idle_state = (int16_t)(uint16_t)next_rand(x);
		break;
	case 6:
		c.mode = (uint8_t)next_rand(x);
		break;
	case 7:
		c.t0 = UINT64_MAX - (k % 3);
		c.t1 = k % 2 ? UINT64_MAX : 0;
		c.pid = k % 2 ? INT32_MIN : INT32_MAX;
		c.idle_state = k % 2 ? INT16_MIN : INT16_MAX;
		c.freq_khz = UINT32_MAX;
		break;
	default:
		break;
	}
	cpu_end[c.cpu] = c.t1;
	return c;
}

static void expect_same(const struct ea_tl_change *a,
			const struct ea_tl_change *b)
{
	assert_int_equal(a->cpu, b->cpu);
	assert_int_equal(a->mode, b->mode);
	assert_true(a->t0 == b->t0);
	assert_true(a->t1 == b->t1);
	assert_int_equal(a->pid, b->pid);
	assert_int_equal(a->freq_khz, b->freq_khz);
	assert_int_equal(a->idle_state, b->idle_state);
}

static void round_trip(size_t n)
{
	struct ea_tl_priv pv = {0};
	struct ea_timeline t = {.priv = &pv};
	uint64_t x = 42, *cpu_end = calloc(NCPUS, sizeof(*cpu_end));
	struct ea_tl_change *in = malloc((n ? n : 1) * sizeof(*in)), out;
	struct ea_tl_reader *r;

	assert_non_null(cpu_end);
	assert_non_null(in);
	assert_int_equal(tl_changes_init(&pv.changes, NCPUS), 0);
	for (size_t k = 0; k < n; k++) {
		in[k] = make(&x, cpu_end, k);
		assert_int_equal(tl_changes_add(&pv.changes, &in[k]), 0);
	}
	assert_int_equal(ea_timeline_nchanges(&t), n);
	/* read twice: a reader does not consume the record */
	for (int pass = 0; pass < 2; pass++) {
		r = ea_tl_reader_new(&t);
		assert_non_null(r);
		for (size_t k = 0; k < n; k++) {
			assert_true(ea_tl_reader_next(r, &out));
			expect_same(&out, &in[k]);
		}
		assert_false(ea_tl_reader_next(r, &out));
		assert_false(ea_tl_reader_next(r, &out));
		ea_tl_reader_free(r);
	}
	if (n > 1000000)
		assert_true(pv.changes.nchunks >= 2);
	tl_changes_free(&pv.changes);
	free(in);
	free(cpu_end);
}

static void few(void **state)
{
	(void)state;
	round_trip(1);
	round_trip(5000);
}

/* Several chunks: each change here takes 3 bytes at least (a header, a
 * length of 1000 ns or more), 4.5 MB for 1.5 M changes. */
static void several_chunks(void **state)
{
	(void)state;
	round_trip(1500000);
}

static void empty(void **state)
{
	struct ea_timeline none = {0};
	struct ea_tl_change out;
	struct ea_tl_reader *r;

	(void)state;
	round_trip(0);
	/* a timeline that records no changes reads as none */
	assert_int_equal(ea_timeline_nchanges(&none), 0);
	r = ea_tl_reader_new(&none);
	assert_non_null(r);
	assert_false(ea_tl_reader_next(r, &out));
	ea_tl_reader_free(r);
}

/* A reader of a published record on a thread of its own: the first stop
 * changes (all: SIZE_MAX), compared with in[] (bad: the first that
 * differs + 1). */
struct side {
	struct tl_changes *s;
	const struct ea_tl_change *in;
	struct ea_tl_reader *r;
	size_t stop, got, bad;
};

static void *side_read(void *arg)
{
	struct side *d = arg;
	struct ea_tl_change out;

	do {
		while (d->got < d->stop && tl_reader_next(d->r, &out)) {
			if (!d->bad && (out.cpu != d->in[d->got].cpu ||
					out.t0 != d->in[d->got].t0 ||
					out.t1 != d->in[d->got].t1 ||
					out.pid != d->in[d->got].pid ||
					out.mode != d->in[d->got].mode ||
					out.freq_khz != d->in[d->got].freq_khz ||
					out.idle_state != d->in[d->got].idle_state))
				d->bad = d->got + 1;
			d->got++;
		}
	} while (d->got < d->stop && tl_reader_wait(d->r, d->s));
	return NULL;
}

static void published_read(size_t n, size_t stop)
{
	struct tl_changes s;
	uint64_t x = 7, *cpu_end = calloc(NCPUS, sizeof(*cpu_end));
	struct ea_tl_change *in = malloc((n ? n : 1) * sizeof(*in)), out;
	struct side d = {.s = &s, .stop = stop};
	pthread_t th;

	assert_non_null(cpu_end);
	assert_non_null(in);
	for (size_t k = 0; k < n; k++)
		in[k] = make(&x, cpu_end, k);
	d.in = in;
	assert_int_equal(tl_changes_init(&s, NCPUS), 0);
	assert_int_equal(tl_changes_publish(&s), 0);
	d.r = tl_reader_published(&s);
	assert_non_null(d.r);
	assert_int_equal(pthread_create(&th, NULL, side_read, &d), 0);
	for (size_t k = 0; k < n; k++)
		assert_int_equal(tl_changes_add(&s, &in[k]), 0);
	tl_changes_seal(&s);
	pthread_join(th, NULL);
	assert_int_equal(d.bad, 0);
	assert_int_equal(d.got, stop < n ? stop : n);
	/* the rest, read on from where the reader stopped */
	tl_reader_resume(d.r, &s);
	for (size_t k = d.got; k < n; k++) {
		assert_true(tl_reader_next(d.r, &out));
		expect_same(&out, &in[k]);
	}
	assert_false(tl_reader_next(d.r, &out));
	ea_tl_reader_free(d.r);
	tl_changes_free(&s);
	free(in);
	free(cpu_end);
}

static void published(void **state)
{
	(void)state;
	published_read(0, SIZE_MAX);
	published_read(1, SIZE_MAX);
	published_read(1500000, SIZE_MAX);
	published_read(1500000, 700000);
	published_read(1500000, 0);
}

/* A reader waiting for more when readers are stopped returns. */
static void stopped(void **state)
{
	struct tl_changes s;
	struct ea_tl_change c = {.t0 = 1, .t1 = 2};
	struct side d = {.s = &s, .stop = SIZE_MAX, .in = &c};
	pthread_t th;

	(void)state;
	assert_int_equal(tl_changes_init(&s, 1), 0);
	assert_int_equal(tl_changes_publish(&s), 0);
	d.r = tl_reader_published(&s);
	assert_non_null(d.r);
	assert_int_equal(tl_changes_add(&s, &c), 0);
	assert_int_equal(pthread_create(&th, NULL, side_read, &d), 0);
	tl_changes_stop_readers(&s);
	pthread_join(th, NULL);
	assert_int_equal(d.bad, 0);
	ea_tl_reader_free(d.r);
	tl_changes_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(few),
		cmocka_unit_test(several_chunks),
		cmocka_unit_test(empty),
		cmocka_unit_test(published),
		cmocka_unit_test(stopped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
