/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The lexing helpers of the text-trace parsers (text-line.c, text-body.c,
 * text-probe.c, text-events.c): spaces, literals and numbers within
 * [p, e), inline (the parsers are the hot path of every text trace). No
 * sscanf, no strtol, no floating point. Most take and return NULL, so
 * that parsers can chain them.
 */
#ifndef EATRACE_INPUT_TEXT_LEX_H
#define EATRACE_INPUT_TEXT_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define LIT(s) s, sizeof(s) - 1

static inline bool is_digit(char c)
{
	return (unsigned char)(c - '0') < 10;
}

static inline bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

static inline const char *skip_spaces(const char *p, const char *e)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* Column padding: eight spaces at a time, up to the first other byte.
	 */
	while (e - p >= 8) {
		uint64_t w;

		memcpy(&w, p, 8);
		w ^= 0x2020202020202020ull;
		if (w) {
			p += __builtin_ctzll(w) >> 3;
			break;
		}
		p += 8;
	}
#endif
	while (p < e && is_space(*p))
		p++;
	return p;
}

static inline const char *rtrim(const char *p, const char *e)
{
	while (e > p && (is_space(e[-1]) || e[-1] == '\r' || e[-1] == '\n'))
		e--;
	return e;
}

/* The helpers below take and return NULL so that parsers can chain them. */

static inline const char *skip_lit(const char *p, const char *e,
				   const char *lit, size_t n)
{
	if (p && (size_t)(e - p) >= n && !memcmp(p, lit, n))
		return p + n;
	return NULL;
}

/* memchr for the first byte, then compare: keys are found within a few bytes.
 */
static inline const char *find_lit(const char *p, const char *e,
				   const char *lit, size_t n)
{
	if (!p)
		return NULL;
	while ((size_t)(e - p) >= n) {
		const char *q = memchr(p, lit[0], (size_t)(e - p) - n + 1);

		if (!q)
			return NULL;
		if (!memcmp(q + 1, lit + 1, n - 1))
			return q;
		p = q + 1;
	}
	return NULL;
}

/* Hexadecimal digits (after "0x"); NULL when absent or overflowing
 * (text-lex.c: rare in traces, kept out of line). */
const char *ea_tl_num_hex(const char *p, const char *e, uint64_t *v);

/* Unsigned decimal (or 0x hex) number; NULL when absent or overflowing. */
static inline const char *num_u64(const char *p, const char *e, uint64_t *v)
{
	const char *s = p;
	uint64_t x = 0;

	if (!p)
		return NULL;
	if (e - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		return ea_tl_num_hex(p + 2, e, v);
	/* 19 digits cannot overflow: check only from the 20th on */
	for (const char *lim = e - p > 19 ? p + 19 : e; p < lim; p++) {
		unsigned d = (unsigned char)*p - (unsigned)'0';

		if (d > 9)
			break;
		x = x * 10 + d;
	}
	for (; p < e && is_digit(*p); p++) {
		unsigned d = (unsigned)(*p - '0');

		if (x > (UINT64_MAX - d) / 10)
			return NULL;
		x = x * 10 + d;
	}
	if (p == s)
		return NULL;
	*v = x;
	return p;
}

/* The hot one (pids, prios, CPUs): decimal digits parsed inline. */
static inline const char *num_i32(const char *p, const char *e, int32_t *v)
{
	const char *s;
	bool neg = false;
	uint64_t x = 0;

	if (!p)
		return NULL;
	if (p < e && *p == '-') {
		neg = true;
		p++;
	}
	if (e - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p = ea_tl_num_hex(p + 2, e, &x);
		if (!p)
			return NULL;
	} else {
		const char *lim = e - p > 19 ? p + 19 : e;

		for (s = p; p < lim; p++) {
			unsigned d = (unsigned char)*p - (unsigned)'0';

			if (d > 9)
				break;
			x = x * 10 + d;
		}
		if (p == s || (p < e && is_digit(*p)))
			return NULL;
	}
	if (x > (neg ? 2147483648ull : (uint64_t)INT32_MAX))
		return NULL;
	*v = neg ? (int32_t) - (int64_t)x : (int32_t)x;
	return p;
}

/* A number must end at a space or at the end of the line ("12x" is bad). */
static inline const char *field_end(const char *p, const char *e)
{
	if (p && (p == e || is_space(*p)))
		return p;
	return NULL;
}

#endif
