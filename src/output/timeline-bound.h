/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * How much of the timeline's record of changes (timeline-changes.h) its
 * one reader can need, when that reader stops at a size cap checked every
 * TL_BOUND_EVERY changes and each busy change adds at least so many bytes
 * (the JSON --perfetto file: src/output/perfetto-json-bound.c): once
 * `busy` busy changes are recorded, their bytes alone reach the cap, so
 * the reader stops at the latest at the first change after them whose
 * index is a multiple of TL_BOUND_EVERY (a change recorded, so that the
 * reader has its start for the cut's time). The changes after that one
 * are not recorded (nor handed over to the record's thread): on a long
 * trace with a capped file, most of them.
 */
#ifndef EATRACE_OUTPUT_TIMELINE_BOUND_H
#define EATRACE_OUTPUT_TIMELINE_BOUND_H

#include <stdbool.h>
#include <stddef.h>

#include "eatrace/html.h"
#include "eatrace/state.h"

/* The reader's cap is checked at each change whose index (from 0) is a
 * multiple of this (ea_pf_check_cap()). */
#define TL_BOUND_EVERY 256

struct tl_bound {
	bool on; /* a bound set (tl_changes_bound()) */
	bool closed; /* every change the reader can need recorded */
	size_t busy_left; /* busy changes still to come before the bound */
	size_t k; /* the index of the next change given */
};

/* Whether change c (given in order) lies past what the reader can need:
 * not to be recorded. */
static inline __attribute__((always_inline)) bool
tl_bound_drops(struct tl_bound *b, const struct ea_tl_change *c)
{
	size_t k;

	if (b->closed)
		return true;
	k = b->k++;
	if (b->busy_left) {
		b->busy_left -= c->mode == EA_CPU_BUSY;
		return false;
	}
	/* past the bound's changes: the first check there is the last
	 * change needed */
	if (!(k % TL_BOUND_EVERY))
		b->closed = true;
	return false;
}

#endif
