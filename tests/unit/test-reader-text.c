// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ftrace-text and systrace readers: every line layout, every event body
 * form, the reorder buffer, lost-events markers and the errors, on the
 * small fixtures in tests/fixtures/text/ and on generated files.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* strdup, mkstemp */
#endif
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "eatrace/input.h"
#include "input/reader.h"
#include "input/reorder.h"
#include "input/text-line.h"

#define FIXTURES "tests/fixtures/text/"	/* relative to the repository */
#define UNUSED __attribute__((unused))

static const char prev_state_letter[] = { 'R', 'S', 'X' };

/* One event as one line, the fields the readers decode. */
static void fmt_event(char *buf, size_t n, const struct ea_event *ev)
{
	int k = snprintf(buf, n, "%" PRIu64 " %d %d %s", ev->ts, ev->cpu,
			 ev->cur_pid, ea_event_type_name(ev->type));

	buf += k;
	n -= (size_t)k;
	switch (ev->type) {
	case EA_EV_SWITCH:
		snprintf(buf, n, " %s:%d [%d] %c ==> %s:%d [%d]",
			 ev->sw.prev_comm, ev->sw.prev_pid, ev->sw.prev_prio,
			 prev_state_letter[ev->sw.prev_state % 3],
			 ev->sw.next_comm, ev->sw.next_pid, ev->sw.next_prio);
		break;
	case EA_EV_WAKEUP:
	case EA_EV_WAKING:
	case EA_EV_WAKEUP_NEW:
		snprintf(buf, n, " %s:%d [%d] cpu=%d", ev->wake.comm,
			 ev->wake.pid, ev->wake.prio, ev->wake.target_cpu);
		break;
	case EA_EV_MIGRATE:
		snprintf(buf, n, " %s:%d %d->%d", ev->migrate.comm,
			 ev->migrate.pid, ev->migrate.orig_cpu,
			 ev->migrate.dest_cpu);
		break;
	case EA_EV_FREQ:
		snprintf(buf, n, " %u cpu=%d", ev->freq.freq_khz, ev->freq.cpu);
		break;
	case EA_EV_IDLE:
		snprintf(buf, n, " %d cpu=%d", ev->idle.state, ev->idle.cpu);
		break;
	case EA_EV_LOST:
		snprintf(buf, n, " %" PRIu64, ev->lost.count);
		break;
	case EA_EV_UTIL_CFS:
	case EA_EV_UTIL_SE:
		snprintf(buf, n, " cpu=%d pid=%d util=%u", ev->util.cpu,
			 ev->util.pid, ev->util.util);
		break;
	case EA_EV_MARKER:
		snprintf(buf, n, " '%s'", ev->marker.text);
		break;
	}
}

struct expect_info {
	const char *format;
	int ncpus;
	uint64_t reordered;
	uint64_t skipped;
};

/* Read the whole file; its events must be exactly want[] (NULL-ended). */
static void check_file(const char *path, const char *const *want,
		       const struct expect_info *xi)
{
	const struct ea_input_info *info;
	struct ea_input *in;
	struct ea_event ev;
	struct ea_err err;
	char got[512];
	size_t i = 0;
	int rc;

	rc = ea_input_open(&in, path, &err);
	if (rc)
		fail_msg("%s", err.msg);
	while ((rc = ea_input_next(in, &ev, &err)) > 0) {
		fmt_event(got, sizeof(got), &ev);
		if (!want[i])
			fail_msg("%s: unexpected extra event '%s'", path, got);
		if (strcmp(got, want[i]))
			fail_msg("%s: event %zu\n  got  '%s'\n  want '%s'", path,
				 i, got, want[i]);
		i++;
	}
	if (rc < 0)
		fail_msg("%s", err.msg);
	if (want[i])
		fail_msg("%s: missing event '%s'", path, want[i]);
	info = ea_input_info(in);
	if (xi) {
		assert_string_equal(info->format, xi->format);
		assert_int_equal(info->ncpus, xi->ncpus);
		assert_int_equal(info->reordered, xi->reordered);
		assert_int_equal(info->skipped_lines, xi->skipped);
	}
	ea_input_close(in);
}

/* Opening or reading must fail with exactly this message. */
static void check_error(const char *path, const char *msg)
{
	struct ea_input *in;
	struct ea_event ev;
	struct ea_err err;
	int rc;

	rc = ea_input_open(&in, path, &err);
	if (!rc) {
		while ((rc = ea_input_next(in, &ev, &err)) > 0)
			;
		ea_input_close(in);
		if (rc == 0)
			fail_msg("%s: read without error, expected '%s'", path,
				 msg);
	}
	assert_string_equal(err.msg, msg);
}

