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

/*
 * The 7-bit groups of the eight varint bytes in x (byte k in bits 8k to
 * 8k + 7, the continuation bits ignored, bytes past the varint's end
 * zero) packed into one value: group k to bits 7k to 7k + 6.
 */
static inline uint64_t groups(uint64_t x)
{
	return (x & 0x7full) | (x >> 1 & 0x7full << 7) |
	       (x >> 2 & 0x7full << 14) | (x >> 3 & 0x7full << 21) |
	       (x >> 4 & 0x7full << 28) | (x >> 5 & 0x7full << 35) |
	       (x >> 6 & 0x7full << 42) | (x >> 7 & 0x7full << 49);
}

int pb_varint_long(struct pb_buf *b, uint64_t *v)
{
	const uint8_t *p = b->p;
	uint64_t x, stop, r;

	/* the first eight bytes at once (a timestamp's varint is six to
	 * nine), its end the first byte without the continuation bit */
	x = (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
	    (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 |
	    (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
	stop = ~x & 0x8080808080808080ull;
	if (stop) {
		/* the stop bit is bit 7 of byte k: 8 (k + 1) bits are used */
		unsigned bits = (unsigned)__builtin_ctzll(stop) + 1;

		if (bits < 64)
			x &= (1ull << bits) - 1;
		*v = groups(x);
		b->p = p + bits / 8;
		return PB_OK;
	}
	/* nine or ten bytes: the ninth holds bits 56 to 62, a tenth bit 63
	 * (0 or 1: more is over 64 bits), an eleventh is too many */
	r = groups(x) | (uint64_t)(p[8] & 0x7f) << 56;
	if (!(p[8] & 0x80)) {
		*v = r;
		b->p = p + 9;
		return PB_OK;
	}
	if (p[9] > 1)
		return PB_ERR;	/* more than 64 bits, or more than 10 bytes */
	*v = r | (uint64_t)p[9] << 63;
	b->p = p + 10;
	return PB_OK;
}
