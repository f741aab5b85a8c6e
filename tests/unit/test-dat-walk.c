// SPDX-License-Identifier: GPL-2.0-only
/*
 * The trace.dat page walker (src/input/dat-walk.c) on pages built here:
 * timestamps through time extends, absolute time stamps and padding;
 * record sizes and offsets; missed events as kbuffer_missed_events()
 * reports them; the merge order of tracecmd_peek_next_data() (lowest
 * timestamp, lowest CPU on ties) over 3 and 64 CPUs; and the errors for
 * lengths that do not fit.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "input/dat-walk.h"

#define UNUSED __attribute__((unused))
#define PS 4096u
#define HDR 16u

struct pb {
	unsigned char pg[PS];
	uint32_t n;		/* bytes of data written */
};

static void put4(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void put8(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

static void pb_start(struct pb *b, uint64_t ts)
{
	memset(b->pg, 0, sizeof(b->pg));
	put8(b->pg, ts);
	b->n = 0;
}

static unsigned char *pb_at(struct pb *b)
{
	return b->pg + HDR + b->n;
}

/* A record of words * 4 bytes (type_len = words) starting with id. */
static void pb_rec(struct pb *b, uint32_t delta, uint32_t words, uint16_t id)
{
	put4(pb_at(b), delta << 5 | words);
	memcpy(pb_at(b) + 4, &id, 2);
	b->n += 4 + words * 4;
}

/* type_len 0: a length word (bytes + 4), then the data. */
static void pb_big(struct pb *b, uint32_t delta, uint32_t bytes)
{
	put4(pb_at(b), delta << 5);
	put4(pb_at(b) + 4, bytes + 4);
	b->n += 8 + ((bytes + 3) & ~3u);
}

static void pb_extend(struct pb *b, uint64_t delta)
{
	put4(pb_at(b), (uint32_t)(delta & ((1u << 27) - 1)) << 5 | 30);
	put4(pb_at(b) + 4, (uint32_t)(delta >> 27));
	b->n += 8;
}

static void pb_abs(struct pb *b, uint64_t ts)
{
	put4(pb_at(b), (uint32_t)(ts & ((1u << 27) - 1)) << 5 | 31);
	put4(pb_at(b) + 4, (uint32_t)(ts >> 27));
	b->n += 8;
}

static void pb_pad(struct pb *b, uint32_t delta, uint32_t len)
{
	put4(pb_at(b), delta << 5 | 29);
	put4(pb_at(b) + 4, len);
	b->n += 4 + len;
}

/* Commit word: data size | flags; missed >= 0 stores the count. */
static void pb_end(struct pb *b, uint64_t flags, long long missed)
{
	put8(b->pg + 8, b->n | flags);
	if (missed >= 0)
		put8(pb_at(b), (uint64_t)missed);
}

struct file {
	char path[64];
	int fd;
};

static void file_new(struct file *f)
{
	strcpy(f->path, "/tmp/eatrace-test-walk-XXXXXX");
	f->fd = mkstemp(f->path);
	assert_true(f->fd >= 0);
}

static unsigned long long file_add(struct file *f, const struct pb *b)
{
	off_t at = lseek(f->fd, 0, SEEK_END);

	assert_int_equal(write(f->fd, b->pg, PS), PS);
	return (unsigned long long)at;
}

static void file_done(struct file *f)
{
	close(f->fd);
	unlink(f->path);
}

static void test_timestamps(void **state UNUSED)
{
	unsigned long long start[1], size[1];
	struct file f;
	struct pb b;
	struct dw w;
	const struct dw_rec *r;

	file_new(&f);
	pb_start(&b, 1000);
	pb_rec(&b, 5, 3, 1);			/* 1005, 12 bytes */
	pb_extend(&b, 1ull << 30);		/* + 2^30 */
	pb_rec(&b, 7, 2, 2);			/* + 7 */
	pb_pad(&b, 3, 12);			/* discarded: its delta counts */
	pb_big(&b, 1, 200);			/* type_len 0 */
	pb_abs(&b, 5000000000ull);
	pb_rec(&b, 0, 1, 3);
	pb_end(&b, 0, -1);
	start[0] = file_add(&f, &b);
	pb_start(&b, 6000000000ull);		/* second page */
	pb_rec(&b, 2, 1, 4);
	pb_pad(&b, 0, 16);			/* padding to the end */
	pb_end(&b, 0, -1);
	file_add(&f, &b);
	size[0] = 2 * PS;

	assert_int_equal(dw_init(&w, f.fd, PS, 8, 1, start, size), 0);
	r = &w.cpu[0].rec;
	assert_int_equal(dw_advance(&w, 0), 1);
	assert_int_equal(r->ts, 1005);
	assert_int_equal(r->size, 12);
	assert_int_equal(r->offset, HDR);
	assert_int_equal(r->missed, 0);
	assert_int_equal(dw_advance(&w, 0), 1);
	assert_int_equal(r->ts, 1005 + (1ull << 30) + 7);
	assert_int_equal(r->size, 8);
	assert_int_equal(r->offset, HDR + 16 + 8);
	assert_int_equal(dw_advance(&w, 0), 1);
	assert_int_equal(r->ts, 1005 + (1ull << 30) + 7 + 3 + 1);
	assert_int_equal(r->size, 200);
	assert_int_equal(dw_advance(&w, 0), 1);
	assert_int_equal(r->ts, 5000000000ull);
	assert_int_equal(dw_advance(&w, 0), 1);
	assert_int_equal(r->ts, 6000000002ull);
	assert_int_equal(r->offset, PS + HDR);
	assert_int_equal(dw_first(&w), 0);
	assert_int_equal(dw_advance(&w, 0), 0);
	assert_int_equal(dw_first(&w), -1);
	dw_free(&w);
	file_done(&f);
}

#define MISSED_EVENTS (1ull << 31)
#define MISSED_STORED (1ull << 30)

static void test_missed(void **state UNUSED)
{
	unsigned long long start[1], size[1];
	struct file f;
	struct pb b;
	struct dw w;

	file_new(&f);
	pb_start(&b, 100);			/* count stored: 7 */
	pb_rec(&b, 1, 1, 1);
	pb_rec(&b, 1, 1, 1);
	pb_end(&b, MISSED_EVENTS | MISSED_STORED, 7);
	start[0] = file_add(&f, &b);
	pb_start(&b, 200);			/* lost, count unknown */
	pb_rec(&b, 1, 1, 1);
	pb_end(&b, MISSED_EVENTS, -1);
	file_add(&f, &b);
	pb_start(&b, 300);			/* first item a time extend */
	pb_extend(&b, 10);
	pb_rec(&b, 1, 1, 1);
	pb_end(&b, MISSED_EVENTS | MISSED_STORED, 9);
	file_add(&f, &b);
	size[0] = 3 * PS;

	assert_int_equal(dw_init(&w, f.fd, PS, 8, 1, start, size), 0);
	assert_int_equal(dw_advance(&w, 0), 1);
	assert_int_equal(w.cpu[0].rec.missed, 7);
	assert_int_equal(dw_advance(&w, 0), 1);
	assert_int_equal(w.cpu[0].rec.missed, 0);
	assert_int_equal(dw_advance(&w, 0), 1);
	assert_int_equal(w.cpu[0].rec.missed, -1);
	assert_int_equal(dw_advance(&w, 0), 1);
	assert_int_equal(w.cpu[0].rec.missed, 0);	/* not at offset 0 */
	assert_int_equal(w.cpu[0].rec.ts, 311);
	assert_int_equal(dw_advance(&w, 0), 0);
	dw_free(&w);
	file_done(&f);
}

/* Merge as tracecmd_peek_next_data(): lowest ts, then lowest CPU. */
static void test_merge_ties(void **state UNUSED)
{
	static const uint64_t ts[3][3] = {
		{ 10, 20, 20 }, { 20, 30, 0 }, { 5, 20, 0 },
	};
	static const int n[3] = { 3, 2, 2 };
	static const int want_cpu[] = { 2, 0, 0, 0, 1, 2, 1 };
	static const uint64_t want_ts[] = { 5, 10, 20, 20, 20, 20, 30 };
	unsigned long long start[3], size[3];
	struct file f;
	struct pb b;
	struct dw w;
	int c, i;

	file_new(&f);
	for (c = 0; c < 3; c++) {
		uint64_t last = 0;

		pb_start(&b, 0);
		for (i = 0; i < n[c]; i++) {
			pb_rec(&b, (uint32_t)(ts[c][i] - last), 1, (uint16_t)c);
			last = ts[c][i];
		}
		pb_end(&b, 0, -1);
		start[c] = file_add(&f, &b);
		size[c] = PS;
	}
	assert_int_equal(dw_init(&w, f.fd, PS, 8, 3, start, size), 0);
	for (c = 0; c < 3; c++)
		assert_int_equal(dw_advance(&w, c), 1);
	for (i = 0; i < 7; i++) {
		c = dw_first(&w);
		assert_int_equal(c, want_cpu[i]);
		assert_int_equal(w.cpu[c].rec.ts, want_ts[i]);
		assert_true(dw_advance(&w, c) >= 0);
	}
	assert_int_equal(dw_first(&w), -1);
	dw_free(&w);
	file_done(&f);
}

/* 64 CPUs, many ties and empty CPUs: the heap against a plain scan. */
static void test_merge_many(void **state UNUSED)
{
	enum { NC = 64, PER = 200 };
	unsigned long long start[NC], size[NC];
	uint64_t head[NC];
	int left[NC], c, k, total = 0;
	struct file f;
	struct pb b;
	struct dw w;

	srand(42);
	file_new(&f);
	for (c = 0; c < NC; c++) {
		int nrec = c % 7 == 3 ? 0 : PER;

		pb_start(&b, (uint64_t)(rand() % 50));
		for (k = 0; k < nrec; k++)
			pb_rec(&b, (uint32_t)(rand() % 3), 1, (uint16_t)c);
		pb_end(&b, 0, -1);
		start[c] = file_add(&f, &b);
		size[c] = nrec ? PS : 0;
		left[c] = nrec;
	}
	assert_int_equal(dw_init(&w, f.fd, PS, 8, NC, start, size), 0);
	for (c = 0; c < NC; c++) {
		assert_int_equal(dw_advance(&w, c), size[c] ? 1 : 0);
		head[c] = w.cpu[c].rec.ts;
	}
	for (;;) {
		int best = -1;

		for (c = 0; c < NC; c++)
			if (left[c] && (best < 0 || head[c] < head[best]))
				best = c;
		assert_int_equal(dw_first(&w), best);
		if (best < 0)
			break;
		left[best]--;
		total++;
		assert_int_equal(dw_advance(&w, best), left[best] ? 1 : 0);
		head[best] = w.cpu[best].rec.ts;
	}
	assert_int_equal(total, (NC - 9) * PER);
	dw_free(&w);
	file_done(&f);
}

/* A one-page CPU whose first record reads and whose second fails. */
static void expect_error(struct pb *b, const char *msg)
{
	unsigned long long start[1], size[1];
	struct file f;
	struct dw w;

	file_new(&f);
	start[0] = file_add(&f, b);
	size[0] = PS;
	assert_int_equal(dw_init(&w, f.fd, PS, 8, 1, start, size), 0);
	assert_int_equal(dw_advance(&w, 0), 1);
	assert_int_equal(dw_advance(&w, 0), -1);
	if (!strstr(w.err, msg))
		fail_msg("'%s' lacks '%s'", w.err, msg);
	assert_null(strchr(w.err, '\n'));
	assert_int_equal(dw_first(&w), -1);
	dw_free(&w);
	file_done(&f);
}

static void test_errors(void **state UNUSED)
{
	unsigned long long start[1], size[1];
	struct file f;
	struct pb b;
	struct dw w;

	pb_start(&b, 1);
	pb_rec(&b, 1, 1, 1);
	pb_big(&b, 1, 8);
	put4(b.pg + HDR + 8 + 4, 1u << 31);	/* length past the page */
	pb_end(&b, 0, -1);
	expect_error(&b, "corrupt trace.dat: record runs past the end of the page data at offset 24 (page at 0)");

	pb_start(&b, 1);
	pb_rec(&b, 1, 1, 1);
	pb_big(&b, 1, 8);
	put4(b.pg + HDR + 8 + 4, 2);		/* length below 4 */
	pb_end(&b, 0, -1);
	expect_error(&b, "record length below 4");

	pb_start(&b, 1);
	pb_rec(&b, 1, 1, 1);
	pb_rec(&b, 1, 3, 1);
	pb_end(&b, 0, -1);
	put8(b.pg + 8, b.n - 4);		/* commit cuts the record */
	expect_error(&b, "record runs past the end of the page data");

	pb_start(&b, 1);
	pb_rec(&b, 1, 1, 1);
	pb_extend(&b, 5);
	pb_end(&b, 0, -1);
	put8(b.pg + 8, b.n - 4);		/* commit cuts the extend */
	expect_error(&b, "time stamp cut by the end of the page data");

	/* commit size beyond the page, on the first page: first advance */
	file_new(&f);
	pb_start(&b, 1);
	pb_end(&b, PS, -1);
	start[0] = file_add(&f, &b);
	size[0] = PS;
	assert_int_equal(dw_init(&w, f.fd, PS, 8, 1, start, size), 0);
	assert_int_equal(dw_advance(&w, 0), -1);
	assert_non_null(strstr(w.err, "page data size 4096 larger than the page"));
	dw_free(&w);
	/* the file one page shorter than the CPU's data */
	pb_start(&b, 1);
	pb_end(&b, 0, -1);
	assert_int_equal(pwrite(f.fd, b.pg, PS, 0), PS);
	size[0] = 2 * PS;
	assert_int_equal(dw_init(&w, f.fd, PS, 8, 1, start, size), 0);
	assert_int_equal(dw_advance(&w, 0), -1);
	assert_non_null(strstr(w.err, "truncated trace.dat: file ends at offset 4096, CPU data ends at 8192"));
	dw_free(&w);
	file_done(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timestamps),
		cmocka_unit_test(test_missed),
		cmocka_unit_test(test_merge_ties),
		cmocka_unit_test(test_merge_many),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