static char *write_tmp(const char *data, size_t n)
{
	char *path = strdup("/tmp/eatrace-test-text-XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, n), (ssize_t)n);
	close(fd);
	return path;
}

/* ---- line parser ------------------------------------------------------ */

static enum ea_tl_kind parse(const char *line, struct ea_tl *r)
{
	return ea_tl_parse(line, strlen(line), r);
}

static void test_line_layouts(void **state UNUSED)
{
	struct ea_tl r;
	char got[512];

	/* New kernels: 5 flag characters. */
	assert_int_equal(parse("          <idle>-0       [001] d..2.  1234.567890: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=bash next_pid=12 next_prio=120", &r),
			 EA_TL_EVENT);
	fmt_event(got, sizeof(got), &r.ev);
	assert_string_equal(got, "1234567890000 1 0 sched_switch swapper/1:0 [120] R ==> bash:12 [120]");
	assert_false(r.tgid);
	/* Old kernels: 4 flag characters; no flags; 9 decimals. */
	assert_int_equal(parse("  bash-12 [003] d..2 5.000000001: cpu_idle: state=1 cpu_id=3", &r), EA_TL_EVENT);
	assert_int_equal(r.ev.ts, 5000000001ull);
	assert_int_equal(r.ev.cpu, 3);
	assert_int_equal(r.ev.cur_pid, 12);
	assert_int_equal(parse("bash-12 [003] 5.1: cpu_idle: state=1 cpu_id=3", &r), EA_TL_EVENT);
	assert_int_equal(r.ev.ts, 5100000000ull);
	/* Comm with spaces and dashes, the pid after the last dash. */
	assert_int_equal(parse(" Web Content-x-1-4321 [002] d..2. 1.000000: cpu_idle: state=0 cpu_id=2", &r), EA_TL_EVENT);
	assert_int_equal(r.ev.cur_pid, 4321);
	assert_int_equal(parse("   <...>-19427 [000] 1.000000: cpu_idle: state=0 cpu_id=0", &r), EA_TL_EVENT);
	assert_int_equal(r.ev.cur_pid, 19427);
	/* A comm holding "[5] " does not fool the CPU column. */
	assert_int_equal(parse("  a [5] b-77   [001] ...1 2.000000: cpu_idle: state=0 cpu_id=1", &r), EA_TL_EVENT);
	assert_int_equal(r.ev.cpu, 1);
	assert_int_equal(r.ev.cur_pid, 77);
	/* Systrace TGID column, known or not. */
	assert_int_equal(parse("kworker/u17:1-959   (  959) [006] d..3   538.064659: cpu_idle: state=2 cpu_id=6", &r), EA_TL_EVENT);
	assert_true(r.tgid);
	assert_int_equal(r.ev.cpu, 6);
	assert_int_equal(r.ev.cur_pid, 959);
	assert_int_equal(parse("<-transport-5851  (-----) [007] d..4 538.065208: cpu_idle: state=2 cpu_id=7", &r), EA_TL_EVENT);
	assert_int_equal(r.ev.cur_pid, 5851);
	/* trace-cmd's buffer-instance prefix. */
	assert_int_equal(parse("inst:      rcu_preempt-15    [001]  4179.777268: cpu_idle: state=1 cpu_id=1", &r), EA_TL_EVENT);
	assert_int_equal(r.ev.cur_pid, 15);
	/* idlestat's task column has no pid. */
	assert_int_equal(parse("     idlestat/vex-tc2  [000] d...  1000.000000: cpu_idle: state=0 cpu_id=0", &r), EA_TL_EVENT);
	assert_int_equal(r.ev.cur_pid, -1);
	/* CR LF line ends. */
	assert_int_equal(parse("bash-12 [003] 5.1: cpu_idle: state=1 cpu_id=3\r", &r), EA_TL_EVENT);
}

static void test_line_kinds(void **state UNUSED)
{
	struct ea_tl r;

	assert_int_equal(parse("", &r), EA_TL_NONE);
	assert_int_equal(parse("   \t ", &r), EA_TL_NONE);
	assert_int_equal(parse("# tracer: nop", &r), EA_TL_NONE);
	assert_int_equal(parse("version = 6", &r), EA_TL_NONE);
	assert_int_equal(parse("cpus=6", &r), EA_TL_NONE);
	assert_int_equal(parse("clusterA:", &r), EA_TL_NONE);
	assert_int_equal(parse("\t\tcpu1", &r), EA_TL_NONE);
	assert_int_equal(parse("CPU 3 is empty", &r), EA_TL_NONE);
	assert_int_equal(parse("see [1] for details", &r), EA_TL_NONE);
	/* Events we do not use, and event lines without a body. */
	assert_int_equal(parse("  sshd-2962 [000] 6550.018513: sched_load_avg_cpu:   cpu=0 load=13", &r), EA_TL_OTHER);
	assert_int_equal(r.ev.ts, 6550018513000ull);
	assert_int_equal(parse("  idlestat/vex-tc2  [004] ....  1000.000000: idlestat_start", &r), EA_TL_OTHER);
	assert_int_equal(parse("  b-1 [000] 1.0: sched_load_cfs_rq: cpu=0 path=/autogroup-1 load=0 util=3", &r), EA_TL_OTHER);
	assert_int_equal(parse("  b-1 [000] 1.0: sched_load_se: cpu=0 path=/a comm=(null) pid=-1 load=0 util=3", &r), EA_TL_OTHER);
	assert_int_equal(parse("  b-1 [000] 1.0: tracing_mark_write: B|1|draw", &r), EA_TL_OTHER);
	assert_int_equal(parse("  b-1 [000] 1.0: print: tracing_mark_write: hello", &r), EA_TL_OTHER);
	/* Lost events. */
	assert_int_equal(parse("CPU:2 [LOST 123 EVENTS]", &r), EA_TL_LOST);
	assert_int_equal(r.lost_cpu, 2);
	assert_int_equal(r.lost_count, 123);
	assert_int_equal(parse("CPU:0 [LOST EVENTS]", &r), EA_TL_LOST);
	assert_int_equal(r.lost_cpu, 0);
	assert_int_equal(r.lost_count, 0);
}

static void test_line_errors(void **state UNUSED)
{
	struct ea_tl r;

	assert_int_equal(parse("            bash-12    [00", &r), EA_TL_ERROR);
	assert_string_equal(r.why, "truncated event line");
	assert_int_equal(parse("            bash-12    ", &r), EA_TL_ERROR);
	assert_int_equal(parse("            bash-12    [001] d..2", &r), EA_TL_ERROR);
	assert_string_equal(r.why, "truncated event line (no timestamp)");
	assert_int_equal(parse("  bash-12 [001] 12.x: cpu_idle: state=1 cpu_id=1", &r), EA_TL_ERROR);
	assert_int_equal(parse("  bash-12 [001] 12.0000000001: cpu_idle: state=1 cpu_id=1", &r), EA_TL_ERROR);
	assert_int_equal(parse("  bash-12 [001] 99999999999999999999.0: cpu_idle: state=1 cpu_id=1", &r), EA_TL_ERROR);
	assert_int_equal(parse("  bash-12 [001] 12.5: cpu_idle: state=1 cpu_id=", &r), EA_TL_ERROR);
	assert_string_equal(r.why, "malformed cpu_idle event: 'state=1 cpu_id='");
	assert_int_equal(parse("  bash-12 [001] 12.5: cpu_idle: state=1x cpu_id=1", &r), EA_TL_ERROR);
	assert_int_equal(parse("  bash-12 [001] 12.5: cpu_frequency: state=99999999999 cpu_id=1", &r), EA_TL_ERROR);
	assert_int_equal(parse("  bash-12 [001] 12.5: sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=b next_pid=", &r), EA_TL_ERROR);
	assert_int_equal(parse("  bash-12 [001] 12.5: sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=? ==> next_comm=b next_pid=2 next_prio=1", &r), EA_TL_ERROR);
	assert_int_equal(parse("  bash-12 [001] 12.5: sched_switch: a:1 [120] S ==> b:x [120]", &r), EA_TL_ERROR);
	assert_int_equal(parse("  bash-12 [001] 12.5: sched_switch: garbage", &r), EA_TL_ERROR);
	assert_int_equal(parse("  bash-12 [001] 12.5: sched_wakeup: comm=a pid=99999999999 prio=1", &r), EA_TL_ERROR);
	assert_int_equal(parse("  bash-12 [001] 12.5: sched_migrate_task: comm=a pid=1 prio=1 orig_cpu=1", &r), EA_TL_ERROR);
	assert_int_equal(parse("  bash-12 [001] 12.5: sched_load_cfs_rq: cpu=1 path=/ load=1", &r), EA_TL_ERROR);
	assert_int_equal(parse("CPU:99999 [LOST 1 EVENTS]", &r), EA_TL_ERROR);
	assert_int_equal(parse("\x8f\xff\x01garbage", &r), EA_TL_ERROR);
	assert_string_equal(r.why, "binary data in text trace");
	assert_int_equal(parse("caf\xc3\xa9 au lait", &r), EA_TL_NONE);
}

static void test_bodies(void **state UNUSED)
{
	struct ea_tl r;
	char got[512];

#define BODY(line, want)                                                  \
	do {                                                              \
		assert_int_equal(parse("  x-1 [002] 1.000001: " line, &r), \
				 EA_TL_EVENT);                             \
		fmt_event(got, sizeof(got), &r.ev);                       \
		assert_string_equal(got, "1000001000 2 1 " want);          \
	} while (0)

	/* Kernel print fmt / trace-cmd -N. */
	BODY("sched_switch: prev_comm=rs:main Q:Reg prev_pid=238 prev_prio=120 prev_state=D|K ==> next_comm=a b next_pid=0 next_prio=-1",
	     "sched_switch rs:main Q:Reg:238 [120] S ==> a b:0 [-1]");
	/* trace-cmd -R: numeric prev_state, no arrow. */
	BODY("sched_switch:          prev_comm=sh prev_pid=1642 prev_prio=120 prev_state=4096 next_comm=kworker/u12:1 next_pid=46 next_prio=120",
	     "sched_switch sh:1642 [120] R ==> kworker/u12:1:46 [120]");
	/* trace-cmd plugin form, comms with spaces and colons. */
	BODY("sched_switch:         rs:main Q:Reg:238 [120] S ==> systemd-journal:161 [120]",
	     "sched_switch rs:main Q:Reg:238 [120] S ==> systemd-journal:161 [120]");
	BODY("sched_switch: kschedfreq:0:376 [49] R ==> swapper/0:0 [120]",
	     "sched_switch kschedfreq:0:376 [49] R ==> swapper/0:0 [120]");
	/* Comms longer than 15 characters are truncated. */
	BODY("sched_switch: prev_comm=0123456789abcdefXYZ prev_pid=5 prev_prio=120 prev_state=S ==> next_comm=b next_pid=6 next_prio=120",
	     "sched_switch 0123456789abcde:5 [120] S ==> b:6 [120]");
	/* Wakeups in all their forms. */
	BODY("sched_wakeup: comm=sh pid=1642 prio=120 success=1 target_cpu=2",
	     "sched_wakeup sh:1642 [120] cpu=2");
	BODY("sched_wakeup: comm=sh pid=1642 prio=120 target_cpu=004",
	     "sched_wakeup sh:1642 [120] cpu=4");
	BODY("sched_wakeup: comm=sh pid=1642 prio=120 success=1",
	     "sched_wakeup sh:1642 [120] cpu=-1");
	BODY("sched_waking: comm=sh pid=1642 prio=120 target_cpu=003",
	     "sched_waking sh:1642 [120] cpu=3");
	BODY("sched_wakeup_new:     bash:4207 [120] CPU:001",
	     "sched_wakeup_new bash:4207 [120] cpu=1");
	BODY("sched_wakeup:     rs:main Q:Reg:238 [120] success=1 CPU:003",
	     "sched_wakeup rs:main Q:Reg:238 [120] cpu=3");
	BODY("sched_migrate_task:   comm=rs:main Q:Reg pid=238 prio=120 orig_cpu=5 dest_cpu=3",
	     "sched_migrate_task rs:main Q:Reg:238 5->3");
	BODY("cpu_frequency: state=1800000 cpu_id=0",
	     "cpu_frequency 1800000 cpu=0");
	BODY("cpu_idle: state=4294967295 cpu_id=5", "cpu_idle -1 cpu=5");
	BODY("cpu_idle: state=-1 cpu_id=5", "cpu_idle -1 cpu=5");
	BODY("cpu_idle: state=3 cpu_id=5", "cpu_idle 3 cpu=5");
	BODY("sched_load_cfs_rq: cpu=2 path=/ load=0 util=17",
	     "sched_load_cfs_rq cpu=2 pid=-1 util=17");
	BODY("sched_load_cfs_rq: cpu=2 path=/ load=0 rbl_load=0 util=18",
	     "sched_load_cfs_rq cpu=2 pid=-1 util=18");
	BODY("sched_load_se: cpu=2 path=(null) comm=kworker/2:1 pid=2923 load=0 util=9",
	     "sched_load_se cpu=2 pid=2923 util=9");
	/* Markers: ftrace, trace-cmd plugin and -N, trace-cmd -R. */
	BODY("tracing_mark_write: eatrace: a=1",
	     "print 'eatrace: a=1'");
	BODY("print:                tracing_mark_write: eatrace: b=2  ",
	     "print 'eatrace: b=2'");
	BODY("print:                 ip=tracing_mark_write buf=eatrace: c=3",
	     "print 'eatrace: c=3'");
	BODY("print: 0xffffffff81234567: eatrace: d=4", "print 'eatrace: d=4'");
#undef BODY
	/* Long marker text is truncated to the field. */
	{
		char line[512];

		snprintf(line, sizeof(line), "  x-1 [002] 1.0: tracing_mark_write: eatrace: %0300d", 7);
		assert_int_equal(parse(line, &r), EA_TL_EVENT);
		assert_int_equal(strlen(r.ev.marker.text),
				 sizeof(r.ev.marker.text) - 1);
	}
}

static void test_prev_state(void **state UNUSED)
{
	static const struct {
		const char *s;
		int want;
	} letters[] = {
		{ "R", EA_PREV_RUNNABLE }, { "R+", EA_PREV_RUNNABLE },
		{ "S", EA_PREV_BLOCKED }, { "D", EA_PREV_BLOCKED },
		{ "T", EA_PREV_BLOCKED }, { "t", EA_PREV_BLOCKED },
		{ "P", EA_PREV_BLOCKED }, { "I", EA_PREV_BLOCKED },
		{ "W", EA_PREV_BLOCKED }, { "K", EA_PREV_BLOCKED },
		{ "N", EA_PREV_BLOCKED }, { "D|K", EA_PREV_BLOCKED },
		{ "S|W", EA_PREV_BLOCKED }, { "X", EA_PREV_DEAD },
		{ "Z", EA_PREV_DEAD }, { "x", EA_PREV_DEAD },
		{ "", -1 }, { "+", -1 }, { "?", -1 }, { "S1", -1 },
	};
	static const struct {
		uint64_t v;
		int want;
	} numbers[] = {
		{ 0, EA_PREV_RUNNABLE }, { 256, EA_PREV_RUNNABLE },
		{ 1024, EA_PREV_RUNNABLE }, { 2048, EA_PREV_RUNNABLE },
		{ 4096, EA_PREV_RUNNABLE }, { 1, EA_PREV_BLOCKED },
		{ 2, EA_PREV_BLOCKED }, { 4, EA_PREV_BLOCKED },
		{ 8, EA_PREV_BLOCKED }, { 128, EA_PREV_BLOCKED },
		{ 130, EA_PREV_BLOCKED }, { 16, EA_PREV_DEAD },
		{ 32, EA_PREV_DEAD }, { 64, EA_PREV_DEAD },
		{ 64 | 1, EA_PREV_BLOCKED }, { 0x102, EA_PREV_BLOCKED },
	};

	for (size_t i = 0; i < sizeof(letters) / sizeof(letters[0]); i++)
		if (ea_tl_prev_state_letters(letters[i].s,
					     strlen(letters[i].s)) !=
		    letters[i].want)
			fail_msg("prev_state=%s", letters[i].s);
	for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++)
		if (ea_tl_prev_state_number(numbers[i].v) != numbers[i].want)
			fail_msg("prev_state=%" PRIu64, numbers[i].v);
}

