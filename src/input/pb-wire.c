// SPDX-License-Identifier: GPL-2.0-only
/* Protocol buffers wire format: the out-of-line helpers (pb-wire.h). */
#include <string.h>

#include "input/pb-wire.h"

void pb_str(const struct pb_buf *s, char *out, size_t n)
{
	size_t len = (size_t)(s->end - s->p);

	if (!n)
		return;
	if (len > n - 1)
		len = n - 1;
	memcpy(out, s->p, len);
	out[len] = '\0';
	/* a NUL inside the string ends it, as in the kernel's char arrays */
}

size_t pb_packed_count(const struct pb_buf *b)
{
	size_t n = 0;

	for (const uint8_t *p = b->p; p < b->end; p++)
		n += !(*p & 0x80);
	return n;
}

int pb_varint_slow(struct pb_buf *b, uint64_t *v)
{
	const uint8_t *p = b->p;
	uint64_t r = 0;

	for (int shift = 0; shift < 70; shift += 7) {
		if (p >= b->end)
			return PB_ERR;
		r |= (uint64_t)(*p & 0x7f) << shift;
		if (!(*p++ & 0x80)) {
			if (shift == 63 && p[-1] > 1)
				return PB_ERR;	/* more than 64 bits */
			*v = r;
			b->p = p;
			return PB_OK;
		}
	}
	return PB_ERR;		/* more than 10 bytes */
}
