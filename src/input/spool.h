/* SPDX-License-Identifier: GPL-2.0-only */
/* Standard input and gzip files, spooled to a temporary file (spool.c). */
#ifndef EATRACE_INPUT_SPOOL_H
#define EATRACE_INPUT_SPOOL_H

#include <stdbool.h>
#include <stddef.h>

#include "eatrace/error.h"

#define EA_STDIN_NAME "<stdin>"	/* how errors name "-" */

/* Copy standard input to a new temporary file *tmp (malloc()ed path; the
 * caller unlinks and frees it). Returns 0 or -1 with err. */
int ea_spool_stdin(char **tmp, struct ea_err *err);
/* Whether the file starts with the gzip magic. */
bool ea_spool_is_gzip(const unsigned char *head, size_t n);
/* Decompress path into a new temporary file *tmp. Returns 0 or -1 with
 * err naming path. */
int ea_spool_gunzip(const char *path, char **tmp, struct ea_err *err);

#endif
