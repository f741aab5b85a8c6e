/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Error reporting shared by every stage.
 *
 * Every failure is carried up as one line, "FILE:POSITION: cause", where
 * POSITION is "line N" for text, "offset N" or "cpu C record N" for binary
 * input. The CLI prints it prefixed with "eatrace: " and exits 2.
 */
#ifndef EATRACE_ERROR_H
#define EATRACE_ERROR_H

#include <stdarg.h>

#define EA_ERR_MAX 512

struct ea_err {
	char msg[EA_ERR_MAX];
};

/* Fill err (if non-NULL) with a formatted message; always returns -1. */
int ea_err_set(struct ea_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int ea_err_vset(struct ea_err *err, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

#endif
