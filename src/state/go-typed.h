/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * go_typed(), inline in both block loops: state.c's for recorded events
 * and feed-derived.c's for a state fed derived events. The includer has
 * deliver() and go_held() in scope (state.c's own; feed-derived.c's
 * forward to state.c's, state_deliver() and state_go_held(), out of line
 * as state.c's loop calls them).
 */
#ifndef EATRACE_STATE_GO_TYPED_H
#define EATRACE_STATE_GO_TYPED_H

#include "state/feed-type.h"

/*
 * go_held() of an event the per-type feeds scanned and hold back
 * (FEED_SCANNED; started, no hand-over, sorted input): the same events
 * let go in the same order, the recorded switches and wakeups applied by
 * type (apply_type()), and ev itself without the copy through the ring
 * when all before it go and it may go too. With a synthetic event
 * waiting, go_held() (la_pop() orders it among them).
 */
static inline __attribute__((always_inline)) int
go_typed(struct ea_state *s, const struct ea_event *ev, struct ea_err *err)
{
	struct lookahead *la = &s->la;

	if (la->nsynth)
		return go_held(s, ev, err);
	/* la_pop_early()'s test: ev's key is la->next_seq, after them */
	while (la->len && la_may_go(la, head_seq(la))) {
		const struct ea_event *out = la_pop_ring(la);

		if (!apply_type(s, out) && deliver(s, out, err))
			return -1;
	}
	if (!la->len && la_may_go(la, la->next_seq)) {
		if (!apply_type(s, ev) && deliver(s, ev, err))
			return -1;
		return 0;
	}
	return la_store(la, ev) ? ea_err_set(err, "out of memory") : 0;
}

#endif