/* ---- probe ------------------------------------------------------------ */

static int probe_str(const struct ea_reader_ops *ops, const char *s)
{
	return ops->probe((const unsigned char *)s, strlen(s));
}

static void test_probe(void **state UNUSED)
{
	const char *ftrace = "# tracer: nop\n#\n";
	const char *event = "  bash-1 [000] 1.0: cpu_idle: state=0 cpu_id=0\n";
	const char *sys = "  bash-1 (    1) [000] 1.0: cpu_idle: state=0 cpu_id=0\n";
	const char *html = "\n<!DOCTYPE html>\n<html>\n";
	unsigned char bin[4096];

	assert_true(probe_str(&ea_reader_text, ftrace));
	assert_true(probe_str(&ea_reader_text, event));
	assert_false(probe_str(&ea_reader_systrace, event));
	assert_true(probe_str(&ea_reader_systrace, sys));
	assert_false(probe_str(&ea_reader_text, sys));
	assert_true(probe_str(&ea_reader_systrace, html));
	assert_false(probe_str(&ea_reader_text, html));
	assert_false(probe_str(&ea_reader_text, "hello world\nnothing here\n"));
	assert_false(probe_str(&ea_reader_text, "clusterA:\n\tcore0\n"));
	/* A cut first line in a full 4 KiB head does not count. */
	memset(bin, 'a', sizeof(bin));
	memcpy(bin + sizeof(bin) - 30, "  bash-1 [000] 1.0: cpu_idle:", 29);
	assert_false(ea_reader_text.probe(bin, sizeof(bin)));
	/* Binary garbage, NUL bytes before any event. */
	for (size_t i = 0; i < sizeof(bin); i++)
		bin[i] = (unsigned char)(i * 7919 + 13);
	assert_false(ea_reader_text.probe(bin, sizeof(bin)));
	assert_false(ea_reader_systrace.probe(bin, sizeof(bin)));
	assert_false(ea_reader_text.probe((const unsigned char *)"\0# tracer: nop\n", 15));
}

