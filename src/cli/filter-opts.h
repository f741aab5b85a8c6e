/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --cpus LIST and --task PID|COMM of stats, report and dump
 * (src/cli/filter-opts.c): the options, and what is said after the run
 * about CPUs and tasks they selected that the trace does not have.
 */
#ifndef EATRACE_CLI_FILTER_OPTS_H
#define EATRACE_CLI_FILTER_OPTS_H

#include <getopt.h>
#include <stdbool.h>

#include "eatrace/filter.h"

enum { EA_OPT_CPUS = 1900, EA_OPT_TASK };

/* clang-format off */
#define EA_FILTER_LONG_OPTS                                                    \
	{ "cpus", required_argument, NULL, EA_OPT_CPUS },                     \
	{ "task", required_argument, NULL, EA_OPT_TASK }
/* clang-format on */

/* opt of the getopt table above into f: 0, -1 after printing the error
 * (exit 2), 1 when opt is not one of them. */
int ea_cli_filter_opt(struct ea_filter *f, int opt, const char *arg);

/*
 * After the run, unless quiet: a warning line on stderr per --cpus CPU
 * the trace has no event on (has_cpu(ctx, cpu) false) and per --task that
 * selected no task: as trace-cmd and perf, an empty selection is not an
 * error, but it is said.
 */
void ea_cli_filter_warn(const struct ea_filter *f, const char *path, bool quiet,
			bool (*has_cpu)(const void *ctx, int cpu),
			const void *ctx);

#endif
