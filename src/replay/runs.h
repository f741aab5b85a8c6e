/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Replays beyond the report's own (runs.c): every policy on each of
 * several workloads, a perturbed copy of the recording's or the
 * recording's on another model, in threads; for ensemble.c and
 * sensitivity.c.
 */
#ifndef EATRACE_REPLAY_RUNS_H
#define EATRACE_REPLAY_RUNS_H

#include "eatrace/replay.h"

struct rp_job {
	/* a perturbed copy (rp_workload_perturb()): its cut, jitter and
	 * seed; false: the workload as it is */
	bool perturb;
	uint64_t cut_ns, jitter_ns, seed;
	const struct ea_model *model; /* NULL: each config's own */
	int policy; /* only cfgs[policy]; -1: every one */
};

/* What a job measured of policy p: energy over the job's window and its
 * wakeup part (power_unit x s), the window's length (ns). */
struct rp_job_out {
	double energy, wakeup;
	uint64_t win_ns;
	uint64_t decisions, placements; /* its ea_replay_result's lat_n,
					   placements */
};

/*
 * Every cfgs[p] (or the job's one) on every job, priced to the job's
 * common end (ea_replay_close()), up to threads jobs at
 * once (with twice as many threads as jobs or more, each run's pricing on
 * a thread of its own: ea_replay_config.price_apart), into
 * out[j * npol + p]. Deterministic: a job's results do not depend on
 * the threads. progress as ea_ensemble_config's. 0, or -1 + err.
 */
int rp_run_jobs(const struct ea_workload *w,
		const struct ea_replay_config *cfgs, int npol,
		const struct rp_job *jobs, int njobs, int threads,
		struct rp_job_out *out,
		void (*progress)(void *ctx, int done, int n), void *ctx,
		struct ea_err *err);

#endif
