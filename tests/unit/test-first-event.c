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

#include "first-events.h"

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
		if (rc < 0)	/* say why (a leak report follows the failure) */
			fail_msg("%s: CPU %d: %s", path, cpu, err.msg);
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

/*
 * A text trace with the cases the skim (src/input/text-first.c) must get
 * as the stream does: a lost-events marker before CPU 2's first event; a
 * comm holding " [7] " before the real column (CPU 2, not 7); CPU 3's first
 * line an event type eatrace skips, then two of its events out of order
 * (the stream's first for CPU 3 is the later line, 100.2 s); CPU 0 only
 * at the end.
 */
static const char tricky[] =
	"cpus=4\n"
	"# tracer: nop\n"
	"          hog-200   [001] 100.000000000: sched_wakeup: comm=x pid=300 prio=120 target_cpu=001\n"
	"CPU:2 [LOST 5 EVENTS]\n"
	"    a1 [7] b-5     [002] 100.100000000: sched_wakeup: comm=x pid=301 prio=120 target_cpu=002\n"
	"          hog-200   [003] 100.300000000: some_other_event: foo=1\n"
	"          hog-200   [003] 100.250000000: sched_wakeup: comm=x pid=302 prio=120 target_cpu=003\n"
	"          hog-201   [003] 100.200000000: sched_wakeup: comm=x pid=303 prio=120 target_cpu=003\n"
	"          hog-200   [001] 100.400000000: sched_wakeup: comm=x pid=300 prio=120 target_cpu=001\n"
	"          hog-200   [000] 100.500000000: sched_wakeup: comm=x pid=300 prio=120 target_cpu=000\n";

static void test_text(void **unused)
{
	char dir[] = "/tmp/eatrace-test-first-XXXXXX", path[64], b[512];
	FILE *fp;

	check_trace("traces/demo/tc2-seven-tasks.txt", 0, false);
	check_trace("traces/demo/tc2-seven-tasks.txt", 100, true);
	check_trace("traces/vm/vm-report.txt", 50, true);
	check_trace(shared("trappy/tests__trace_idle_unsorted.txt", b,
			   sizeof(b)), 0, false);
	check_trace(shared("idlestat/Experiments__test01.dat", b, sizeof(b)),
		    0, true);

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/tricky.txt", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(tricky, fp);
	assert_int_equal(fclose(fp), 0);
	check_trace(path, 0, false);
	check_trace(path, 3, true);
	unlink(path);
	rmdir(dir);
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
