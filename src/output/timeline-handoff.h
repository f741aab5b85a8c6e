/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The timeline's changes handed as they are to a thread of their own
 * (src/output/timeline-handoff.c), which gives them in order to fn, in
 * runs: so that the work of recording them compactly (timeline-changes.c's
 * varints) leaves the run's thread, which only copies each change into a
 * block. Blocks of TL_HO_BLOCK changes (256 KiB), handed over when full
 * and used again once given to fn; the writer waits only when
 * TL_HO_MAX_BLOCKS of them are full (the thread fell that far behind). A
 * thread asleep is woken once two blocks wait for it (or at the end): a
 * wake-up is a system call on the writer's side.
 */
#ifndef EATRACE_OUTPUT_TIMELINE_HANDOFF_H
#define EATRACE_OUTPUT_TIMELINE_HANDOFF_H

#include <stddef.h>

#include "eatrace/html.h"

#define TL_HO_BLOCK 8192
#define TL_HO_MAX_BLOCKS 32

typedef void tl_ho_fn(void *ctx, const struct ea_tl_change *v, size_t n);

struct tl_handoff;

/* Starts the thread giving what is handed over to fn(ctx, ...): 0, or -1
 * (nothing started). */
int tl_handoff_start(struct tl_handoff **h, tl_ho_fn *fn, void *ctx);
/*
 * The writer's next block, after handing over the one it filled up to end
 * (none at first: end NULL); its end in *lim. NULL when out of memory
 * (the block filled is handed over all the same).
 */
struct ea_tl_change *tl_handoff_next(struct tl_handoff *h,
				     struct ea_tl_change *end,
				     struct ea_tl_change **lim);
/*
 * A second reader of the blocks on the same thread: tap(ctx, ...) given
 * each block the thread takes off its queue from now on (blocks queued
 * before the call included), after fn had it (fn's work on it done), in
 * order; tap NULL: none from now on. Returns once a tap set before is
 * out of its last call, so that its ctx may be freed; the thread may
 * call the old tap on further queued blocks while this waits for the
 * lock (mutexes are not fair): a delay, bounded by the queue. (The
 * Perfetto encoder ahead, perfetto-pb.c: one thread for the record and
 * the packets, not one each.)
 */
void tl_handoff_tap(struct tl_handoff *h, tl_ho_fn *tap, void *ctx);
/* Hands over the block filled up to end (NULL: none), waits until fn has
 * had every change, ends the thread and frees h. */
void tl_handoff_finish(struct tl_handoff *h, struct ea_tl_change *end);

#endif
