// SPDX-License-Identifier: GPL-2.0-only
/*
 * The page walker's mmap windows (src/input/dat-map.c, dat-walk.c's
 * refill()) on files built here, with trace pages of 1 KiB (smaller than
 * the 4 KiB system page) starting 3 KiB into the file, so that every
 * window starts off a system page and the mapping's offset is adjusted:
 * the window sizes dm_window() picks; the records of two CPUs read through
 * windows of 12 pages (EATRACE_MMAP_KIB=12), windows crossing system pages
 * and a last window shorter than the others at the end of each CPU's
 * data, each CPU's record left in place while the other CPU moves to its
 * next window; the same records with EATRACE_NO_MMAP=1 (pread()); a file
 * cut short before a window is mapped (pread()'s message) and while it is
 * mapped (the SIGBUS turned into zeros and the error, no crash), at a
 * system page boundary and inside a system page.
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

#include "input/dat-map.h"
#include "input/dat-walk.h"

#define UNUSED __attribute__((unused))
#define PS 1024u		/* trace page */
#define HDR 16u			/* 8-byte timestamp, 8-byte commit word */
#define PRE 3072u		/* bytes before the first CPU's data */
#define NREC 4u			/* records per page, 12 bytes each */
#define WIN_KIB 12		/* windows of 12 trace pages */

/*
 * CPU c's page i: timestamp base(c, i), NREC records of 4 + 8 bytes with
 * time deltas of 1 (record k at base + k + 1), each starting with the
 * u16 id(c, i, k). CPU 1's timestamps fall between CPU 0's pages' so the
 * merge alternates between the CPUs page by page.
 */
static uint64_t base_ts(int c, unsigned i)
{
	return 1000ull * i + (c ? 500 : 0);
}

static uint16_t rec_id(int c, unsigned i, unsigned k)
{
	return (uint16_t)(c * 10000 + i * NREC + k);
}

static void put_page(unsigned char *pg, int c, unsigned i)
{
	uint64_t ts = base_ts(c, i), commit = NREC * 12;
	unsigned k;

	memset(pg, 0, PS);
	memcpy(pg, &ts, 8);
	memcpy(pg + 8, &commit, 8);
	for (k = 0; k < NREC; k++) {
		unsigned char *r = pg + HDR + k * 12;
		uint32_t h = 1u << 5 | 2;	/* delta 1, type_len 2: 8 bytes */
		uint16_t id = rec_id(c, i, k);

		memcpy(r, &h, 4);
		memcpy(r + 4, &id, 2);
	}
}

struct scratch {
	char path[64];
	int fd;
	unsigned long long start[2], size[2];
};

/* PRE bytes of 0xee, then CPU 0's n0 pages, then CPU 1's n1. */
static void scratch_new(struct scratch *s, unsigned n0, unsigned n1)
{
	unsigned char pg[PS];
	unsigned i;

	strcpy(s->path, "/tmp/eatrace-test-map-XXXXXX");
	s->fd = mkstemp(s->path);
	assert_true(s->fd >= 0);
	memset(pg, 0xee, sizeof(pg));
	for (i = 0; i < PRE / PS; i++)
		assert_int_equal(write(s->fd, pg, PS), PS);
	for (i = 0; i < n0 + n1; i++) {
		put_page(pg, i < n0 ? 0 : 1, i < n0 ? i : i - n0);
		assert_int_equal(write(s->fd, pg, PS), PS);
	}
	s->start[0] = PRE;
	s->size[0] = (unsigned long long)n0 * PS;
	s->start[1] = PRE + s->size[0];
	s->size[1] = (unsigned long long)n1 * PS;
}

static void scratch_done(struct scratch *s)
{
	close(s->fd);
	unlink(s->path);
}

static uint16_t id_of(const struct dw_rec *r)
{
	uint16_t id;

	memcpy(&id, r->data, 2);
	return id;
}

/* CPU c's n-th record (from 0) is page n / NREC's record n % NREC. */
static void check_rec(const struct dw *w, int c, unsigned n)
{
	const struct dw_rec *r = &w->cpu[c].rec;
	unsigned i = n / NREC, k = n % NREC;

	assert_int_equal(r->ts, base_ts(c, i) + k + 1);
	assert_int_equal(r->size, 8);
	assert_int_equal(r->offset, w->cpu[c].pg_off + HDR + k * 12);
	assert_int_equal(r->offset, ((c ? PRE + 30 * PS : PRE) +
				     (unsigned long long)i * PS + HDR + k * 12));
	assert_int_equal(id_of(r), rec_id(c, i, k));
}

