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

int ea_input_jobs_for(bool compressed, uint64_t bytes)
{
	/*
	 * A compressed file's helper thread pays: its reader inflates on it
	 * from two jobs and decodes on a third thread from three (dat-read.c's
	 * par_begin()). An uncompressed file decodes on a thread of its own
	 * from two jobs, the pipeline's on the caller's: on a quiet 2-vCPU VM
	 * report on rec.dat (281 MB) took 0.13 s wall against 0.20 s on one
	 * thread, for 10 % more CPU (bench/README.md, split6). By default not
	 * below EA_APART_MIN_BYTES of data, read in a few milliseconds: there
	 * the thread and its ring would cost a larger share than they save.
	 */
	if (!compressed && !ea_input_jobs_explicit() &&
	    bytes < EA_APART_MIN_BYTES)
		return 1;
	return ea_input_jobs();
}
