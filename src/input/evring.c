// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ring of event blocks between a decoding thread and the reading one (see
 * evring.h). count holds the blocks full or being read: the producer
 * fills blk[(head + count) % EVR_NBLK] while count < EVR_NBLK, the
 * consumer reads blk[head] and releases it.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "input/evring.h"
#include "util/thread.h"

int evr_start(struct evring *q, void *(*fn)(void *), void *arg)
{
	/* signals stay with the main thread (the crash guard, SIGPIPE) */
	return evr_start_mask(q, fn, arg, NULL);
}

int evr_start_mask(struct evring *q, void *(*fn)(void *), void *arg,
		   const sigset_t *mask)
{
	int i, rc;

	memset(q, 0, sizeof(*q));
	for (i = 0; i < EVR_NBLK; i++) {
		q->blk[i] = malloc(sizeof(*q->blk[i]));
		if (!q->blk[i])
			goto fail;
	}
	pthread_mutex_init(&q->mu, NULL);
	pthread_cond_init(&q->full, NULL);
	pthread_cond_init(&q->empty, NULL);
	rc = ea_thread_start(&q->th, fn, arg, mask);
	if (rc) {
		pthread_cond_destroy(&q->empty);
		pthread_cond_destroy(&q->full);
		pthread_mutex_destroy(&q->mu);
		goto fail;
	}
	q->started = true;
	return 0;
fail:
	for (i = 0; i < EVR_NBLK; i++)
		free(q->blk[i]);
	memset(q, 0, sizeof(*q));
	return -1;
}

struct evr_blk *evr_take_free(struct evring *q)
{
	struct evr_blk *b = NULL;

	pthread_mutex_lock(&q->mu);
	while (!q->stop && q->count >= EVR_NBLK) {
		q->prod_waits = true;
		pthread_cond_wait(&q->empty, &q->mu);
	}
	q->prod_waits = false;
	if (!q->stop)
		b = q->blk[(q->head + q->count) % EVR_NBLK];
	pthread_mutex_unlock(&q->mu);
	return b;
}

void evr_put(struct evring *q, struct evr_blk *b)
{
	pthread_mutex_lock(&q->mu);
	q->count++;
	/* at the first block: see evring.h */
	if (q->cons_waits)
		pthread_cond_signal(&q->full);
	pthread_mutex_unlock(&q->mu);
}

int evr_drain(struct evring *q)
{
	int rc;

	pthread_mutex_lock(&q->mu);
	while (!q->stop && q->count) {
		q->drain_waits = true;
		pthread_cond_wait(&q->empty, &q->mu);
	}
	q->drain_waits = false;
	rc = q->stop ? -1 : 0;
	pthread_mutex_unlock(&q->mu);
	return rc;
}

struct evr_blk *evr_take_full(struct evring *q)
{
	struct evr_blk *b;

	pthread_mutex_lock(&q->mu);
	while (!q->count) {
		q->cons_waits = true;
		pthread_cond_wait(&q->full, &q->mu);
	}
	q->cons_waits = false;
	b = q->blk[q->head];
	pthread_mutex_unlock(&q->mu);
	return b;
}

void evr_release(struct evring *q, struct evr_blk *b)
{
	(void)b;
	pthread_mutex_lock(&q->mu);
	q->head = (q->head + 1) % EVR_NBLK;
	q->count--;
	if ((q->prod_waits && q->count <= EVR_NBLK / 2) ||
	    (q->drain_waits && !q->count))
		pthread_cond_signal(&q->empty);
	pthread_mutex_unlock(&q->mu);
}

void evr_stop(struct evring *q)
{
	int i;

	if (!q->started)
		return;
	pthread_mutex_lock(&q->mu);
	q->stop = true;
	pthread_cond_broadcast(&q->empty);
	pthread_mutex_unlock(&q->mu);
	pthread_join(q->th, NULL);
	pthread_cond_destroy(&q->empty);
	pthread_cond_destroy(&q->full);
	pthread_mutex_destroy(&q->mu);
	for (i = 0; i < EVR_NBLK; i++)
		free(q->blk[i]);
	memset(q, 0, sizeof(*q));
}
