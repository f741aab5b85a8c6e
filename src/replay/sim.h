/* SPDX-License-Identifier: GPL-2.0-only */
/* The simulator's state (sim.c), shared with its driver (replay.c). */
#ifndef EATRACE_REPLAY_SIM_H
#define EATRACE_REPLAY_SIM_H

#include "replay/governor.h"
#include "replay/idle.h"
#include "replay/policy.h"
#include "replay/workload.h"
#include "state/pelt.h"

struct sim_arrival {
	uint64_t t, seq;
	uint32_t task, act;
};

struct sim_task {
	uint64_t rem;		/* its work left, ns x cap; UINT64_MAX: open
				   (following segments: the segment's) */
	uint64_t until;		/* demand: runnable until then (its recorded
				   end), UINT64_MAX: the trace's end */
	struct ea_pelt pelt;
	const struct rp_task *w;
	size_t next;		/* activations released: [0, next) */
	size_t cur;		/* the one being served */
	uint32_t seg;		/* segment being served (follow_segments) */
	bool rt;		/* RT or deadline: never placed by a CFS policy
				   nor balanced; runs before CFS tasks */
	uint32_t weight;	/* CFS: its nice level's load weight */
	bool runnable;		/* queued or running */
	bool served;		/* acts[cur] has had the CPU */
	int cpu;		/* CPU queued/running on, else the last, -1 */
	int pelt_cpu;		/* CPU whose signal holds its util, -1 */
	int pin;		/* -1 */
	const struct ea_pin *upin;	/* --pin to several CPUs, NULL */
	uint64_t wait_from;	/* queued since */
	uint64_t wake_sum, wake_last_ms;	/* RFC wakeup_avg_sum */
	uint32_t ue_ewma;	/* util_est (mainline 6.9+), set at sleep */
};

/* A task moving to its next recorded segment's CPU. */
struct sim_move {
	uint64_t t;
	int task;
};

struct sim_cpu {
	/*
	 * Its PELT signal, its task's work left, PELT signal and its busy
	 * time are advanced lazily (sim.c "Lazy time"): they are as of
	 * sync_t, and curr and rate have not changed since.
	 */
	struct ea_pelt pelt;
	uint64_t slice_end;
	uint64_t task_busy_ns;	/* in the window (w->counts.win_*) */
	uint64_t work;		/* done in the window: ns x capacity */
	int curr;		/* task index, -1 */
	uint32_t rate;		/* capacity at cap_idx: its work rate */
	uint32_t over_util;	/* util from which it is overutilised */
	int nrq;
	uint64_t sync_t;
	uint64_t pelt_b;	/* when its or its task's signal next
				   crosses a period (no sooner) */
	uint64_t curr_step;	/* the step curr began running at */
	/* ... and then often. */
	bool in_busy0;		/* in a recorded idle-task stretch */
	/* What the emitted stream says. */
	bool e_fresh, e_idle;
	int16_t e_state;
	int32_t e_pid;
	int e_task;		/* task index of e_pid, -1 */
	uint64_t kmax;		/* emission key floor within the bucket */
	uint64_t kmax_bucket;	/* ... if this one (sim.nbuckets), else 0 */
	int *rq;		/* waiting tasks, FIFO */
	int rq_cap;
	/* next_time(): its task's finish time, from rem at fin_now and rate */
	uint32_t fin_rate;
	uint64_t fin_t, fin_rem, fin_now;
	int cluster;
	int dom;		/* frequency domain (index in sim.doms) */
	uint32_t cap_orig;	/* capacity at the top OPP */
	uint64_t busy0_end, busy0_seq_end;
	bool busy0_to_idle;
	int cap_idx;		/* OPP index of its domain; see khz */
	uint32_t khz;		/* 0: unknown (recorded governor only) */
	uint64_t idle_since;
	/* Idle selection. */
	size_t rec_idle;	/* cursor in the recorded idle timeline */
	uint64_t hist[RP_MENU_HIST];
	int nhist;
	uint64_t *idle_lens;	/* oracle: lengths of its idle periods */
	size_t nidle_lens, idle_lens_cap, idle_period;
};

struct sim_out {
	struct ea_event ev;
	uint64_t key;
	uint32_t order;
	char comm[EA_COMM_LEN];
};

