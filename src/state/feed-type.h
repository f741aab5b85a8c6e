/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The steady feed of the common events in one pass per type (feed-type.c):
 * a sched_switch or a wakeup that the look-ahead's common scan takes
 * (lookahead-common.h) is scanned and, when nothing is held back and it
 * may go, applied to the CPU and task machines at once, without the
 * look-ahead's ring and without asking its type again. For state.c's
 * block loop once steady (started, sorted input, a look-ahead deeper
 * than one event, no hand-over to another thread).
 */
#ifndef EATRACE_STATE_FEED_TYPE_H
#define EATRACE_STATE_FEED_TYPE_H

#include "state/state-internal.h"

enum feed_type_result {
	FEED_NOT,	/* nothing done: the general feed takes the event */
	FEED_SCANNED,	/* scanned, not applied: hold it back (la_store()) */
	FEED_DONE,	/* scanned and applied */
};

enum feed_type_result feed_switch(struct ea_state *s, const struct ea_event *ev);
enum feed_type_result feed_wake(struct ea_state *s, const struct ea_event *ev);

/* feed_switch() or feed_wake() by ev's type; FEED_NOT for the others */
static inline enum feed_type_result feed_type(struct ea_state *s,
					      const struct ea_event *ev)
{
	switch (ev->type) {
	case EA_EV_SWITCH:
		return feed_switch(s, ev);
	case EA_EV_WAKEUP:
	case EA_EV_WAKING:
	case EA_EV_WAKEUP_NEW:
		return feed_wake(s, ev);
	default:
		return FEED_NOT;
	}
}

#endif
