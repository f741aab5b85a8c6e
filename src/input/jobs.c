// SPDX-License-Identifier: GPL-2.0-only
/* How many threads reading an input may use (ea_input_set_jobs()). */
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "eatrace/input.h"

static int jobs;	/* 0: not set */

void ea_input_set_jobs(int n)
{
	jobs = n > 0 ? n : 0;
}

bool ea_input_jobs_explicit(void)
{
	const char *env = getenv("EATRACE_JOBS");

	return jobs || (env && *env);
}

int ea_input_jobs(void)
{
	const char *env = getenv("EATRACE_JOBS");
	long n;

	if (jobs)
		return jobs;
	if (env && *env) {
		char *e;

		n = strtol(env, &e, 10);
		if (!*e && n >= 1 && n <= 64)
			return (int)n;
	}
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n >= 2 ? 2 : 1;
}

int ea_input_jobs_for(bool compressed)
{
	/*
	 * An uncompressed file decodes on a thread of its own only when asked
	 * (-j N, EATRACE_JOBS): on a quiet 2-vCPU VM the hand-over cost more
	 * than it saved (bench trace: 0.42 s wall with one thread, 0.90 s and
	 * 4x the CPU with two). A compressed file's helper thread pays: its
	 * reader inflates on it from two jobs and decodes on a third thread
	 * from three (dat-read.c's par_begin()).
	 */
	if (!compressed && !ea_input_jobs_explicit())
		return 1;
	return ea_input_jobs();
}
