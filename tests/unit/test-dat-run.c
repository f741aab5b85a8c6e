// SPDX-License-Identifier: GPL-2.0-only
/*
 * A trace.dat read a block at a time on one thread (ea_input_next_block():
 * dat-read.c fill_block(), whose common case dat-run.c takes a run of
 * records at a time) gives the events of ea_input_next() (fast_next(), a
 * record at a time), in the same order, each at the same position
 * (ea_input_block_at() then ea_input_where()), and ends as it does: at
 * the same place, with the same error. On every trace.dat of traces/,
 * ../shared/traces and tests/fixtures, then on copies of two of them with
 * bytes of their data changed at random (lengths, timestamps, event ids,
 * pids, CPU ids; fewer under make sanitize), which must fail, or not,
 * alike. And dat-fixed.h's ld_comm() against the plain copy it replaces.
 */
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "eatrace/input.h"
#include "input/dat-fixed.h"
#include "input/input-block.h"
#include "same-event.h"
#include "whole-file.h"

struct rec {
	struct ea_event ev;
	char where[64];
};

struct read {
	struct rec *r;
	size_t n, cap;
	int rc;			/* 0 the end, -1 an error, 2 not opened */
	char msg[512];
	char end[64];		/* ea_input_where() at the end */
};


static struct rec *more(struct read *rd)
{
	if (rd->n == rd->cap) {
		rd->cap = rd->cap ? 2 * rd->cap : 4096;
		rd->r = realloc(rd->r, rd->cap * sizeof(*rd->r));
		assert_non_null(rd->r);
	}
	return &rd->r[rd->n++];
}

/* path's events one at a time (blocks false) or a block at a time */
static void read_trace(const char *path, bool blocks, struct read *rd)
{
	struct ea_input *in;
	struct ea_err err;
	int rc;

	rd->n = 0;
	rd->msg[0] = rd->end[0] = 0;
	ea_input_set_jobs(1);
	if (ea_input_open(&in, path, &err)) {
		rd->rc = 2;
		snprintf(rd->msg, sizeof(rd->msg), "%s", err.msg);
		return;
	}
	if (!blocks) {
		struct ea_event ev;

		while ((rc = ea_input_next(in, &ev, &err)) > 0) {
			struct rec *r = more(rd);

			r->ev = ev;
			ea_input_where(in, r->where, sizeof(r->where));
		}
	} else {
		const struct ea_event *evs;
		size_t n;

		while ((rc = ea_input_next_block(in, &evs, &n, &err)) > 0)
			for (size_t i = 0; i < n; i++) {
				struct rec *r = more(rd);

				r->ev = evs[i];
				ea_input_block_at(in, i);
				ea_input_where(in, r->where, sizeof(r->where));
			}
	}
	rd->rc = rc;
	if (rc < 0)
		snprintf(rd->msg, sizeof(rd->msg), "%s", err.msg);
	ea_input_where(in, rd->end, sizeof(rd->end));
	ea_input_close(in);
	ea_input_set_jobs(0);
}

static struct read one, blk;

static void same_reads(const char *what)
{
	if (one.rc != blk.rc || strcmp(one.msg, blk.msg))
		fail_msg("%s: ended %d '%s' a record at a time, %d '%s' a "
			 "block at a time", what, one.rc, one.msg, blk.rc,
			 blk.msg);
	if (one.n != blk.n)
		fail_msg("%s: %zu events a record at a time, %zu a block at "
			 "a time", what, one.n, blk.n);
	for (size_t i = 0; i < one.n; i++) {
		if (!same_event(&one.r[i].ev, &blk.r[i].ev))
			fail_msg("%s: event %zu differs", what, i);
		if (strcmp(one.r[i].where, blk.r[i].where))
			fail_msg("%s: event %zu at '%s', a record at a time "
				 "'%s'", what, i, blk.r[i].where,
				 one.r[i].where);
	}
	if (one.rc != 2 && strcmp(one.end, blk.end))
		fail_msg("%s: ends at '%s', a record at a time '%s'", what,
			 blk.end, one.end);
}

