/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The timeline's record of CPU changes (record_changes, for --perfetto),
 * kept compactly (src/output/timeline-changes.c): each change a header
 * byte and varints, most of its fields said by the header to repeat the
 * same CPU's change before (its start is that change's end; its pid, OPP
 * or idle state are often unchanged), in chunks of 2 MiB that no change
 * straddles. About 4 bytes a change (rec.dat: 1.6 M changes in 6.6 MB)
 * instead of struct ea_tl_change's 24.
 * Read back in order through include/eatrace/html.h's ea_tl_reader.
 */
#ifndef EATRACE_OUTPUT_TIMELINE_CHANGES_H
#define EATRACE_OUTPUT_TIMELINE_CHANGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eatrace/html.h"

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

struct tl_changes {
	struct tl_chunk *chunks;
	size_t nchunks, chunk_cap;
	unsigned char *at, *lim; /* the last chunk's free room */
	size_t count;
	int ncpus;
	struct tl_cpu_last *last; /* ncpus */
};

/* 0 or -1 (out of memory). */
int tl_changes_init(struct tl_changes *s, int ncpus);
void tl_changes_free(struct tl_changes *s);
/* A new chunk: 0 or -1 (out of memory). */
int tl_changes_grow(struct tl_changes *s);

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

/* Appends change c (c->cpu < ncpus): 0 or -1 (out of memory). */
static inline int tl_changes_add(struct tl_changes *s,
				 const struct ea_tl_change *c)
{
	struct tl_cpu_last *l = &s->last[c->cpu];
	unsigned char *q, *h;
	unsigned hdr;

	if (s->lim - s->at < TL_CHANGE_MAX_BYTES && tl_changes_grow(s))
		return -1;
	q = s->at;
	h = q++;
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
	l->t1 = c->t1;
	*h = (unsigned char)hdr;
	s->at = q;
	s->count++;
	return 0;
}

#endif
