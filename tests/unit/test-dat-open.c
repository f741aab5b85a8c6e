// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cost of opening a trace.dat (issue 19): the file's kallsyms section
 * and saved cmdlines are not parsed (dat-kallsyms.c), and its headers and formats are parsed
 * once, in this process: no rehearsal child is forked (except in
 * AddressSanitizer builds, which keep the child: dat-guard.c).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <event-parse.h>

#include "eatrace/input.h"
#include "input/dat-kallsyms.h"

#define UNUSED __attribute__((unused))

#if defined(__SANITIZE_ADDRESS__)
#define ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ASAN 1
#endif
#endif

static int forks;

static void count_fork(void)
{
	forks++;
}

/* Skipped while asked, libtraceevent's own parse otherwise. */
static void test_kallsyms_switch(void **state UNUSED)
{
	static const char syms[] = "ffffffff81000000 T ea_test_fn\n"
				   "ffffffff81000100 T ea_test_next\n";
	const unsigned long long addr = 0xffffffff81000010ull;
	struct tep_handle *tep = tep_alloc();
	unsigned long before = ea_dat_kallsyms_skipped();
	const char *fn;

	assert_non_null(tep);
	ea_dat_kallsyms_skip(true);
	assert_int_equal(tep_parse_kallsyms(tep, syms), 0);
	ea_dat_kallsyms_skip(false);
	assert_null(tep_find_function(tep, addr));
	assert_int_equal(ea_dat_kallsyms_skipped(), before + 1);

	/* a fresh handle: libtraceevent maps functions at the first lookup */
	tep_free(tep);
	tep = tep_alloc();
	assert_non_null(tep);
	assert_int_equal(tep_parse_kallsyms(tep, syms), 0);
	fn = tep_find_function(tep, addr);
	assert_non_null(fn);
	assert_string_equal(fn, "ea_test_fn");
	assert_int_equal(ea_dat_kallsyms_skipped(), before + 1);
	tep_free(tep);
}

/* The saved cmdlines likewise: no pid -> comm while skipped. */
static void test_cmdlines_switch(void **state UNUSED)
{
	static const char lines[] = "4207 ea_test_comm\n4208 sh\n";
	struct tep_handle *tep = tep_alloc();
	unsigned long before = ea_dat_cmdlines_skipped();

	assert_non_null(tep);
	ea_dat_kallsyms_skip(true);
	assert_int_equal(tep_parse_saved_cmdlines(tep, lines), 0);
	ea_dat_kallsyms_skip(false);
	assert_false(tep_is_pid_registered(tep, 4207));
	assert_int_equal(ea_dat_cmdlines_skipped(), before + 1);

	assert_int_equal(tep_parse_saved_cmdlines(tep, lines), 0);
	assert_true(tep_is_pid_registered(tep, 4207));
	assert_string_equal(tep_data_comm_from_pid(tep, 4207), "ea_test_comm");
	assert_int_equal(ea_dat_cmdlines_skipped(), before + 1);
	tep_free(tep);
}

/*
 * vm-v6.dat has a kallsyms section (162 bytes, `trace-cmd dump
 * --kallsyms`) and saved cmdlines (710 bytes, `trace-cmd dump
 * --cmd-lines`): each one parse is skipped, and no child is forked.
 */
static void test_open_once(void **state UNUSED)
{
	unsigned long before = ea_dat_kallsyms_skipped();
	unsigned long before_cmdlines = ea_dat_cmdlines_skipped();
	struct ea_input *in = NULL;
	struct ea_err err;

	forks = 0;
	if (ea_input_open(&in, "traces/vm/vm-v6.dat", &err))
		fail_msg("%s", err.msg);
	ea_input_close(in);
	assert_int_equal(ea_dat_kallsyms_skipped(), before + 1);
	assert_int_equal(ea_dat_cmdlines_skipped(), before_cmdlines + 1);
#ifndef ASAN
	assert_int_equal(forks, 0);
#else
	assert_int_equal(forks, 1);	/* the rehearsal child */
#endif
}

#ifdef ASAN
static struct timespec tick_t0;
static volatile sig_atomic_t ticks;
static int tick_err = STDERR_FILENO; /* stderr, /dev/null during opens */

/* Counts; ends the test, failed, when the open has run for 60 s. */
static void tick(int sig)
{
	static const char msg[] = "open under a signal every ms: not done "
				  "in 60 s (the rehearsal's pipe loop "
				  "spinning on a stale EINTR?)\n";
	struct timespec now;

	(void)sig;
	ticks++;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec - tick_t0.tv_sec > 60) {
		if (write(tick_err, msg, sizeof(msg) - 1) < 0)
			_exit(2);
		_exit(1);
	}
}
#endif

/*
 * A handled signal without SA_RESTART arriving every millisecond while a
 * trace.dat opens (as libFuzzer's SIGALRM does under -timeout): the
 * rehearsal child's pipe is read through its EINTRs to its end, and the
 * open goes through as without the signal (the rehearsal child and
 * libtracecmd's one open in this process). Expected: with the child
 * taking tens of milliseconds under ASan, the parent's read() is
 * interrupted (at least one tick is taken); before the fix, the read loop
 * took errno's stale EINTR at EOF for a new one and never ended. Builds
 * without ASan have no child (dat-guard.c's in-process guard owns the
 * signals meanwhile): skipped there.
 */
static void test_open_interrupted(void **state UNUSED)
{
#ifdef ASAN
	struct sigevent sev;
	struct itimerspec its = {{0, 1000000}, {0, 1000000}};
	struct sigaction sa, old;
	struct ea_input *in = NULL;
	struct ea_err err;
	timer_t t;
	int rc;

	tick_err = dup(STDERR_FILENO);
	assert_true(tick_err >= 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = tick;	/* no SA_RESTART: read() fails with EINTR */
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGUSR1, &sa, &old), 0);
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_SIGNAL;
	sev.sigev_signo = SIGUSR1;
	assert_int_equal(timer_create(CLOCK_MONOTONIC, &sev, &t), 0);
	clock_gettime(CLOCK_MONOTONIC, &tick_t0);
	ticks = 0;
	forks = 0;
	assert_int_equal(timer_settime(t, 0, &its, NULL), 0);
	rc = ea_input_open(&in, "traces/vm/vm-v6.dat", &err);
	timer_delete(t);
	sigaction(SIGUSR1, &old, NULL);
	close(tick_err);
	if (rc)
		fail_msg("%s", err.msg);
	ea_input_close(in);
	assert_int_equal(forks, 1);	/* the rehearsal child */
	assert_true(ticks > 0);
#else
	skip();
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kallsyms_switch),
		cmocka_unit_test(test_cmdlines_switch),
		cmocka_unit_test(test_open_once),
		cmocka_unit_test(test_open_interrupted),
	};

	/* counts the rehearsal's forks: none skipped as rehearsed before
	 * (make sanitize's tests/run.sh sets it; dat-rehearsed.c) */
	unsetenv("EATRACE_REHEARSED");
	pthread_atfork(count_fork, NULL, NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
