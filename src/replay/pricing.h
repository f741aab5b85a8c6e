/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A simulated timeline priced as the simulator emits it (pricing.c): the
 * events go into a fresh state stage driving the accountant, and to the
 * --emit-trace or pictures sink; the pricing stays open at the run's own
 * end until closed at a common one (docs/replay.md "Work").
 */
#ifndef EATRACE_REPLAY_PRICING_H
#define EATRACE_REPLAY_PRICING_H

#include "eatrace/replay.h"

struct rp_pricing;

/* Pricing into acct (initialised, not done) with scfg; sink may be NULL.
 * NULL: out of memory. */
struct rp_pricing *rp_pricing_new(const struct ea_state_config *scfg,
				  struct ea_acct *acct,
				  const struct ea_replay_sink *sink);
/* The simulator's sink (sim_set_sink()): ctx is the rp_pricing. 0 or -1. */
int rp_pricing_event(void *ctx, const struct ea_event *ev, const char *comm);
/* Why an event was refused (after rp_pricing_event() gave -1), or "". */
const char *rp_pricing_error(const struct rp_pricing *p);
/*
 * Close the timeline at end_ns: past its last event (the simulator's end
 * marker) every CPU stays as it was there, idle, to end_ns, which a marker
 * then closes; the state stage finishes and the accountant is done. 0, or
 * -1 with err.
 */
int rp_pricing_close(struct rp_pricing *p, uint64_t end_ns, struct ea_err *err);
void rp_pricing_free(struct rp_pricing *p);

#endif
