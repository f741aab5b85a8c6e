// SPDX-License-Identifier: GPL-2.0-only
/*
 * The text parser's quick digits (src/input/text-digits.h): eight bytes at
 * once from the front (a timestamp's fraction) and backwards from a
 * field's end (a pid after "comm-" or "comm:", a prio in "[120]"). The
 * expected values below are read off the strings by hand (each digit
 * string is its own decimal value); the sweeps compare against the
 * byte-at-a-time rule written out here (reference_*()): a digit is a byte
 * '0' to '9', nothing else (the bytes next to them, '/' 0x2f and ':'
 * 0x3a, and the digits with the high bit set, 0xb0 to 0xb9, are not).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "input/text-digits.h"

#define UNUSED __attribute__((unused))

/* digits from the front, at most 8: how many, their value */
static unsigned reference_front(const char *p, uint64_t *v)
{
	unsigned n = 0;

	*v = 0;
	while (n < 8 && p[n] >= '0' && p[n] <= '9')
		*v = *v * 10 + (uint64_t)(p[n++] - '0');
	return n;
}

/* digits ending at e, at most 8, not before p: where they start */
static const char *reference_back(const char *p, const char *e, int32_t *v)
{
	const char *q = e;
	int32_t x = 0;

	while (q > p && e - q < 8 && q[-1] >= '0' && q[-1] <= '9')
		q--;
	for (const char *d = q; d < e; d++)
		x = x * 10 + (*d - '0');
	*v = x;
	return q;
}

static void test_front(UNUSED void **state)
{
	static const struct {
		const char s[9];
		unsigned n;
		uint64_t v;
	} cases[] = {
		{"040440: ", 6, 40440},	/* microseconds of "169.040440:" */
		{"12345678", 8, 12345678},
		{"99999999", 8, 99999999},
		{"9:......", 1, 9},
		{":1234567", 0, 0},
		{"0000000/", 7, 0},	/* '/' is just below '0' */
		{"1234567:", 7, 1234567},	/* ':' is just above '9' */
		{"1\xb0" "345678", 1, 1},	/* '0' with the high bit */
		{"00000001", 8, 1},
		{"10000000", 8, 10000000},
	};

	if (!ea_digits8_ok())
		skip();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 12345;

		assert_int_equal(ea_digits8(cases[i].s, &v), cases[i].n);
		assert_int_equal(v, cases[i].v);
	}
}

static void test_back(UNUSED void **state)
{
	static const struct {
		const char *s;
		size_t at;	/* where the digits start */
		int32_t v;
	} cases[] = {
		{"pp-1-a:4951", 7, 4951},	/* eight bytes or more: SWAR */
		{"eatrace-4947", 8, 4947},
		{"<idle>-0", 7, 0},
		{"123456789", 1, 23456789},	/* eight at most: the caller sees
						 * the ninth before them */
		{"abcdefgh", 8, 0},		/* none */
		{"x [120", 3, 120},		/* fewer than eight: one by one */
		{"12", 0, 12},
		{"", 0, 0},
		{"a:00000042", 2, 42},
		{"swapper/1:0", 10, 0},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *s = cases[i].s, *e = s + strlen(s);
		int32_t v = -7;

		assert_ptr_equal(ea_digits_back(s, e, &v), s + cases[i].at);
		assert_int_equal(v, cases[i].v);
	}
}

/* Every string of up to 16 bytes drawn from the bytes around the digits,
 * at every start and end: the same as the reference (both ways). */
static void test_sweep(UNUSED void **state)
{
	static const char alphabet[] = {'0', '1', '5', '9', '/', ':', ' ',
					'-', (char)0xb0, (char)0xb9, 'a'};
	char buf[24];
	unsigned seed = 31;

	for (int round = 0; round < 200000; round++) {
		size_t len = 1 + (size_t)(round % 16);

		for (size_t i = 0; i < sizeof(buf); i++) {
			seed = seed * 1103515245u + 12345u;
			/* mostly digits, so that long runs occur */
			buf[i] = (seed >> 16) % 3 ? '0' + (char)((seed >> 20) % 10)
						  : alphabet[(seed >> 20) %
							     sizeof(alphabet)];
		}
		for (size_t at = 0; at < len; at++) {
			int32_t v1, v2;
			const char *q1 = ea_digits_back(buf + at, buf + len, &v1);
			const char *q2 = reference_back(buf + at, buf + len, &v2);

			assert_ptr_equal(q1, q2);
			assert_int_equal(v1, v2);
		}
		if (ea_digits8_ok()) {
			uint64_t v1, v2;

			assert_int_equal(ea_digits8(buf, &v1),
					 reference_front(buf, &v2));
			assert_int_equal(v1, v2);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_front),
		cmocka_unit_test(test_back),
		cmocka_unit_test(test_sweep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
