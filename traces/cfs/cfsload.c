// SPDX-License-Identifier: GPL-2.0-only
/*
 * Workload generator for the CFS recordings in traces/cfs/: one process per
 * task spec, each named after its spec (cfs-pN, cfs-sN, cfs-bN, cfs-fN and
 * the forker's children cfs-cN), all running for DURATION_MS from one
 * common start, then exiting. Work is CPU time (CLOCK_THREAD_CPUTIME_ID),
 * so a task that is preempted still does its whole job.
 *
 *   cfsload DURATION_MS SPEC...
 *     p:PERIOD_US:BUSY_US        periodic: BUSY_US of work every PERIOD_US
 *                                (absolute release times; a release already
 *                                missed is skipped)
 *     s:MIN_US:MAX_US:BUSY_US    sleepy: BUSY_US of work, then a sleep drawn
 *                                uniformly from [MIN_US, MAX_US] (fixed seed
 *                                per task: the same sequence every run)
 *     b                          busy: never sleeps
 *     f:PERIOD_US:BUSY_US:K      forker: every PERIOD_US forks K children
 *                                that each do BUSY_US of work and exit;
 *                                reaps them as they die
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void sleep_until_ns(int64_t t)
{
	struct timespec ts = { .tv_sec = t / 1000000000,
			       .tv_nsec = t % 1000000000 };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

/* BUSY_US of CPU time, or until END_NS (monotonic) if that comes first. */
static void work_us(int64_t busy_us, int64_t end_ns)
{
	int64_t until = now_ns(CLOCK_THREAD_CPUTIME_ID) + busy_us * 1000;
	volatile uint64_t x = 0;

	for (;;) {
		for (int i = 0; i < 200; i++)
			x += (uint64_t)i * 2654435761u;
		if (now_ns(CLOCK_THREAD_CPUTIME_ID) >= until ||
		    now_ns(CLOCK_MONOTONIC) >= end_ns)
			return;
	}
}

static void set_name(char kind, int n)
{
	char name[16];

	snprintf(name, sizeof(name), "cfs-%c%d", kind, n);
	prctl(PR_SET_NAME, name, 0, 0, 0);
}

static void periodic(int64_t start, int64_t end, int64_t period_us,
		     int64_t busy_us)
{
	int64_t rel = start, period = period_us * 1000;

	while (rel < end) {
		work_us(busy_us, end);
		rel += period;
		int64_t now = now_ns(CLOCK_MONOTONIC);

		if (rel < now)	/* overran: skip the missed releases */
			rel += ((now - rel) / period + 1) * period;
		if (rel >= end)
			break;
		sleep_until_ns(rel);
	}
}

static void sleepy(int idx, int64_t end, int64_t min_us, int64_t max_us,
		   int64_t busy_us)
{
	uint64_t s = 0x9e3779b97f4a7c15ull * (uint64_t)(idx + 1);

	while (now_ns(CLOCK_MONOTONIC) < end) {
		work_us(busy_us, end);
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		int64_t us = min_us + (int64_t)(s % (uint64_t)(max_us - min_us + 1));
		int64_t t = now_ns(CLOCK_MONOTONIC) + us * 1000;

		sleep_until_ns(t < end ? t : end);
	}
}

static void busy(int64_t end)
{
	work_us(INT64_MAX / 4000, end);
}

static void forker(int idx, int64_t start, int64_t end, int64_t period_us,
		   int64_t busy_us, int k)
{
	int64_t rel = start, period = period_us * 1000;
	int child = 0;

	while (rel < end) {
		for (int i = 0; i < k; i++) {
			pid_t pid = fork();

			if (pid == 0) {
				set_name('c', idx * 1000 + child % 1000);
				work_us(busy_us, end + 100000000);
				_exit(0);
			}
			child++;
		}
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		rel += period;
		int64_t now = now_ns(CLOCK_MONOTONIC);

		if (rel < now)
			rel += ((now - rel) / period + 1) * period;
		if (rel >= end)
			break;
		sleep_until_ns(rel);
	}
	while (wait(NULL) > 0)
		;
}

static int bad(const char *spec)
{
	fprintf(stderr, "cfsload: bad spec '%s'\n", spec);
	return 2;
}

int main(int argc, char **argv)
{
	long dur_ms = argc > 2 ? atol(argv[1]) : 0;
	int rc = 0;

	if (dur_ms <= 0) {
		fprintf(stderr, "usage: cfsload DURATION_MS SPEC...\n");
		return 2;
	}
	/* check every spec before starting anything */
	for (int i = 2; i < argc; i++) {
		long a, b, c, d;
		char k = argv[i][0];

		if ((k == 'p' && sscanf(argv[i], "p:%ld:%ld", &a, &b) == 2 &&
		     a > 0 && b >= 0) ||
		    (k == 's' && sscanf(argv[i], "s:%ld:%ld:%ld", &a, &b, &c) == 3 &&
		     a >= 0 && b >= a && c >= 0) ||
		    (k == 'b' && argv[i][1] == '\0') ||
		    (k == 'f' && sscanf(argv[i], "f:%ld:%ld:%ld", &a, &b, &d) == 3 &&
		     a > 0 && b >= 0 && d > 0))
			continue;
		return bad(argv[i]);
	}
	int64_t start = now_ns(CLOCK_MONOTONIC) + 2000000;	/* all forked */
	int64_t end = start + (int64_t)dur_ms * 1000000;

	for (int i = 2; i < argc; i++) {
		int idx = i - 2;
		long a = 0, b = 0, c = 0;
		pid_t pid = fork();

		if (pid < 0) {
			perror("cfsload: fork");
			rc = 1;
			break;
		}
		if (pid > 0)
			continue;
		set_name(argv[i][0], idx);
		sleep_until_ns(start);
		switch (argv[i][0]) {
		case 'p':
			sscanf(argv[i], "p:%ld:%ld", &a, &b);
			periodic(start, end, a, b);
			break;
		case 's':
			sscanf(argv[i], "s:%ld:%ld:%ld", &a, &b, &c);
			sleepy(idx, end, a, b, c);
			break;
		case 'b':
			busy(end);
			break;
		case 'f':
			sscanf(argv[i], "f:%ld:%ld:%ld", &a, &b, &c);
			forker(idx, start, end, a, b, (int)c);
			break;
		}
		_exit(0);
	}
	while (wait(NULL) > 0)
		;
	return rc;
}
