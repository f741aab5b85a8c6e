// SPDX-License-Identifier: GPL-2.0-only
/*
 * ea_input_first_event(): each CPU's first event, whatever reader answers
 * (the trace.dat reader from a CPU's own stream, the generic read ahead for
 * text), is the first event with that ev.cpu a plain ea_input_next() pass
 * meets, with a lost-events marker before it when that pass meets one; and
 * asking does not disturb ea_input_next().
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "eatrace/input.h"

#define NCPU 64

struct firsts {
	bool found[NCPU], lost[NCPU];
	struct ea_event ev[NCPU];
	uint64_t n;
};

/* The reference: one sequential pass. */
static void sequential(const char *path, struct firsts *f)
{
	struct ea_input *in;
	struct ea_event ev;
	struct ea_err err;
	int rc;

	memset(f, 0, sizeof(*f));
	if (ea_input_open(&in, path, &err))
		fail_msg("%s", err.msg);
	while ((rc = ea_input_next(in, &ev, &err)) > 0) {
		f->n++;
		if (ev.cpu >= NCPU || f->found[ev.cpu])
			continue;
		if (ev.type == EA_EV_LOST) {
			f->lost[ev.cpu] = true;
			continue;
		}
		f->found[ev.cpu] = true;
		f->ev[ev.cpu] = ev;
	}
	assert_int_equal(rc, 0);
	ea_input_close(in);
}

/* Ask for every CPU in order `order` after reading `skip` events, then
 * check the rest of the stream still comes out whole. */
static void check_trace(const char *path, uint64_t skip, bool reverse)
{
	struct firsts ref;
	struct ea_input *in;
	struct ea_event ev;
	struct ea_err err;
	uint64_t n = 0;
	int rc;

	if (access(path, R_OK)) {
		print_message("  %s absent: skipped\n", path);
		return;
	}
	sequential(path, &ref);
	if (ea_input_open(&in, path, &err))
		fail_msg("%s", err.msg);
	while (n < skip && ea_input_next(in, &ev, &err) > 0)
		n++;
	for (int k = 0; k < NCPU; k++) {
		int cpu = reverse ? NCPU - 1 - k : k;
		bool lost = false;

		rc = ea_input_first_event(in, cpu, &ev, &lost, &err);
		assert_int_equal(rc, ref.found[cpu] ? 1 : 0);
		if (!rc)
			continue;
		assert_int_equal(ev.ts, ref.ev[cpu].ts);
		assert_int_equal(ev.cpu, cpu);
		assert_int_equal(ev.type, ref.ev[cpu].type);
		assert_int_equal(ev.cur_pid, ref.ev[cpu].cur_pid);
		assert_int_equal(lost, ref.lost[cpu]);
	}
	while ((rc = ea_input_next(in, &ev, &err)) > 0)
		n++;
	assert_int_equal(rc, 0);
	assert_int_equal(n, ref.n);
	ea_input_close(in);
}

static const char *shared(const char *rel, char *buf, size_t n)
{
	const char *dir = getenv("SHARED");

	snprintf(buf, n, "%s/%s", dir ? dir : "../shared/traces", rel);
	return buf;
}

static void test_text(void **unused)
{
	check_trace("traces/demo/tc2-seven-tasks.txt", 0, false);
	check_trace("traces/demo/tc2-seven-tasks.txt", 100, true);
}

static void test_dat(void **unused)
{
	char b[512];

	check_trace("traces/diff/heavy-1.dat", 0, false);
	check_trace("traces/diff/heavy-1.dat", 1000, true);
	check_trace(shared("lisa/tests__assets__sched_load__trace.dat", b,
			   sizeof(b)), 10, true);
	check_trace(shared("trappy/tests__trace_idle.dat", b, sizeof(b)), 0,
		    false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_dat),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
