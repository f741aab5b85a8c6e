// SPDX-License-Identifier: GPL-2.0-only
/*
 * The timeline's compact record of CPU changes
 * (src/output/timeline-changes.h): its chunks, and reading it back in
 * order (include/eatrace/html.h's ea_tl_reader).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "output/timeline-changes.h"
#include "output/timeline-handoff.h"
#include "output/timeline-priv.h"

/* A chunk: 2 MiB of small pages (why not a huge page: the Perfetto
 * encoder's blocks, AHEAD_BLOCK in perfetto-pb.c). */
#define CHUNK_BYTES (2u << 20)

/* A published record's shared part: what the chunks' list and pub->at
 * say is read and changed under mu. */
struct tl_pub {
	pthread_mutex_t mu;
	pthread_cond_t more;
	const unsigned char *at; /* published up to here in the last chunk */
	bool sealed, stopped, waits;
	/* the next chunk, its memory touched by the reader while it waits
	 * (fresh memory costs the writer 512 faults and the kernel's zeroing
	 * of 2 MiB, in the thread the run waits for) */
	unsigned char *spare;
};

int tl_changes_init(struct tl_changes *s, int ncpus)
{
	memset(s, 0, sizeof(*s));
	s->ncpus = ncpus;
	s->last = calloc(ncpus > 0 ? (size_t)ncpus : 1, sizeof(*s->last));
	return s->last ? 0 : -1;
}

void tl_changes_free(struct tl_changes *s)
{
	tl_handoff_finish(s->ho, s->ho_at); /* its thread writes s */
	for (size_t i = 0; i < s->nchunks; i++)
		free(s->chunks[i].buf);
	free(s->chunks);
	free(s->last);
	if (s->pub) {
		free(s->pub->spare);
		pthread_cond_destroy(&s->pub->more);
		pthread_mutex_destroy(&s->pub->mu);
		free(s->pub);
	}
	memset(s, 0, sizeof(*s));
}

int tl_changes_publish(struct tl_changes *s)
{
	struct tl_pub *pb;

	if (s->pub)
		return 0;
	if (s->count || !(pb = calloc(1, sizeof(*pb))))
		return -1;
	pthread_mutex_init(&pb->mu, NULL);
	pthread_cond_init(&pb->more, NULL);
	s->pub = pb;
	return 0;
}

/* What is written so far published (the lock held), the reader woken if
 * it waits for it. */
static void publish_locked(struct tl_changes *s)
{
	s->pub->at = s->at;
	if (s->pub->waits)
		pthread_cond_signal(&s->pub->more);
}

/* The hand-over's thread: each change recorded. */
static void record_run(void *ctx, const struct ea_tl_change *v, size_t n)
{
	struct tl_changes *s = ctx;

	for (size_t i = 0; i < n && !s->failed; i++)
		if (tl_changes_put(s, &v[i]))
			s->failed = true;
}

int tl_changes_handoff(struct tl_changes *s)
{
	if (s->ho)
		return 0;
	if (s->count)
		return -1;
	return tl_handoff_start(&s->ho, record_run, s);
}

int tl_changes_bound(struct tl_changes *s, size_t busy)
{
	if (s->count || s->ho_at || s->bound.k)
		return -1;
	s->bound = (struct tl_bound){.on = true, .busy_left = busy};
	return 0;
}

int tl_changes_ho_next(struct tl_changes *s)
{
	s->ho_at = tl_handoff_next(s->ho, s->ho_at, &s->ho_lim);
	if (!s->ho_at) {
		s->ho_lim = NULL;
		return -1;
	}
	return 0;
}

void tl_changes_seal(struct tl_changes *s)
{
	if (s->ho) { /* every change recorded first */
		tl_handoff_finish(s->ho, s->ho_at);
		s->ho = NULL;
		s->ho_at = s->ho_lim = NULL;
	}
	if (!s->pub)
		return;
	pthread_mutex_lock(&s->pub->mu);
	publish_locked(s);
	s->pub->sealed = true;
	pthread_cond_broadcast(&s->pub->more);
	pthread_mutex_unlock(&s->pub->mu);
}

void tl_changes_stop_readers(struct tl_changes *s)
{
	if (!s->pub)
		return;
	pthread_mutex_lock(&s->pub->mu);
	s->pub->stopped = true;
	pthread_cond_broadcast(&s->pub->more);
	pthread_mutex_unlock(&s->pub->mu);
}

