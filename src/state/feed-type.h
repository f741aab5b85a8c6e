/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The steady feed of the common events in one pass per type, inline in
 * state.c's block loop (its own call per event cost more than its work):
 * a sched_switch or a wakeup that the look-ahead's common scan takes
 * (lookahead-common.h) is scanned and, when nothing is held back and it
 * may go, applied to the CPU and task machines at once, without the
 * look-ahead's ring and without asking its type again; else held back,
 * and applied by type too when the look-ahead lets it go
 * (apply_type(), go-typed.h's go_typed()). For the block loops (state.c,
 * feed-derived.c) once steady (started, sorted input, a look-ahead deeper
 * than one event, no hand-over to another thread).
 */
#ifndef EATRACE_STATE_FEED_TYPE_H
#define EATRACE_STATE_FEED_TYPE_H

#include "state/apply.h"
#include "state/cpu.h"
#include "state/lookahead-common.h"
#include "state/task-switch.h"

enum feed_type_result {
	FEED_NOT,	/* nothing done: the general feed takes the event */
	FEED_SCANNED,	/* scanned, not applied: hold it back (go_typed()) */
	FEED_DONE,	/* scanned and applied */
};

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

/* Whether the look-ahead holds events back: the event just scanned then
 * waits behind them, else it goes at once if it may (la_switch_may_go(),
 * la_wake_may_go()). */
static inline bool held_back(const struct lookahead *la)
{
	return la->len || la->nsynth;
}

/*
 * apply() of a recorded (not synthetic) sched_switch, and of a recorded
 * wakeup, on a CPU the state has, once started and with no hand-over:
 * the same steps without asking the type, the start or the CPU again.
 */
static inline __attribute__((always_inline)) void
apply_switch_rec(struct ea_state *s, const struct ea_event *ev)
{
	apply_begin_as(s, ev, true);
	cpu_switch(s, ev);
	apply_end(s, ev);
}

static inline __attribute__((always_inline)) void
apply_wake_rec(struct ea_state *s, const struct ea_event *ev)
{
	apply_begin_as(s, ev, true);
	cpu_apply_other_as(s, ev, true);
	if (s->track_tasks)
		task_wake(s, ev);
	apply_end(s, ev);
}

/*
 * What state.c's feed_steady() and apply() would do with a switch or a
 * wakeup, in the same order, for the cases the look-ahead's common scan
 * takes; the event is recorded (not synthetic: la_try_*()).
 */
static inline __attribute__((always_inline)) enum feed_type_result
feed_switch(struct ea_state *s, const struct ea_event *ev)
{
	if (!may_take(s, ev) || !la_try_switch(&s->la, ev))
		return FEED_NOT;
	if (held_back(&s->la) || !la_switch_may_go(&s->la, ev))
		return FEED_SCANNED;
	apply_switch_rec(s, ev);	/* la_try_*(): recorded */
	return FEED_DONE;
}

static inline __attribute__((always_inline)) enum feed_type_result
feed_wake(struct ea_state *s, const struct ea_event *ev)
{
	if (!may_take(s, ev) || !la_try_wake(&s->la, ev))
		return FEED_NOT;
	if (held_back(&s->la) || !la_wake_may_go(&s->la, ev))
		return FEED_SCANNED;
	apply_wake_rec(s, ev);	/* la_try_*(): recorded */
	return FEED_DONE;
}

/*
 * An event the look-ahead lets go in the per-type feeds' state (started,
 * no hand-over): a recorded switch or wakeup on a CPU the state has is
 * applied as feed_switch() and feed_wake() apply theirs (true); false,
 * having done nothing, for any other (state.c's deliver() takes it).
 */
static inline __attribute__((always_inline)) bool
apply_type(struct ea_state *s, const struct ea_event *ev)
{
	if ((ev->flags & EA_EVF_SYNTH) ||
	    (unsigned int)ev->cpu >= (unsigned int)s->ncpus)
		return false;
	switch (ev->type) {
	case EA_EV_SWITCH:
		apply_switch_rec(s, ev);
		return true;
	case EA_EV_WAKEUP:
	case EA_EV_WAKING:
	case EA_EV_WAKEUP_NEW:
		apply_wake_rec(s, ev);
		return true;
	default:
		return false;
	}
}

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
