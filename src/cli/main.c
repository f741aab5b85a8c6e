// SPDX-License-Identifier: GPL-2.0-only
/*
 * eatrace: estimate the CPU energy of Linux scheduling decisions from traces.
 * The dispatcher: the command table, the top-level --help and main(). Each
 * command lives in its own cmd-*.c file; this file only calls down to them
 * (cmd.h) and to the messages (msg.h), and nothing calls it.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "eatrace/output.h"
#include "eatrace/version.h"
#include "util/self-dir.h"

struct ea_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct ea_cmd cmds[] = {
	{ "stats", cmd_stats, "what each CPU and task did (no model needed)" },
	{ "report", cmd_report, "energy of a trace, priced with a model" },
	{ "replay", cmd_replay, "the recorded workload under other placement policies" },
	{ "batch", cmd_batch, "many traces x models -> one CSV or JSON-lines table, in parallel" },
	{ "diff", cmd_diff, "gate a change: energy of two sets of runs, with confidence" },
	{ "model", cmd_model, "show, check, import and convert energy models" },
	{ "dump", cmd_dump, "print the normalised events a trace yields" },
	{ "record", cmd_record, "record a trace.dat of what eatrace needs (root)" },
	{ "top", cmd_top, "live power per CPU and cluster, priced with a model (root)" },
};

/* Where the docs are, found beside the binary at run time: installed
 * (BINDIR/../share/doc/eatrace), or the docs/ of the tree it was built in. */
static void where_docs(FILE *f)
{
	char exe[PATH_MAX], dir[PATH_MAX];

	ea_self_exe_dir(exe, sizeof(exe));
	if (!ea_self_resolve(exe, "../share/doc/eatrace", dir, sizeof(dir)))
		fprintf(f, "The docs/*.md the help names are installed in %s.\n", dir);
	else if (!ea_self_resolve(exe, "docs", dir, sizeof(dir)))
		fprintf(f, "The docs/*.md the help names are in %s (the build tree).\n", dir);
	else
		fprintf(f, "The docs/*.md the help names are not beside this binary\n"
			   "(make install puts them in PREFIX/share/doc/eatrace).\n");
}

static void usage(FILE *f)
{
	fprintf(f, "usage: eatrace COMMAND [OPTIONS] ...\n\n"
		   "Estimate the CPU energy of Linux scheduling decisions from\n"
		   "trace-cmd trace.dat files, ftrace and systrace text and Perfetto\n"
		   "traces (gzip or zstd compressed too, recognised by content; '-'\n"
		   "is standard input, named <stdin> in the output).\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-8s %s\n", cmds[i].name, cmds[i].summary);
	fprintf(f, "\n'eatrace COMMAND --help' (or 'eatrace help COMMAND') describes each command; "
		   "see also eatrace(1).\n"
		   "Exit status: 0 ok, 1 a gate failed, 2 usage or input error,\n"
		   "3 the diff gate is inconclusive.\n"
		   "Environment: EATRACE_MODEL_PATH (model directories),\n"
		   "EATRACE_DAT_READER=libtracecmd|pages (how trace.dat is read).\n");
	where_docs(f);
}

/*
 * The files a run wrote replace their targets together at its end, or (exit
 * status 2) none does (include/eatrace/output.h).
 */
static int finish(int rc)
{
	struct ea_err err;

	if (rc == EXIT_ERROR) {
		ea_out_discard_all();
		return rc;
	}
	if (ea_out_commit_all(&err))
		return ea_die("%s", err.msg);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_ERROR;
	}
	if (!strcmp(argv[1], "help") && argc >= 3) {
		/* eatrace help COMMAND [SUBCOMMAND]: its --help */
		char *av[4] = { argv[2], argc >= 4 ? argv[3] : "--help",
				argc >= 4 ? "--help" : NULL, NULL };

		for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
			if (!strcmp(argv[2], cmds[i].name))
				return cmds[i].fn(argc >= 4 ? 3 : 2, av);
		ea_die("'%s' is not an eatrace command (try 'eatrace --help')", argv[2]);
		return EXIT_ERROR;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("eatrace %s\n", EA_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return finish(cmds[i].fn(argc - 1, argv + 1));
	ea_die("'%s' is not an eatrace command (try 'eatrace --help')", argv[1]);
	return EXIT_ERROR;
}
