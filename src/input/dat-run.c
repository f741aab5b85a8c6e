// SPDX-License-Identifier: GPL-2.0-only
/*
 * The trace.dat reader's common case a run at a time (dat-run.h).
 *
 * fast_next() takes each record through dw_next() (the CPU last returned
 * moves on), dw_first() (a scan of every CPU for the lowest timestamp),
 * the decoder's checks of the record's size and event id, then
 * fill_block() through the event checks' switch on the type: about 250
 * instructions a record. Here the lowest timestamp among the other CPUs
 * (and its CPU, for ties) is found once, when the CPU being read
 * changes: a record of the same CPU is next as long as it comes before
 * that one; the walker's position moves on without filling a record of
 * its own; the checks that cannot fail on this path (the CPU id, the
 * event's type) are made once; only the usual layout is decoded
 * (dat-fixed.h), only the checks of its two kinds of events are made.
 *
 * The order and every event are fast_next()'s: anything else ends the
 * run with fast_next() to take it, from where it would have started.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "input/dat-fixed.h"
#include "input/dat-run.h"
#include "input/event-check.h"

/*
 * The record the walker's merge would take among the CPUs other than c
 * (dw_first()'s: the lowest timestamp, the lowest CPU on ties): *ts and
 * *cpu, or UINT64_MAX and -1 when there is none.
 */
static void others_first(const struct dw *w, int c, uint64_t *ts, int *cpu)
{
	int i;

	*ts = UINT64_MAX;
	*cpu = -1;
	for (i = 0; i < w->nheap; i++) {
		int o = w->heap[i];

		if (o != c && (*cpu < 0 || w->cpu[o].rec.ts < *ts)) {
			*ts = w->cpu[o].rec.ts;
			*cpu = o;
		}
	}
}

/*
 * A record of CPU cpu at ts (p, size bytes) into ev, with the checks
 * event-check.h's ea_event_ok() makes after an event at last_ts: 1 an
 * event, 0 a record decode() does not use, -1 one this path leaves to
 * fast_next() (another layout or event, a record too short, an event the
 * checks refuse).
 */
static inline __attribute__((always_inline)) int
run_decode(const struct dat *r, const unsigned char *p, uint32_t size,
	   uint64_t ts, int cpu, uint64_t last_ts, uint32_t cpu_lim,
	   struct ea_event *ev)
{
	const struct dat_fmt *f = &r->fmt;
	const struct desc *d;
	uint16_t id;

	if (size < (uint32_t)f->common_min)
		return -1;
	id = ld2(p + f->f_type.off);
	if (id >= DESC_IDS)
		return -1;
	if (!f->desc_of[id])
		return 0;
	d = &f->desc[f->desc_of[id] - 1];
	if (!d->fixed || size < (uint32_t)d->min_size || ts < last_ts)
		return -1;
	/* fixed: a switch or a wakeup (dat-format.c's fixed_layout()) */
	if (d->type == EA_EV_SWITCH) {
		if ((ldi32(p, &d->f[SW_PREV_PID]) |
		     ldi32(p, &d->f[SW_NEXT_PID])) < 0)
			return -1;
	} else {
		int32_t target = ldi32(p, &d->f[WK_TARGET]);

		if (target != -1 && (uint32_t)target >= cpu_lim)
			return -1;
	}
	dat_decode_fixed(f, d, p, ts, cpu, ev);
	return 1;
}

void dat_run(struct dat *r, struct evr_blk *b, uint32_t n)
{
	struct dw *w = &r->w;
	const uint32_t hdr = w->hdr;
	uint64_t last_ts = r->par_last_ts, lim_ts, ts, nrec;
	uint32_t i = b->n, next, size, cpu_lim;
	int c = r->adv, lim_c, k;
	const unsigned char *d;
	struct dw_cpu *cp;

	if (r->ended || r->fast_pending || c < 0 || !w->linear ||
	    !r->fmt.ndesc || !r->fmt.fixed_common)
		return;
	cp = &w->cpu[c];
	if (!cp->have || !cp->pg)
		return;
	/* ea_event_cpu_ok(r->ncpus, x) as (uint32_t)x < cpu_lim, checked
	 * here for every CPU the run may take a record of */
	cpu_lim = r->ncpus <= 0 || r->ncpus > EA_MAX_CPUS ? EA_MAX_CPUS
							   : (uint32_t)r->ncpus;
	for (k = 0; k < w->nheap; k++)
		if ((uint32_t)w->heap[k] >= cpu_lim)
			return;
	/* c's walk in locals: the events' stores may alias cp's fields */
	d = cp->pg + hdr;
	next = cp->next;
	size = cp->size;
	ts = cp->ts;
	nrec = r->nrec[c];
	others_first(w, c, &lim_ts, &lim_c);
	while (i < n) {
		uint32_t h, len, idx;
		struct dw_cpu *ep;
		uint64_t t;
		int e, rc;

		/*
		 * c moves on: dw_next()'s common case (next <= size, both
		 * under 2^27: dat-walk.c), or fast_next() to take the rest.
		 * Never at a page's first record (it may follow lost events):
		 * only dw_advance() loads a page, and takes its first record.
		 */
		if (!next || (uint64_t)next + 4 > size)
			break;
		h = ld4(d + next);
		len = (h & 31) * 4;
		idx = next + 4;
		if (len - 4 > 27 * 4 || len > size - idx)
			break;
		t = ts + (h >> 5);
		if (t < lim_ts ||
		    (t == lim_ts && (unsigned)c < (unsigned)lim_c)) {
			/* c's next record comes first: c's rec stays as it
			 * is, dw_next() refills it before anything reads it */
			rc = run_decode(r, d + idx, len, t, c, last_ts,
					cpu_lim, &b->ev[i]);
			if (rc < 0)
				break;
			ts = t;
			next = idx + len;
		} else {
			/* another CPU's: c's record waits in its rec */
			cp->ts = ts;
			cp->next = next;
			r->nrec[c] = nrec;
			dw_take(w, cp, d, next, idx, len, h >> 5);
			r->adv = -1;
			e = lim_c;
			ep = &w->cpu[e];
			if (w->nheap == 2) { /* the others of e: c alone */
				lim_ts = cp->rec.ts;
				lim_c = c;
			} else {
				others_first(w, e, &lim_ts, &lim_c);
			}
			t = ep->rec.ts;
			if (ep->rec.missed)
				goto out;
			rc = run_decode(r, ep->rec.data, ep->rec.size, t, e,
					last_ts, cpu_lim, &b->ev[i]);
			if (rc < 0)
				goto out;
			c = e;
			cp = ep;
			r->adv = c;
			r->last_cpu = c;
			d = cp->pg + hdr;
			next = cp->next;
			size = cp->size;
			ts = cp->ts;
			nrec = r->nrec[c];
		}
		nrec++;
		if (rc) {
			b->nrec[i++] = nrec;
			last_ts = t;
		}
	}
	cp->ts = ts;
	cp->next = next;
	r->nrec[c] = nrec;
	r->adv = c;
out:
	b->n = i;
	r->par_last_ts = last_ts;
}
