// SPDX-License-Identifier: GPL-2.0-only
/*
 * The steady feed in one pass per event type: see state/feed-type.h. What
 * each function does is what state.c's feed_steady() and apply() would do
 * with the event, in the same order, for the cases it takes.
 */
#include "state/apply.h"
#include "state/cpu.h"
#include "state/feed-type.h"
#include "state/lookahead-common.h"
#include "state/task-switch.h"

/*
 * Whether the feed may take ev at all: a CPU the state has (else the
 * look-ahead must hold it until la_full(): go_scanned()), and room in the
 * ring (else the oldest goes first).
 */
static inline bool may_take(const struct ea_state *s, const struct ea_event *ev)
{
	return (unsigned int)ev->cpu < (unsigned int)s->ncpus &&
	       !la_full(&s->la);
}

/* The event just scanned goes at once (la_try_*() returned try): nothing
 * held back, and it may. */
static inline bool goes_now(const struct lookahead *la, int try)
{
	return !la->len && !la->nsynth && la_try_may_go(la, try);
}

enum feed_type_result feed_switch(struct ea_state *s, const struct ea_event *ev)
{
	int try;

	if (!may_take(s, ev) || !(try = la_try_switch(&s->la, ev)))
		return FEED_NOT;
	if (!goes_now(&s->la, try))
		return FEED_SCANNED;
	apply_begin(s, ev);
	cpu_switch(s, ev);
	apply_end(s, ev);
	return FEED_DONE;
}

enum feed_type_result feed_wake(struct ea_state *s, const struct ea_event *ev)
{
	int try;

	if (!may_take(s, ev) || !(try = la_try_wake(&s->la, ev)))
		return FEED_NOT;
	if (!goes_now(&s->la, try))
		return FEED_SCANNED;
	apply_begin(s, ev);
	cpu_apply_other(s, ev);
	if (s->track_tasks)
		task_wake(s, ev);
	apply_end(s, ev);
	return FEED_DONE;
}