/* ---- reorder buffer --------------------------------------------------- */

static void test_reorder(void **state UNUSED)
{
	struct ea_reorder *r = ea_reorder_new(8, 100);
	struct ea_event ev, out;
	uint64_t pos;
	/* ts values; equal ones must keep their order (pos). */
	static const uint64_t ts[] = { 10, 5, 20, 20, 15, 30, 25, 40, 200 };
	static const uint64_t want_pos[] = { 1, 0, 4, 2, 3, 6, 5, 7 };
	size_t k = 0;

	assert_non_null(r);
	memset(&ev, 0, sizeof(ev));
	for (size_t i = 0; i < sizeof(ts) / sizeof(ts[0]); i++) {
		ev.ts = ts[i];
		assert_int_equal(ea_reorder_push(r, &ev, i), 0);
		while (ea_reorder_ready(r, false)) {
			assert_int_equal(ea_reorder_pop(r, &out, &pos), 1);
			assert_int_equal(pos, want_pos[k]);
			k++;
		}
	}
	/* 200 - 100 > window: everything up to 40 is out. */
	assert_int_equal(k, 8);
	assert_int_equal(ea_reorder_reordered(r), 3);
	/* Older than what was returned: refused. */
	ev.ts = 39;
	assert_int_equal(ea_reorder_push(r, &ev, 99), -1);
	assert_true(ea_reorder_too_late(r));
	ev.ts = 40;
	assert_int_equal(ea_reorder_push(r, &ev, 100), 0);
	assert_true(ea_reorder_ready(r, true));
	assert_int_equal(ea_reorder_pop(r, &out, &pos), 1);
	assert_int_equal(out.ts, 40);
	assert_int_equal(ea_reorder_pop(r, &out, &pos), 1);
	assert_int_equal(out.ts, 200);
	assert_int_equal(ea_reorder_pop(r, &out, &pos), 0);
	ea_reorder_free(r);
}

