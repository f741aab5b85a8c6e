// SPDX-License-Identifier: GPL-2.0-only
/*
 * A simulated timeline priced as it is emitted (pricing.h): the events
 * through a state stage into the accountant, as `eatrace report` prices a
 * recording, and to the caller's sink; the last one (the simulator's end
 * marker) kept, so that the timeline can be closed later at a common end,
 * every CPU idle as it was at its own end.
 */
#include <stdlib.h>
#include <string.h>

#include "replay/pricing.h"

struct rp_pricing {
	struct ea_state *st;
	struct ea_acct *acct;
	const struct ea_replay_sink *sink;
	struct ea_err err;
	bool failed, closed;
	uint64_t last_ts; /* the last event fed: its time and type */
	uint8_t last_type;
	/* the last marker fed, and its comm (copied only for a marker: the
	 * close needs it only when it was the last event) */
	struct ea_event marker;
	char marker_comm[EA_COMM_LEN];
};

struct rp_pricing *rp_pricing_new(const struct ea_state_config *scfg,
				  struct ea_acct *acct,
				  const struct ea_replay_sink *sink)
{
	struct rp_pricing *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->acct = acct;
	p->sink = sink;
	if (ea_state_new(&p->st, scfg, &ea_acct_ops, acct)) {
		free(p);
		return NULL;
	}
	return p;
}

int rp_pricing_event(void *ctx, const struct ea_event *ev, const char *comm)
{
	struct rp_pricing *p = ctx;

	if (p->failed)
		return -1;
	if (ea_state_feed(p->st, ev, &p->err)) {
		p->failed = true;
		return -1;
	}
	if (p->sink && p->sink->event(p->sink->ctx, ev, comm)) {
		ea_err_set(&p->err, "writing the simulated trace failed");
		p->failed = true;
		return -1;
	}
	p->last_ts = ev->ts;
	p->last_type = ev->type;
	if (ev->type == EA_EV_MARKER) {
		p->marker = *ev;
		memcpy(p->marker_comm, comm, EA_COMM_LEN);
	}
	return 0;
}

const char *rp_pricing_error(const struct rp_pricing *p)
{
	return p->failed ? p->err.msg : "";
}

int rp_pricing_close(struct rp_pricing *p, uint64_t end_ns, struct ea_err *err)
{
	if (p->closed)
		return 0;
	p->closed = true;
	if (end_ns > p->last_ts && p->last_type == EA_EV_MARKER) {
		/* the same marker, later: nothing changes on any CPU */
		struct ea_event ev = p->marker;

		ev.ts = end_ns;
		snprintf(ev.marker.text, sizeof(ev.marker.text),
			 "eatrace: replay priced to the common end");
		if (rp_pricing_event(p, &ev, p->marker_comm))
			return ea_err_set(err, "%s", p->err.msg);
	}
	if (ea_state_finish(p->st, &p->err))
		return ea_err_set(err, "%s", p->err.msg);
	return ea_acct_done(p->acct, p->st, err);
}

void rp_pricing_free(struct rp_pricing *p)
{
	if (!p)
		return;
	ea_state_free(p->st);
	free(p);
}
