// SPDX-License-Identifier: GPL-2.0-only
/*
 * ea_input_first_event() on compressed trace.dat v7 (zstd): the second
 * reader finds each CPU's first event with its own page walker, its chunks
 * decompressed by dat-chunks.c (src/input/reader-dat.c, dat_first_event()),
 * not through libtracecmd's record path. Each CPU's answer must be the
 * first event with that ev.cpu a plain ea_input_next() pass over the
 * uncompressed file meets (a lost-events marker before it when that pass
 * meets one), asked before any event is read and after some, in both CPU
 * orders; asking must not disturb ea_input_next(). The traces are
 * converted with `trace-cmd convert` into a scratch directory; a trace or
 * trace-cmd absent skips its case.
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

#include "first-events.h"

/* Every CPU's first event of path (asked after `skip` events) is ref's. */
static void check(const char *path, const struct firsts *ref, uint64_t skip,
		  bool reverse)
{
	struct ea_input *in;
	struct ea_event ev;
	struct ea_err err;
	uint64_t n = 0;
	int rc;

	if (ea_input_open(&in, path, &err))
		fail_msg("%s", err.msg);
	assert_non_null(strstr(ea_input_info(in)->format, "zstd"));
	while (n < skip && ea_input_next(in, &ev, &err) > 0)
		n++;
	for (int k = 0; k < NCPU; k++) {
		int cpu = reverse ? NCPU - 1 - k : k;
		bool lost = false;

		rc = ea_input_first_event(in, cpu, &ev, &lost, &err);
		if (rc < 0)
			fail_msg("%s: CPU %d: %s", path, cpu, err.msg);
		assert_int_equal(rc, ref->found[cpu] ? 1 : 0);
		if (!rc)
			continue;
		assert_int_equal(ev.ts, ref->ev[cpu].ts);
		assert_int_equal(ev.cpu, cpu);
		assert_int_equal(ev.cur_pid, ref->ev[cpu].cur_pid);
		assert_int_equal(ev.type, ref->ev[cpu].type);
		assert_int_equal(ev.flags, ref->ev[cpu].flags);
		if (ev.type == EA_EV_SWITCH) {
			assert_int_equal(ev.sw.prev_pid,
					 ref->ev[cpu].sw.prev_pid);
			assert_int_equal(ev.sw.next_pid,
					 ref->ev[cpu].sw.next_pid);
			assert_string_equal(ev.sw.next_comm,
					    ref->ev[cpu].sw.next_comm);
		}
		assert_int_equal(lost, ref->lost[cpu]);
	}
	while ((rc = ea_input_next(in, &ev, &err)) > 0)
		n++;
	assert_int_equal(rc, 0);
	assert_int_equal(n, ref->n);
	ea_input_close(in);
}

static void one(const char *plain, const char *dir)
{
	char zpath[512], cmd[1400];
	struct firsts ref;

	if (access(plain, R_OK)) {
		print_message("  %s absent: skipped\n", plain);
		return;
	}
	snprintf(zpath, sizeof(zpath), "%s/z.dat", dir);
	snprintf(cmd, sizeof(cmd),
		 "trace-cmd convert --file-version 7 --compression zstd "
		 "-i '%s' -o '%s' >/dev/null 2>&1",
		 plain, zpath);
	if (system(cmd) || access(zpath, R_OK)) {
		print_message("  trace-cmd convert failed or absent: %s "
			      "skipped\n",
			      plain);
		unlink(zpath);
		return;
	}
	sequential(plain, &ref);
	check(zpath, &ref, 0, false);
	check(zpath, &ref, 1000, true);
	unlink(zpath);
}

static const char *shared(const char *rel, char *buf, size_t n)
{
	const char *dir = getenv("SHARED");

	snprintf(buf, n, "%s/%s", dir ? dir : "../shared/traces", rel);
	return buf;
}

static void test_zstd(void **unused)
{
	char dir[] = "/tmp/eatrace-test-first-zstd-XXXXXX", b[512];

	assert_non_null(mkdtemp(dir));
	one("traces/diff/heavy-1.dat", dir);
	one("traces/cfs/mixed.dat", dir);
	one(shared("lisa/tests__assets__sched_load__trace.dat", b, sizeof(b)),
	    dir);
	one(shared("trappy/tests__trace_idle.dat", b, sizeof(b)), dir);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zstd),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