/* Capacity bound and a large shuffled stream come out sorted. */
static void test_reorder_stress(void **state UNUSED)
{
	struct ea_reorder *r = ea_reorder_new(1000, UINT64_MAX / 2);
	struct ea_event ev, out;
	uint64_t last = 0, pos, n = 0;
	unsigned seed = 12345;

	memset(&ev, 0, sizeof(ev));
	for (uint64_t i = 0; i < 200000; i++) {
		seed = seed * 1103515245u + 12345u;
		/* Jitter of up to 400 positions back: within capacity. */
		ev.ts = i * 10 + 10000 - (seed >> 16) % 4000;
		assert_int_equal(ea_reorder_push(r, &ev, i), 0);
		assert_true(ea_reorder_count(r) <= 1000);
		while (ea_reorder_ready(r, false)) {
			ea_reorder_pop(r, &out, &pos);
			assert_true(out.ts >= last);
			last = out.ts;
			n++;
		}
	}
	while (ea_reorder_pop(r, &out, &pos)) {
		assert_true(out.ts >= last);
		last = out.ts;
		n++;
	}
	assert_int_equal(n, 200000);
	ea_reorder_free(r);
}

/* ---- fixtures --------------------------------------------------------- */

static void test_ftrace_new_flags(void **state UNUSED)
{
	static const char *const want[] = {
		"1234567890000 1 0 sched_switch swapper/1:0 [120] R ==> bash:12 [120]",
		"1234567900000 1 12 sched_waking kworker/1:2:77 [120] cpu=1",
		"1234567901000 1 12 sched_wakeup kworker/1:2:77 [120] cpu=1",
		"1234568000000 1 12 sched_switch bash:12 [120] R ==> kworker/1:2:77 [120]",
		"1234569000000 2 4321 sched_switch Web Content-x-1:4321 [120] S ==> a-very-long-thr:99 [100]",
		"1234569500000 2 99 sched_wakeup_new bash:13 [120] cpu=3",
		"1234569600000 2 99 sched_migrate_task bash:13 2->3",
		"1234570000000 1 77 sched_switch kworker/1:2:77 [120] S ==> swapper/1:0 [120]",
		"1234570010000 1 0 cpu_idle 2 cpu=1",
		"1234571000000 0 300 cpu_frequency 1800000 cpu=0",
		"1234572000000 1 0 cpu_idle -1 cpu=1",
		"1234573000000 3 12 print 'eatrace: phase=start name=boot'",
		"1234574000000 3 12 sched_switch bash:12 [120] X ==> swapper/3:0 [120]",
		NULL
	};
	static const struct expect_info xi = { "ftrace text", -1, 0, 12 };

	check_file(FIXTURES "ftrace-new-flags.txt", want, &xi);
}

