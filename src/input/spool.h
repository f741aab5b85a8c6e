/* SPDX-License-Identifier: GPL-2.0-only */
/* Standard input and compressed binary traces, spooled to a temporary file
 * (spool.c). */
#ifndef EATRACE_INPUT_SPOOL_H
#define EATRACE_INPUT_SPOOL_H

#include <stdbool.h>
#include <stddef.h>

#include "eatrace/error.h"

#define EA_STDIN_NAME "<stdin>"	/* how errors name "-" */

/* Copy standard input to a new temporary file *tmp (malloc()ed path; the
 * caller unlinks and frees it). Returns 0 or -1 with err. */
int ea_spool_stdin(char **tmp, struct ea_err *err);
/* Decompress path (gzip or zstd, text-stream.h) into a new temporary file
 * *tmp. Returns 0 or -1 with err naming path. */
int ea_spool_decompress(const char *path, char **tmp, struct ea_err *err);

#endif
