// SPDX-License-Identifier: GPL-2.0-only
/* How many threads reading an input may use (ea_input_set_jobs()). */
#include <unistd.h>

#include "eatrace/input.h"

static int jobs;	/* 0: not set */

void ea_input_set_jobs(int n)
{
	jobs = n > 0 ? n : 0;
}

int ea_input_jobs(void)
{
	long n;

	if (jobs)
		return jobs;
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n >= 2 ? 2 : 1;
}
