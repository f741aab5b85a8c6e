/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers of the replay tests (test-replay.c, test-sim-apart.c,
 * test-workload-apart.c, test-workload-perturb.c): a workload extracted
 * from a trace, and a digest of the events a simulation delivers.
 */
#ifndef EATRACE_TESTS_REPLAY_EVENTS_H
#define EATRACE_TESTS_REPLAY_EVENTS_H

#include "harness.h"
#include "replay/workload.h"

/* FNV-1a of every simulated event, bytes and comm, in order; n events. */
struct digest {
	uint64_t h, n;
};

#define DIGEST_INIT {14695981039346656037ull, 0}

/* One event and its comm added to d. */
static inline void digest_add(struct digest *d, const struct ea_event *ev,
			      const char *comm)
{
	const unsigned char *b = (const unsigned char *)ev;

	for (size_t i = 0; i < sizeof(*ev); i++)
		d->h = (d->h ^ b[i]) * 1099511628211ull;
	for (size_t i = 0; i < EA_COMM_LEN; i++)
		d->h = (d->h ^ (unsigned char)comm[i]) * 1099511628211ull;
	d->n++;
}

/* A simulation's sink: digest_add() into the struct digest ctx. */
static inline int digest_event(void *ctx, const struct ea_event *ev,
			       const char *comm)
{
	digest_add(ctx, ev, comm);
	return 0;
}

/*
 * The workload of the trace at path, extracted with wcfg (the run kept
 * in *run); a failure fails the test with the error.
 */
static inline struct ea_workload *
workload_of(const char *path, const struct ea_workload_config *wcfg,
	    struct ea_run *run)
{
	struct ea_state_config cfg = {.ncpus = -1};
	struct ea_workload *w;
	struct ea_consumer cons;
	struct ea_err err;

	assert_int_equal(ea_workload_new(&w, wcfg), 0);
	cons = (struct ea_consumer){&ea_workload_ops, w};
	if (ea_run(run, path, &cfg, &cons, 1, &err) ||
	    ea_workload_done(w, run->state, &err))
		fail_msg("%s: %s", path, err.msg);
	return w;
}

#endif