static void test_window_size(void **state UNUSED)
{
	if (sysconf(_SC_PAGESIZE) != 4096)
		skip();
	unsetenv("EATRACE_NO_MMAP");
	unsetenv("EATRACE_MMAP_KIB");
	/* DM_WINDOW, 2 MiB, while n windows stay under DM_TOTAL, 64 MiB */
	assert_int_equal(dm_window(1, 4096), 2u << 20);
	assert_int_equal(dm_window(32, 4096), 2u << 20);
	/* 64 MiB / 64 CPUs = 1 MiB */
	assert_int_equal(dm_window(64, 4096), 1u << 20);
	/* 64 MiB / 100 = 671088.64, down to 163 system pages of 4096 */
	assert_int_equal(dm_window(100, 4096), 163u * 4096);
	/* 64 MiB / 4096 = 16 KiB, below one trace page of 1 MiB: a page */
	assert_int_equal(dm_window(4096, 1u << 20), 1u << 20);
	/* 1 KiB trace pages, a system page at least */
	setenv("EATRACE_MMAP_KIB", "1", 1);	/* under 4: ignored */
	assert_int_equal(dm_window(1, PS), 2u << 20);
	setenv("EATRACE_MMAP_KIB", "13", 1);	/* 13312 down to 12288 */
	assert_int_equal(dm_window(1, PS), 12288);
	setenv("EATRACE_NO_MMAP", "1", 1);
	assert_int_equal(dm_window(1, 4096), 0);
	setenv("EATRACE_NO_MMAP", "0", 1);	/* "0": on */
	assert_int_equal(dm_window(1, PS), 12288);
	unsetenv("EATRACE_NO_MMAP");
	unsetenv("EATRACE_MMAP_KIB");
}

/*
 * Two CPUs, 30 and 20 pages: windows of 12 pages, CPU 0's at file offsets
 * 3072, 15360 and 27648 (the last 6 pages), CPU 1's at 33792, 46080 and
 * 58368 (8 pages), none a multiple of 4096. Every record in merge order,
 * and the other CPU's record still readable in place at each step.
 */
static void walk_two(bool map)
{
	unsigned n[2] = {0, 0}, total = 0;
	struct scratch s;
	struct dw w;
	int c;

	if (map)
		unsetenv("EATRACE_NO_MMAP");
	else
		setenv("EATRACE_NO_MMAP", "1", 1);
	setenv("EATRACE_MMAP_KIB", "12", 1);
	scratch_new(&s, 30, 20);
	assert_int_equal(dw_init(&w, s.fd, PS, 8, 2, s.start, s.size), 0);
	assert_int_equal(w.map_win, map ? 12 * PS : 0);
	for (c = 0; c < 2; c++)
		assert_int_equal(dw_advance(&w, c), 1);
	while ((c = dw_first(&w)) >= 0) {
		int o = !c;

		check_rec(&w, c, n[c]);
		if (w.cpu[o].have)
			check_rec(&w, o, n[o]);
		if (map) /* the page walked lies in the CPU's window */
			assert_true(w.cpu[c].pg >= w.cpu[c].win.base &&
				    w.cpu[c].pg + PS <=
					    w.cpu[c].win.base + w.cpu[c].win.len);
		n[c]++;
		total++;
		assert_true(dw_advance(&w, c) >= 0);
	}
	assert_int_equal(n[0], 30 * NREC);
	assert_int_equal(n[1], 20 * NREC);
	assert_int_equal(total, 50 * NREC);
	/* the end of the data mapped: CPU 1's last window, 58368 + 8 pages */
	assert_int_equal(w.map_hi, map ? PRE + 50ull * PS : 0);
	assert_false(dw_cut(&w));
	dw_free(&w);
	scratch_done(&s);
	unsetenv("EATRACE_NO_MMAP");
	unsetenv("EATRACE_MMAP_KIB");
}

static void test_windows(void **state UNUSED)
{
	if (sysconf(_SC_PAGESIZE) > 12 * PS)
		skip();
	walk_two(true);
}

static void test_pread(void **state UNUSED)
{
	walk_two(false);
}

/*
 * CPU 0 alone, 30 pages from 3072, windows of 12 pages; the file cut to
 * `cut` bytes after the first window is mapped (the first advance). The
 * records read before the walk fails: *n; the walker's error: w->err.
 */
static int walk_cut(struct dw *w, struct scratch *s, off_t cut, unsigned *n)
{
	int rc;

	setenv("EATRACE_MMAP_KIB", "12", 1);
	scratch_new(s, 30, 0);
	assert_int_equal(dw_init(w, s->fd, PS, 8, 1, s->start, s->size), 0);
	*n = 0;
	rc = dw_advance(w, 0);
	assert_int_equal(rc, 1);
	assert_non_null(w->cpu[0].win.base);
	assert_int_equal(ftruncate(s->fd, cut), 0);
	while (rc == 1) {
		check_rec(w, 0, *n);
		(*n)++;
		rc = dw_advance(w, 0);
	}
	unsetenv("EATRACE_MMAP_KIB");
	return rc;
}

