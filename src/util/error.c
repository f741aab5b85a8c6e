// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>

#include "eatrace/error.h"

int ea_err_vset(struct ea_err *err, const char *fmt, va_list ap)
{
	if (err)
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	return -1;
}

int ea_err_set(struct ea_err *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ea_err_vset(err, fmt, ap);
	va_end(ap);
	return -1;
}
