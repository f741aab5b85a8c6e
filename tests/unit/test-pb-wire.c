// SPDX-License-Identifier: GPL-2.0-only
/*
 * The protobuf wire-format decoder (src/input/pb-wire.h) on bytes written
 * here from the encoding rules: varints of 1 to 10 bytes (at the window's
 * end and with 10 bytes or more after them, whatever those hold), the largest
 * 64-bit value, the values that do not fit (an 11th byte, a 10th byte above
 * 1), cut varints; each wire type; lengths beyond the window; the wire types
 * and field numbers that are refused; packed arrays.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "input/pb-wire.h"

#define UNUSED __attribute__((unused))
#define BUF(a) ((struct pb_buf){ (a), (a) + sizeof(a) })

static void test_varint(UNUSED void **state)
{
	/* 300 = 0b10_0101100: low 7 bits 0x2c with the continuation bit, then 2 */
	static const uint8_t v300[] = { 0xac, 0x02 };
	/* 2^64 - 1: nine bytes of 0x7f with continuation, then 0x01 (bit 63) */
	static const uint8_t vmax[] = { 0xff, 0xff, 0xff, 0xff, 0xff,
					0xff, 0xff, 0xff, 0xff, 0x01 };
	/* a 10th byte of 2 would be bit 64 */
	static const uint8_t v65[] = { 0xff, 0xff, 0xff, 0xff, 0xff,
				       0xff, 0xff, 0xff, 0xff, 0x02 };
	/* 11 bytes */
	static const uint8_t v11[] = { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
				       0x80, 0x80, 0x80, 0x80, 0x00 };
	static const uint8_t cut[] = { 0x80, 0x80 };
	static const uint8_t one[] = { 0x7f };
	struct pb_buf b;
	uint64_t v;

	b = BUF(v300);
	assert_int_equal(pb_varint(&b, &v), PB_OK);
	assert_int_equal(v, 300);
	assert_ptr_equal(b.p, b.end);
	b = BUF(one);
	assert_int_equal(pb_varint(&b, &v), PB_OK);
	assert_int_equal(v, 127);
	b = BUF(vmax);
	assert_int_equal(pb_varint(&b, &v), PB_OK);
	assert_true(v == UINT64_MAX);
	b = BUF(v65);
	assert_int_equal(pb_varint(&b, &v), PB_ERR);
	b = BUF(v11);
	assert_int_equal(pb_varint(&b, &v), PB_ERR);
	b = BUF(cut);
	assert_int_equal(pb_varint(&b, &v), PB_ERR);
	assert_ptr_equal(b.p, cut);	/* not moved on error */
}

/* The encoding rule itself: 7 bits a byte, low first, the high bit set on
 * every byte but the last. Returns the bytes written. */
static size_t encode(uint64_t v, uint8_t *out)
{
	size_t n = 0;

	while (v >= 0x80) {
		out[n++] = (uint8_t)(v & 0x7f) | 0x80;
		v >>= 7;
	}
	out[n++] = (uint8_t)v;
	return n;
}

/* v encoded, then pad bytes of fill: decoded back to v, the window moved
 * past its bytes only. */
static void check_one(uint64_t v, size_t pad, uint8_t fill)
{
	uint8_t buf[32];
	size_t n = encode(v, buf);
	struct pb_buf b = { buf, buf + n + pad };
	uint64_t got = ~v;

	memset(buf + n, fill, pad);
	assert_int_equal(pb_varint(&b, &got), PB_OK);
	assert_true(got == v);
	assert_ptr_equal(b.p, buf + n);
}

/*
 * Every length, 1 to 10 bytes, at the window's end (the checked byte
 * loop) and with 10 bytes or more after it (pb_varint()'s eight bytes at
 * once: the bytes after the varint must not leak in, whether they carry
 * the continuation bit, 0xff, or not, 0x00): the values at each length's
 * edges (2^7k - 1 and 2^7k), 2^63, 2^64 - 1 and a thousand others of
 * every size (xorshift64, shifted right by 0 to 63).
 */
static void test_varint_lengths(UNUSED void **state)
{
	static const size_t pads[] = { 0, 1, 9, 10, 16 };
	static const uint8_t fills[] = { 0x00, 0xff, 0x80 };
	uint64_t x = 0x9e3779b97f4a7c15ull;

	for (int k = 1; k <= 9; k++) {
		uint64_t edge = 1ull << (7 * k);

		for (size_t i = 0; i < 5; i++)
			for (size_t j = 0; j < 3; j++) {
				check_one(edge - 1, pads[i], fills[j]);
				check_one(edge, pads[i], fills[j]);
			}
	}
	for (size_t i = 0; i < 5; i++)
		for (size_t j = 0; j < 3; j++) {
			check_one(0, pads[i], fills[j]);
			check_one(1ull << 63, pads[i], fills[j]);
			check_one(UINT64_MAX, pads[i], fills[j]);
		}
	for (int t = 0; t < 1000; t++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		check_one(x >> (t % 64), pads[t % 5], fills[t % 3]);
	}
}

/* Too long, with 10 bytes or more in the window too: an error, the window
 * not moved. */
