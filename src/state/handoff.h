/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The look-ahead's output handed to another thread (handoff.c): with two
 * cores, one thread reads the input and runs the look-ahead (scanning,
 * holding back, ordering: state.c's feed), the other applies the events
 * it lets go, in the same order, to the CPU and task machines and the
 * consumers. Events cross in blocks of EVR_BLK (input/evring.h), one lock
 * per block.
 *
 * What the apply side reads of the look-ahead is only its start and a new
 * CPU's first state (cpu_grow()): for those the look-ahead's thread waits
 * until every event before has been applied (handoff_sync()), then does
 * them itself while the other thread waits for the next block.
 */
#ifndef EATRACE_STATE_HANDOFF_H
#define EATRACE_STATE_HANDOFF_H

#include "eatrace/error.h"
#include "eatrace/event.h"
#include "input/evring.h"

struct handoff {
	struct evring q;
	struct evr_blk *fill; /* the block being filled, or NULL */
};

/* Run fn(arg), the look-ahead's thread. 0, or -1 (no thread). */
int handoff_start(struct handoff *h, void *(*fn)(void *), void *arg);

/* Look-ahead's thread: a free block to fill (NULL once stopped). */
struct evr_blk *handoff_block(struct handoff *h);

/* Look-ahead's thread: ev goes over. 0, or -1 once stopped. */
static inline int handoff_put(struct handoff *h, const struct ea_event *ev)
{
	struct evr_blk *b = h->fill;

	if (!b && !(b = handoff_block(h)))
		return -1;
	b->ev[b->n++] = *ev;
	if (b->n == EVR_BLK) {
		evr_put(&h->q, b);
		h->fill = NULL;
	}
	return 0;
}

/* Look-ahead's thread: hand over what is filled and wait until all of it
 * is applied. 0, or -1 once stopped. */
int handoff_sync(struct handoff *h);

/* Look-ahead's thread, last: the end (status 1) or an error (-1, err). */
void handoff_end(struct handoff *h, int status, const struct ea_err *err);

/* Applying thread: the next block (its status: 0 more follow, 1 end, -1
 * error in its err); hand it back with evr_release(&h->q, b). */
static inline struct evr_blk *handoff_take(struct handoff *h)
{
	return evr_take_full(&h->q);
}

/* Applying thread: stop the look-ahead's thread, join it, free. */
void handoff_stop(struct handoff *h);

#endif
