// SPDX-License-Identifier: GPL-2.0-only
/* One-line messages on stderr, "eatrace: MSG", escaped for the terminal
 * (msg.h): what every command and shared helper of src/cli says with. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/msg.h"
#include "eatrace/escape.h"

static void vmsg(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0)));

/*
 * The message is escaped for the terminal (escape.h): a file or task name
 * with control characters or invalid UTF-8 in it must not drive the
 * user's terminal, nor split the one-line error into several.
 */
static void vmsg(const char *fmt, va_list ap)
{
	char *msg;

	fputs("eatrace: ", stderr);
	if (vasprintf(&msg, fmt, ap) < 0) {
		fputs("out of memory", stderr);
	} else {
		ea_esc_msg(stderr, msg);
		free(msg);
	}
	fputc('\n', stderr);
}

void ea_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

int ea_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	return EXIT_ERROR;
}
