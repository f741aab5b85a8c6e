// SPDX-License-Identifier: GPL-2.0-only
/*
 * The reader alone: ea_input_next() over a whole trace, nothing else
 * (bench/README.md). Prints the events read and the CPU seconds (user +
 * system) of the loop; -n N: the best of N passes; -b: a block at a time
 * (ea_input_next_block(), as report's loop takes them).
 *
 *   read-loop [-b] [-n N] TRACE
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "eatrace/input.h"
#include "input/input-block.h"

static double cpu_s(void)
{
	struct rusage u;

	getrusage(RUSAGE_SELF, &u);
	return (double)u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 +
	       (double)u.ru_stime.tv_sec + u.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	int passes = 1;
	double best = 0;
	unsigned long long n = 0;
	int blocks = 0;

	if (argc >= 2 && !strcmp(argv[1], "-b")) {
		blocks = 1;
		argv++;
		argc--;
	}
	if (argc == 4 && !strcmp(argv[1], "-n")) {
		passes = atoi(argv[2]);
		argv += 2;
		argc -= 2;
	}
	if (argc != 2 || passes < 1) {
		fprintf(stderr, "usage: read-loop [-b] [-n N] TRACE\n");
		return 2;
	}
	ea_input_set_jobs(1);
	for (int p = 0; p < passes; p++) {
		struct ea_input *in;
		struct ea_event ev;
		struct ea_err err;
		double t0 = cpu_s(), t;
		int rc;

		if (ea_input_open(&in, argv[1], &err)) {
			fprintf(stderr, "%s\n", err.msg);
			return 2;
		}
		n = 0;
		if (blocks) {
			const struct ea_event *evs;
			size_t k;

			while ((rc = ea_input_next_block(in, &evs, &k,
							 &err)) > 0)
				n += k;
		} else {
			while ((rc = ea_input_next(in, &ev, &err)) > 0)
				n++;
		}
		ea_input_close(in);
		if (rc < 0) {
			fprintf(stderr, "%s\n", err.msg);
			return 2;
		}
		t = cpu_s() - t0;
		if (!p || t < best)
			best = t;
	}
	printf("%llu events %.3f cpu_s\n", n, best);
	return 0;
}
