/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Bounded reorder buffer for readers whose input is almost, but not quite,
 * in timestamp order (hand-written or merged text traces).
 *
 * A binary min-heap keyed on (ts, arrival sequence): events with equal
 * timestamps come out in the order they went in. An event is held until the
 * buffer is full or the newest timestamp seen is more than the window ahead
 * of it; so memory is bounded by the capacity, never by the trace length.
 * An event older than one already handed out cannot be put back in place:
 * ea_reorder_push() refuses it and the reader reports a hard error.
 */
#ifndef EATRACE_INPUT_REORDER_H
#define EATRACE_INPUT_REORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eatrace/event.h"

#define EA_REORDER_CAP 65536			/* events held at most */
#define EA_REORDER_WINDOW_NS 1000000000ull	/* 1 s */

struct ea_reorder;

/* NULL when out of memory. */
struct ea_reorder *ea_reorder_new(size_t cap, uint64_t window_ns);
void ea_reorder_free(struct ea_reorder *r);

/*
 * Add an event and its position in the file (a line number). Returns 0, or
 * -1 when ev->ts is older than the last event popped (too late to reorder)
 * or when out of memory (see ea_reorder_too_late()).
 */
int ea_reorder_push(struct ea_reorder *r, const struct ea_event *ev,
		    uint64_t pos);
/* After a failed push: true when the cause was lateness, not memory. */
bool ea_reorder_too_late(const struct ea_reorder *r);

/*
 * Whether the oldest event should leave now: the buffer is full, the window
 * is exceeded, or (drain) the input is finished.
 */
bool ea_reorder_ready(const struct ea_reorder *r, bool drain);

/* Take the oldest event: 1 and *ev, *pos filled; 0 when empty. */
int ea_reorder_pop(struct ea_reorder *r, struct ea_event *ev, uint64_t *pos);

size_t ea_reorder_count(const struct ea_reorder *r);
/* Events pushed with a timestamp older than the newest one pushed before. */
uint64_t ea_reorder_reordered(const struct ea_reorder *r);
/* Newest timestamp pushed so far (0 before the first push). */
uint64_t ea_reorder_max_ts(const struct ea_reorder *r);
/* Timestamp of the last event popped (0 before the first pop). */
uint64_t ea_reorder_last_out(const struct ea_reorder *r);

#endif
