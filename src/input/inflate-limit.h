/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * How far a compressed input may expand (inflate-limit.c): a gzip'd or
 * zstd'd trace.dat or Perfetto file spooled to TMPDIR, and the
 * compressed_packets inside a Perfetto trace, together with the index the
 * Perfetto reader keeps of what they hold.
 */
#ifndef EATRACE_INPUT_INFLATE_LIMIT_H
#define EATRACE_INPUT_INFLATE_LIMIT_H

#include <stddef.h>
#include <stdint.h>

#define EA_INFLATE_RATIO 32 /* default --max-inflate */
#define EA_INFLATE_FLOOR \
	((uint64_t)32 << 20) /* 32 MiB: any file may reach it */

/*
 * Bytes a file of stored_bytes on disk may expand to: --max-inflate times
 * its size, at least EA_INFLATE_FLOOR.
 */
uint64_t ea_inflate_limit(uint64_t stored_bytes);

/*
 * The refusal's cause, after "PATH:POSITION: ": "WHAT expands past N
 * bytes, the limit for a file of S bytes (--max-inflate R: R times its
 * size, at least 32 MiB)".
 */
void ea_inflate_refusal(char *buf, size_t n, const char *what,
			uint64_t stored_bytes);

#endif
