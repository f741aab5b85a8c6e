// SPDX-License-Identifier: GPL-2.0-only
/*
 * Context-switch-heavy workload for the benchmarks: PAIRS pairs of
 * processes bounce one byte over two pipes ROUNDS times each. Every
 * message is a wakeup and (on one CPU) a switch, so a round trip gives
 * about six scheduler events: sched_waking, sched_wakeup and sched_switch
 * on each side. Each pair's tasks are renamed pp-N-a / pp-N-b.
 *
 *   pingpong PAIRS ROUNDS
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static void bounce(int in, int out, long rounds, int first)
{
	char c = 0;

	for (long i = 0; i < rounds; i++) {
		if (first && write(out, &c, 1) != 1)
			_exit(1);
		if (read(in, &c, 1) != 1)
			_exit(1);
		if (!first && write(out, &c, 1) != 1)
			_exit(1);
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	long pairs, rounds;
	int status, rc = 0;

	if (argc != 3 || (pairs = atol(argv[1])) <= 0 ||
	    (rounds = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: %s PAIRS ROUNDS\n", argv[0]);
		return 2;
	}
	for (long p = 0; p < pairs; p++) {
		int ab[2], ba[2];
		char name[32];	/* the kernel keeps 15 bytes */

		if (pipe(ab) || pipe(ba)) {
			perror("pipe");
			return 1;
		}
		for (int side = 0; side < 2; side++) {
			pid_t pid = fork();

			if (pid < 0) {
				perror("fork");
				return 1;
			}
			if (pid == 0) {
				snprintf(name, sizeof(name), "pp-%ld-%c", p,
					 side ? 'b' : 'a');
				prctl(PR_SET_NAME, name);
				if (side == 0)
					bounce(ba[0], ab[1], rounds, 1);
				else
					bounce(ab[0], ba[1], rounds, 0);
			}
		}
		close(ab[0]);
		close(ab[1]);
		close(ba[0]);
		close(ba[1]);
	}
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			rc = 1;
	return rc;
}
