/* SPDX-License-Identifier: GPL-2.0-only */
/* Standard input and compressed binary traces, spooled to a temporary file
 * that has no name (spool.c). */
#ifndef EATRACE_INPUT_SPOOL_H
#define EATRACE_INPUT_SPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eatrace/error.h"

#define EA_STDIN_NAME "<stdin>" /* how errors name "-" */

/*
 * Copy standard input to a new nameless temporary file: its descriptor,
 * which the caller closes (that removes the file), and *tmp, the path
 * the readers open it by ("/proc/self/fd/N", malloc()ed, the caller
 * frees it). -1 with err.
 */
int ea_spool_stdin(char **tmp, struct ea_err *err);
/*
 * Decompress path (gzip or zstd, text-stream.h; name: how errors call
 * it) into a new nameless temporary file, as ea_spool_stdin(), with
 * *stored_bytes path's size. Refused past ea_inflate_limit() of that
 * size: "NAME:offset N: zstd expands past ..." (N the compressed offset).
 */
int ea_spool_decompress(const char *path, const char *name, char **tmp,
			uint64_t *stored_bytes, struct ea_err *err);

#endif
