/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Protocol buffers wire format, read in place (docs/perfetto.md).
 *
 * A message is a run of fields, each a tag (varint: field number << 3 |
 * wire type) and a value: a varint (type 0), 8 bytes (1), a length and that
 * many bytes (2: strings, sub-messages, packed arrays) or 4 bytes (5).
 * Groups (3, 4) are refused: no Perfetto message uses them.
 *
 * Nothing is copied or allocated: a struct pb_buf is a window on bytes that
 * stay owned by the caller, and a length-delimited value is another window.
 * Every length is checked against the window's end, and a varint longer
 * than 10 bytes is an error, so that corrupt input gives an error, never a
 * read out of bounds.
 */
#ifndef EATRACE_INPUT_PB_WIRE_H
#define EATRACE_INPUT_PB_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum pb_wire { PB_VARINT = 0, PB_I64 = 1, PB_LEN = 2, PB_I32 = 5 };

struct pb_buf {
	const uint8_t *p, *end;
};

struct pb_field {
	uint32_t num;		/* field number, >= 1 */
	uint8_t wire;		/* enum pb_wire */
	uint64_t v;		/* VARINT, I64, I32: the value */
	struct pb_buf sub;	/* LEN: the bytes */
};

enum pb_status { PB_OK = 1, PB_END = 0, PB_ERR = -1 };

/* pb_varint()'s slow path: near the end of the window (pb-wire.c). */
int pb_varint_slow(struct pb_buf *b, uint64_t *v);

/*
 * pb_varint()'s path for three bytes or more with ten bytes or more left
 * in the window (pb-wire.c): eight bytes at once.
 */
int pb_varint_long(struct pb_buf *b, uint64_t *v);

/*
 * A varint at b->p, which moves past it. PB_OK, or PB_ERR when cut/too
 * long. One and two bytes (most fields, deltas, pids) inline; longer
 * ones out of line, without a bounds check per byte when 10 bytes are
 * left (all but the window's last varint).
 */
static inline __attribute__((always_inline)) int
pb_varint(struct pb_buf *b, uint64_t *v)
{
	const uint8_t *p = b->p;

	if (p < b->end && !(*p & 0x80)) {	/* one byte: the usual case */
		*v = *p;
		b->p = p + 1;
		return PB_OK;
	}
	if (b->end - p >= 2 && !(p[1] & 0x80)) {
		*v = (uint64_t)(p[0] & 0x7f) | (uint64_t)p[1] << 7;
		b->p = p + 2;
		return PB_OK;
	}
	if (b->end - p < 10)
		return pb_varint_slow(b, v);
	return pb_varint_long(b, v);
}

/*
 * The next field of the message in b: PB_OK and f filled, PB_END at the
 * end of the window, PB_ERR on a malformed field (b->p is then where it
 * starts).
 */
static inline __attribute__((always_inline)) int
pb_next(struct pb_buf *b, struct pb_field *f)
{
	struct pb_buf c = *b;
	uint64_t tag, len;

	if (c.p >= c.end)
		return PB_END;
	if (*c.p < 0x80) {			/* fields 1 to 15: one byte */
		tag = *c.p++;
		if (!(tag >> 3))
			return PB_ERR;
	} else if (pb_varint(&c, &tag) != PB_OK || (tag >> 3) == 0 ||
		   (tag >> 3) > 0x1fffffff) {
		return PB_ERR;
	}
	f->num = (uint32_t)(tag >> 3);
	f->wire = (uint8_t)(tag & 7);
	switch (f->wire) {
	case PB_VARINT:
		if (c.p < c.end && *c.p < 0x80)
			f->v = *c.p++;
		else if (pb_varint(&c, &f->v) != PB_OK)
			return PB_ERR;
		break;
	case PB_I64:
		if (c.end - c.p < 8)
			return PB_ERR;
		f->v = 0;
		for (int i = 7; i >= 0; i--)
			f->v = f->v << 8 | c.p[i];
		c.p += 8;
		break;
	case PB_I32:
		if (c.end - c.p < 4)
			return PB_ERR;
		f->v = (uint64_t)c.p[0] | (uint64_t)c.p[1] << 8 |
		       (uint64_t)c.p[2] << 16 | (uint64_t)c.p[3] << 24;
		c.p += 4;
		break;
	case PB_LEN:
		if (c.p < c.end && *c.p < 0x80)
			len = *c.p++;
		else if (pb_varint(&c, &len) != PB_OK)
			return PB_ERR;
		if (len > (uint64_t)(c.end - c.p))
			return PB_ERR;
		f->sub.p = c.p;
		f->sub.end = c.p + len;
		c.p += len;
		break;
	default:
		return PB_ERR;	/* groups (3, 4) and 6, 7 */
	}
	*b = c;
	return PB_OK;
}

/* Zigzag is not used by Perfetto's ftrace messages; int32 is sign-extended. */
static inline int32_t pb_i32(uint64_t v)
{
	return (int32_t)(uint32_t)v;
}

/* Length-delimited string into a NUL-terminated buffer of n bytes. */
void pb_str(const struct pb_buf *s, char *out, size_t n);

/*
 * Packed repeated varints (or, for robustness, one unpacked element):
 * PB_OK with *v and the window advanced, PB_END when empty, PB_ERR.
 */
static inline __attribute__((always_inline)) int
pb_packed_next(struct pb_buf *b, uint64_t *v)
{
	if (b->p >= b->end)
		return PB_END;
	return pb_varint(b, v);
}

/* Number of varints in a packed array (bytes without the high bit). */
size_t pb_packed_count(const struct pb_buf *b);

#endif
