/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Decimal digits of a text trace's line read the quick way, for the
 * parser's hot fields (text-line.c, text-body.c): eight bytes at once
 * (SWAR: one 64-bit word as eight lanes of a byte), how many of them are
 * digits before the first that is not, and their value (a timestamp's
 * fraction); and backwards from a field's end (a pid after its comm, a
 * prio in brackets), where the parsers looked for the separator first
 * and read the number after it. The results are those of the
 * byte-at-a-time loops they stand for (tests/unit/test-text-digits.c).
 */
#ifndef EATRACE_INPUT_TEXT_DIGITS_H
#define EATRACE_INPUT_TEXT_DIGITS_H

#include <stdint.h>
#include <string.h>

/* Whether ea_digits8() may be used on this host. */
static inline int ea_digits8_ok(void)
{
	return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
}

/* Lanes of w that are not decimal digits: nonzero bits in the high
 * nibble of each (a byte is a digit when its high nibble is 3 and its
 * low nibble plus 6 stays below 16; no lane carries into the next:
 * 0x0f + 0x06 < 0x100). */
static inline uint64_t ea_digits_bad(uint64_t w)
{
	return ((w & 0xf0f0f0f0f0f0f0f0ull) ^ 0x3030303030303030ull) |
	       (((w & 0x0f0f0f0f0f0f0f0full) + 0x0606060606060606ull) &
		0xf0f0f0f0f0f0f0f0ull);
}

/* The value of the digits in w's top lanes, zeros below them: an
 * eight-digit number with leading zeros. Pairs, then fours, then the
 * eight: each pair of lanes as 10 (100, 10000) times the lower plus the
 * upper (the first digit is in the lowest lane). */
static inline uint64_t ea_digits_value(uint64_t d)
{
	d = (d * 10 + (d >> 8)) & 0x00ff00ff00ff00ffull;
	d = (d * 100 + (d >> 16)) & 0x0000ffff0000ffffull;
	return (d * 10000 + (d >> 32)) & 0x00000000ffffffffull;
}

/*
 * The leading decimal digits of the eight bytes at p (all readable): how
 * many (0 to 8), their value in *v (0 when none). Little-endian hosts
 * only (ea_digits8_ok()): p[0] is the word's lowest byte.
 */
static inline unsigned ea_digits8(const char *p, uint64_t *v)
{
	uint64_t w, bad;
	unsigned n;

	memcpy(&w, p, 8);
	bad = ea_digits_bad(w);
	n = bad ? (unsigned)__builtin_ctzll(bad) >> 3 : 8;
	if (!n) {
		*v = 0;
		return 0;
	}
	/* the n digits to the top n lanes */
	*v = ea_digits_value((w & 0x0f0f0f0f0f0f0f0full) << (8 * (8 - n)));
	return n;
}

/*
 * The decimal digits that end at e, read backwards from e - 1, at most 8
 * and not before p: where they start, their value in *v (0 when none). A
 * field "...[120]" or "comm:4951" parsed from its end: the caller checks
 * the byte before them (a ninth digit there means a longer number). The
 * eight bytes before e at once on a little-endian host when they are in
 * [p, e), else one by one.
 */
static inline const char *ea_digits_back(const char *p, const char *e,
					  int32_t *v)
{
	const char *q = e;
	uint32_t x = 0, m = 1;

	if (ea_digits8_ok() && e - p >= 8) {
		uint64_t w, bad;
		unsigned n;

		memcpy(&w, e - 8, 8);
		bad = ea_digits_bad(w);
		/* e[-1] is the top lane: the digits are the top lanes up
		 * to the highest one that is not */
		n = bad ? (unsigned)__builtin_clzll(bad) >> 3 : 8;
		*v = !n ? 0
			: (int32_t)ea_digits_value(w & 0x0f0f0f0f0f0f0f0full &
						   ~0ull << (64 - 8 * n));
		return e - n;
	}
	while (q > p && e - q < 8 && (unsigned char)(q[-1] - '0') < 10) {
		q--;
		x += (uint32_t)(*q - '0') * m;
		m *= 10;
	}
	*v = (int32_t)x;
	return q;
}

#endif