static void test_ftrace_old_flags(void **state UNUSED)
{
	static const char *const want[] = {
		"100000001000 0 0 sched_wakeup sshd:500 [120] cpu=-1",
		"100000010000 0 0 sched_switch swapper/0:0 [120] R ==> sshd:500 [120]",
		"100000200000 0 500 sched_switch sshd:500 [120] S ==> swapper/0:0 [120]",
		"100000210000 0 0 cpu_idle 1 cpu=0",
		"100000300000 1 0 cpu_idle -1 cpu=1",
		"100000400000 1 0 sched_switch swapper/1:0 [120] X ==> kthreadd:2 [120]",
		NULL
	};
	static const struct expect_info xi = { "ftrace text", -1, 0, 11 };

	check_file(FIXTURES "ftrace-old-flags.txt", want, &xi);
}

static void test_ftrace_noflags(void **state UNUSED)
{
	static const char *const want[] = {
		"50123456789 2 0 sched_switch swapper/2:0 [120] R ==> cat:42 [120]",
		"50123457000 2 42 cpu_frequency 998400 cpu=2",
		"50200000001 2 42 sched_switch cat:42 [120] X ==> swapper/2:0 [120]",
		NULL
	};
	static const struct expect_info xi = { "ftrace text", -1, 0, 4 };

	check_file(FIXTURES "ftrace-noflags.txt", want, &xi);
}

static void test_report_plugin(void **state UNUSED)
{
	static const char *const want[] = {
		"162534215742000 3 6244 sched_switch trace-cmd:6244 [120] X ==> swapper/3:0 [120]",
		"162534216056000 2 0 sched_switch swapper/2:0 [120] R ==> sh:6243 [120]",
		"162534216100000 2 6243 sched_wakeup bash:4207 [120] cpu=1",
		"162534216200000 2 6243 sched_wakeup_new bash:4208 [120] cpu=0",
		"162534216300000 2 6243 sched_wakeup rs:main Q:Reg:238 [120] cpu=3",
		"162534217965000 3 238 sched_switch rs:main Q:Reg:238 [120] S ==> systemd-journal:161 [120]",
		"162534219146000 0 376 sched_switch kschedfreq:0:376 [49] S ==> ksoftirqd/0:3 [120]",
		"162534219200000 1 15 sched_switch rcu_preempt:15 [120] S ==> swapper/1:0 [120]",
		"162534238797000 1 3106 print 'eatrace: replay-start'",
		NULL
	};
	static const struct expect_info xi = { "trace-cmd report text", 4, 0, 2 };

	check_file(FIXTURES "report-plugin.txt", want, &xi);
}

static void test_report_raw(void **state UNUSED)
{
	static const char *const want[] = {
		"76211513000 1 1701 sched_switch trace-cmd:1701 [120] X ==> swapper/1:0 [120]",
		"76211513000 2 0 sched_wakeup sh:1642 [120] cpu=2",
		"76211523000 2 0 sched_switch swapper/2:0 [120] R ==> sh:1642 [120]",
		"76211701000 2 1642 sched_switch sh:1642 [120] R ==> kworker/u12:1:46 [120]",
		"76211715000 2 46 sched_switch kworker/u12:1:46 [120] S ==> sh:1642 [120]",
		"76211865000 1 1639 sched_switch sshd:1639 [120] S ==> sshd:1640 [120]",
		"76211900000 1 1640 sched_switch sshd:1640 [120] R ==> a:1 [120]",
		"76211910000 1 1 sched_switch a:1 [120] R ==> b:2 [120]",
		"76211920000 1 2 sched_switch b:2 [120] R ==> c:3 [120]",
		"76211930000 1 3 sched_switch c:3 [120] X ==> d:4 [120]",
		"76211940000 1 4 sched_switch d:4 [120] X ==> e:5 [120]",
		"76211950000 1 5 sched_switch e:5 [120] S ==> f:6 [120]",
		"76211960000 1 6 sched_switch f:6 [120] S ==> swapper/1:0 [120]",
		"76238797000 1 3106 print 'eatrace: replay-start'",
		"76300000000 2 0 sched_load_cfs_rq cpu=2 pid=-1 util=345",
		"76300002000 2 0 sched_load_se cpu=2 pid=2923 util=12",
		NULL
	};
	static const struct expect_info xi = { "trace-cmd report text", 6, 0, 2 };

	check_file(FIXTURES "report-raw.txt", want, &xi);
}

static void test_report_nofmt(void **state UNUSED)
{
	static const char *const want[] = {
		"162534215742000 5 6244 sched_switch trace-cmd:6244 [120] X ==> swapper/5:0 [120]",
		"162534215764000 5 0 cpu_idle 2 cpu=5",
		"162534216056000 2 0 sched_switch swapper/2:0 [120] R ==> sh:6243 [120]",
		"162534216300000 2 6243 sched_switch sh:6243 [120] R ==> rs:main Q:Reg:238 [120]",
		"162534216400000 2 238 sched_wakeup sh:6243 [120] cpu=2",
		"162534216500000 2 238 sched_migrate_task in:imuxsock:236 4->3",
		NULL
	};
	static const struct expect_info xi = { "trace-cmd report text", 6, 0, 1 };

	check_file(FIXTURES "report-nofmt.txt", want, &xi);
}

