// SPDX-License-Identifier: GPL-2.0-only
/*
 * Walking trace.dat ring-buffer pages in place (see dat-walk.h).
 *
 * A page: 8-byte timestamp, commit word (long size) whose low 27 bits are
 * the bytes of data and bit 31 / bit 30 flag missed events / a stored
 * count of them (a long after the data), then the events. An event header
 * is a u32 `type_len:5, time_delta:27`: type_len 1..28 is a record of
 * type_len * 4 bytes, 0 a record whose length (+ 4) is the next u32, 29
 * padding (length in the next u32), 30 a time extend and 31 an absolute
 * time stamp (27 more bits in the next u32). Every item's delta adds to
 * the running timestamp, as in kbuffer's update_pointers().
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input/dat-walk.h"
#include "input/load-le.h"

#define COMMIT_MASK ((1u << 27) - 1)
#define MISSED_EVENTS (1ull << 31)
#define MISSED_STORED (1ull << 30)
#define TS_SHIFT 27
#define TS_MSB (0xf8ull << 56)	/* kept across an absolute time stamp */

#define CHUNK_MAX (1u << 18)	/* bytes read at a time per CPU */
#define CHUNKS_TOTAL (16u << 20)	/* cap on all CPUs' chunks together */

static inline uint64_t ld_long(const struct dw *w, const unsigned char *p)
{
	return w->long_size == 8 ? ld8(p) : ld4(p);
}

int dw_init(struct dw *w, int fd, uint32_t page_size, int long_size,
	    int ncpus, const unsigned long long *start,
	    const unsigned long long *size)
{
	size_t chunk;
	int c, n = 0;

	memset(w, 0, sizeof(*w));
	w->fd = fd;
	w->page_size = page_size;
	w->long_size = long_size;
	w->hdr = 8 + long_size;
	w->ncpus = ncpus;
	w->cpu = calloc(ncpus, sizeof(*w->cpu));
	w->heap = calloc(ncpus, sizeof(*w->heap));
	if (!w->cpu || !w->heap)
		return -1;
	for (c = 0; c < ncpus; c++)
		n += size[c] > 0;
	w->linear = n <= DW_LINEAR;
	chunk = n ? CHUNKS_TOTAL / n : CHUNK_MAX;
	if (chunk > CHUNK_MAX)
		chunk = CHUNK_MAX;
	chunk &= ~((size_t)page_size - 1);
	if (chunk < page_size)
		chunk = page_size;
	w->chunk = chunk;
	w->map_win = dm_window(n, page_size);
	for (c = 0; c < ncpus; c++) {
		w->cpu[c].next_page = start[c];
		w->cpu[c].end = start[c] + size[c];
	}
	return 0;
}

void dw_free(struct dw *w)
{
	int c;

	if (w->cpu)
		for (c = 0; c < w->ncpus; c++) {
			free(w->cpu[c].buf);
			dm_unmap(&w->cpu[c].win);
		}
	free(w->cpu);
	free(w->heap);
	w->cpu = NULL;
	w->heap = NULL;
}

static int corrupt(struct dw *w, int c, unsigned long long off,
		   const char *what)
{
	snprintf(w->err, sizeof(w->err),
		 "corrupt trace.dat: %s at offset %llu (page at %llu)",
		 what, off, w->cpu[c].pg_off);
	return -1;
}

static int cut_err(struct dw *w, long long size)
{
	if (size < 0)
		snprintf(w->err, sizeof(w->err),
			 "truncated trace.dat: file cut short while being read "
			 "(a mapped page gone)");
	else
		snprintf(w->err, sizeof(w->err),
			 "truncated trace.dat: file cut short while being read "
			 "(now %lld bytes, data mapped up to %llu)",
			 size, w->map_hi);
	return -1;
}

bool dw_cut(struct dw *w)
{
	struct stat st;
	int c;

	if (!w->map_hi || !w->cpu)
		return false;
	for (c = 0; c < w->ncpus && !w->cut; c++)
		w->cut = dm_cut(&w->cpu[c].win);
	/* cut inside a system page: the rest of it reads zeros, no SIGBUS */
	if (!fstat(w->fd, &st) && (unsigned long long)st.st_size < w->map_hi) {
		cut_err(w, (long long)st.st_size);
		return true;
	}
	if (w->cut)
		cut_err(w, -1);
	return w->cut;
}

/*
 * CPU c's next window of pages mapped (dat-map.h), when the mapping is
 * on and the window lies in the file: 1, 0 to read it instead, -1 when
 * the window left was cut.
 */
