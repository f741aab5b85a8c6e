// SPDX-License-Identifier: GPL-2.0-only
/*
 * The timeline's changes handed to a thread of their own
 * (src/output/timeline-handoff.h): a queue of full blocks, oldest first,
 * and a list of empty ones, under one lock taken once a block; a tap, when
 * one is set, given each block after fn.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "output/timeline-handoff.h"
#include "util/thread.h"

struct ho_blk {
	struct ea_tl_change v[TL_HO_BLOCK];
	size_t n;
	struct ho_blk *next;
};

struct tl_handoff {
	tl_ho_fn *fn;
	void *ctx;
	tl_ho_fn *tap; /* set and cleared under mu */
	void *tap_ctx;
	bool tapping; /* run() is in tap() (cleared under mu) */
	pthread_mutex_t mu;
	pthread_cond_t more, room, tapped;
	struct ho_blk *head, *tail; /* full, oldest first */
	int nfull; /* of them */
	struct ho_blk *empty;
	int nblk; /* allocated */
	bool end, waits_more, waits_room;
	struct ho_blk *cur; /* the writer's */
	pthread_t th;
};

static void *run(void *arg)
{
	struct tl_handoff *h = arg;

	for (;;) {
		struct ho_blk *b;
		tl_ho_fn *tap;
		void *tap_ctx;

		pthread_mutex_lock(&h->mu);
		while (!h->head && !h->end) {
			h->waits_more = true;
			pthread_cond_wait(&h->more, &h->mu);
			h->waits_more = false;
		}
		b = h->head;
		if (b) {
			h->head = b->next;
			if (!h->head)
				h->tail = NULL;
			h->nfull--;
		}
		tap = b ? h->tap : NULL;
		tap_ctx = h->tap_ctx;
		h->tapping = tap != NULL;
		pthread_mutex_unlock(&h->mu);
		if (!b)
			return NULL; /* the end, all given */
		h->fn(h->ctx, b->v, b->n);
		if (tap)
			tap(tap_ctx, b->v, b->n);
		pthread_mutex_lock(&h->mu);
		if (tap) {
			h->tapping = false;
			pthread_cond_broadcast(&h->tapped);
		}
		b->next = h->empty;
		h->empty = b;
		if (h->waits_room)
			pthread_cond_signal(&h->room);
		pthread_mutex_unlock(&h->mu);
	}
}

int tl_handoff_start(struct tl_handoff **hp, tl_ho_fn *fn, void *ctx)
{
	struct tl_handoff *h = calloc(1, sizeof(*h));

	*hp = NULL;
	if (!h)
		return -1;
	h->fn = fn;
	h->ctx = ctx;
	pthread_mutex_init(&h->mu, NULL);
	pthread_cond_init(&h->more, NULL);
	pthread_cond_init(&h->room, NULL);
	pthread_cond_init(&h->tapped, NULL);
	/* signals stay with the main thread (the crash guard, SIGPIPE) */
	if (ea_thread_start(&h->th, run, h, NULL)) {
		pthread_cond_destroy(&h->tapped);
		pthread_cond_destroy(&h->room);
		pthread_cond_destroy(&h->more);
		pthread_mutex_destroy(&h->mu);
		free(h);
		return -1;
	}
	*hp = h;
	return 0;
}

/* The writer's block, filled up to end, queued (the lock held). */
static void queue_cur(struct tl_handoff *h, struct ea_tl_change *end)
{
	struct ho_blk *b = h->cur;

	h->cur = NULL;
	if (!b)
		return;
	b->n = (size_t)(end - b->v);
	b->next = NULL;
	if (h->tail)
		h->tail->next = b;
	else
		h->head = b;
	h->tail = b;
	/* a thread asleep woken for two (at the end: finish()) */
	if (++h->nfull >= 2 && h->waits_more)
		pthread_cond_signal(&h->more);
}

struct ea_tl_change *tl_handoff_next(struct tl_handoff *h,
				     struct ea_tl_change *end,
				     struct ea_tl_change **lim)
{
	struct ho_blk *b;

	pthread_mutex_lock(&h->mu);
	queue_cur(h, end);
	while (!h->empty && h->nblk >= TL_HO_MAX_BLOCKS) {
		h->waits_room = true;
		pthread_cond_wait(&h->room, &h->mu);
		h->waits_room = false;
	}
	b = h->empty;
	if (b) {
		h->empty = b->next;
	} else {
		/* one more (the thread is behind by all there are) */
		b = malloc(sizeof(*b));
		if (b)
			h->nblk++;
	}
	pthread_mutex_unlock(&h->mu);
	if (!b)
		return NULL;
	h->cur = b;
	*lim = b->v + TL_HO_BLOCK;
	return b->v;
}

void tl_handoff_finish(struct tl_handoff *h, struct ea_tl_change *end)
{
	if (!h)
		return;
	pthread_mutex_lock(&h->mu);
	queue_cur(h, end);
	h->end = true;
	pthread_cond_signal(&h->more);
	pthread_mutex_unlock(&h->mu);
	pthread_join(h->th, NULL);
	while (h->empty) {
		struct ho_blk *b = h->empty;

		h->empty = b->next;
		free(b);
	}
	pthread_cond_destroy(&h->tapped);
	pthread_cond_destroy(&h->room);
	pthread_cond_destroy(&h->more);
	pthread_mutex_destroy(&h->mu);
	free(h);
}

void tl_handoff_tap(struct tl_handoff *h, tl_ho_fn *tap, void *ctx)
{
	pthread_mutex_lock(&h->mu);
	while (h->tapping) /* the tap before: out of its last call */
		pthread_cond_wait(&h->tapped, &h->mu);
	h->tap = tap;
	h->tap_ctx = ctx;
	pthread_mutex_unlock(&h->mu);
}
