// SPDX-License-Identifier: GPL-2.0-only
/* A ring of slots handed between two threads: see hand-ring.h. */
#include "util/hand-ring.h"

void ea_hand_ring_init(struct ea_hand_ring *r, int nslots)
{
	*r = (struct ea_hand_ring){.nslots = nslots};
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->ready, NULL);
	pthread_cond_init(&r->freed, NULL);
}

void ea_hand_ring_destroy(struct ea_hand_ring *r)
{
	pthread_cond_destroy(&r->freed);
	pthread_cond_destroy(&r->ready);
	pthread_mutex_destroy(&r->mu);
}

int ea_hand_ring_hand(struct ea_hand_ring *r)
{
	int slot;

	pthread_mutex_lock(&r->mu);
	r->count++;
	if (r->cons_waits && (r->count >= r->nslots / 2 || r->stop)) {
		r->cons_waits = false;
		pthread_cond_signal(&r->ready);
	}
	while (r->count == r->nslots) {
		r->prod_waits = true;
		pthread_cond_wait(&r->freed, &r->mu);
	}
	slot = (r->head + r->count) % r->nslots;
	pthread_mutex_unlock(&r->mu);
	return slot;
}

void ea_hand_ring_stop(struct ea_hand_ring *r)
{
	pthread_mutex_lock(&r->mu);
	r->stop = true;
	r->cons_waits = false;
	pthread_cond_signal(&r->ready);
	pthread_mutex_unlock(&r->mu);
}

int ea_hand_ring_take(struct ea_hand_ring *r)
{
	int slot;

	pthread_mutex_lock(&r->mu);
	while (!r->count && !r->stop) {
		r->cons_waits = true;
		pthread_cond_wait(&r->ready, &r->mu);
	}
	slot = r->count ? r->head : -1; /* -1: stopped, all taken */
	pthread_mutex_unlock(&r->mu);
	return slot;
}

void ea_hand_ring_give_back(struct ea_hand_ring *r)
{
	pthread_mutex_lock(&r->mu);
	r->head = (r->head + 1) % r->nslots;
	r->count--;
	if (r->prod_waits && r->count <= r->nslots / 2) {
		r->prod_waits = false;
		pthread_cond_signal(&r->freed);
	}
	pthread_mutex_unlock(&r->mu);
}
