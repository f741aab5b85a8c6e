// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulator's sink on a thread of its own (sim_apart_start()): the
 * ordered events a run emits (sim-emit.c's batches) are handed over whole
 * to a thread that passes them, in the same order, to the sink (replay's
 * pricing: a state stage and the accountant), while the simulator goes on.
 * For a run with a core to spare (docs/replay.md "Threads", under "Timing");
 * the sink sees the same events in the same order, one thread at a time, so
 * every figure is the same.
 *
 * A ring of APART_NBUF buffers of struct sim_out (util/hand-ring.h): the
 * simulator fills one (s->out, grown by sim_emit() as before), hands it
 * over and takes the next free one; the thread delivers the oldest handed
 * one and gives it back.
 *
 * The sink's first failure stops the delivery: what follows is dropped,
 * and the simulator fails ("cannot write the simulated events") at its
 * next hand-over or at sim_apart_end(), as when it delivered itself.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "replay/sim.h"
#include "util/hand-ring.h"
#include "util/thread.h"

#define APART_NBUF 8

struct sim_apart {
	struct ea_hand_ring ring;
	struct sim_out *buf[APART_NBUF];
	size_t cap[APART_NBUF], n[APART_NBUF];
	int cur; /* the slot the simulator fills */
	atomic_bool failed; /* the sink refused an event */
	int (*sink)(void *ctx, const struct ea_event *ev, const char *comm);
	void *ctx;
	struct sim_names names; /* the events made from the records here */
	pthread_t th;
};

static void *deliver_main(void *arg)
{
	struct sim_apart *a = arg;
	struct ea_event ev;
	int slot;

	while ((slot = ea_hand_ring_take(&a->ring)) >= 0) {
		struct sim_out *o = a->buf[slot];
		size_t n = a->n[slot];
		bool failed =
			atomic_load_explicit(&a->failed, memory_order_relaxed);

		for (size_t i = 0; i < n && !failed; i++) {
			const char *comm =
				sim_build_event(&a->names, &o[i], &ev);

			if (a->sink(a->ctx, &ev, comm))
				failed = true;
		}
		if (failed)
			atomic_store_explicit(&a->failed, true,
					      memory_order_relaxed);
		ea_hand_ring_give_back(&a->ring);
	}
	return NULL;
}

int sim_apart_start(struct sim *s)
{
	struct sim_apart *a;

	if (s->apart || !s->sink)
		return 0;
	a = calloc(1, sizeof(*a));
	if (!a)
		return -1;
	a->sink = s->sink;
	a->ctx = s->sink_ctx;
	a->names = s->names;
	/* the simulator's buffer (with what it holds) is the ring's first */
	a->buf[0] = s->out;
	a->cap[0] = s->out_cap;
	ea_hand_ring_init(&a->ring, APART_NBUF);
	/* its table, before two threads may read it (state/pelt.c) */
	(void)ea_pelt_decay(1, 1);
	if (ea_thread_start(&a->th, deliver_main, a, NULL)) {
		ea_hand_ring_destroy(&a->ring);
		free(a);
		return -1; /* delivered here: slower, not wrong */
	}
	s->apart = a;
	s->batch = SIM_APART_BATCH;
	return 0;
}

void sim_apart_hand(struct sim *s)
{
	struct sim_apart *a = s->apart;

	a->buf[a->cur] = s->out;
	a->cap[a->cur] = s->out_cap;
	a->n[a->cur] = s->nout;
	a->cur = ea_hand_ring_hand(&a->ring);
	s->events += s->nout;
	s->out = a->buf[a->cur];
	s->out_cap = a->cap[a->cur];
	if (atomic_load_explicit(&a->failed, memory_order_relaxed))
		sim_fail(s, "cannot write the simulated events");
}

void sim_apart_end(struct sim *s)
{
	struct sim_apart *a = s->apart;

	if (!a)
		return;
	ea_hand_ring_stop(&a->ring);
	pthread_join(a->th, NULL);
	/* every buffer but the simulator's own freed; it keeps that one */
	for (int i = 0; i < APART_NBUF; i++)
		if (i != a->cur)
			free(a->buf[i]);
	if (atomic_load_explicit(&a->failed, memory_order_relaxed))
		sim_fail(s, "cannot write the simulated events");
	ea_hand_ring_destroy(&a->ring);
	free(a);
	s->apart = NULL;
	s->batch = SIM_BATCH;
}