static void compare(const char *path, const char *what)
{
	read_trace(path, false, &one);
	read_trace(path, true, &blk);
	same_reads(what);
}

/* make sanitize (tests/run.sh): each open rehearsed in a child, every
 * load checked; fewer mutants there, and no shared traces (edges.sh
 * reads each of them sanitized) */
static bool sanitized(void)
{
	const char *s = getenv("EA_SANITIZE");

	return s && !strcmp(s, "1");
}

static void test_traces(void **unused)
{
	const char *shared = getenv("SHARED");
	char pat[4096];
	glob_t g;
	int n = 0;

	(void)unused;
	assert_int_equal(glob("traces/*/*.dat", 0, NULL, &g), 0);
	snprintf(pat, sizeof(pat), "%s/*/*.dat",
		 shared ? shared : "../shared/traces");
	if (!sanitized())
		glob(pat, GLOB_APPEND, NULL, &g);
	glob("tests/fixtures/*/*.dat", GLOB_APPEND, NULL, &g);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		compare(g.gl_pathv[i], g.gl_pathv[i]);
		n += one.rc != 2;
	}
	globfree(&g);
	assert_true(n >= 20);
}

/*
 * Copies of path with 1 to 4 bytes of its last 3/4 (its CPU data, past
 * the headers) changed: a byte set at random, or one bit flipped.
 */
static void mutants(const char *path, int count, unsigned seed)
{
	size_t len, i;
	unsigned char *orig = whole_file(path, &len), *buf = malloc(len);
	int fd = memfd_create("dat-run", 0), failed = 0;
	char name[64], what[4200];

	assert_non_null(buf);
	assert_true(fd >= 0);
	snprintf(name, sizeof(name), "/proc/self/fd/%d", fd);
	srand(seed);
	for (int m = 0; m < count; m++) {
		int k = 1 + rand() % 4;

		memcpy(buf, orig, len);
		while (k--) {
			i = len / 4 + (size_t)rand() % (len - len / 4);
			if (rand() % 2)
				buf[i] = (unsigned char)rand();
			else
				buf[i] ^= (unsigned char)(1u << rand() % 8);
		}
		assert_int_equal(ftruncate(fd, 0), 0);
		assert_int_equal(pwrite(fd, buf, len, 0), (ssize_t)len);
		snprintf(what, sizeof(what), "%s mutant %d", path, m);
		compare(name, what);
		failed += one.rc != 0;
	}
	/* some of them fail, and not all (the comparison covers both) */
	assert_true(failed > 0 && failed < count);
	close(fd);
	free(buf);
	free(orig);
}

static void test_mutants(void **unused)
{
	int n = sanitized() ? 40 : 300;

	(void)unused;
	mutants("traces/diff/heavy-1.dat", n, 31);
	mutants("traces/vm/wl-overrun.dat", n, 4);
}

/* ld_comm(): the first 15 bytes up to the first NUL, zero-padded to 16,
 * whatever follows the NUL (random bytes, NULs placed at random) */
static void test_comm(void **unused)
{
	unsigned char src[16 + 16];
	char got[16], want[16];

	(void)unused;
	srand(16);
	for (int t = 0; t < 200000; t++) {
		size_t i, k;

		for (i = 0; i < sizeof(src); i++)
			src[i] = (unsigned char)(rand() % 4 ? rand() : 0);
		if (t % 3 == 0) /* no NUL in the comm's first 15 bytes */
			for (i = 0; i < 16; i++)
				src[i] |= 1;
		k = strnlen((const char *)src, 15);
		memset(want, 0, sizeof(want));
		memcpy(want, src, k);
		memset(got, 0x5a, sizeof(got));
		ld_comm(got, src); /* then unaligned */
		assert_memory_equal(got, want, 16);
		memmove(src + 1 + t % 15, src, 16);
		ld_comm(got, src + 1 + t % 15);
		assert_memory_equal(got, want, 16);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_comm),
		cmocka_unit_test(test_traces),
		cmocka_unit_test(test_mutants),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	free(one.r);
	free(blk.r);
	return rc;
}
