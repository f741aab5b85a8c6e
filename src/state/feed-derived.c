// SPDX-License-Identifier: GPL-2.0-only
/*
 * state_feed_block() for a state fed derived events (feed-derived.h), a
 * file of its own: state.c's loop for recorded events compiles as it did
 * (a second copy of it there changed what the compiler inlines in the
 * first). The same events in the same order, the same outcome: once
 * steady (started, sorted input, a deep look-ahead; no hand-over, ring_ts
 * grown) a switch or wakeup goes to the per-type feeds, a derived one to
 * feed_derived_type() at once (feed_any_type()); a held-back one to
 * go_typed(), inline as in state.c's loop; anything else, and everything
 * before, to ea_state_feed(), which once state_steady() does what state.c's
 * loop does inline (feed_held() is then feed_steady()).
 */
#include "state/feed-derived.h"

/* go_typed()'s calls (go-typed.h): state.c's, out of line as there */
static inline int deliver(struct ea_state *s, const struct ea_event *ev,
			  struct ea_err *err)
{
	return state_deliver(s, ev, err);
}

static inline int go_held(struct ea_state *s, const struct ea_event *ev,
			  struct ea_err *err)
{
	return state_go_held(s, ev, err);
}

#include "state/go-typed.h"

int state_feed_block_derived(struct ea_state *s, const struct ea_event *evs,
			     size_t n, size_t *at, struct ea_err *err)
{
	bool fast = state_steady(s);
	/* the per-type feeds apply here: not with a hand-over; and once
	 * ring_ts is grown (la_ts_grown(): it then stays so) */
	bool typed = !s->handoff && la_ts_grown(&s->la);

	for (size_t i = 0; i < n; i++) {
		const struct ea_event *ev = &evs[i];
		int rc;

		/* another thread decoded the block (state.c's loop) */
		uintptr_t ahead = (uintptr_t)ev + 8 * sizeof(*evs);

		__builtin_prefetch((const void *)ahead);
		__builtin_prefetch((const void *)(ahead + 64));
		if (fast && typed) {
			enum feed_type_result r = feed_any_type(s, ev);

			if (r == FEED_DONE)
				continue;
			if (r == FEED_SCANNED) {
				rc = go_typed(s, ev, err);
				goto done;
			}
		}
		rc = ea_state_feed(s, ev, err);
		fast = state_steady(s);
	done:
		if (rc) {
			*at = i;
			return -1;
		}
	}
	return 0;
}
