/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unaligned loads of the host-endian integers a trace.dat holds (the file
 * is read on the byte order it was written in; trace-cmd files from other
 * byte orders are refused by the readers before these are used).
 */
#ifndef EA_INPUT_LOAD_LE_H
#define EA_INPUT_LOAD_LE_H

#include <stdint.h>
#include <string.h>

static inline uint16_t ld2(const unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return v;
}

static inline uint32_t ld4(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static inline uint64_t ld8(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

#endif