/* A published record's next mark: the next TL_PUB_BYTES, or the chunk's
 * end. */
static unsigned char *pub_lim(const struct tl_changes *s)
{
	unsigned char *end = s->chunks[s->nchunks - 1].buf + CHUNK_BYTES;

	return (size_t)(end - s->at) > TL_PUB_BYTES ? s->at + TL_PUB_BYTES
						     : end;
}

static int new_chunk(struct tl_changes *s);

int tl_changes_grow(struct tl_changes *s)
{
	int rc;

	if (!s->pub)
		return new_chunk(s);
	pthread_mutex_lock(&s->pub->mu);
	/* a mark inside the chunk (room left): only publishing */
	rc = s->nchunks && s->chunks[s->nchunks - 1].buf + CHUNK_BYTES - s->at >=
				   TL_CHANGE_MAX_BYTES
		     ? 0
		     : new_chunk(s);
	if (!rc) {
		publish_locked(s);
		s->lim = pub_lim(s);
	}
	pthread_mutex_unlock(&s->pub->mu);
	return rc;
}

/* A chunk's memory, CHUNK_BYTES aligned (glibc maps an allocation this
 * large on its own: returned to the kernel when freed). */
static unsigned char *chunk_alloc(void)
{
	return aligned_alloc(CHUNK_BYTES, CHUNK_BYTES);
}

static int new_chunk(struct tl_changes *s)
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
	if (s->pub && s->pub->spare) { /* the lock held */
		buf = s->pub->spare;
		s->pub->spare = NULL;
	} else if (!(buf = chunk_alloc())) {
		return -1;
	}
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

/* A reader of s (NULL: of nothing), reading s's chunks itself (own) or
 * what tl_reader_wait() gives it. */
static struct ea_tl_reader *reader_new(const struct tl_changes *s, bool own)
{
	struct ea_tl_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	if (!s)
		return r; /* nothing recorded */
	r->s = own ? s : NULL;
	r->last = calloc(s->ncpus > 0 ? (size_t)s->ncpus : 1, sizeof(*r->last));
	if (!r->last) {
		free(r);
		return NULL;
	}
	return r;
}

struct ea_tl_reader *ea_tl_reader_new(const struct ea_timeline *t)
{
	if (!t->priv || !t->priv->changes.last)
		return reader_new(NULL, true);
	return reader_new(&t->priv->changes, true);
}

struct ea_tl_reader *tl_reader_published(const struct tl_changes *s)
{
	return reader_new(s, false);
}

/* The end of what r's chunk (r->chunk - 1) holds: a whole chunk, or the
 * last one up to at. */
static const unsigned char *chunk_end(const struct tl_changes *s, size_t k,
				      const unsigned char *at)
{
	return k + 1 == s->nchunks ? at : s->chunks[k].buf + s->chunks[k].len;
}

bool tl_reader_wait(struct ea_tl_reader *r, const struct tl_changes *s)
{
	struct tl_pub *pb = s->pub;
	bool more = false, no_spare = false;

	pthread_mutex_lock(&pb->mu);
	while (!pb->stopped) {
		const unsigned char *end =
			r->chunk ? chunk_end(s, r->chunk - 1, pb->at) : NULL;

		if (end > r->end) {
			r->end = end;
			more = true;
			break;
		}
		if (r->chunk < s->nchunks) { /* this chunk read: the next */
			r->at = r->end = s->chunks[r->chunk++].buf;
			continue;
		}
		if (pb->sealed)
			break;
		if (!pb->spare && !no_spare) { /* the writer's next chunk */
			unsigned char *c;

			pthread_mutex_unlock(&pb->mu);
			if ((c = chunk_alloc()))
				for (size_t k = 0; k < CHUNK_BYTES; k += 4096)
					((volatile unsigned char *)c)[k] = 0;
			pthread_mutex_lock(&pb->mu);
			pb->spare = c; /* only this reader sets it */
			no_spare = !c; /* the writer makes its own */
			continue;
		}
		pb->waits = true;
		pthread_cond_wait(&pb->more, &pb->mu);
		pb->waits = false;
	}
	pthread_mutex_unlock(&pb->mu);
	return more;
}

void tl_reader_resume(struct ea_tl_reader *r, const struct tl_changes *s)
{
	r->s = s;
	if (r->chunk)
		r->end = chunk_end(s, r->chunk - 1, s->at);
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
