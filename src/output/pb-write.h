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
bool pbw_ok(const struct pbw *w);

/* Fields. int64 is written as its two's complement varint (10 bytes when
 * negative), as protobuf's int64 is; strings as bytes, each byte that is
 * not part of valid UTF-8 replaced by U+FFFD (a string field must be
 * UTF-8). */
void pbw_uint(struct pbw *w, uint32_t field, uint64_t v);
void pbw_int(struct pbw *w, uint32_t field, int64_t v);
void pbw_double(struct pbw *w, uint32_t field, double v);
void pbw_string(struct pbw *w, uint32_t field, const char *s);

/* A nested message (or, at depth 0, any length-delimited field). */
void pbw_begin(struct pbw *w, uint32_t field);
void pbw_end(struct pbw *w);

#endif
