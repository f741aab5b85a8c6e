/* SPDX-License-Identifier: GPL-2.0-only */
/* One function per subcommand, dispatched from main.c's table. */
#ifndef EATRACE_CLI_CMD_H
#define EATRACE_CLI_CMD_H

#include <stdbool.h>

/* Each returns the process exit status: 0 ok, 1 gate failed, 2 error,
 * 3 the gate is inconclusive (diff). */
int cmd_stats(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_replay(int argc, char **argv);	/* cmd-replay.c */
int cmd_model(int argc, char **argv);
int cmd_model_import(int argc, char **argv);	/* cmd-model-import.c */
int cmd_model_convert(int argc, char **argv);	/* cmd-model-import.c */
int cmd_model_fit(int argc, char **argv);	/* cmd-model-fit.c */
int cmd_model_check_measured(int argc, char **argv);	/* cmd-model-fit.c */
bool cmd_model_check_is_measured(int argc, char **argv);	/* ditto */
int cmd_dump(int argc, char **argv);
int cmd_diff(int argc, char **argv);	/* cmd-diff.c */
int cmd_record(int argc, char **argv);	/* cmd-record.c */
int cmd_top(int argc, char **argv);	/* cmd-top.c */
int cmd_batch(int argc, char **argv);	/* cmd-batch.c */

#define EXIT_GATE 1
#define EXIT_ERROR 2
#define EXIT_INCONCLUSIVE 3

/* "CMD: no model: give -m MODEL[ALT] (bundled: every model found on the
 * search path)"; returns EXIT_ERROR (src/cli/no-model.c). */
int ea_die_no_model(const char *cmd, const char *alt);

/*
 * "eatrace: MSG" on one line of stderr, MSG escaped for the terminal
 * (control characters and invalid UTF-8 in names shown as \xNN).
 */
void ea_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* ea_msg(), then returns EXIT_ERROR. */
int ea_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
