/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A ring of slots handed from one producer thread to one consumer thread
 * (src/util/hand-ring.c): the slots' contents are the users' (buffers,
 * blocks), the ring says which slot is whose. The producer fills the slot
 * it holds, hands it over and gets the next free one, waiting while every
 * slot is handed; the consumer takes the oldest handed slot, uses it and
 * gives it back. A side that had to sleep is woken only once half the
 * ring is ready for it (or the producer stopped), so that it then runs
 * for several slots: on a loaded machine each wake-up waits for a CPU.
 * The lock is taken once or twice per slot on each side; what a slot holds is
 * published by the hand-over's lock.
 *
 * Used by replay's sim-apart.c and workload-apart.c.
 */
#ifndef EATRACE_UTIL_HAND_RING_H
#define EATRACE_UTIL_HAND_RING_H

#include <pthread.h>
#include <stdbool.h>

struct ea_hand_ring {
	int nslots;
	int head, count; /* the oldest handed slot; handed, not given back */
	bool stop; /* the producer hands no more */
	bool prod_waits, cons_waits;
	pthread_mutex_t mu;
	pthread_cond_t ready, freed;
};

/* An empty ring of nslots (>= 2) slots; the producer holds slot 0. */
void ea_hand_ring_init(struct ea_hand_ring *r, int nslots);
void ea_hand_ring_destroy(struct ea_hand_ring *r);

/*
 * Producer: hands over the slot it holds; returns the slot it holds next,
 * the first not handed, once it is free (waiting while all are handed).
 */
int ea_hand_ring_hand(struct ea_hand_ring *r);
/* Producer: no more slots; the consumer takes the rest, then is told. */
void ea_hand_ring_stop(struct ea_hand_ring *r);

/*
 * Consumer: the oldest handed slot, waiting for one; -1 once the producer
 * stopped and every handed slot was taken and given back.
 */
int ea_hand_ring_take(struct ea_hand_ring *r);
/* Consumer: gives back the slot ea_hand_ring_take() returned. */
void ea_hand_ring_give_back(struct ea_hand_ring *r);

#endif
