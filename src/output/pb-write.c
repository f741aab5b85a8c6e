// SPDX-License-Identifier: GPL-2.0-only
/* Protocol buffers wire format, written (src/output/pb-write.h). */
#include <stdlib.h>
#include <string.h>

#include "eatrace/escape.h"
#include "output/pb-write.h"

enum { WIRE_VARINT = 0, WIRE_I64 = 1, WIRE_LEN = 2 };

void pbw_init(struct pbw *w)
{
	memset(w, 0, sizeof(*w));
}

void pbw_free(struct pbw *w)
{
	free(w->p);
	pbw_init(w);
}

void pbw_reset(struct pbw *w)
{
	w->n = 0;
	w->depth = 0;
}

bool pbw_grow(struct pbw *w, size_t n)
{
	size_t cap;
	uint8_t *p;

	if (w->failed)
		return false;
	if (w->n + n <= w->cap)
		return true;
	cap = w->cap ? w->cap : 256;
	while (cap < w->n + n)
		cap *= 2;
	p = realloc(w->p, cap);
	if (!p) {
		w->failed = true;
		return false;
	}
	w->p = p;
	w->cap = cap;
	return true;
}

static bool room(struct pbw *w, size_t n)
{
	return pbw_room(w, n);
}

static size_t varint_len(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/* v as a varint at q (varint_len(v) bytes). */
static void put_varint(uint8_t *q, uint64_t v)
{
	while (v >= 0x80) {
		*q++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*q = (uint8_t)v;
}

static void tag(struct pbw *w, uint32_t field, int wire)
{
	if (room(w, 10))
		pbw_put_varint(w, (uint64_t)field << 3 | (uint64_t)wire);
}

void pbw_double(struct pbw *w, uint32_t field, double v)
{
	uint64_t bits;

	tag(w, field, WIRE_I64);
	if (!room(w, 8))
		return;
	memcpy(&bits, &v, sizeof(bits));
	for (int i = 0; i < 8; i++)
		w->p[w->n++] = (uint8_t)(bits >> (8 * i)); /* little-endian */
}

void pbw_string(struct pbw *w, uint32_t field, const char *s)
{
	static const uint8_t fffd[3] = {0xef, 0xbf, 0xbd};

	pbw_begin(w, field);
	while (*s) {
		uint32_t cp;
		int k = ea_utf8_seq(s, &cp);

		if (!room(w, 4))
			break;
		if (k) {
			memcpy(w->p + w->n, s, (size_t)k);
			w->n += (size_t)k;
			s += k;
		} else {
			memcpy(w->p + w->n, fffd, sizeof(fffd));
			w->n += sizeof(fffd);
			s++;
		}
	}
	pbw_end(w);
}

void pbw_end_long(struct pbw *w, size_t at, size_t len)
{
	size_t k = varint_len(len);

	if (!room(w, k - 1))
		return;
	memmove(w->p + at + k, w->p + at + 1, len);
	w->n += k - 1;
	put_varint(w->p + at, len);
}
