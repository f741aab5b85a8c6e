/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The trace.dat reader's common case, taken a run of records at a time
 * (dat-run.c): the page walker's plain records of sched_switch and the
 * wakeups in their usual layout, merged across a few CPUs, decoded and
 * checked into a block of events, as dat-read.c's fast_next() and
 * fill_block() would take them one at a time. Everything else (a new
 * page, time extends, lost events, other events, anything the checks
 * refuse, a corrupt length) it leaves to fast_next(), before changing
 * anything fast_next() would then see differently.
 */
#ifndef EATRACE_INPUT_DAT_RUN_H
#define EATRACE_INPUT_DAT_RUN_H

#include <stdint.h>

#include "input/dat-read.h"
#include "input/evring.h"

/*
 * Between two of fill_block()'s fast_next() calls: add to b (up to n
 * events) the events fast_next() would give next, as long as they are
 * the common case, and leave r where fast_next() then starts (r->adv -1:
 * the CPU of the last record returned has already moved on).
 */
void dat_run(struct dat *r, struct evr_blk *b, uint32_t n);

#endif
