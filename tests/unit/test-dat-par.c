// SPDX-License-Identifier: GPL-2.0-only
/*
 * A trace.dat read with two jobs (the page walker and the decoding on a
 * thread of their own, dat-read.c par_main()) gives the events of the
 * one-job read, in the same order, with the same position after each
 * (ea_input_where()); and an input closed in the middle of the stream
 * (the decoding thread still running, or asleep on a full ring) closes
 * without hanging or leaking (the sanitizer build runs this too). With
 * blocks of the default size and of 3 events (EATRACE_DAT_BLOCK).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "eatrace/input.h"
#include "same-event.h"

#define TRACE "traces/diff/heavy-1.dat"
#define MAXEV 20000

struct rec {
	struct ea_event ev;
	char where[64];
};


/* Read up to max events with jobs threads; returns how many. */
static size_t read_trace(int jobs, struct rec *out, size_t max, char *end_where)
{
	struct ea_input *in;
	struct ea_err err;
	size_t n = 0;
	int rc = 1;

	ea_input_set_jobs(jobs);
	if (ea_input_open(&in, TRACE, &err))
		fail_msg("%s", err.msg);
	while (n < max && (rc = ea_input_next(in, &out[n].ev, &err)) > 0) {
		ea_input_where(in, out[n].where, sizeof(out[n].where));
		n++;
	}
	assert_true(rc >= 0);
	if (end_where)
		ea_input_where(in, end_where, 64);
	ea_input_close(in);
	ea_input_set_jobs(0);
	return n;
}

static struct rec *ref, *got;
static size_t nref;
static char ref_end[64];

static int setup(void **unused)
{
	ref = calloc(MAXEV, sizeof(*ref));
	got = calloc(MAXEV, sizeof(*got));
	if (!ref || !got)
		return -1;
	nref = read_trace(1, ref, MAXEV, ref_end);
	return nref > 500 && nref < MAXEV ? 0 : -1;
}

static int teardown(void **unused)
{
	free(ref);
	free(got);
	return 0;
}

static void compare(size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!same_event(&ref[i].ev, &got[i].ev))
			fail_msg("event %zu differs", i);
		if (strcmp(ref[i].where, got[i].where))
			fail_msg("event %zu: at '%s', one job '%s'", i,
				 got[i].where, ref[i].where);
	}
}

static void whole(const char *blk)
{
	char end[64];
	size_t n;

	if (blk)
		setenv("EATRACE_DAT_BLOCK", blk, 1);
	n = read_trace(2, got, MAXEV, end);
	unsetenv("EATRACE_DAT_BLOCK");
	assert_int_equal(n, nref);
	compare(n);
	/* after the end: where the last record (used or not) was */
	assert_string_equal(end, ref_end);
}

static void test_whole(void **unused)
{
	whole(NULL);
	whole("3");
	whole("1");
}

/* Closed early: the decoding thread is stopped and joined. */
static void test_close_early(void **unused)
{
	/* the trace has 1179 events: with the default blocks the decoding
	 * thread may have ended, with blocks of 3 it sleeps on a full ring */
	const size_t stops[] = { 0, 1, 10, 500, nref - 1 };
	size_t i, n;

	for (i = 0; i < sizeof(stops) / sizeof(stops[0]); i++) {
		n = read_trace(2, got, stops[i], NULL);
		assert_int_equal(n, stops[i]);
		compare(n);
		setenv("EATRACE_DAT_BLOCK", "3", 1);
		n = read_trace(2, got, stops[i], NULL);
		unsetenv("EATRACE_DAT_BLOCK");
		assert_int_equal(n, stops[i]);
		compare(n);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole),
		cmocka_unit_test(test_close_early),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
