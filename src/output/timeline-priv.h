/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The timeline's private part (struct ea_timeline's priv), kept out of
 * include/eatrace/html.h so that the public struct's layout does not
 * change with timeline.c's bookkeeping: the accountant's figures already
 * seen, the bucket last looked up, the state's clip bounds, the changes
 * recorded (src/output/timeline-changes.h).
 */
#ifndef EATRACE_OUTPUT_TIMELINE_PRIV_H
#define EATRACE_OUTPUT_TIMELINE_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "eatrace/energy.h"
#include "output/timeline-changes.h"

struct ea_tl_priv {
	ea_energy_t *seen; /* ncols x 3: cluster, core and wakeup parts */
	uint64_t *cl_last;
	/* the bucket last looked up, near_b, holds [near_lo, near_hi)
	   (empty: none) */
	uint64_t near_lo, near_hi;
	size_t near_b;
	uint64_t clip_start, clip_end; /* ea_state_clip_bounds() */
	struct tl_changes changes; /* record_changes */
};

#endif
