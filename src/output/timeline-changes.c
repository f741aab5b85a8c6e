// SPDX-License-Identifier: GPL-2.0-only
/*
 * The timeline's compact record of CPU changes
 * (src/output/timeline-changes.h): its chunks, and reading it back in
 * order (include/eatrace/html.h's ea_tl_reader).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "output/timeline-changes.h"
#include "output/timeline-priv.h"

/* A chunk is one transparent huge page where the kernel gives them
 * (madvise(), Linux's default "madvise" mode): one page fault for each
 * 2 MiB instead of 512. */
#define CHUNK_BYTES (2u << 20)

int tl_changes_init(struct tl_changes *s, int ncpus)
{
	memset(s, 0, sizeof(*s));
	s->ncpus = ncpus;
	s->last = calloc(ncpus > 0 ? (size_t)ncpus : 1, sizeof(*s->last));
	return s->last ? 0 : -1;
}

void tl_changes_free(struct tl_changes *s)
{
	for (size_t i = 0; i < s->nchunks; i++)
		free(s->chunks[i].buf);
	free(s->chunks);
	free(s->last);
	memset(s, 0, sizeof(*s));
}

int tl_changes_grow(struct tl_changes *s)
{
	unsigned char *buf;

	if (s->nchunks == s->chunk_cap) {
		size_t n = s->chunk_cap ? s->chunk_cap * 2 : 16;
		struct tl_chunk *p = realloc(s->chunks, n * sizeof(*p));

		if (!p)
			return -1;
		s->chunks = p;
		s->chunk_cap = n;
	}
	buf = aligned_alloc(CHUNK_BYTES, CHUNK_BYTES);
	if (!buf)
		return -1;
#ifdef MADV_HUGEPAGE
	(void)madvise(buf, CHUNK_BYTES, MADV_HUGEPAGE); /* a hint */
#endif
	if (s->nchunks)
		s->chunks[s->nchunks - 1].len =
			(size_t)(s->at - s->chunks[s->nchunks - 1].buf);
	s->chunks[s->nchunks++] = (struct tl_chunk){buf, 0};
	s->at = buf;
	s->lim = buf + CHUNK_BYTES;
	return 0;
}

struct ea_tl_reader {
	const struct tl_changes *s;
	size_t chunk;
	const unsigned char *at, *end; /* what is left of the chunk */
	struct tl_cpu_last *last; /* s->ncpus, as the writer had it */
};

static const unsigned char *get_varint(const unsigned char *q, uint64_t *v)
{
	uint64_t x = 0;
	unsigned sh = 0;

	while (*q & 0x80) {
		x |= (uint64_t)(*q++ & 0x7f) << sh;
		sh += 7;
	}
	*v = x | (uint64_t)*q++ << sh;
	return q;
}

static uint64_t unzigzag(uint64_t z)
{
	return (z >> 1) ^ (uint64_t) - (int64_t)(z & 1);
}

size_t ea_timeline_nchanges(const struct ea_timeline *t)
{
	return t->priv ? t->priv->changes.count : 0;
}

struct ea_tl_reader *ea_tl_reader_new(const struct ea_timeline *t)
{
	struct ea_tl_reader *r = calloc(1, sizeof(*r));
	const struct tl_changes *s;

	if (!r)
		return NULL;
	if (!t->priv || !t->priv->changes.last)
		return r; /* nothing recorded */
	s = &t->priv->changes;
	r->s = s;
	r->last = calloc(s->ncpus > 0 ? (size_t)s->ncpus : 1, sizeof(*r->last));
	if (!r->last) {
		free(r);
		return NULL;
	}
	return r;
}

void ea_tl_reader_free(struct ea_tl_reader *r)
{
	if (r)
		free(r->last);
	free(r);
}

/* Moves r to the next chunk holding something; false at the end. */
static bool next_chunk(struct ea_tl_reader *r)
{
	const struct tl_changes *s = r->s;

	while (r->chunk < s->nchunks) {
		const struct tl_chunk *c = &s->chunks[r->chunk++];
		const unsigned char *end =
			r->chunk == s->nchunks ? s->at : c->buf + c->len;

		if (end > c->buf) {
			r->at = c->buf;
			r->end = end;
			return true;
		}
	}
	return false;
}

bool ea_tl_reader_next(struct ea_tl_reader *r, struct ea_tl_change *ch)
{
	const unsigned char *q;
	struct tl_cpu_last *l;
	unsigned hdr;
	uint64_t v;

	if (r->at == r->end && (!r->s || !next_chunk(r)))
		return false;
	q = r->at;
	hdr = *q++;
	if ((hdr & TL_H_CPU_MASK) == 3) {
		q = get_varint(q, &v);
		ch->cpu = (uint16_t)v;
	} else {
		ch->cpu = (uint16_t)(hdr & TL_H_CPU_MASK);
	}
	l = &r->last[ch->cpu];
	if ((hdr & TL_H_MODE_MASK) == TL_H_MODE_MASK)
		ch->mode = *q++;
	else
		ch->mode = (uint8_t)((hdr & TL_H_MODE_MASK) >> TL_H_MODE_SHIFT);
	ch->t0 = l->t1;
	if (hdr & TL_H_T0) {
		q = get_varint(q, &v);
		ch->t0 += unzigzag(v);
	}
	q = get_varint(q, &v);
	ch->t1 = ch->t0 + v;
	if (hdr & TL_H_PID) {
		q = get_varint(q, &v);
		l->pid = (int32_t)((uint32_t)l->pid + (uint32_t)unzigzag(v));
	}
	if (hdr & TL_H_FREQ) {
		q = get_varint(q, &v);
		l->freq_khz = (uint32_t)v;
	}
	if (hdr & TL_H_IDLE) {
		q = get_varint(q, &v);
		l->idle_state = (int32_t)((uint32_t)l->idle_state +
					  (uint32_t)unzigzag(v));
	}
	l->t1 = ch->t1;
	ch->pid = l->pid;
	ch->freq_khz = l->freq_khz;
	ch->idle_state = (int16_t)l->idle_state;
	r->at = q;
	return true;
}
