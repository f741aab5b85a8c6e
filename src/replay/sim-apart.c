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
 * A ring of APART_NBUF buffers of struct sim_out: the simulator fills one
 * (s->out, grown by sim_emit() as before), hands it over and takes the
 * next free one; the thread delivers the oldest handed one and frees it.
 * The lock is taken once per buffer. A side that had to sleep is woken
 * only once half the ring is ready for it (or the stream ends), so that
 * it then runs for several buffers: on a loaded machine each wake-up
 * waits for a CPU.
 *
 * The sink's first failure stops the delivery: what follows is dropped,
 * and the simulator fails ("cannot write the simulated events") at its
 * next hand-over or at sim_apart_end(), as when it delivered itself.
 */
#include <stdlib.h>
#include <string.h>

#include "replay/sim.h"
#include "util/thread.h"

#define APART_NBUF 8

struct sim_apart {
	struct sim_out *buf[APART_NBUF];
	size_t cap[APART_NBUF], n[APART_NBUF];
	int head, queued; /* oldest handed buffer; handed ones not freed */
	bool stop; /* no more will be handed */
	bool failed; /* the sink refused an event */
	bool cons_waits, prod_waits;
	int (*sink)(void *ctx, const struct ea_event *ev, const char *comm);
	void *ctx;
	bool no_comms;
	pthread_mutex_t mu;
	pthread_cond_t ready, freed;
	pthread_t th;
};

static void *deliver_main(void *arg)
{
	static const char none[EA_COMM_LEN];
	struct sim_apart *a = arg;

	pthread_mutex_lock(&a->mu);
	for (;;) {
		struct sim_out *o;
		size_t n;
		bool failed;

		while (!a->queued && !a->stop) {
			a->cons_waits = true;
			pthread_cond_wait(&a->ready, &a->mu);
		}
		if (!a->queued)
			break; /* stopped, all delivered */
		o = a->buf[a->head];
		n = a->n[a->head];
		failed = a->failed;
		pthread_mutex_unlock(&a->mu);
		for (size_t i = 0; i < n && !failed; i++) {
			if (a->sink(a->ctx, &o[i].ev,
				    a->no_comms ? none : o[i].comm))
				failed = true;
		}
		pthread_mutex_lock(&a->mu);
		a->failed = failed;
		a->head = (a->head + 1) % APART_NBUF;
		a->queued--;
		if (a->prod_waits && a->queued <= APART_NBUF / 2) {
			a->prod_waits = false;
			pthread_cond_signal(&a->freed);
		}
	}
	pthread_mutex_unlock(&a->mu);
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
	a->no_comms = s->no_comms;
	/* the simulator's buffer (with what it holds) is the ring's first */
	a->buf[0] = s->out;
	a->cap[0] = s->out_cap;
	pthread_mutex_init(&a->mu, NULL);
	pthread_cond_init(&a->ready, NULL);
	pthread_cond_init(&a->freed, NULL);
	/* its table, before two threads may read it (state/pelt.c) */
	(void)ea_pelt_decay(1, 1);
	if (ea_thread_start(&a->th, deliver_main, a, NULL)) {
		pthread_cond_destroy(&a->freed);
		pthread_cond_destroy(&a->ready);
		pthread_mutex_destroy(&a->mu);
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
	int slot;
	bool failed;

	pthread_mutex_lock(&a->mu);
	slot = (a->head + a->queued) % APART_NBUF;
	a->buf[slot] = s->out;
	a->cap[slot] = s->out_cap;
	a->n[slot] = s->nout;
	a->queued++;
	if (a->cons_waits && (a->queued >= APART_NBUF / 2 || a->stop)) {
		a->cons_waits = false;
		pthread_cond_signal(&a->ready);
	}
	while (a->queued == APART_NBUF) {
		a->prod_waits = true;
		pthread_cond_wait(&a->freed, &a->mu);
	}
	slot = (a->head + a->queued) % APART_NBUF;
	failed = a->failed;
	pthread_mutex_unlock(&a->mu);
	s->events += s->nout;
	s->out = a->buf[slot];
	s->out_cap = a->cap[slot];
	if (failed)
		sim_fail(s, "cannot write the simulated events");
}

void sim_apart_end(struct sim *s)
{
	struct sim_apart *a = s->apart;
	int slot;

	if (!a)
		return;
	pthread_mutex_lock(&a->mu);
	a->stop = true;
	a->cons_waits = false;
	pthread_cond_signal(&a->ready);
	pthread_mutex_unlock(&a->mu);
	pthread_join(a->th, NULL);
	/* every buffer but the simulator's own freed; it keeps that one */
	slot = (a->head + a->queued) % APART_NBUF;
	for (int i = 0; i < APART_NBUF; i++)
		if (i != slot)
			free(a->buf[i]);
	if (a->failed)
		sim_fail(s, "cannot write the simulated events");
	pthread_cond_destroy(&a->freed);
	pthread_cond_destroy(&a->ready);
	pthread_mutex_destroy(&a->mu);
	free(a);
	s->apart = NULL;
	s->batch = SIM_BATCH;
}
