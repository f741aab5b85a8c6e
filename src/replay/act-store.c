// SPDX-License-Identifier: GPL-2.0-only
/*
 * A task's activations and wakers as stored (struct rp_pact, workload.h):
 * 28 bytes each, times and event positions as offsets from a base kept
 * every RP_PBLOCK activations, work as CPU time x one capacity; one whose
 * figures do not fit those fields is kept whole, apart (rp_pwide). Every
 * figure reads back as it was stored (rp_task_stored(), rp_task_waker()).
 */
#include <stdlib.h>
#include <string.h>

#include "replay/workload.h"

#define FITS(v, bits) ((uint64_t)(v) < (1ull << (bits)))

/*
 * a and wk under base b into *p, once checked that they fit (pack()).
 * Written once, whole, from registers: set field by field after a clear,
 * each bit-field's read-modify-write of the fresh line waited for the
 * stores before it (the caller's thread spent about a seventh of the
 * reading in rp_store_push()). Apart from the checks, whose figures
 * would otherwise be kept for it and spilled as bytes, then read back
 * as words (a wait again).
 */
static __attribute__((noinline)) void
pack_write(const struct rp_pbase *b, const struct rp_act *a,
	   const struct rp_waker *wk, uint64_t cap, struct rp_pact *p)
{
	*p = (struct rp_pact){
		.rel = a->release - b->release,
		.elig = a->eligible - a->release,
		.end = a->end ? a->end - a->eligible + 1 : 0,
		.ran = a->ran_ns,
		.cap = cap,
		.seq_in = a->seq_in ? a->seq_in - b->seq + 1 : 0,
		.seq_out = a->seq_out ? a->seq_out - a->seq_in + 1 : 0,
		.cpu = (uint64_t)(a->cpu + 1),
		.flags = a->flags,
		.wk_task = (uint32_t)((int64_t)wk->task + 1),
		.wk_cpu = (uint32_t)(wk->cpu + 1),
		.wk_kind = wk->kind,
		.wk_sync = wk->sync,
	};
}

/* a and wk into *p under base b; false when a figure does not fit (*p
 * then unwritten). */
static bool pack(const struct rp_pbase *b, const struct rp_act *a,
		 const struct rp_waker *wk, struct rp_pact *p)
{
	uint64_t cap = 0;

	if (a->release < b->release || !FITS(a->release - b->release, 34) ||
	    a->eligible < a->release || !FITS(a->eligible - a->release, 20))
		return false;
	if (a->end &&
	    (a->end < a->eligible || !FITS(a->end - a->eligible + 1, 26)))
		return false;
	if (!FITS(a->ran_ns, 26))
		return false;
	if (a->ran_ns) {
		if (a->work % a->ran_ns)
			return false;
		cap = a->work / a->ran_ns;
		if (!FITS(cap, 11))
			return false;
	} else if (a->work) {
		return false;
	}
	if (a->seq_in &&
	    (a->seq_in < b->seq || !FITS(a->seq_in - b->seq + 1, 28)))
		return false;
	if (a->seq_out &&
	    (a->seq_out < a->seq_in || !FITS(a->seq_out - a->seq_in + 1, 16)))
		return false;
	if (a->cpu < -1 || !FITS(a->cpu + 1, 10) || !FITS(a->flags, 10))
		return false;
	if (wk->task < -1 || !FITS((int64_t)wk->task + 1, 22) || wk->cpu < -1 ||
	    !FITS(wk->cpu + 1, 10) || !FITS(wk->kind, 2) || !FITS(wk->sync, 1))
		return false;
	pack_write(b, a, wk, cap, p);
	return true;
}

const struct rp_pwide *rp_wide_find(const struct rp_task *t, size_t K)
{
	size_t lo = 0, hi = t->nwides;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->wides[mid].k < K)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* packs[K].wide says it is there */
	return &t->wides[lo];
}

int rp_store_reserve(struct rp_task *t, size_t n)
{
	struct rp_pact *p;
	struct rp_pbase *b;
	size_t nb = (n + RP_PBLOCK - 1) / RP_PBLOCK;

	if (n <= t->cap)
		return 0;
	p = realloc(t->packs, n * sizeof(*p));
	if (!p)
		return -1;
	t->packs = p;
	b = realloc(t->bases, (nb ? nb : 1) * sizeof(*b));
	if (!b)
		return -1;
	t->bases = b;
	t->cap = n;
	return 0;
}

int rp_store_push(struct rp_task *t, size_t k, const struct rp_act *a,
		  const struct rp_waker *wk)
{
	struct rp_pbase *b;

	/* grown 8 x at a time: fewer copies of millions of activations */
	if (k >= t->cap && rp_store_reserve(t, t->cap ? t->cap * 8 : 64))
		return -1;
	b = &t->bases[k / RP_PBLOCK];
	if (k % RP_PBLOCK == 0)
		*b = (struct rp_pbase){a->release, a->seq_in};
	if (pack(b, a, wk, &t->packs[k]))
		return 0;
	if (t->nwides == t->wide_cap) {
		size_t n = t->wide_cap ? t->wide_cap * 2 : 8;
		struct rp_pwide *w = realloc(t->wides, n * sizeof(*w));

		if (!w)
			return -1;
		t->wides = w;
		t->wide_cap = n;
	}
	t->wides[t->nwides++] = (struct rp_pwide){k, *a, *wk};
	memset(&t->packs[k], 0, sizeof(t->packs[k]));
	t->packs[k].wide = 1;
	return 0;
}

void rp_store_set_sync(struct rp_task *t, size_t k)
{
	struct rp_pact *p = &t->packs[k + t->k0];

	if (p->wide)
		((struct rp_pwide *)rp_wide_find(t, k + t->k0))->wk.sync = 1;
	else
		p->wk_sync = 1;
}

int rp_store_set_waker_task(struct rp_task *t, size_t k, int32_t task)
{
	struct rp_pact *p = &t->packs[k + t->k0];

	if (p->wide) {
		((struct rp_pwide *)rp_wide_find(t, k + t->k0))->wk.task = task;
		return 0;
	}
	if (task < -1 || !FITS((int64_t)task + 1, 22))
		return -1;
	p->wk_task = (uint32_t)((int64_t)task + 1);
	return 0;
}

void rp_store_free(struct rp_task *t)
{
	if (t->view)
		return;
	free(t->packs);
	free(t->bases);
	free(t->wides);
}
