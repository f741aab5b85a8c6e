/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The simulator as its driver (replay.c) sees it: one policy's run over a
 * workload on a platform, the events it emits, the figures it measures.
 * Its state is private to its files (sim.h).
 */
#ifndef EATRACE_REPLAY_SIMULATOR_H
#define EATRACE_REPLAY_SIMULATOR_H

#include <stddef.h>

#include "eatrace/replay.h"
#include "replay/governor.h"
#include "replay/idle.h"
#include "replay/policy.h"

struct sim;

struct sim_config {
	const struct ea_workload *w;
	const struct ea_model *m; /* the platform replayed on */
	const struct rp_policy *policy;
	const struct rp_gov_spec *gov; /* copied (its fixed_k not owned) */
	enum rp_idle_sel idle;
	enum ea_replay_work work; /* 0: auto */
	bool same_platform; /* ea_replay_config.same_platform */
	uint32_t assumed_khz; /* ea_acct_config.assumed_khz */
	bool no_latencies; /* ea_replay_config.no_latencies: lat, floor
			      NULL in its metrics */
};

/*
 * Latencies, ns, in 4 bytes each (lats.c): grouped by their high 32 bits,
 * b[h].lo the low 32 bits of those v with v >> 32 == h, in the order put;
 * zeros only counted (nzero).
 */
struct sim_lat_bucket {
	uint32_t *lo;
	size_t n, cap;
};

struct sim_lats {
	struct sim_lat_bucket *b;
	size_t nb, n; /* groups, values in all */
	size_t nzero; /* of n, zeros (in no group) */
};

/* Room for n in the first group at once; 0, or -1 out of memory. */
int sim_lats_init(struct sim_lats *l, size_t n);
int sim_lats_put(struct sim_lats *l, uint64_t v); /* 0, or -1 (memory) */
void sim_lats_clear(struct sim_lats *l);
void sim_lats_free(struct sim_lats *l);
/* p50, p90, p99 (nearest rank) and max of l's values (reorders them). */
void sim_lats_percentiles(struct sim_lats *l, uint64_t out[4]);

/* What a run measured, in the metrics' window (ea_workload_counts.win_*). */
struct sim_metrics {
	/* wakeup latencies (the simulator's: the caller may reorder
	 * them), nlat of them; NULL: not kept */
	struct sim_lats *lat;
	/* of each, the part the recording supplies (its gaps) */
	struct sim_lats *floor;
	size_t nlat;
	uint64_t wait_ns, late, overutil_ns, migrations, events;
	uint64_t placements; /* activations placed (a CPU chosen) */
	uint64_t floor_wait_ns; /* of wait_ns, the recording's gaps */
	uint64_t end_ns; /* when its last task was done, at least the
			    trace's last instant */
};

/* A simulator for one run; NULL with a one-line message in err (n bytes). */
struct sim *sim_new(const struct sim_config *cfg, char *err, size_t n);
void sim_delete(struct sim *s);
/* The CPUs simulated: the model's, or the recorded ones if fewer (same
 * platform). */
int sim_ncpus(const struct sim *s);
/* Where the events go; returns 0 or -1 (the run fails). */
void sim_set_sink(struct sim *s,
		  int (*sink)(void *ctx, const struct ea_event *ev,
			      const char *comm),
		  void *ctx);
/* The sink reads no comm (it gets "" for each event): none is copied. */
void sim_sink_no_comms(struct sim *s);
/*
 * The sink on a thread of its own (after sim_set_sink() and
 * sim_sink_no_comms(), before sim_run(); sim-apart.c) until sim_run()
 * ends: the same events in the same order, while the simulator goes on.
 * 0, or -1 (no thread: the sink is called on the simulator's, as before).
 */
int sim_apart_start(struct sim *s);
/*
 * The arrivals merged ahead on a thread of its own (before sim_run(), after
 * sim_measure_idle(); sim-ahead.c) until sim_run() ends: chunks of `chunk`
 * arrivals (0: SIM_AHEAD_CHUNK). 0, or -1 (no thread: merged as before).
 */
int sim_ahead_start(struct sim *s, size_t chunk);
/* --idle oracle's first pass: a run without output measuring each idle
 * period, then back to the start. 0 or -1 (sim_error()). */
int sim_measure_idle(struct sim *s);
/* Run until every task's work is done and at least to the trace's end,
 * emitting to the sink. 0 or -1 (sim_error()). */
int sim_run(struct sim *s);
const char *sim_error(const struct sim *s);
void sim_get_metrics(struct sim *s, struct sim_metrics *out);
/* cpu's task busy time (ns) and work done (ns x capacity) in the window. */
void sim_cpu_totals(const struct sim *s, int cpu, uint64_t *busy_ns,
		    uint64_t *work);

#endif
