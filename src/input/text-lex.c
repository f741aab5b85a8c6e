// SPDX-License-Identifier: GPL-2.0-only
/* The out-of-line part of text-lex.h: hexadecimal numbers. */
#include "input/text-lex.h"

const char *ea_tl_num_hex(const char *p, const char *e, uint64_t *v)
{
	const char *s = p;
	uint64_t x = 0;

	for (; p < e; p++) {
		unsigned d;

		if (is_digit(*p))
			d = (unsigned)(*p - '0');
		else if (*p >= 'a' && *p <= 'f')
			d = (unsigned)(*p - 'a' + 10);
		else if (*p >= 'A' && *p <= 'F')
			d = (unsigned)(*p - 'A' + 10);
		else
			break;
		if (x >> 60)
			return NULL;
		x = x << 4 | d;
	}
	if (p == s)
		return NULL;
	*v = x;
	return p;
}
