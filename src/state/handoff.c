// SPDX-License-Identifier: GPL-2.0-only
/* The look-ahead's output handed to the applying thread: see handoff.h. */
#include <signal.h>
#include <string.h>

#include "state/handoff.h"

int handoff_start(struct handoff *h, void *(*fn)(void *), void *arg)
{
	static const int guard_sigs[] = {SIGSEGV, SIGBUS,  SIGILL,   SIGFPE,
					 SIGABRT, SIGALRM, SIGVTALRM};
	sigset_t mask;

	h->fill = NULL;
	/*
	 * Signals stay with the main thread (SIGPIPE, SIGINT), but those of
	 * the trace.dat open's crash guard (input/dat-guard.c): the
	 * look-ahead may open a second reader of the file, under the guard,
	 * on this thread (a CPU's first event beyond the look-ahead), and the
	 * guard's timers signal the thread that opens.
	 */
	sigfillset(&mask);
	for (size_t i = 0; i < sizeof(guard_sigs) / sizeof(guard_sigs[0]); i++)
		sigdelset(&mask, guard_sigs[i]);
	return evr_start_mask(&h->q, fn, arg, &mask);
}

struct evr_blk *handoff_block(struct handoff *h)
{
	struct evr_blk *b = evr_take_free(&h->q);

	if (b) {
		b->n = 0;
		b->status = 0;
	}
	h->fill = b;
	return b;
}

int handoff_sync(struct handoff *h)
{
	if (h->fill) {
		evr_put(&h->q, h->fill);
		h->fill = NULL;
	}
	return evr_drain(&h->q);
}

void handoff_end(struct handoff *h, int status, const struct ea_err *err)
{
	struct evr_blk *b = h->fill ? h->fill : handoff_block(h);

	if (!b)
		return; /* stopped: nobody reads it */
	b->status = status;
	if (status < 0)
		b->err = *err;
	h->fill = NULL;
	evr_put(&h->q, b);
}

void handoff_stop(struct handoff *h)
{
	evr_stop(&h->q);
	h->fill = NULL;
}
