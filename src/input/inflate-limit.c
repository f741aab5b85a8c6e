// SPDX-License-Identifier: GPL-2.0-only
/*
 * The bound on what a compressed input expands to (inflate-limit.h), set
 * by --max-inflate (ea_input_set_max_inflate()).
 */
#include <inttypes.h>
#include <stdio.h>

#include "eatrace/input.h"
#include "input/inflate-limit.h"

static unsigned ratio = EA_INFLATE_RATIO;

void ea_input_set_max_inflate(unsigned r)
{
	ratio = r ? r : EA_INFLATE_RATIO;
}

unsigned ea_input_max_inflate(void)
{
	return ratio;
}

uint64_t ea_inflate_limit(uint64_t stored_bytes)
{
	uint64_t lim = stored_bytes > UINT64_MAX / ratio ? UINT64_MAX
							 : stored_bytes * ratio;

	return lim > EA_INFLATE_FLOOR ? lim : EA_INFLATE_FLOOR;
}

void ea_inflate_refusal(char *buf, size_t n, const char *what,
			uint64_t stored_bytes)
{
	snprintf(
		buf, n,
		"%s expands past %" PRIu64
		" bytes, the limit for a file of %" PRIu64
		" bytes (--max-inflate %u: %u times its size, at least %" PRIu64
		" MiB)",
		what, ea_inflate_limit(stored_bytes), stored_bytes, ratio,
		ratio, EA_INFLATE_FLOOR >> 20);
}
