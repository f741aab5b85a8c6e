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

bool tl_reader_next_chunk(struct ea_tl_reader *r)
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
	return tl_reader_next(r, ch);
}
