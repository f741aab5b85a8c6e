/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * How the commands end and what they say on the way: the exit statuses,
 * and one-line messages on stderr (src/cli/msg.c, src/cli/no-model.c).
 * Below every command and shared helper of src/cli; calls nothing up.
 */
#ifndef EATRACE_CLI_MSG_H
#define EATRACE_CLI_MSG_H

/* Process exit statuses: 0 ok, 1 gate failed, 2 error, 3 the gate is
 * inconclusive (diff). */
#define EXIT_GATE 1
#define EXIT_ERROR 2
#define EXIT_INCONCLUSIVE 3

/*
 * "eatrace: MSG" on one line of stderr, MSG escaped for the terminal
 * (control characters and invalid UTF-8 in names shown as \xNN).
 */
void ea_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* ea_msg(), then returns EXIT_ERROR. */
int ea_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "CMD: no model: give -m MODEL[ALT] (bundled: every model found on the
 * search path)"; returns EXIT_ERROR (src/cli/no-model.c). */
int ea_die_no_model(const char *cmd, const char *alt);

#endif
