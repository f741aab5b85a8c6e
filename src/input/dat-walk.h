/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Direct reading of a trace.dat buffer's ring-buffer pages (uncompressed
 * files in the host's byte order): each CPU's pages are mapped in windows
 * of a few MiB (dat-map.h; pread() into a chunk when they cannot be) and
 * walked in place, as libtraceevent's kbuffer walks them, and the records
 * come out with the timestamps, offsets, sizes and missed-event counts
 * libtracecmd would give them. dat-read.c merges the CPUs and decodes.
 *
 * Unlike kbuffer, every length is checked against the page and the CPU's
 * data: a record that does not fit, a page whose commit size exceeds the
 * page or data cut short by the end of the file is an error (err), never
 * a read outside the buffer.
 */
#ifndef EATRACE_INPUT_DAT_WALK_H
#define EATRACE_INPUT_DAT_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "input/dat-map.h"
#include "input/load-le.h"

/* One record (kbuffer's event): the data follows the event header. */
struct dw_rec {
	uint64_t ts;
	const unsigned char *data;	/* valid until this CPU advances */
	uint32_t size;			/* data bytes (kbuffer_event_size) */
	int missed;			/* kbuffer_missed_events(): 0, -1, count */
	unsigned long long offset;	/* file offset of the event header */
};

struct dw_cpu {
	const unsigned char *at;	/* a chunk of whole pages: in buf or win */
	unsigned long long buf_off;	/* file offset of at[0] */
	size_t buf_len;
	unsigned char *buf;		/* pages read (or fill()ed) */
	size_t buf_cap;			/* bytes allocated at buf */
	struct dm_win win;		/* pages mapped (dat-map.h) */
	unsigned long long next_page;	/* file offset of the next page */
	unsigned long long end;		/* end of this CPU's data */
	const unsigned char *pg;	/* page being walked, NULL before any */
	unsigned long long pg_off;
	uint32_t size;			/* its commit size */
	uint32_t next;			/* next item, from the start of data */
	uint64_t ts;			/* running timestamp */
	int lost;			/* the page's missed events */
	bool have;			/* rec holds this CPU's next record */
	int pos;			/* its index in heap[] when have */
	struct dw_rec rec;
};

struct dw {
	int fd;
	uint32_t page_size, hdr;	/* hdr: 8 + long size */
	int long_size;
	size_t chunk;
	size_t map_win;			/* dm_window(), 0: pread() only */
	unsigned long long map_hi;	/* end of the data mapped so far */
	bool cut;			/* a window unmapped was cut */
	int ncpus;
	struct dw_cpu *cpu;
	/*
	 * CPUs whose rec is valid. Up to DW_LINEAR CPUs with data: in
	 * ascending order, scanned per record; beyond, a binary min-heap on
	 * (rec.ts, CPU). Both give the order of tracecmd_peek_next_data()'s
	 * scan: lowest timestamp, the lowest CPU on ties.
	 */
	int *heap;
	int nheap;
	bool linear;
	char err[200];			/* "corrupt trace.dat: ..." (no CPU) */
	/*
	 * When set, a CPU's pages come from fill() instead of windows mapped
	 * from fd or pread() of it (compressed files, dat-chunks.c): it loads
	 * the pages that start at cpu[c].next_page into cpu[c].buf (growing
	 * it up to buf_cap and beyond as needed), sets buf_off and buf_len;
	 * 0, or -1 with err.
	 */
	int (*fill)(void *priv, struct dw *w, int c);
	void *fill_priv;
};

/*
 * Set up reading CPU c's pages from [start[c], start[c] + size[c]) of fd
 * (size 0: no data). Sizes must be multiples of page_size. Returns 0, or -1
 * when out of memory.
 */
int dw_init(struct dw *w, int fd, uint32_t page_size, int long_size,
	    int ncpus, const unsigned long long *start,
	    const unsigned long long *size);

/*
 * Move CPU c to its next record (the first one on the first call): 1 and
 * w->cpu[c].rec filled, 0 at the end of its data, -1 with w->err set.
 * Keeps w->heap up to date.
 */
int dw_advance(struct dw *w, int c);

/*
 * CPU c's record at curr on its page (dp: the page's data), len bytes of
 * data from idx, delta after the previous item: it becomes cp->rec and
 * the walk moves past it. Shared by dw_advance() and dw_next().
 */
static inline void dw_take(const struct dw *w, struct dw_cpu *cp,
			   const unsigned char *dp, uint32_t curr, uint32_t idx,
			   uint32_t len, uint32_t delta)
{
	cp->ts += delta;
	cp->rec.ts = cp->ts;
	cp->rec.data = dp + idx;
	cp->rec.size = len;
	cp->rec.missed = curr ? 0 : cp->lost;
	cp->rec.offset = cp->pg_off + w->hdr + curr;
	cp->next = idx + len;
}

/*
 * dw_advance() with its common case inline: CPU c's next item on the page
 * being walked is a record of 1 to 28 words (type_len 1..28) that fits in
 * the page's data, and c's place in the merge cannot change (the few-CPU
 * list, c in it). Anything else goes to dw_advance(), before anything is
 * changed here.
 */
static inline int dw_next(struct dw *w, int c)
{
	struct dw_cpu *cp = &w->cpu[c];
	uint32_t curr = cp->next, h, len, idx;
	const unsigned char *d;

	if (!w->linear || !cp->have || !cp->pg || curr >= cp->size ||
	    cp->size - curr < 4)
		return dw_advance(w, c);
	d = cp->pg + w->hdr;
	h = ld4(d + curr);
	len = (h & 31) * 4;
	idx = curr + 4;
	/* type_len 0 and 29..31 (lengths 0, 116..124) are dw_advance()'s */
	if (len - 4 > 27 * 4 || len > cp->size - idx)
		return dw_advance(w, c);
	dw_take(w, cp, d, curr, idx, len, h >> 5);
	return 1;
}

#define DW_LINEAR 8

/* The CPU whose record comes next; -1 when every CPU has ended. */
static inline int dw_first(const struct dw *w)
{
	int i, best;
	uint64_t ts;

	if (!w->nheap)
		return -1;
	best = w->heap[0];
	if (!w->linear)
		return best;
	ts = w->cpu[best].rec.ts;
	for (i = 1; i < w->nheap; i++) {
		int c = w->heap[i];

		if (w->cpu[c].rec.ts < ts) {
			best = c;
			ts = w->cpu[c].rec.ts;
		}
	}
	return best;
}

void dw_free(struct dw *w);

/*
 * After the walk ended or failed: true, with w->err saying so, when the
 * file was cut short under a mapped window (dat-map.h: the walker then
 * read zeros, and its end or error is not the file's). A failed walk's
 * error is then this one. Costs an fstat() when windows were mapped.
 */
bool dw_cut(struct dw *w);

#endif