static void test_report_nocpus(void **state UNUSED)
{
	static const char *const want[] = {
		"162534215742000 5 6244 sched_switch trace-cmd:6244 [120] X ==> swapper/5:0 [120]",
		"162534215764000 5 0 cpu_idle 2 cpu=5",
		"162534216001000 7 0 cpu_idle -1 cpu=7",
		NULL
	};
	static const struct expect_info xi = { "ftrace text", -1, 0, 0 };

	check_file(FIXTURES "report-nocpus.txt", want, &xi);
}

static void test_systrace_text(void **state UNUSED)
{
	static const char *const want[] = {
		"538064659000 6 959 sched_switch kworker/u17:1:959 [100] S ==> swapper/6:0 [120]",
		"538064674000 6 0 cpu_idle 2 cpu=6",
		"538065208000 7 5851 sched_wakeup sugov:4:5860 [49] cpu=7",
		"538065247000 7 5860 cpu_frequency 300000 cpu=7",
		"538065300000 4 5833 print 'eatrace: workload=scroll'",
		NULL
	};
	/*
	 * The clock_sync marker is older than the wakeup before it, but it is
	 * skipped, so nothing is reordered.
	 */
	static const struct expect_info xi = { "systrace text", -1, 0, 12 };

	check_file(FIXTURES "systrace.txt", want, &xi);
}

static void test_systrace_html(void **state UNUSED)
{
	static const char *const want[] = {
		"538064659000 6 959 sched_switch kworker/u17:1:959 [100] S ==> swapper/6:0 [120]",
		"538064674000 6 0 cpu_idle 2 cpu=6",
		"538802714000 4 347 sched_wakeup sugov:4:5860 [49] cpu=4",
		NULL
	};
	static const struct expect_info xi = { "systrace html", -1, 0, 4 };

	check_file(FIXTURES "systrace.html", want, &xi);
}

static void test_lost_events(void **state UNUSED)
{
	static const char *const want[] = {
		"200000100000 0 0 cpu_idle 1 cpu=0",
		"200000200000 0 0 cpu_idle -1 cpu=0",
		/* at the time of CPU 1's next event */
		"200000300000 1 -1 lost_events 123",
		"200000300000 1 12 sched_switch bash:12 [120] S ==> swapper/1:0 [120]",
		"200000400000 0 -1 lost_events 0",
		"200000400000 0 0 cpu_idle 0 cpu=0",
		/* no later event on CPU 3: the trace's last timestamp */
		"200000400000 3 -1 lost_events 7",
		NULL
	};
	static const struct expect_info xi = { "ftrace text", -1, 0, 2 };

	check_file(FIXTURES "lost-events.txt", want, &xi);
}

static void test_unsorted(void **state UNUSED)
{
	static const char *const want[] = {
		"7115449624000 6 0 cpu_idle 0 cpu=6",
		"7115449770000 5 0 cpu_idle -1 cpu=5",
		"7115449809000 6 0 cpu_idle 1 cpu=6",
		"7115449811000 6 0 cpu_idle -1 cpu=6",
		"7115450009000 0 0 cpu_idle -1 cpu=0",
		"7115450021000 2 0 cpu_idle -1 cpu=2",
		"7115450063000 0 0 cpu_idle 1 cpu=0",
		"7115450063000 3 0 cpu_idle 1 cpu=3",
		"7115450065000 2 0 cpu_idle 2 cpu=2",
		"7115950063000 1 0 cpu_idle 1 cpu=1",
		NULL
	};
	static const struct expect_info xi = { "trace-cmd report text", 8, 4, 2 };

	check_file(FIXTURES "unsorted.txt", want, &xi);
}

/* where() names the line of the event just returned, after reordering. */
static void test_where(void **state UNUSED)
{
	static const char *const lines[] = {
		"line 3", "line 4", "line 6", "line 5", "line 7", "line 9",
		"line 10", "line 12", "line 8", "line 11",
	};
	struct ea_input *in;
	struct ea_event ev;
	struct ea_err err;
	char where[64];
	size_t i = 0;

	assert_int_equal(ea_input_open(&in, FIXTURES "unsorted.txt", &err), 0);
	while (ea_input_next(in, &ev, &err) > 0) {
		ea_input_where(in, where, sizeof(where));
		assert_true(i < sizeof(lines) / sizeof(lines[0]));
		assert_string_equal(where, lines[i]);
		i++;
	}
	assert_int_equal(i, 10);
	ea_input_close(in);
}

static void test_bad_fixtures(void **state UNUSED)
{
	check_error(FIXTURES "bad-truncated.txt",
		    FIXTURES "bad-truncated.txt:line 3: malformed sched_switch event: 'prev_comm=bash prev_pid=12 prev_prio=120 prev_st'");
	check_error(FIXTURES "bad-cut-header.txt",
		    FIXTURES "bad-cut-header.txt:line 3: truncated event line");
	check_error(FIXTURES "bad-number.txt",
		    FIXTURES "bad-number.txt:line 3: malformed cpu_frequency event: 'state=12x00 cpu_id=0'");
	check_error(FIXTURES "bad-timestamp.txt",
		    FIXTURES "bad-timestamp.txt:line 3: bad timestamp in event line: '[000] d..2  200.00x200: cpu_idle: state=1 cp...'");
	check_error(FIXTURES "bad-backwards.txt",
		    FIXTURES "bad-backwards.txt:line 4: timestamp 99.000000000 goes backwards beyond the reorder window (events up to 100.000000000 already returned)");
	check_error(FIXTURES "bad-binary.txt",
		    FIXTURES "bad-binary.txt:line 3: binary data in text trace");
	check_error(FIXTURES "bad-nul.txt",
		    FIXTURES "bad-nul.txt:line 3: NUL byte: binary data in text trace");
}

