// SPDX-License-Identifier: GPL-2.0-only
/*
 * The timeline's second half on a thread of its own
 * (src/output/timeline-thread.h). count holds the blocks full or being
 * worked on: the producer fills blk[(head + count) % NBLK] while count <
 * NBLK, the thread works on blk[head] and releases it.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "output/timeline-thread.h"
#include "util/thread.h"

#define NBLK 8
#define BLK_BYTES (128u << 10)

struct blk {
	unsigned char *buf;
	size_t n; /* steps in buf */
	bool last; /* nothing follows */
};

struct tl_thread {
	struct ea_timeline *t;
	tl_back_fn *back;
	size_t step_bytes, per_blk;
	struct blk blk[NBLK];
	int head, count; /* oldest full block, full blocks */
	bool prod_waits, cons_waits; /* asleep on a full / an empty ring */
	pthread_mutex_t mu;
	pthread_cond_t full, empty;
	pthread_t th;
	struct blk *cur; /* the producer's, being filled (NULL: none) */
};

/* Producer: a free block (waits for one). */
static struct blk *take_free(struct tl_thread *q)
{
	struct blk *b;

	pthread_mutex_lock(&q->mu);
	while (q->count >= NBLK) {
		q->prod_waits = true;
		pthread_cond_wait(&q->empty, &q->mu);
	}
	q->prod_waits = false;
	b = &q->blk[(q->head + q->count) % NBLK];
	pthread_mutex_unlock(&q->mu);
	return b;
}

/* Producer: hands block b over. */
static void hand_over(struct tl_thread *q, const struct blk *b)
{
	pthread_mutex_lock(&q->mu);
	q->count++;
	if (q->cons_waits && (b->last || q->count >= NBLK / 2))
		pthread_cond_signal(&q->full);
	pthread_mutex_unlock(&q->mu);
}

static void *run(void *arg)
{
	struct tl_thread *q = arg;
	bool last = false;

	while (!last) {
		struct blk *b;

		pthread_mutex_lock(&q->mu);
		while (!q->count) {
			q->cons_waits = true;
			pthread_cond_wait(&q->full, &q->mu);
		}
		q->cons_waits = false;
		b = &q->blk[q->head];
		pthread_mutex_unlock(&q->mu);

		for (size_t i = 0; i < b->n; i++)
			q->back(q->t,
				(const struct tl_step *)(b->buf +
							 i * q->step_bytes));
		last = b->last;
		b->n = 0;
		b->last = false;

		pthread_mutex_lock(&q->mu);
		q->head = (q->head + 1) % NBLK;
		q->count--;
		if (q->prod_waits && q->count <= NBLK / 2)
			pthread_cond_signal(&q->empty);
		pthread_mutex_unlock(&q->mu);
	}
	return NULL;
}

static void free_blocks(struct tl_thread *q)
{
	for (int i = 0; i < NBLK; i++)
		free(q->blk[i].buf);
	free(q);
}

int tl_thread_start(struct tl_thread **th, struct ea_timeline *t,
		    size_t step_bytes, tl_back_fn *back)
{
	struct tl_thread *q = calloc(1, sizeof(*q));
	int rc;

	*th = NULL;
	if (!q || step_bytes > BLK_BYTES) {
		free(q);
		return -1;
	}
	q->t = t;
	q->back = back;
	q->step_bytes = step_bytes;
	q->per_blk = BLK_BYTES / step_bytes;
	for (int i = 0; i < NBLK; i++) {
		/* steps hold 16-byte energies */
		q->blk[i].buf = aligned_alloc(16, BLK_BYTES);
		if (!q->blk[i].buf) {
			free_blocks(q);
			return -1;
		}
	}
	pthread_mutex_init(&q->mu, NULL);
	pthread_cond_init(&q->full, NULL);
	pthread_cond_init(&q->empty, NULL);
	/* signals stay with the main thread (the crash guard, SIGPIPE) */
	rc = ea_thread_start(&q->th, run, q, NULL);
	if (rc) {
		pthread_cond_destroy(&q->empty);
		pthread_cond_destroy(&q->full);
		pthread_mutex_destroy(&q->mu);
		free_blocks(q);
		return -1;
	}
	*th = q;
	return 0;
}

struct tl_step *tl_thread_slot(struct tl_thread *q)
{
	if (!q->cur)
		q->cur = take_free(q);
	return (struct tl_step *)(q->cur->buf + q->cur->n * q->step_bytes);
}

void tl_thread_put(struct tl_thread *q)
{
	if (++q->cur->n == q->per_blk) {
		hand_over(q, q->cur);
		q->cur = NULL;
	}
}

void tl_thread_finish(struct tl_thread *q)
{
	if (!q)
		return;
	if (!q->cur)
		q->cur = take_free(q);
	q->cur->last = true;
	hand_over(q, q->cur);
	pthread_join(q->th, NULL);
	pthread_cond_destroy(&q->empty);
	pthread_cond_destroy(&q->full);
	pthread_mutex_destroy(&q->mu);
	free_blocks(q);
}
