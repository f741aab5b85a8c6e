// SPDX-License-Identifier: GPL-2.0-only
/*
 * One CPU's next event of a Perfetto bundle (pf-head.h): beginning a
 * bundle, freeing the sources. The merge itself is inline in the header
 * (once per event).
 */
#include <stdlib.h>

#include "input/pf-head.h"

void pf_head_reset(struct pf_head *h)
{
	h->after = NULL;
	for (int k = 0; k < 3; k++) {
		h->p[k] = h->end[k] = h->src[k].ev;	/* NULL before any */
		if (h->src[k].n)
			h->end[k] += h->src[k].n;
		h->t[k] = h->src[k].n ? h->src[k].ev[0].ts : UINT64_MAX;
	}
}

int pf_head_last(const struct pf_head *h)
{
	for (int k = 0; k < 3; k++)
		if (h->p[k] < h->end[k])
			return k;
	return -1;
}

void pf_head_free(struct pf_head *h)
{
	for (int k = 0; k < 3; k++) {
		free(h->src[k].ev);
		h->src[k].ev = NULL;
		h->src[k].n = h->src[k].cap = 0;
	}
}
