// SPDX-License-Identifier: GPL-2.0-only
/*
 * The protobuf's change packets encoded ahead (src/output/perfetto-ahead.h):
 * the thread, the blocks and the holes it leaves.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "output/perfetto-ahead.h"
#include "util/grow.h"
#include "util/thread.h"

struct pf_thread {
	pthread_t th;
	void (*work)(void *);
	void *ctx;
};

static void *run(void *arg)
{
	struct pf_thread *t = arg;

	t->work(t->ctx);
	return NULL;
}

int pf_ahead_start(struct pf_ahead *a, void (*work)(void *), void *ctx)
{
	struct pf_thread *t = malloc(sizeof(*t));
	int rc;

	if (!t)
		return -1;
	t->work = work;
	t->ctx = ctx;
	/* signals stay with the main thread (the crash guard, SIGPIPE) */
	rc = ea_thread_start(&t->th, run, t, NULL);
	if (rc) {
		free(t);
		return -1;
	}
	a->running = t;
	return 0;
}

void pf_ahead_join(struct pf_ahead *a)
{
	if (!a->running)
		return;
	pthread_join(a->running->th, NULL);
	free(a->running);
	a->running = NULL;
}

/* Room for one more of *n items of size at *v (capacity *cap). */
static bool room(void **v, size_t *cap, size_t n, size_t size)
{
	return ea_grow(v, cap, n + 1, size, 64) == 0;
}

bool pf_ahead_add_block(struct pf_ahead *a, uint8_t *p, size_t n)
{
	if (!room((void **)&a->blk, &a->blk_cap, a->nblk, sizeof(*a->blk))) {
		free(p);
		a->failed = true;
		return false;
	}
	a->blk[a->nblk++] = (struct pf_block){p, n};
	a->bytes += n;
	return true;
}

bool pf_ahead_add_hole(struct pf_ahead *a, const struct pf_hole *h)
{
	if (!room((void **)&a->holes, &a->holes_cap, a->nholes,
		  sizeof(*a->holes))) {
		a->failed = true;
		return false;
	}
	a->holes[a->nholes++] = *h;
	return true;
}

void pf_ahead_free(struct pf_ahead *a)
{
	for (size_t i = 0; i < a->nblk; i++)
		free(a->blk[i].p);
	free(a->blk);
	free(a->holes);
	memset(a, 0, sizeof(*a));
}
