/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The timeline's record of CPU changes (record_changes, for --perfetto),
 * kept compactly (src/output/timeline-changes.c): each change a header
 * byte and varints, most of its fields said by the header to repeat the
 * same CPU's change before (its start is that change's end; its pid, OPP
 * or idle state are often unchanged), in chunks of 2 MiB that no change
 * straddles. About 4 bytes a change (rec.dat: 1.6 M changes in 6.6 MB)
 * instead of struct ea_tl_change's 24.
 * Read back in order through include/eatrace/html.h's ea_tl_reader (its
 * step inline here too: tl_reader_next()).
 */
#ifndef EATRACE_OUTPUT_TIMELINE_CHANGES_H
#define EATRACE_OUTPUT_TIMELINE_CHANGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eatrace/html.h"
#include "eatrace/state.h"
#include "output/timeline-bound.h"

/* The most one change takes: header, CPU (3 bytes of varint), mode,
 * start (10), length (10), pid (5), frequency (5), idle state (5). */
#define TL_CHANGE_MAX_BYTES 40

/* Header bits: CPU (3: a varint follows), mode (3: a byte follows), then
 * which fields follow because they differ from the CPU's change before. */
#define TL_H_CPU_MASK 0x03u
#define TL_H_MODE_SHIFT 2
#define TL_H_MODE_MASK 0x0cu
#define TL_H_T0 0x10u
#define TL_H_PID 0x20u
#define TL_H_FREQ 0x40u
#define TL_H_IDLE 0x80u

/* What a CPU's change before said (the start of each CPU's record). */
struct tl_cpu_last {
	uint64_t t1;
	int32_t pid;
	uint32_t freq_khz;
	int32_t idle_state;
};

struct tl_chunk {
	unsigned char *buf;
	size_t len;
};

struct tl_pub;
struct tl_handoff;

struct tl_changes {
	struct tl_chunk *chunks;
	size_t nchunks, chunk_cap;
	/* the last chunk's free room (published: lim every TL_PUB_BYTES) */
	unsigned char *at, *lim;
	size_t count;
	int ncpus;
	struct tl_cpu_last *last; /* ncpus */
	struct tl_pub *pub; /* tl_changes_publish(): read while written */
	/* tl_changes_handoff(): the changes copied into ho's blocks, from
	 * ho_at up to ho_lim, and recorded on its thread (failed: out of
	 * memory there) */
	struct tl_handoff *ho;
	struct ea_tl_change *ho_at, *ho_lim;
	/* tl_changes_bound(): the changes past it not recorded */
	struct tl_bound bound;
	bool failed;
};

/* 0 or -1 (out of memory). */
int tl_changes_init(struct tl_changes *s, int ncpus);
void tl_changes_free(struct tl_changes *s);
/* A new chunk (published: or the next TL_PUB_BYTES of the last one, what
 * is written so far published): 0 or -1 (out of memory). */
int tl_changes_grow(struct tl_changes *s);

/*
 * Reading the record on another thread while it is written
 * (perfetto-pb.c's encoding ahead): tl_changes_publish() (before the first
 * change) makes the writer publish what it wrote every TL_PUB_BYTES (in
 * tl_changes_grow(): nothing more on the hot path) and the chunks' list
 * change under a lock; tl_changes_seal() publishes the end (the record
 * complete); a reader on another thread reads with tl_reader_next() what
 * tl_reader_wait() let it see. 0 or -1 (out of memory).
 */
#define TL_PUB_BYTES (64u << 10)
int tl_changes_publish(struct tl_changes *s);
void tl_changes_seal(struct tl_changes *s);
/* Wakes a reader waiting in tl_reader_wait() and ends its waits: false
 * from then on. */
void tl_changes_stop_readers(struct tl_changes *s);

/*
 * The changes added from now on (none yet) handed over as they are to a
 * thread of their own (src/output/timeline-handoff.h) that records them
 * (and publishes them, when published), in order: tl_changes_add() only
 * copies each. tl_changes_seal() (and tl_changes_free()) wait until every
 * change is recorded and end the thread; failed says it ran out of memory
 * there. 0, or -1 (nothing changes).
 */
int tl_changes_handoff(struct tl_changes *s);
/* The writer's next block of the hand-over: 0, or -1 (out of memory). */
int tl_changes_ho_next(struct tl_changes *s);