/* ---- generated files -------------------------------------------------- */

static void test_long_lines(void **state UNUSED)
{
	const char *ev = "  a-1 [000] 1.0: cpu_idle: state=0 cpu_id=0\n";
	size_t big = 70000, n = 0;
	char *buf = malloc(2 * big + 4096), *path, msg[256];
	static const char *const one[] = { "1000000000 0 1 cpu_idle 0 cpu=0", NULL };

	/* Text: a 70000-byte comment line is an error. */
	n = (size_t)sprintf(buf, "%s#", ev);
	memset(buf + n, 'y', big);
	n += big;
	buf[n++] = '\n';
	path = write_tmp(buf, n);
	snprintf(msg, sizeof(msg), "%s:line 2: line longer than 65536 bytes", path);
	check_error(path, msg);
	unlink(path);
	free(path);

	/* HTML: over-long lines outside the text block are skipped. */
	n = (size_t)sprintf(buf, "<!DOCTYPE html>\n<div>");
	memset(buf + n, 'z', big);
	n += big;
	n += (size_t)sprintf(buf + n, "</div>\n<script class=\"trace-data\" type=\"application/text\">\n{\"a\": \"");
	memset(buf + n, 'j', big);
	n += big;
	n += (size_t)sprintf(buf + n, "\"}</script>\n<script class=\"trace-data\" type=\"application/text\">\n%s</script>\n", ev);
	path = write_tmp(buf, n);
	check_file(path, one, NULL);
	unlink(path);
	free(path);
	free(buf);
}

static void test_edge_files(void **state UNUSED)
{
	static const char *const one[] = { "1000000000 0 1 cpu_idle 0 cpu=0", NULL };
	static const char *const none[] = { NULL };
	char *path, msg[256];
	const char *s;

	/* Last line without a newline. */
	s = "# tracer: nop\n  a-1 [000] 1.0: cpu_idle: state=0 cpu_id=0";
	path = write_tmp(s, strlen(s));
	check_file(path, one, NULL);
	unlink(path);
	free(path);

	/* Only a header: no events, no error. */
	s = "# tracer: nop\n#\n";
	path = write_tmp(s, strlen(s));
	check_file(path, none, NULL);
	unlink(path);
	free(path);

	/* HTML without trace data. */
	s = "<!DOCTYPE html>\n<html><body>hi</body></html>\n";
	path = write_tmp(s, strlen(s));
	snprintf(msg, sizeof(msg), "%s: HTML without systrace ftrace text (no <script class=\"trace-data\"> block)", path);
	check_error(path, msg);
	unlink(path);
	free(path);

	/* Binary garbage is not claimed. */
	{
		unsigned char bin[8192];

		for (size_t i = 0; i < sizeof(bin); i++)
			bin[i] = (unsigned char)(i * 7919 + 13);
		path = write_tmp((const char *)bin, sizeof(bin));
		snprintf(msg, sizeof(msg), "%s: not a trace.dat, Perfetto trace, ftrace text or systrace file", path);
		check_error(path, msg);
		unlink(path);
		free(path);
	}
}

/* Equal timestamps keep file order, even across many CPUs. */
static void test_equal_timestamps(void **state UNUSED)
{
	static const char *const want[] = {
		"1000000000 2 0 cpu_idle -1 cpu=2",
		"1000000000 2 0 cpu_idle 1 cpu=2",
		"1000000000 1 0 cpu_idle -1 cpu=1",
		"1000000000 1 0 cpu_idle 0 cpu=1",
		NULL
	};
	const char *s =
		"  <idle>-0 [002] 1.0: cpu_idle: state=4294967295 cpu_id=2\n"
		"  <idle>-0 [002] 1.0: cpu_idle: state=1 cpu_id=2\n"
		"  <idle>-0 [001] 1.0: cpu_idle: state=4294967295 cpu_id=1\n"
		"  <idle>-0 [001] 1.0: cpu_idle: state=0 cpu_id=1\n";
	char *path = write_tmp(s, strlen(s));

	check_file(path, want, NULL);
	unlink(path);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_layouts),
		cmocka_unit_test(test_line_kinds),
		cmocka_unit_test(test_line_errors),
		cmocka_unit_test(test_bodies),
		cmocka_unit_test(test_prev_state),
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_reorder),
		cmocka_unit_test(test_reorder_stress),
		cmocka_unit_test(test_ftrace_new_flags),
		cmocka_unit_test(test_ftrace_old_flags),
		cmocka_unit_test(test_ftrace_noflags),
		cmocka_unit_test(test_report_plugin),
		cmocka_unit_test(test_report_raw),
		cmocka_unit_test(test_report_nofmt),
		cmocka_unit_test(test_report_nocpus),
		cmocka_unit_test(test_systrace_text),
		cmocka_unit_test(test_systrace_html),
		cmocka_unit_test(test_lost_events),
		cmocka_unit_test(test_unsorted),
		cmocka_unit_test(test_where),
		cmocka_unit_test(test_bad_fixtures),
		cmocka_unit_test(test_long_lines),
		cmocka_unit_test(test_edge_files),
		cmocka_unit_test(test_equal_timestamps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
