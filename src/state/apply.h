/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the state does around the machines for every event it applies,
 * inline: for state.c's apply() and the per-type feeds (feed-type.h),
 * which apply the common events without asking their type again.
 */
#ifndef EATRACE_STATE_APPLY_H
#define EATRACE_STATE_APPLY_H

#include "state/state-internal.h"

/* Before the machines: the last time, the counts (rec: ev is recorded,
 * not synthetic, and counts), the event applied. */
static inline __attribute__((always_inline)) void
apply_begin_as(struct ea_state *s, const struct ea_event *ev, bool rec)
{
	if (ev->ts > s->last_ts)
		s->last_ts = ev->ts;
	if (rec) {	/* count the trace's events only */
		s->counts.events++;
		s->counts.by_type[ev->type]++;
	}
	s->applying = ev;	/* until apply_end(): see there */
}

static inline void apply_begin(struct ea_state *s, const struct ea_event *ev)
{
	apply_begin_as(s, ev, !(ev->flags & EA_EVF_SYNTH));
}

/* After: the consumers' event(), for the types they want. */
static inline void apply_end(struct ea_state *s, const struct ea_event *ev)
{
	if (s->event_types >> ev->type & 1 &&
	    !(ev->type == EA_EV_LOST && ev->flags & EA_EVF_SYNTH))
		s->ops->event(s->ctx, s, ev);
	s->applying = NULL;	/* ev may not outlive the call */
}

#endif
