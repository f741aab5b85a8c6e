/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The timeline's private part (struct ea_timeline's priv), kept out of
 * include/eatrace/html.h so that the public struct's layout does not
 * change with timeline.c's bookkeeping: the accountant's figures already
 * seen, the bucket last looked up, the state's clip bounds, the changes
 * recorded (src/output/timeline-changes.h), the step between the two
 * halves of its work and the thread the second may run on
 * (src/output/timeline-thread.h).
 */
#ifndef EATRACE_OUTPUT_TIMELINE_PRIV_H
#define EATRACE_OUTPUT_TIMELINE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eatrace/energy.h"
#include "output/timeline-changes.h"

/*
 * One change's figures between the two halves of the timeline's work
 * (timeline.c's front() and back()): the stretches it covers, the state
 * the CPU left, and what the accountant's figures grew by (d[]).
 */
struct tl_step {
	uint64_t now;
	uint64_t cl_c0, cl_c1; /* the cluster's stretch, clipped */
	uint64_t c0, c1; /* the CPU's, clipped */
	int32_t pid;
	uint32_t freq_khz;
	int16_t idle_state;
	uint8_t mode;
	bool in_window; /* c0 < c1 */
	uint16_t cpu, ci;
	/* the cluster's cluster part, each of its n CPUs' cluster part, then
	 * the CPU's core part, the cluster's, the CPU's wakeups, the
	 * cluster's: n + 5 */
	ea_energy_t d[];
};

struct tl_thread;

struct ea_tl_priv {
	ea_energy_t *seen; /* ncols x 3: cluster, core and wakeup parts */
	uint64_t *cl_last;
	/* the bucket last looked up, near_b, holds [near_lo, near_hi)
	   (empty: none) */
	uint64_t near_lo, near_hi;
	size_t near_b;
	uint64_t clip_start, clip_end; /* ea_state_clip_bounds() */
	struct tl_changes changes; /* record_changes */
	struct tl_step *step; /* step_bytes: the one step in hand */
	size_t step_bytes;
	struct tl_thread *thread; /* ea_timeline_use_thread(): back() there */
};

#endif