/* The changes added from now on (none yet) recorded only up to the bound
 * of a reader that needs no more once busy busy changes are recorded
 * (src/output/timeline-bound.h). 0, or -1 (changes added already:
 * nothing changes). */
int tl_changes_bound(struct tl_changes *s, size_t busy);

static inline unsigned char *tl_put_varint(unsigned char *q, uint64_t v)
{
	while (v >= 0x80) {
		*q++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*q++ = (unsigned char)v;
	return q;
}

/* Signed differences, small either way (two's complement wrap: exact). */
static inline uint64_t tl_zigzag64(uint64_t d)
{
	return (d << 1) ^ (uint64_t) - (int64_t)(d >> 63);
}

static inline uint32_t tl_zigzag32(uint32_t d)
{
	return (d << 1) ^ (uint32_t) - (int32_t)(d >> 31);
}

/* Records change c (c->cpu < ncpus): 0 or -1 (out of memory). Inline in
 * tl_changes_add() and the hand-over's thread. */
static inline __attribute__((always_inline)) int
tl_changes_put(struct tl_changes *s, const struct ea_tl_change *c)
{
	struct tl_cpu_last *l = &s->last[c->cpu];
	unsigned char *q, *h;
	unsigned hdr;

	if (s->lim - s->at < TL_CHANGE_MAX_BYTES && tl_changes_grow(s))
		return -1;
	q = s->at;
	h = q++;
	if (c->cpu < 3 && c->mode < 3 && c->t0 == l->t1 &&
	    c->freq_khz == l->freq_khz && c->idle_state == l->idle_state) {
		/* most changes: the CPU's stretch after its last, only the
		 * task new; the same bytes as below */
		hdr = c->cpu | (unsigned)c->mode << TL_H_MODE_SHIFT;
		q = tl_put_varint(q, c->t1 - c->t0);
		if (c->pid != l->pid) {
			hdr |= TL_H_PID;
			q = tl_put_varint(q, tl_zigzag32((uint32_t)c->pid -
							 (uint32_t)l->pid));
			l->pid = c->pid;
		}
		goto done;
	}
	hdr = c->cpu < 3 ? c->cpu : 3;
	if (hdr == 3)
		q = tl_put_varint(q, c->cpu);
	if (c->mode < 3) {
		hdr |= (unsigned)c->mode << TL_H_MODE_SHIFT;
	} else {
		hdr |= TL_H_MODE_MASK;
		*q++ = c->mode;
	}
	if (c->t0 != l->t1) {
		hdr |= TL_H_T0;
		q = tl_put_varint(q, tl_zigzag64(c->t0 - l->t1));
	}
	q = tl_put_varint(q, c->t1 - c->t0);
	if (c->pid != l->pid) {
		hdr |= TL_H_PID;
		q = tl_put_varint(
			q, tl_zigzag32((uint32_t)c->pid - (uint32_t)l->pid));
		l->pid = c->pid;
	}
	if (c->freq_khz != l->freq_khz) {
		hdr |= TL_H_FREQ;
		q = tl_put_varint(q, c->freq_khz);
		l->freq_khz = c->freq_khz;
	}
	if (c->idle_state != l->idle_state) {
		hdr |= TL_H_IDLE;
		q = tl_put_varint(q, tl_zigzag32((uint32_t)c->idle_state -
						 (uint32_t)l->idle_state));
		l->idle_state = c->idle_state;
	}
done:
	l->t1 = c->t1;
	*h = (unsigned char)hdr;
	s->at = q;
	s->count++;
	return 0;
}

/* Appends change c (c->cpu < ncpus): recorded, or handed over
 * (tl_changes_handoff()). 0 or -1 (out of memory). Inline in its callers:
 * the timeline's, once a change. */
static inline __attribute__((always_inline)) int
tl_changes_add(struct tl_changes *s, const struct ea_tl_change *c)
{
	if (s->bound.on && tl_bound_drops(&s->bound, c))
		return 0;
	if (s->ho) {
		if (s->ho_at == s->ho_lim && tl_changes_ho_next(s))
			return -1;
		*s->ho_at++ = *c;
		return 0;
	}
	return tl_changes_put(s, c);
}

/* cpu's stretch [since, now) in state *old: what a timeline records at a
 * change. */
static inline __attribute__((always_inline)) struct ea_tl_change
tl_change_of(int cpu, uint64_t since, uint64_t now,
	     const struct ea_cpu_state *old)
{
	return (struct ea_tl_change){
		.t0 = since,
		.t1 = now,
		.pid = old->pid,
		.freq_khz = old->freq_khz,
		.idle_state = old->idle_state,
		.mode = old->mode,
		.cpu = (uint16_t)cpu,
	};
}

/* Appends cpu's stretch [since, now) in state *old: tl_changes_add() of
 * tl_change_of(). */
static inline __attribute__((always_inline)) int
tl_changes_add_old(struct tl_changes *s, int cpu, uint64_t since, uint64_t now,
		   const struct ea_cpu_state *old)
{
	struct ea_tl_change c = tl_change_of(cpu, since, now, old);

	return tl_changes_add(s, &c);
}

/* Reading the record back (include/eatrace/html.h's ea_tl_reader; inline
 * here for the writers, which read every change). */
struct ea_tl_reader {
	const struct tl_changes *s;
	size_t chunk;
	const unsigned char *at, *end; /* what is left of the chunk */
	struct tl_cpu_last *last; /* s->ncpus, as the writer had it */
};

/* Moves r to the next chunk holding something; false at the end. */
bool tl_reader_next_chunk(struct ea_tl_reader *r);

/*
 * A reader of a published record (tl_changes_publish()) on another thread:
 * r from tl_reader_published() (r->s NULL: tl_reader_next() stops where
 * what was published ends); tl_reader_wait(), once tl_reader_next() said
 * false, waits until more is published and lets r see it: false when the
 * record is sealed and all read, or readers were stopped. Once the writer
 * is done (sealed, and the reader's thread joined), tl_reader_resume()
 * makes r an ordinary reader of s from where it is.
 */
struct ea_tl_reader *tl_reader_published(const struct tl_changes *s);
bool tl_reader_wait(struct ea_tl_reader *r, const struct tl_changes *s);
void tl_reader_resume(struct ea_tl_reader *r, const struct tl_changes *s);

static inline const unsigned char *tl_get_varint(const unsigned char *q,
						 uint64_t *v)
{
	uint64_t x = 0;
	unsigned sh = 0;

	while (*q & 0x80) {
		x |= (uint64_t)(*q++ & 0x7f) << sh;
		sh += 7;
	}
	*v = x | (uint64_t)*q++ << sh;
	return q;
}

static inline uint64_t tl_unzigzag(uint64_t z)
{
	return (z >> 1) ^ (uint64_t) - (int64_t)(z & 1);
}

/* ea_tl_reader_next(). */
static inline bool tl_reader_next(struct ea_tl_reader *r,
				  struct ea_tl_change *ch)
{
	const unsigned char *q;
	struct tl_cpu_last *l;
	unsigned hdr;
	uint64_t v;

	if (r->at == r->end && (!r->s || !tl_reader_next_chunk(r)))
		return false;
	q = r->at;
	hdr = *q++;
	if ((hdr & TL_H_CPU_MASK) == 3) {
		q = tl_get_varint(q, &v);
		ch->cpu = (uint16_t)v;
	} else {
		ch->cpu = (uint16_t)(hdr & TL_H_CPU_MASK);
	}
	l = &r->last[ch->cpu];
	if ((hdr & TL_H_MODE_MASK) == TL_H_MODE_MASK)
		ch->mode = *q++;
	else
		ch->mode = (uint8_t)((hdr & TL_H_MODE_MASK) >> TL_H_MODE_SHIFT);
	ch->t0 = l->t1;
	if (hdr & TL_H_T0) {
		q = tl_get_varint(q, &v);
		ch->t0 += tl_unzigzag(v);
	}
	q = tl_get_varint(q, &v);
	ch->t1 = ch->t0 + v;
	if (hdr & TL_H_PID) {
		q = tl_get_varint(q, &v);
		l->pid = (int32_t)((uint32_t)l->pid + (uint32_t)tl_unzigzag(v));
	}
	if (hdr & TL_H_FREQ) {
		q = tl_get_varint(q, &v);
		l->freq_khz = (uint32_t)v;
	}
	if (hdr & TL_H_IDLE) {
		q = tl_get_varint(q, &v);
		l->idle_state = (int32_t)((uint32_t)l->idle_state +
					  (uint32_t)tl_unzigzag(v));
	}
	l->t1 = ch->t1;
	ch->pid = l->pid;
	ch->freq_khz = l->freq_khz;
	ch->idle_state = (int16_t)l->idle_state;
	r->at = q;
	return true;
}

#endif
