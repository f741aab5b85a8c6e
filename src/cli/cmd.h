/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One function per subcommand, dispatched from main.c's table. Every
 * command reports through msg.h (ea_die(), the exit statuses), so it comes
 * with this header.
 */
#ifndef EATRACE_CLI_CMD_H
#define EATRACE_CLI_CMD_H

#include <stdbool.h>

#include "cli/msg.h"

/* Each returns the process exit status (EXIT_* in msg.h, 0 ok). */
int cmd_stats(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_replay(int argc, char **argv);	/* cmd-replay.c */
int cmd_model(int argc, char **argv);
/* cmd-model-import.c, dispatched from cmd_model() (cmd-model.c) */
int cmd_model_import(int argc, char **argv);
int cmd_model_convert(int argc, char **argv);
int cmd_model_fit(int argc, char **argv);	/* cmd-model-fit.c */
int cmd_model_check_measured(int argc, char **argv);	/* cmd-model-fit.c */
bool cmd_model_check_is_measured(int argc, char **argv);	/* ditto */
int cmd_dump(int argc, char **argv);
int cmd_diff(int argc, char **argv);	/* cmd-diff.c */
int cmd_record(int argc, char **argv);	/* cmd-record.c */
int cmd_top(int argc, char **argv);	/* cmd-top.c */
int cmd_batch(int argc, char **argv);	/* cmd-batch.c */

#endif
