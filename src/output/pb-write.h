/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Protocol buffers wire format, written (src/output/pb-write.c): the
 * encoder behind the Perfetto protobuf output. The reader is
 * src/input/pb-wire.h; the format is the same: each field a tag (varint:
 * field number << 3 | wire type) and a value, a varint (type 0), 8 bytes
 * (1) or a length and that many bytes (2: strings, nested messages).
 *
 * A message is built in a growable buffer; nested messages are opened and
 * closed like parentheses, their length written when they close (the
 * bytes moved forward when it takes more than the one byte reserved).
 * Out of memory is sticky: every later call does nothing and pbw_ok()
 * says false.
 */
#ifndef EATRACE_OUTPUT_PB_WRITE_H
#define EATRACE_OUTPUT_PB_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PBW_MAX_DEPTH 8

struct pbw {
	uint8_t *p;
	size_t n, cap;
	size_t open[PBW_MAX_DEPTH]; /* where each open message's length goes */
	int depth;
	bool failed;
};

void pbw_init(struct pbw *w);
void pbw_free(struct pbw *w);
/* Empties the buffer (no message may be open). */
void pbw_reset(struct pbw *w);
static inline bool pbw_ok(const struct pbw *w)
{
	return !w->failed;
}

/* Room for n more bytes, grown when needed (pb-write.c); false when out
 * of memory (then or before). */
bool pbw_grow(struct pbw *w, size_t n);

static inline bool pbw_room(struct pbw *w, size_t n)
{
	if (!w->failed && w->n + n <= w->cap)
		return true;
	return pbw_grow(w, n);
}

/* v as a varint at q (room for 10 bytes there); returns its end. */
static inline uint8_t *pbw_varint_at(uint8_t *q, uint64_t v)
{
	while (v >= 0x80) {
		*q++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*q++ = (uint8_t)v;
	return q;
}

/* v as a varint at the end (room for 10 bytes made). */
static inline void pbw_put_varint(struct pbw *w, uint64_t v)
{
	w->n = (size_t)(pbw_varint_at(w->p + w->n, v) - w->p);
}

/* Fields. int64 is written as its two's complement varint (10 bytes when
 * negative), as protobuf's int64 is; strings as bytes, each byte that is
 * not part of valid UTF-8 replaced by U+FFFD (a string field must be
 * UTF-8). */
static inline void pbw_uint(struct pbw *w, uint32_t field, uint64_t v)
{
	if (!pbw_room(w, 15))
		return;
	pbw_put_varint(w, (uint64_t)field << 3); /* wire type 0: varint */
	pbw_put_varint(w, v);
}

static inline void pbw_int(struct pbw *w, uint32_t field, int64_t v)
{
	pbw_uint(w, field, (uint64_t)v);
}

void pbw_double(struct pbw *w, uint32_t field, double v);
void pbw_string(struct pbw *w, uint32_t field, const char *s);

/* A nested message (or, at depth 0, any length-delimited field). */
static inline void pbw_begin(struct pbw *w, uint32_t field)
{
	if (!pbw_room(w, 6))
		return;
	pbw_put_varint(w, (uint64_t)field << 3 | 2); /* wire type 2 */
	if (w->depth == PBW_MAX_DEPTH) {
		w->failed = true;
		return;
	}
	w->open[w->depth++] = w->n++; /* one byte for the length, for now */
}

/* pbw_end() of a message of len >= 128 bytes opened at at (pb-write.c):
 * its bytes moved forward to make room for the longer length. */
void pbw_end_long(struct pbw *w, size_t at, size_t len);

static inline void pbw_end(struct pbw *w)
{
	size_t at, len;

	if (w->failed || !w->depth)
		return;
	at = w->open[--w->depth];
	len = w->n - at - 1;
	if (len < 0x80)
		w->p[at] = (uint8_t)len;
	else
		pbw_end_long(w, at, len);
}

#endif
