/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The usual layout of sched_switch and the wakeups in a trace.dat record
 * (dat-format.c's fixed_layout(), checked once per event type at open:
 * host byte order, 4-byte integers, char[16] or longer comms) decoded
 * into an event with plain loads at the fields' offsets, no switch on
 * size, kind or byte order per field. Shared by the reader's decoder
 * (dat-read.c) and its loop over runs of records (dat-run.c), so that
 * both fill an event alike.
 */
#ifndef EATRACE_INPUT_DAT_FIXED_H
#define EATRACE_INPUT_DAT_FIXED_H

#include <stdint.h>
#include <string.h>

#include "eatrace/event.h"
#include "input/dat-format.h"
#include "input/load-le.h"
#include "input/reader-dat.h"

/* common_flags of interrupt context: TRACE_FLAG_HARDIRQ, _SOFTIRQ, _NMI */
#define IRQ_FLAGS 0x58

static inline int32_t ldi32(const unsigned char *data, const struct fld *f)
{
	return (int32_t)ld4(data + f->off);
}

static inline uint64_t ld_num(const unsigned char *data, const struct fld *f)
{
	if (f->size == 8)
		return ld8(data + f->off);
	return ld4(data + f->off);
}

/*
 * A comm of a char[N >= 16] field: the first 15 bytes up to the first
 * NUL, zero-padded to 16, as rd_str() gives: with SSE2, the NULs' mask
 * of one 16-byte load gives the first NUL's index k (15 when none in the
 * first 15 bytes), and the load ANDed with 16 bytes of comm_keep from
 * 16 - k (k bytes 0xff, then zeros) is the comm, without a branch;
 * elsewhere two 8-byte loads and their NUL bytes' bit trick.
 */
#if defined(__SSE2__)
#include <emmintrin.h>

static const unsigned char comm_keep[32] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
};

static inline __attribute__((always_inline)) void
ld_comm(char *dst, const unsigned char *src)
{
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)src);
	unsigned nul = (unsigned)_mm_movemask_epi8(
		_mm_cmpeq_epi8(v, _mm_setzero_si128()));
	unsigned k = (unsigned)__builtin_ctz(nul | 0x8000u);
	__m128i keep = _mm_loadu_si128(
		(const __m128i *)(const void *)(comm_keep + 16 - k));

	_mm_storeu_si128((__m128i *)(void *)dst, _mm_and_si128(v, keep));
}
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
static inline __attribute__((always_inline)) void
ld_comm(char *dst, const unsigned char *src)
{
	const uint64_t ones = 0x0101010101010101ull, highs = ones << 7;
	uint64_t a, b, z;

	memcpy(&a, src, 8);
	memcpy(&b, src + 8, 8);
	b &= ~(0xffull << 56); /* byte 15: always the NUL */
	z = (a - ones) & ~a & highs; /* lowest set bit: first NUL byte */
	if (z) {
		a &= (z ^ (z - 1)) >> 8; /* keep the bytes before it */
		b = 0;
	} else {
		z = (b - ones) & ~b & highs;
		b &= (z ^ (z - 1)) >> 8;
	}
	memcpy(dst, &a, 8);
	memcpy(dst + 8, &b, 8);
}
#else
static inline void ld_comm(char *dst, const unsigned char *src)
{
	size_t i = strnlen((const char *)src, EA_COMM_LEN - 1);

	memcpy(dst, src, i);
	memset(dst + i, 0, EA_COMM_LEN - i);
}
#endif

/*
 * Record p (at least d->min_size bytes, d->fixed) of CPU cpu at ts into
 * ev: the header and every field of its union member (comms NUL-padded);
 * the rest of the union is left as it was.
 */
static inline __attribute__((always_inline)) void
dat_decode_fixed(const struct dat_fmt *r, const struct desc *d,
		 const unsigned char *p, uint64_t ts, int cpu,
		 struct ea_event *ev)
{
	const struct fld *f = d->f;
	/* every load before the first store: a comm's store may alias them */
	const int32_t pid = ldi32(p, &r->f_pid);
	const uint8_t type = d->type;

	if (type == EA_EV_SWITCH) {
		const int32_t prev = ldi32(p, &f[SW_PREV_PID]);
		const int32_t next = ldi32(p, &f[SW_NEXT_PID]);
		const int32_t prev_prio = ldi32(p, &f[SW_PREV_PRIO]);
		const int32_t next_prio = ldi32(p, &f[SW_NEXT_PRIO]);
		const uint8_t state = (uint8_t)ea_dat_prev_state_decode(
			&r->ps, ld_num(p, &f[SW_PREV_STATE]));
		const unsigned char *prev_comm = p + f[SW_PREV_COMM].off;
		const unsigned char *next_comm = p + f[SW_NEXT_COMM].off;

		ev->ts = ts;
		ev->cpu = cpu;
		ev->cur_pid = pid;
		ev->type = type;
		ev->flags = 0;
		ev->sw.prev_pid = prev;
		ev->sw.next_pid = next;
		ev->sw.prev_prio = prev_prio;
		ev->sw.next_prio = next_prio;
		ev->sw.prev_state = state;
		ld_comm(ev->sw.prev_comm, prev_comm);
		ld_comm(ev->sw.next_comm, next_comm);
	} else {
		const int32_t wpid = ldi32(p, &f[WK_PID]);
		const int32_t prio = ldi32(p, &f[WK_PRIO]);
		const int32_t target = ldi32(p, &f[WK_TARGET]);
		const unsigned char *comm = p + f[WK_COMM].off;
		const uint8_t flags = r->has_flags &&
				      p[r->f_flags.off] & IRQ_FLAGS
					      ? EA_EVF_IRQ
					      : 0;

		ev->ts = ts;
		ev->cpu = cpu;
		ev->cur_pid = pid;
		ev->type = type;
		ev->flags = flags;
		ev->wake.pid = wpid;
		ev->wake.prio = prio;
		ev->wake.target_cpu = target;
		ld_comm(ev->wake.comm, comm);
	}
}

#endif
