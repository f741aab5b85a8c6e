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
