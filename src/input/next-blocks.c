// SPDX-License-Identifier: GPL-2.0-only
/*
 * A reader's next() a block at a time, on a thread of its own or on the
 * caller's (next-blocks.h). Each event gets input.c's checks as it is
 * decoded (check_event(): ea_event_ok() after the last event, the cause
 * and the reader's position in the message) and its position beside it
 * in the block (evr_blk.nrec), so that the caller names any event of a
 * block as where() would have named it when next() returned it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eatrace/input.h"
#include "input/event-check.h"
#include "input/next-blocks.h"

void nb_init(struct nb *b, const struct nb_src *src, uint32_t blk_n)
{
	memset(b, 0, sizeof(*b));
	b->src = *src;
	b->blk_n = blk_n && blk_n <= EVR_BLK ? blk_n : EVR_BLK;
}

/* input.c's bad_event() for an event the checks refuse at position pos:
 * "PATH:WHERE: cause". -1. */
static int bad_event(const struct nb *b, const struct ea_event *ev,
		     uint64_t pos, struct ea_err *err)
{
	char where[64] = "", cause[256];

	b->src.where_at(b->src.priv, pos, where, sizeof(where));
	ea_event_cause(ev, b->src.ncpus, b->last_ts, cause, sizeof(cause));
	return ea_err_set(err, "%s:%s: %s", b->src.path, where, cause);
}

/*
 * next() into block k, up to n events, each checked, its position beside
 * it. When the stream ends or fails there, k says how (status) and where
 * the reader then stood (end_nrec): 0; 1 when more may follow. An event
 * the checks refuse ends the stream there, before the reader's end or
 * error after it (next_n() may have read past it).
 */
static int fill(struct nb *b, struct evr_blk *k, uint32_t n)
{
	const int ncpus = b->src.ncpus;
	uint64_t last_ts = b->last_ts;
	uint32_t i = 0, got;
	int rc = 1;

	k->status = 0;
	while (rc > 0 && i < n) {
		rc = b->src.next_n(b->src.priv, k->ev + i, k->nrec + i, n - i,
				   &got, &k->err);
		for (got += i; i < got; i++) {
			const struct ea_event *ev = &k->ev[i];

			if (!ea_event_ok(ev, ncpus, last_ts)) {
				b->last_ts = last_ts;
				bad_event(b, ev, k->nrec[i], &k->err);
				k->n = i;
				k->status = -1;
				k->end_nrec = k->nrec[i];
				return 0;
			}
			last_ts = ev->ts;
		}
	}
	k->n = i;
	b->last_ts = last_ts;
	if (rc > 0)
		return 1;
	k->status = rc < 0 ? -1 : 1;
	k->end_nrec = b->src.pos(b->src.priv);
	return 0;
}

/* The decoding thread: blocks of next()'s events, in its order; the last
 * says how the stream ended. */
static void *nb_main(void *arg)
{
	struct nb *b = arg;
	struct evr_blk *k;

	while ((k = evr_take_free(&b->q))) {
		int more;

		pthread_mutex_lock(&b->mu);
		more = fill(b, k, b->blk_n);
		pthread_mutex_unlock(&b->mu);
		evr_put(&b->q, k);
		if (!more)
			break;
	}
	return NULL;
}

void nb_begin(struct nb *b, bool compressed, uint64_t bytes)
{
	b->begun = true;
	b->pos = b->src.pos(b->src.priv);
	if (ea_input_jobs_for(compressed, bytes) < 2)
		return;
	if (pthread_mutex_init(&b->mu, NULL))
		return;
	if (evr_start(&b->q, nb_main, b)) {
		pthread_mutex_destroy(&b->mu);
		return;
	}
	b->par = true;
}

bool nb_threaded(const struct nb *b)
{
	return b->par;
}

/*
 * The next block that still has events to give, as b->cur (b->ci at its
 * first one not given): 1; 0 at the end, -1 on the error the stream met
 * (*err).
 */
static int advance(struct nb *b, struct ea_err *err)
{
	struct evr_blk *k = b->cur;

	if (!b->begun)
		return ea_err_set(err, "%s: blocks read before nb_begin()",
				  b->src.path);
	for (;;) {
		if (k && b->ci < k->n)
			return 1;
		if (b->done)
			return 0;
		if (k && k->status) {
			b->done = true;
			b->pos = k->end_nrec;
			if (k->status > 0)
				return 0;
			*err = k->err;
			return -1;
		}
		if (b->par) {
			if (k)
				evr_release(&b->q, k);
			k = b->cur = evr_take_full(&b->q);
		} else {
			if (!k && !(k = b->cur = malloc(sizeof(*k))))
				return ea_err_set(err, "%s: out of memory",
						  b->src.path);
			fill(b, k, NB_LOCAL_BLK);
		}
		b->ci = 0;
	}
}

int nb_next_block(struct nb *b, const struct ea_event **evs, size_t *n,
		  struct ea_err *err)
{
	struct evr_blk *k;
	int rc = advance(b, err);

	if (rc <= 0)
		return rc;
	k = b->cur;
	*evs = &k->ev[b->ci];
	*n = k->n - b->ci;
	b->bi0 = b->ci;
	b->ci = k->n;
	b->pos = k->nrec[k->n - 1];
	return 1;
}

int nb_next(struct nb *b, struct ea_event *ev, struct ea_err *err)
{
	struct evr_blk *k = b->cur;

	if (!k || b->ci >= k->n) {
		int rc = advance(b, err);

		if (rc <= 0)
			return rc;
		k = b->cur;
	}
	*ev = k->ev[b->ci];
	b->pos = k->nrec[b->ci++];
	return 1;
}

void nb_block_at(struct nb *b, size_t i)
{
	const struct evr_blk *k = b->cur;

	if (k && b->bi0 + i < k->n)
		b->pos = k->nrec[b->bi0 + i];
}

uint64_t nb_pos(const struct nb *b)
{
	return b->pos;
}

void nb_lock(struct nb *b)
{
	if (b->par)
		pthread_mutex_lock(&b->mu);
}

void nb_unlock(struct nb *b)
{
	if (b->par)
		pthread_mutex_unlock(&b->mu);
}

void nb_free(struct nb *b)
{
	if (b->par) {
		evr_stop(&b->q);
		pthread_mutex_destroy(&b->mu);
		b->par = false;
	} else {
		free(b->cur);
	}
	b->cur = NULL;
}

void nb_reader_init(struct nb *b, const struct nb_src *src, const char *env,
		    bool can, bool compressed, uint64_t bytes)
{
	const char *blk = getenv(env);

	nb_init(b, src, blk ? (uint32_t)strtoul(blk, NULL, 10) : 0);
	b->reads = can && !(blk && !strcmp(blk, "0"));
	b->compressed = compressed;
	b->bytes = bytes;
}

bool nb_reader_reads(struct nb *b)
{
	if (!b->reads)
		return false;
	if (!b->begun)
		nb_begin(b, b->compressed, b->bytes);
	return true;
}

int nb_reader_next_block(struct nb *b, const struct ea_event **evs,
			 size_t *n, struct ea_err *err)
{
	return nb_reader_reads(b) ? nb_next_block(b, evs, n, err) : 2;
}

void nb_reader_block_at(struct nb *b, size_t i)
{
	if (b->begun)
		nb_block_at(b, i);
}

bool nb_reader_checked(const struct nb *b)
{
	return b->begun;
}

int nb_reader_threads(const struct nb *b)
{
	return b->reads ? 2 : 1;
}