/*
 * Cut at 20000, past the first window [3072, 15360): its 12 pages read
 * (48 records); the second window [15360, 27648) reaches past the end and
 * is read by pread(), which meets the end at 20000: pread()'s message.
 */
static void test_cut_before_window(void **state UNUSED)
{
	struct scratch s;
	struct dw w;
	unsigned n;

	if (sysconf(_SC_PAGESIZE) != 4096)
		skip();
	assert_int_equal(walk_cut(&w, &s, 20000, &n), -1);
	assert_int_equal(n, 12 * NREC);
	assert_string_equal(w.err, "truncated trace.dat: file ends at offset "
				   "20000, CPU data ends at 33792");
	dw_free(&w);
	scratch_done(&s);
}

/*
 * Cut at 8192, a system page boundary inside the first window: the pages
 * at 3072 .. 7168 (5 pages, 20 records) are read; the page at 8192 is
 * gone (SIGBUS, zeros: an empty page, as are the 6 after it); moving to
 * the next window finds the window cut.
 */
static void test_cut_mapped(void **state UNUSED)
{
	struct scratch s;
	struct dw w;
	unsigned n;

	if (sysconf(_SC_PAGESIZE) != 4096)
		skip();
	assert_int_equal(walk_cut(&w, &s, 8192, &n), -1);
	assert_int_equal(n, 5 * NREC);
	assert_string_equal(w.err, "truncated trace.dat: file cut short while "
				   "being read (a mapped page gone)");
	assert_true(dw_cut(&w));
	dw_free(&w);
	scratch_done(&s);
}

/*
 * Cut at 13000, inside the system page [12288, 16384) that holds the end
 * of the first window [3072, 15360): no SIGBUS (the rest of a file's last
 * system page reads zeros); the page at 12288 keeps its records (its 64
 * bytes end at 12352), those at 13312 and 14336 read zeros (empty). 10
 * pages, 40 records; the next window lies past the end, and the file is
 * now shorter than the data mapped (15360): the cut, not pread()'s end.
 */
static void test_cut_inside_page(void **state UNUSED)
{
	struct scratch s;
	struct dw w;
	unsigned n;

	if (sysconf(_SC_PAGESIZE) != 4096)
		skip();
	assert_int_equal(walk_cut(&w, &s, 13000, &n), -1);
	assert_int_equal(n, 10 * NREC);
	assert_string_equal(w.err, "truncated trace.dat: file cut short while "
				   "being read (now 13000 bytes, data mapped up "
				   "to 15360)");
	dw_free(&w);
	scratch_done(&s);
}

/* dm_map() itself: a window, cut under it, then read where it was. */
static void test_map_cut(void **state UNUSED)
{
	struct scratch s;
	struct dm_win m;
	const volatile unsigned char *p;
	siginfo_t si;

	if (sysconf(_SC_PAGESIZE) != 4096)
		skip();
	scratch_new(&s, 30, 0);
	/* past the end: not mapped */
	assert_null(dm_map(&m, s.fd, PRE, 31 * PS));
	assert_null(m.base);
	p = dm_map(&m, s.fd, PRE, 30 * PS);
	assert_non_null(p);
	/* offset 3072 in the file: at 3072 in a mapping from offset 0 */
	assert_ptr_equal(p, m.base + PRE);
	assert_int_equal(p[0], 0);	/* CPU 0 page 0's timestamp, 0 */
	assert_int_equal(p[HDR + 4], 0);	/* its first id, 0 */
	assert_int_equal(p[PS + HDR + 4], NREC);	/* page 1's, 4 */
	assert_false(dm_cut(&m));
	assert_int_equal(ftruncate(s.fd, 4096), 0);
	assert_int_equal(p[4096 - PRE + 8], 0);	/* gone: zeros */
	assert_true(dm_cut(&m));
	/* not a window's address */
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGBUS;
	si.si_addr = &si;
	assert_false(dm_fault(&si));
	assert_true(dm_unmap(&m));
	assert_null(m.base);
	assert_false(dm_unmap(&m));
	scratch_done(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window_size),
		cmocka_unit_test(test_windows),
		cmocka_unit_test(test_pread),
		cmocka_unit_test(test_cut_before_window),
		cmocka_unit_test(test_cut_mapped),
		cmocka_unit_test(test_cut_inside_page),
		cmocka_unit_test(test_map_cut),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
