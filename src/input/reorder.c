// SPDX-License-Identifier: GPL-2.0-only
/*
 * Bounded reorder buffer over a pool of event slots. Keys (ts, seq, slot)
 * of events that arrive in order go to a FIFO (O(1), the common case);
 * only stragglers go to a binary min-heap. The oldest event is the smaller
 * of the FIFO's head and the heap's root. Storage grows by doubling up to
 * the capacity and is reused afterwards.
 */
#include <stdlib.h>
#include <string.h>

#include "input/reorder.h"

struct key {
	uint64_t ts;
	uint64_t seq_slot;	/* seq << 24 | slot: one compare orders ties */
};

#define SLOT_BITS 24
#define SLOT_MASK ((1ull << SLOT_BITS) - 1)

struct slot {
	struct ea_event ev;
	uint64_t pos;
};

struct ea_reorder {
	struct key *fifo;	/* ring of in-order keys */
	size_t fhead, fn;
	struct key *heap;
	struct slot *slots;
	uint32_t *free_slots;	/* stack of unused slot indices */
	size_t n, nheap, nfree, alloc, cap;	/* n = FIFO + heap */
	uint64_t window;
	uint64_t seq;
	uint64_t max_ts, last_out;
	bool popped, too_late;
	uint64_t reordered;
};

struct ea_reorder *ea_reorder_new(size_t cap, uint64_t window_ns)
{
	struct ea_reorder *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	if (cap < 1)
		cap = 1;
	if (cap > SLOT_MASK)
		cap = SLOT_MASK;
	r->cap = cap;
	r->window = window_ns;
	return r;
}

void ea_reorder_free(struct ea_reorder *r)
{
	if (!r)
		return;
	free(r->fifo);
	free(r->heap);
	free(r->slots);
	free(r->free_slots);
	free(r);
}

static inline bool key_less(const struct key *a, const struct key *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->seq_slot < b->seq_slot);
}

/* Index into the FIFO ring, i < alloc. */
static inline size_t ring(const struct ea_reorder *r, size_t i)
{
	i += r->fhead;
	return i >= r->alloc ? i - r->alloc : i;
}

static int grow(struct ea_reorder *r)
{
	size_t na = r->alloc ? r->alloc * 2 : 256;
	struct key *h, *q;
	struct slot *s;
	uint32_t *f;

	if (na > r->cap)
		na = r->cap;
	/* Unwrap the ring into a new array. */
	q = malloc(na * sizeof(*q));
	if (!q)
		return -1;
	for (size_t i = 0; i < r->fn; i++)
		q[i] = r->fifo[ring(r, i)];
	free(r->fifo);
	r->fifo = q;
	r->fhead = 0;
	h = realloc(r->heap, na * sizeof(*h));
	if (!h)
		return -1;
	r->heap = h;
	s = realloc(r->slots, na * sizeof(*s));
	if (!s)
		return -1;
	r->slots = s;
	f = realloc(r->free_slots, na * sizeof(*f));
	if (!f)
		return -1;
	r->free_slots = f;
	/* New slots are free; push them so the lowest index is used first. */
	for (size_t i = na; i > r->alloc; i--)
		r->free_slots[r->nfree++] = (uint32_t)(i - 1);
	r->alloc = na;
	return 0;
}

int ea_reorder_push(struct ea_reorder *r, const struct ea_event *ev,
		    uint64_t pos)
{
	struct key k;
	uint32_t slot;
	size_t i;

	r->too_late = false;
	if (r->popped && ev->ts < r->last_out) {
		r->too_late = true;
		return -1;
	}
	if (!r->nfree && (r->alloc >= r->cap || grow(r)))
		return -1;
	slot = r->free_slots[--r->nfree];
	r->slots[slot].ev = *ev;
	r->slots[slot].pos = pos;
	if (ev->ts < r->max_ts)
		r->reordered++;
	else
		r->max_ts = ev->ts;
	k.ts = ev->ts;
	k.seq_slot = (r->seq++ << SLOT_BITS) | slot;
	r->n++;
	if (!r->fn || r->fifo[ring(r, r->fn - 1)].ts <= k.ts) {
		r->fifo[ring(r, r->fn)] = k;
		r->fn++;
		return 0;
	}
	/* Sift up. */
	i = r->nheap++;
	while (i > 0) {
		size_t parent = (i - 1) / 2;

		if (!key_less(&k, &r->heap[parent]))
			break;
		r->heap[i] = r->heap[parent];
		i = parent;
	}
	r->heap[i] = k;
	return 0;
}

bool ea_reorder_too_late(const struct ea_reorder *r)
{
	return r->too_late;
}

/* Which holds the oldest key: 1 the FIFO, 0 the heap, -1 none. */
static int oldest(const struct ea_reorder *r)
{
	if (!r->fn)
		return r->nheap ? 0 : -1;
	if (!r->nheap)
		return 1;
	return key_less(&r->heap[0], &r->fifo[r->fhead]) ? 0 : 1;
}

bool ea_reorder_ready(const struct ea_reorder *r, bool drain)
{
	int o = oldest(r);

	if (o < 0)
		return false;
	if (drain || r->n >= r->cap)
		return true;
	return r->max_ts - (o ? r->fifo[r->fhead].ts : r->heap[0].ts) >
	       r->window;
}

int ea_reorder_pop(struct ea_reorder *r, struct ea_event *ev, uint64_t *pos)
{
	int o = oldest(r);
	struct key top, last;
	uint32_t slot;
	size_t i, n;

	if (o < 0)
		return 0;
	if (o) {
		top = r->fifo[r->fhead];
		r->fhead = ring(r, 1);
		r->fn--;
	} else {
		top = r->heap[0];
	}
	slot = (uint32_t)(top.seq_slot & SLOT_MASK);
	*ev = r->slots[slot].ev;
	if (pos)
		*pos = r->slots[slot].pos;
	r->last_out = top.ts;
	r->popped = true;
	r->free_slots[r->nfree++] = slot;
	r->n--;
	if (o)
		return 1;

	/* Sift the heap's last key down from the root. */
	n = --r->nheap;
	if (!n)
		return 1;
	last = r->heap[n];
	i = 0;
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && key_less(&r->heap[c + 1], &r->heap[c]))
			c++;
		if (!key_less(&r->heap[c], &last))
			break;
		r->heap[i] = r->heap[c];
		i = c;
	}
	r->heap[i] = last;
	return 1;
}

size_t ea_reorder_count(const struct ea_reorder *r)
{
	return r->n;
}

uint64_t ea_reorder_reordered(const struct ea_reorder *r)
{
	return r->reordered;
}

uint64_t ea_reorder_max_ts(const struct ea_reorder *r)
{
	return r->max_ts;
}

uint64_t ea_reorder_last_out(const struct ea_reorder *r)
{
	return r->last_out;
}