struct sim {
	const struct ea_workload *w;
	const struct ea_model *m;
	const struct rp_policy *policy;
	enum rp_gov gov;
	/* the governor's parameters (sim_init: gov's defaults; the driver
	 * may replace it before sim_run; fixed_k not owned) */
	struct rp_gov_spec gspec;
	uint64_t *dom_last;	/* schedutil: last frequency change, or
				   UINT64_MAX: none yet */
	bool gov_pending;	/* a change waits for the rate limit */
	enum rp_idle_sel idle;
	enum ea_replay_work work;	/* set after sim_init(); 0: auto */
	bool same_platform;
	bool oracle_pass1;	/* measuring idle lengths for `oracle` */
	bool asymmetric;	/* rp_asymmetric(m), for the policies */
	bool rec_idle_tl;	/* idle states follow the recorded timeline */
	uint32_t assumed_khz;
	int ncpus;
	int *cpu_map, nsrc;	/* recorded CPU -> CPU (cpumap.c) */
	struct sim_cpu *cpus;
	struct sim_task *tasks;
	size_t ntasks;
	/*
	 * Arrivals in (t, seq, task) order: a heap of each task's next one
	 * when every task's own arrivals are in that order (heap, nheap),
	 * else all of them sorted (arr, narr, ai).
	 */
	struct sim_arrival *heap;
	size_t nheap;
	struct sim_arrival *arr;
	size_t narr, ai;
	/* frequency domains in order of their first CPU: the CPUs of d are
	 * dom_cpu[dom_start[d] .. dom_start[d + 1]), ascending */
	int ndoms;
	int *dom_start, *dom_cpu;
	bool util_dirty;	/* some CPU's util_avg may have changed since
				   the governor last ran */
	int *dom_k;		/* governor: the OPP it chose last, -1 */
	uint32_t *dom_util;	/* ... for this util */
	size_t bi, fi;		/* cursors: idle-task stretches, frequencies */
	/* The recording's offline and suspended stretches (same platform
	 * only), by (start, seq), and the cursor; per CPU, offline until
	 * off_until, its end still to tell the output trace (off_end). */
	struct rp_off *offs;
	size_t noffs, oi;
	uint64_t *off_until;
	const struct rp_off **off_end;
	struct sim_move *moves;
	size_t nmoves, moves_cap;
	uint64_t now, first_ts, last_ts, next_tick;
	uint64_t win0, win1;	/* the metrics' window (counts.win_*) */
	uint32_t cap_max;	/* the biggest CPU's top capacity */
	uint64_t t_rec;		/* the next arrival, move, idle-task stretch
				   or recorded frequency: no sooner */
	uint64_t nstep;		/* steps advanced */
	uint64_t pelt_next;	/* no later than any CPU's pelt_b */
	bool over_stale;	/* some CPU's util_avg may have changed since
				   advance() set overutilised */
	bool started;
	int nin_busy0;		/* CPUs in a recorded idle-task stretch */
	int *done, ndone;	/* CPUs whose task's work ran out (advance) */
	/* CPUs in the order they are visited where the first wins: the
	 * biggest first, then by id (sim.c order_cpus()); cpos: its inverse */
	int *corder, *cpos;
	/* sets of CPUs, as bits of their positions in corder: [nw] words */
	int nw;			/* ncpus / 64 + 1 */
	uint64_t *nt;		/* next_time(): each CPU's, unless nt_dirty */
	uint64_t *nt_dirty;
	uint64_t *pk_dirty;	/* touched since pick() last looked */
	uint64_t *due;		/* nt <= now: their time has come */
	/* policy view, refreshed at each wakeup */
	uint32_t *env_util;
	uint32_t *env_ue;	/* each CPU's util_est: its runnable tasks' */
	int *env_cap, *env_nr;
	struct rp_cl_cache *clc;	/* the model, as the policies use it */
	char (*comms)[EA_COMM_LEN];	/* each task's, as emitted */
	char (*swapper)[EA_COMM_LEN];	/* each CPU's idle task's */
	/* output: events of past instants, ordered, before bucket0; then
	 * those at time `now`, ordered when the next instant comes */
	struct sim_out *out;
	size_t nout, out_cap, bucket0;
	uint64_t nbuckets;	/* closed */
	uint32_t order;
	int (*sink)(void *ctx, const struct ea_event *ev, const char *comm);
	void *sink_ctx;
	int sink_err;
	/* metrics */
	uint64_t *lat;
	size_t nlat, lat_cap;
	uint64_t wait_ns, late, overutil_ns, migrations, events;
	bool overutilised;
	bool over_sticky;	/* overutilised since the last periodic balance
				   that found nothing over (rp_balance) */
	char error[128];
};

int sim_init(struct sim *s, const struct ea_workload *w, const struct ea_model *m,
	     const struct rp_policy *p, enum rp_gov g, enum rp_idle_sel idle,
	     bool same_platform, uint32_t assumed_khz);
/* Run to the end, emitting to s->sink. 0 or -1 with s->error. */
int sim_run(struct sim *s);
/* For tests: one step of sim_run() (the next instant something is due);
 * false once none is left before the end, or on error. sim_run() then
 * finishes the run. */
bool sim_step(struct sim *s);
/* util_est_update() at a sleep: the task's new util_est from its last
 * (ewma), its util at dequeue and its CPU's top capacity (sim.c). */
uint32_t rp_util_est_update(uint32_t ewma, uint32_t dequeued, uint32_t cap);
/* For tests: take the arrivals from one sorted array, as when some task's
 * are out of order, instead of the heap; resets. 0 or -1 (memory). */
int sim_sort_arrivals(struct sim *s);
/* Keep the oracle's idle lengths, reset everything else for a new run. */
int sim_rewind(struct sim *s);
void sim_free(struct sim *s);

#endif