static int map_next(struct dw *w, int c, unsigned long long left)
{
	struct dw_cpu *cp = &w->cpu[c];
	size_t len = left < w->map_win ? (size_t)left : w->map_win;
	const unsigned char *p;

	if (dm_unmap(&cp->win)) {
		w->cut = true;
		return cut_err(w, -1);
	}
	if (!w->map_win)
		return 0;
	p = dm_map(&cp->win, w->fd, cp->next_page, len);
	if (!p)	/* a file cut inside a window read: that, not pread()'s end */
		return dw_cut(w) ? -1 : 0;
	cp->at = p;
	cp->buf_off = cp->next_page;
	cp->buf_len = len;
	if (cp->next_page + len > w->map_hi)
		w->map_hi = cp->next_page + len;
	return 1;
}

/*
 * Up to a chunk of pages at cp->next_page: mapped, or read into cp->buf.
 */
static int refill(struct dw *w, int c)
{
	struct dw_cpu *cp = &w->cpu[c];
	unsigned long long left = cp->end - cp->next_page;
	size_t want, got = 0;
	int rc;

	if (w->fill) {
		rc = w->fill(w->fill_priv, w, c);
		cp->at = cp->buf;
		return rc;
	}
	rc = map_next(w, c, left);
	if (rc)
		return rc > 0 ? 0 : -1;
	/* pread(): no bigger than this CPU's data (a small trace's buffers
	 * stay small) */
	want = left < w->chunk ? (size_t)left : w->chunk;
	if (want > cp->buf_cap) {
		unsigned char *buf = realloc(cp->buf, want);

		if (!buf) {
			snprintf(w->err, sizeof(w->err), "out of memory");
			return -1;
		}
		cp->buf = buf;
		cp->buf_cap = want;
	}
	while (got < want) {
		ssize_t n = pread(w->fd, cp->buf + got, want - got,
				  (off_t)(cp->next_page + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(w->err, sizeof(w->err), "%s at offset %llu",
				 strerror(errno), cp->next_page + got);
			return -1;
		}
		if (n == 0) {
			snprintf(w->err, sizeof(w->err),
				 "truncated trace.dat: file ends at offset %llu, CPU data ends at %llu",
				 cp->next_page + got, cp->end);
			return -1;
		}
		got += (size_t)n;
	}
	cp->at = cp->buf;
	cp->buf_off = cp->next_page;
	cp->buf_len = got;
	return 0;
}

/* 1: next page loaded, 0: no page left, -1: error. */
static int load_page(struct dw *w, int c)
{
	struct dw_cpu *cp = &w->cpu[c];
	const unsigned char *pg;
	uint64_t commit;

	/* sizes are whole pages (dat-walk-setup.c checks): no partial page */
	if (cp->next_page >= cp->end || cp->end - cp->next_page < w->page_size)
		return 0;
	if (cp->next_page < cp->buf_off ||
	    cp->next_page + w->page_size > cp->buf_off + cp->buf_len)
		if (refill(w, c))
			return -1;
	pg = cp->at + (cp->next_page - cp->buf_off);
	cp->pg = pg;
	cp->pg_off = cp->next_page;
	cp->next_page += w->page_size;
	cp->ts = ld8(pg);
	commit = ld_long(w, pg + 8);
	cp->size = (uint32_t)commit & COMMIT_MASK;
	cp->next = 0;
	if (cp->size > w->page_size - w->hdr) {
		char what[64];

		snprintf(what, sizeof(what), "page data size %" PRIu32 " larger than the page",
			 cp->size);
		return corrupt(w, c, cp->pg_off + 8, what);
	}
	cp->lost = 0;
	if (commit & MISSED_EVENTS) {
		cp->lost = -1;
		if (commit & MISSED_STORED) {
			if (w->hdr + cp->size + w->long_size > w->page_size)
				return corrupt(w, c, cp->pg_off + 8,
					       "missed-events count outside the page");
			/* kbuffer_missed_events() returns it as an int */
			cp->lost = (int)ld_long(w, pg + w->hdr + cp->size);
		}
	}
	return 1;
}

/* a's record comes before b's */
static inline bool before(const struct dw *w, int a, int b)
{
	uint64_t ta = w->cpu[a].rec.ts, tb = w->cpu[b].rec.ts;

	return ta < tb || (ta == tb && a < b);
}

static void heap_set(struct dw *w, int i, int c)
{
	w->heap[i] = c;
	w->cpu[c].pos = i;
}

static void sift_up(struct dw *w, int i)
{
	int c = w->heap[i];

	while (i > 0 && before(w, c, w->heap[(i - 1) / 2])) {
		heap_set(w, i, w->heap[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	heap_set(w, i, c);
}

static void sift_down(struct dw *w, int i)
{
	int c = w->heap[i];

	for (;;) {
		int m = 2 * i + 1;

		if (m >= w->nheap)
			break;
		if (m + 1 < w->nheap && before(w, w->heap[m + 1], w->heap[m]))
			m++;
		if (!before(w, w->heap[m], c))
			break;
		heap_set(w, i, w->heap[m]);
		i = m;
	}
	heap_set(w, i, c);
}

/* The few-CPU list: ascending CPUs, so a scan's strict < breaks ties. */
static void list_update(struct dw *w, int c, bool had, bool have)
{
	int i;

	if (have && !had) {
		for (i = w->nheap; i > 0 && w->heap[i - 1] > c; i--)
			w->heap[i] = w->heap[i - 1];
		w->heap[i] = c;
		w->nheap++;
	} else if (!have && had) {
		for (i = 0; i < w->nheap && w->heap[i] != c; i++)
			;
		if (i < w->nheap) {
			memmove(w->heap + i, w->heap + i + 1,
				(w->nheap - i - 1) * sizeof(*w->heap));
			w->nheap--;
		}
	}
}

/* CPU c's record changed (had: it was in the heap) or c has ended. */
static void heap_update(struct dw *w, int c, bool had, bool have)
{
	int i;

	if (w->linear) {
		list_update(w, c, had, have);
		return;
	}
	if (have && !had) {
		heap_set(w, w->nheap++, c);
		sift_up(w, w->nheap - 1);
	} else if (have) {
		sift_up(w, w->cpu[c].pos);
		sift_down(w, w->cpu[c].pos);
	} else if (had) {
		i = w->cpu[c].pos;
		if (i < --w->nheap) {
			int last = w->heap[w->nheap];

			heap_set(w, i, last);
			sift_up(w, i);
			sift_down(w, w->cpu[last].pos);
		}
	}
}

/* heap_update(), called only when it has work: the few-CPU list changes
 * only when a CPU starts or ends (a call per record was 1.5 % of a
 * report's instructions) */
static inline void order_update(struct dw *w, int c, bool had, bool have)
{
	if (w->linear && had == have)
		return;
	heap_update(w, c, had, have);
}

int dw_advance(struct dw *w, int c)
{
	struct dw_cpu *cp = &w->cpu[c];
	bool had = cp->have;
	int rc;

	for (;;) {
		const unsigned char *d, *p;
		uint32_t curr, h, type, delta, idx;
		uint64_t len;

		if (!cp->pg || cp->next >= cp->size) {
			rc = load_page(w, c);
			if (rc <= 0)
				goto out;
			continue;
		}
		curr = cp->next;
		d = cp->pg + w->hdr;
		p = d + curr;
		if (cp->size - curr < 4) {
			rc = corrupt(w, c, cp->pg_off + w->hdr + curr,
				     "event header cut by the end of the page data");
			goto out;
		}
		h = ld4(p);
		type = h & 31;
		delta = h >> 5;
		switch (type) {
		case 29:	/* padding: its length follows */
			cp->ts += delta;
			if (w->hdr + curr + 8 > w->page_size) {
				cp->next = cp->size;
				continue;
			}
			len = (uint64_t)curr + 4 + ld4(p + 4);
			cp->next = len < cp->size ? (uint32_t)len : cp->size;
			continue;
		case 30:	/* time extend */
		case 31:	/* absolute time stamp */
			if (cp->size - curr < 8) {
				rc = corrupt(w, c, cp->pg_off + w->hdr + curr,
					     "time stamp cut by the end of the page data");
				goto out;
			}
			len = ((uint64_t)ld4(p + 4) << TS_SHIFT) + delta;
			if (type == 30)
				cp->ts += len;
			else
				cp->ts = len | (cp->ts & TS_MSB);
			cp->next = curr + 8;
			continue;
		case 0:		/* length in the next word, header included */
			if (cp->size - curr < 8) {
				rc = corrupt(w, c, cp->pg_off + w->hdr + curr,
					     "record length cut by the end of the page data");
				goto out;
			}
			len = ld4(p + 4);
			if (len < 4) {
				rc = corrupt(w, c, cp->pg_off + w->hdr + curr,
					     "record length below 4");
				goto out;
			}
			len = (len - 4 + 3) & ~(uint64_t)3;
			idx = curr + 8;
			break;
		default:
			len = type * 4;
			idx = curr + 4;
		}
		if (len > cp->size - idx) {
			rc = corrupt(w, c, cp->pg_off + w->hdr + curr,
				     "record runs past the end of the page data");
			goto out;
		}
		dw_take(w, cp, d, curr, idx, (uint32_t)len, delta);
		cp->have = true;
		order_update(w, c, had, true);
		return 1;
	}
out:
	cp->have = false;
	order_update(w, c, had, false);
	return rc;
}
