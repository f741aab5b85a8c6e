/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An input's events a block at a time (input.c), for the pipeline's loop
 * (src/state/run.c): where a reader decodes on a thread of its own
 * (trace.dat, dat-read.c; Perfetto and ftrace text, next-blocks.c), the
 * loop then takes each block of decoded events as it lies in the
 * hand-over ring, with no copy and no call into the input per event.
 * The events are those ea_input_next() gives, in the
 * same order, checked as it checks them; the other readers give them one
 * at a time through ea_input_next().
 */
#ifndef EATRACE_INPUT_INPUT_BLOCK_H
#define EATRACE_INPUT_INPUT_BLOCK_H

#include <stdbool.h>
#include <stddef.h>

#include "eatrace/input.h"

/*
 * The next events: 1 with *evs at *n >= 1 events, valid until the next
 * call or the close; 0 at the end; -1 with err (what ea_input_next()
 * would say after the events before). ea_input_where() then names the
 * last of the events.
 */
int ea_input_next_block(struct ea_input *in, const struct ea_event **evs,
			size_t *n, struct ea_err *err);

/*
 * The threads the input's reader runs when given enough jobs
 * (ea_input_jobs()), the caller's included: 2 for a trace.dat walked by
 * eatrace's page walker (it decodes on a thread of its own from two
 * jobs), 3 for a compressed one (it inflates on a helper thread from two
 * jobs, and decodes on the caller's thread unless there are three), 2
 * for a Perfetto trace neither gzip'd nor with compressed_packets and
 * for ftrace text (decoded on a thread of its own from two jobs:
 * next-blocks.h), 1 for the other readers.
 */
int ea_input_threads(const struct ea_input *in);

/* Make event i of the last block the one ea_input_where() names (a later
 * stage refused it). */
void ea_input_block_at(struct ea_input *in, size_t i);

#endif
