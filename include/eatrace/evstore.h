/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A trace's events kept in memory (src/input/evstore.c): read once through
 * ea_input_open() and ea_input_next(), with the same checks and the same
 * errors, then played back as often as wanted as an event source
 * (eatrace/input.h) for ea_run_source(): the same events in the same order
 * as a fresh read of the file, so every figure computed from them is the
 * one the file gives. Each event is packed to what its type uses (about 30
 * to 80 bytes: a switch 76, a cpu_frequency or cpu_idle 32).
 */
#ifndef EATRACE_EVSTORE_H
#define EATRACE_EVSTORE_H

#include <stddef.h>

#include "eatrace/input.h"

struct ea_evstore;

/* Read the trace at path whole. 0, or -1 with err as ea_input_open() or
 * ea_input_next() give it ("PATH:POSITION: cause"). */
int ea_evstore_load(struct ea_evstore **st, const char *path,
		    struct ea_err *err);
void ea_evstore_free(struct ea_evstore *st);

size_t ea_evstore_count(const struct ea_evstore *st); /* events */
size_t ea_evstore_bytes(const struct ea_evstore *st); /* memory they take */
/* The input's info once read to its end (format, ncpus, rails, procs...):
 * owned by the store. */
const struct ea_input_info *ea_evstore_info(const struct ea_evstore *st);

/*
 * A play-back of the store from its first event: fills *src (its ctx is
 * cur, which must outlive the run). The info it gives is the input's as
 * it stood after the open until the last event is played, then the final
 * one; take_owned is NULL (the run borrows the store's rails and procs).
 * A CPU's first event (first_event) is the first event of that CPU in the
 * store, not a lost-events marker, with lost_before telling whether a
 * marker came first: ea_input_first_event()'s answer.
 */
struct ea_evstore_cursor {
	const struct ea_evstore *st;
	size_t chunk, off, index;
	bool done;
};
void ea_evstore_source(const struct ea_evstore *st,
		       struct ea_evstore_cursor *cur,
		       struct ea_event_source *src);

#endif
