// SPDX-License-Identifier: GPL-2.0-only
/*
 * A run's wakeup latencies kept in 4 bytes each (struct sim_lats,
 * simulator.h): grouped by their high 32 bits, each group the low 32 bits
 * of its values, so that a latency of seconds costs no more than one of
 * microseconds, and zeros (most latency floors) only counted; and their
 * exact percentiles (nearest rank), as of the sorted values.
 */
#include <stdlib.h>
#include <string.h>

#include "replay/simulator.h"

int sim_lats_init(struct sim_lats *l, size_t n)
{
	memset(l, 0, sizeof(*l));
	l->b = calloc(1, sizeof(*l->b));
	if (!l->b)
		return -1;
	l->nb = 1;
	l->b[0].lo = malloc((n ? n : 1) * sizeof(*l->b[0].lo));
	if (!l->b[0].lo)
		return -1;
	l->b[0].cap = n ? n : 1;
	return 0;
}

int sim_lats_put(struct sim_lats *l, uint64_t v)
{
	size_t h = (size_t)(v >> 32);
	struct sim_lat_bucket *b;

	if (!v) {
		l->nzero++;
		l->n++;
		return 0;
	}
	if (h >= l->nb) {
		struct sim_lat_bucket *p = realloc(l->b, (h + 1) * sizeof(*p));

		if (!p)
			return -1;
		memset(p + l->nb, 0, (h + 1 - l->nb) * sizeof(*p));
		l->b = p;
		l->nb = h + 1;
	}
	b = &l->b[h];
	if (b->n == b->cap) {
		size_t n = b->cap ? b->cap * 2 : 256;
		uint32_t *p = realloc(b->lo, n * sizeof(*p));

		if (!p)
			return -1;
		b->lo = p;
		b->cap = n;
	}
	b->lo[b->n++] = (uint32_t)v;
	l->n++;
	return 0;
}

void sim_lats_clear(struct sim_lats *l)
{
	for (size_t h = 0; h < l->nb; h++)
		l->b[h].n = 0;
	l->n = l->nzero = 0;
}

void sim_lats_free(struct sim_lats *l)
{
	for (size_t h = 0; h < l->nb; h++)
		free(l->b[h].lo);
	free(l->b);
	memset(l, 0, sizeof(*l));
}

static void swap_u32(uint32_t *a, uint32_t *b)
{
	uint32_t t = *a;

	*a = *b;
	*b = t;
}

/*
 * Put the k-th smallest of v[0, n) at v[k], the smaller ones before it and
 * the larger after (quickselect, three-way partition: O(n) on average, and
 * runs of equal latencies cost one pass).
 */
static void select_nth(uint32_t *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n; /* k is in [lo, hi) */

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2, lt = lo, i = lo, gt = hi;
		uint32_t a = v[lo], b = v[mid], c = v[hi - 1], pivot;

		/* median of three */
		pivot = a < b ? (b < c	 ? b
				 : a < c ? c
					 : a)
			      : (a < c	 ? a
				 : b < c ? c
					 : b);
		while (i < gt) {
			if (v[i] < pivot)
				swap_u32(&v[lt++], &v[i++]);
			else if (v[i] > pivot)
				swap_u32(&v[i], &v[--gt]);
			else
				i++;
		}
		/* [lo, lt) < pivot, [lt, gt) == pivot, [gt, hi) > pivot */
		if (k < lt)
			hi = lt;
		else if (k >= gt)
			lo = gt;
		else
			return;
	}
}

/* Nearest-rank index of percentile p among n values. */
static size_t rank(size_t n, unsigned p)
{
	size_t r = (n * p + 99) / 100;

	return r ? r - 1 : 0;
}

/*
 * The value of rank r (ascending) of l's, r at or above the rank of the
 * last one asked (*h, *from: its group and index there; each selection
 * leaves only larger values past its rank, so the next one looks at
 * fewer). Groups are in value order: the rank's group first, then
 * the selection in it.
 */
static uint64_t value_at(struct sim_lats *l, size_t r, size_t *h, size_t *from,
			 size_t *below)
{
	while (r - *below >= l->b[*h].n) {
		*below += l->b[*h].n;
		++*h;
		*from = 0;
	}
	{
		struct sim_lat_bucket *b = &l->b[*h];
		size_t k = r - *below;

		select_nth(b->lo + *from, b->n - *from, k - *from);
		*from = k;
		return (uint64_t)*h << 32 | b->lo[k];
	}
}

void sim_lats_percentiles(struct sim_lats *l, uint64_t out[4])
{
	size_t n = l->n, h = 0, from = 0, below = l->nzero, top;
	const unsigned p[3] = {50, 90, 99};
	uint32_t max = 0;

	if (!n)
		return;
	for (int i = 0; i < 3; i++) {
		size_t r = rank(n, p[i]);

		/* the zeros, counted, come first */
		out[i] = r < l->nzero ? 0 : value_at(l, r, &h, &from, &below);
	}
	for (top = l->nb; top && !l->b[top - 1].n; top--)
		;
	if (!top) {
		out[3] = 0; /* all zeros */
		return;
	}
	for (size_t i = 0; i < l->b[top - 1].n; i++)
		if (l->b[top - 1].lo[i] > max)
			max = l->b[top - 1].lo[i];
	out[3] = (uint64_t)(top - 1) << 32 | max;
}
