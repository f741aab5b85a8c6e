/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The per-type feeds (feed-type.h) of derived events (EA_EVF_DERIVED: a
 * Perfetto compact_sched's switches and wakings, whose prev task or
 * waker the reader derived), which feed_switch() and feed_wake() refuse
 * (la_try_*() refuse them, having done nothing): scanned as lookahead.c's
 * scan_common() scans them (la_try_*_derived()), let go as state.c's
 * go_scanned() lets them, la_may_go() asked (not la_*_may_go(), which
 * rest on pend_min marked stale at every record).
 *
 * Two ways in, so that the recorded events' path (a trace.dat's, a text
 * trace's) stays as it was: state.c's feed_derived(), out of line, from
 * its block loop once feed_type() refused a derived event, which marks
 * the state as fed derived events (state_fed_derived()); the caller then
 * feeds the later blocks to feed-derived.c's loop, which asks the flag
 * first and takes a derived event straight to feed_derived_type(),
 * inline, without the refused feed_type(), a call and the type asked
 * again (feed_any_type()).
 */
#ifndef EATRACE_STATE_FEED_DERIVED_H
#define EATRACE_STATE_FEED_DERIVED_H

#include "state/feed-type.h"

/*
 * What feed_type() does with a recorded switch or wakeup, for a derived
 * one (EA_EVF_DERIVED), in the same steps: FEED_NOT, having done
 * nothing, for another type or what la_try_*_derived() refuse.
 */
static inline __attribute__((always_inline)) enum feed_type_result
feed_derived_type(struct ea_state *s, const struct ea_event *ev)
{
	switch (ev->type) {
	case EA_EV_SWITCH:
		if (!may_take(s, ev) || !la_try_switch_derived(&s->la, ev))
			return FEED_NOT;
		if (held_back(&s->la) || !la_may_go(&s->la, s->la.next_seq))
			return FEED_SCANNED;
		apply_switch_rec(s, ev); /* applied as a record */
		return FEED_DONE;
	case EA_EV_WAKEUP:
	case EA_EV_WAKING:
	case EA_EV_WAKEUP_NEW:
		if (!may_take(s, ev) || !la_try_wake_derived(&s->la, ev))
			return FEED_NOT;
		if (held_back(&s->la) || !la_may_go(&s->la, s->la.next_seq))
			return FEED_SCANNED;
		apply_wake_rec(s, ev);
		return FEED_DONE;
	default:
		return FEED_NOT;
	}
}

/*
 * The per-type feed of any event, for the loop of a state fed derived
 * events: the flag asked first, a derived event never offered to
 * feed_type() (which would refuse it, having done nothing).
 */
static inline __attribute__((always_inline)) enum feed_type_result
feed_any_type(struct ea_state *s, const struct ea_event *ev)
{
	if (ev->flags & EA_EVF_DERIVED)
		return feed_derived_type(s, ev);
	return feed_type(s, ev);
}

#endif
