/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The second half of the timeline's work (spreading each change over the
 * buckets, recording it) on a thread of its own
 * (src/output/timeline-thread.c), fed steps by the first half in the
 * state stage's thread through a ring of blocks: the lock taken once a
 * block, a side that had to sleep woken once half the ring is ready for
 * it (as src/input/evring.h does for events).
 */
#ifndef EATRACE_OUTPUT_TIMELINE_THREAD_H
#define EATRACE_OUTPUT_TIMELINE_THREAD_H

#include <stddef.h>

#include "output/timeline-priv.h"

typedef void tl_back_fn(struct ea_timeline *t, const struct tl_step *st);

/* Runs back(t, step) on a new thread (all signals blocked in it) for each
 * step handed over, in order. 0, or -1 (nothing running or allocated). */
int tl_thread_start(struct tl_thread **th, struct ea_timeline *t,
		    size_t step_bytes, tl_back_fn *back);
/* The next step to fill (waits for room). */
struct tl_step *tl_thread_slot(struct tl_thread *th);
/* Hands the step tl_thread_slot() gave over. */
void tl_thread_put(struct tl_thread *th);
/* Hands over what is left, waits until every step is done, frees th. */
void tl_thread_finish(struct tl_thread *th);

#endif