static void test_varint_long_padded(UNUSED void **state)
{
	/* a 10th byte of 2 (bit 64), of 0x81 (an 11th follows), 11 bytes */
	static const uint8_t v65[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
				       0xff, 0xff, 0x02, 0, 0, 0, 0 };
	static const uint8_t v11a[] = { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
					0x80, 0x80, 0x80, 0x81, 0x00, 0 };
	static const uint8_t v11[] = { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
				       0x80, 0x80, 0x80, 0x80, 0x00, 0, 0 };
	/* nine bytes, then ten: the values 2^56 and 2^63 + 5 */
	static const uint8_t v9[] = { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
				      0x80, 0x80, 0x01, 0xff, 0xff, 0xff };
	static const uint8_t v10[] = { 0x85, 0x80, 0x80, 0x80, 0x80, 0x80,
				       0x80, 0x80, 0x80, 0x01, 0xff, 0xff };
	struct pb_buf b;
	uint64_t v;

	b = BUF(v65);
	assert_int_equal(pb_varint(&b, &v), PB_ERR);
	assert_ptr_equal(b.p, v65);
	b = BUF(v11a);
	assert_int_equal(pb_varint(&b, &v), PB_ERR);
	assert_ptr_equal(b.p, v11a);
	b = BUF(v11);
	assert_int_equal(pb_varint(&b, &v), PB_ERR);
	assert_ptr_equal(b.p, v11);
	b = BUF(v9);
	assert_int_equal(pb_varint(&b, &v), PB_OK);
	assert_true(v == 1ull << 56);
	assert_ptr_equal(b.p, v9 + 9);
	b = BUF(v10);
	assert_int_equal(pb_varint(&b, &v), PB_OK);
	assert_true(v == (1ull << 63) + 5);
	assert_ptr_equal(b.p, v10 + 10);
}

static void test_fields(UNUSED void **state)
{
	static const uint8_t m[] = {
		0x08, 0x96, 0x01,		/* 1 varint 150 */
		0x11, 1, 2, 3, 4, 5, 6, 7, 8,	/* 2 fixed64, little-endian */
		0x1a, 0x03, 'a', 'b', 'c',	/* 3 length-delimited "abc" */
		0x25, 0x78, 0x56, 0x34, 0x12,	/* 4 fixed32 0x12345678 */
		0xa0, 0x1f, 0x05,		/* 500 varint 5: two-byte tag */
	};
	struct pb_buf b = BUF(m);
	struct pb_field f;
	char s[4];

	assert_int_equal(pb_next(&b, &f), PB_OK);
	assert_int_equal(f.num, 1);
	assert_int_equal(f.wire, PB_VARINT);
	assert_int_equal(f.v, 150);
	assert_int_equal(pb_next(&b, &f), PB_OK);
	assert_int_equal(f.num, 2);
	assert_true(f.v == 0x0807060504030201ull);
	assert_int_equal(pb_next(&b, &f), PB_OK);
	assert_int_equal(f.num, 3);
	assert_int_equal(f.sub.end - f.sub.p, 3);
	pb_str(&f.sub, s, sizeof(s));
	assert_string_equal(s, "abc");
	pb_str(&f.sub, s, 2);		/* truncated to the buffer */
	assert_string_equal(s, "a");
	assert_int_equal(pb_next(&b, &f), PB_OK);
	assert_int_equal(f.num, 4);
	assert_int_equal(f.v, 0x12345678);
	assert_int_equal(pb_next(&b, &f), PB_OK);
	assert_int_equal(f.num, 500);	/* (0x1f << 7 | 0x20) >> 3 */
	assert_int_equal(f.v, 5);
	assert_int_equal(pb_next(&b, &f), PB_END);
	/* int32 -1 is written as a 10-byte varint of 2^64 - 1 */
	assert_int_equal(pb_i32(UINT64_MAX), -1);
}

static void test_refused(UNUSED void **state)
{
	static const uint8_t len_beyond[] = { 0x0a, 0x05, 'a', 'b' };
	static const uint8_t group[] = { 0x0b, 0x0c };	/* 1 start/end group */
	static const uint8_t wire6[] = { 0x0e, 0x00 };
	static const uint8_t field0[] = { 0x00, 0x01 };
	static const uint8_t fixed_cut[] = { 0x09, 1, 2, 3 };
	static const uint8_t *const bad[] = { len_beyond, group, wire6,
					      field0, fixed_cut };
	static const size_t n[] = { sizeof(len_beyond), sizeof(group),
				    sizeof(wire6), sizeof(field0),
				    sizeof(fixed_cut) };
	struct pb_field f;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct pb_buf b = { bad[i], bad[i] + n[i] };

		assert_int_equal(pb_next(&b, &f), PB_ERR);
		assert_ptr_equal(b.p, bad[i]);
	}
}

static void test_packed(UNUSED void **state)
{
	/* 1, 300, 0, 2^32: 1 + 2 + 1 + 5 bytes */
	static const uint8_t p[] = { 0x01, 0xac, 0x02, 0x00,
				     0x80, 0x80, 0x80, 0x80, 0x10 };
	struct pb_buf b = BUF(p);
	uint64_t v;

	assert_int_equal(pb_packed_count(&b), 4);
	assert_int_equal(pb_packed_next(&b, &v), PB_OK);
	assert_int_equal(v, 1);
	assert_int_equal(pb_packed_next(&b, &v), PB_OK);
	assert_int_equal(v, 300);
	assert_int_equal(pb_packed_next(&b, &v), PB_OK);
	assert_int_equal(v, 0);
	assert_int_equal(pb_packed_next(&b, &v), PB_OK);
	assert_true(v == 1ull << 32);
	assert_int_equal(pb_packed_next(&b, &v), PB_END);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_varint),
		cmocka_unit_test(test_varint_lengths),
		cmocka_unit_test(test_varint_long_padded),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_packed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
