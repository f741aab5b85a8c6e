/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Counterfactual replay (SPEC "Replay", docs/replay.md).
 *
 * 1. Workload extraction: a state consumer (ea_workload_ops) turns the
 *    recorded trace into per-task activations (release, work in
 *    capacity-invariant units, recorded end) plus the CPU-local timelines the
 *    `recorded` choices need (idle-task busy stretches, frequencies, idle
 *    states). Memory grows with activations: about 64 bytes each.
 * 2. Simulation: a deterministic discrete-event simulator places every
 *    activation with a policy, shares CPUs among runnable tasks, picks OPPs
 *    and idle states, and emits the resulting timeline as ea_events.
 * 3. Pricing: those events are fed into a fresh ea_state with the very same
 *    accountant as `eatrace report`.
 */
#ifndef EATRACE_REPLAY_H
#define EATRACE_REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "eatrace/energy.h"
#include "eatrace/event.h"
#include "eatrace/model.h"
#include "eatrace/state.h"

struct ea_workload;
struct rp_pricing;	/* src/replay/pricing.c's */

#define EA_PIN_WORDS (EA_MAX_CPUS / 64)

/* --pin PID=CPULIST or COMM=CPULIST: CPUs of the platform replayed on. */
struct ea_pin {
	const char *pattern;	/* fnmatch(3) on the comm; NULL: by pid */
	int32_t pid;
	uint64_t cpus[EA_PIN_WORDS];	/* bit per CPU */
};

/* "0-2,4" into mask (EA_PIN_WORDS words): how many CPUs, or -1 if it is
 * not a list of CPUs below max_cpus. */
int ea_cpulist_parse(const char *text, uint64_t *mask, int max_cpus);
/* The lowest CPU of a pin, -1: none. */
int ea_pin_first_cpu(const struct ea_pin *pin);

struct ea_workload_config {
	/* Capacity of the recorded CPUs at each frequency (work units). */
	const struct ea_model *model;
	/* > 0: every recorded CPU had this capacity, whatever its frequency
	 * (a trace from a machine without a model). */
	uint32_t source_capacity;
	uint32_t assumed_khz;	/* as ea_acct_config: for unknown frequency */
	const struct ea_pin *pins;
	int npins;
	/* Also pin tasks for having stayed on one CPU over 10+ activations
	 * (--auto-pin; never on another platform). Default: only per-CPU
	 * kthread names and pins. */
	bool auto_pin;
	/* Keep no per-CPU segments of the activations: only a policy that
	 * follows the recording's moves (ea_replay_policy_follows()) reads
	 * them, and they cost memory per activation. */
	bool no_segments;
	/* Keep the runs of tasks that began in the trace's first early_ns,
	 * so that an ensemble can cut the start anywhere in them
	 * (ea_replay_ensemble(), ea_ensemble_config.cut_max_ns); 0: none. */
	uint64_t early_ns;
};

/* Per-workload figures, for reports. */
struct ea_workload_counts {
	uint64_t tasks, activations;
	uint64_t at_start;	/* activations running or runnable at the start */
	uint64_t open;		/* never blocked before the end: stay runnable */
	uint64_t never_ran;	/* wakeups the trace never ran: not replayed */
	uint64_t pinned_tasks;
	uint64_t rt_tasks;	/* RT or deadline (prio < 100): kept on the
				   (mapped) CPU they ran on */
	uint64_t split;		/* activations that ran on several CPUs */
	uint64_t idle_busy;	/* stretches of CPU time in the idle task */
	uint64_t lost_span;	/* events were lost between their wakeup and
				   first run: no latency sample */
	uint64_t first_ts, last_ts;
	/* --start/--end clipped to [first_ts, last_ts]: the figures of each
	 * policy (duration, busy time, work, latency, wait, late,
	 * overutilised time) cover this window, as the energy does */
	uint64_t win_start, win_end;
	/* the window reaches the trace's end (no --end before it): the
	 * figures go on past it, to the end each policy is priced to */
	bool win_past_end;
	int ncpus;
};

int ea_workload_new(struct ea_workload **w, const struct ea_workload_config *cfg);
void ea_workload_free(struct ea_workload *w);
extern const struct ea_state_ops ea_workload_ops;
/*
 * The workload's extraction on a thread of its own
 * (src/replay/workload-apart.c): a consumer for ea_run() in place of
 * {&ea_workload_ops, w}, ctx the ea_workload_apart, whose calls are made
 * on w by that thread, in the same order (the same workload). Started
 * before ea_run(): 0, or -1 (no thread: use ea_workload_ops). Ended after
 * it, whatever its result, before w is read or freed: every call handed
 * over made, the thread ended, *a freed (NULL: nothing).
 */
struct ea_workload_apart;
int ea_workload_apart_start(struct ea_workload_apart **a,
			    struct ea_workload *w);
extern const struct ea_state_ops ea_workload_apart_ops;
void ea_workload_apart_end(struct ea_workload_apart *a);
/* After ea_state_finish(): closes open activations, sorts. 0 or -1 + err. */
int ea_workload_done(struct ea_workload *w, const struct ea_state *s,
		     struct ea_err *err);
const struct ea_workload_counts *ea_workload_counts(const struct ea_workload *w);

/* Policies, governors and idle selectors, by name. */
int ea_replay_policy_count(void);
const char *ea_replay_policy_name(int i);
const char *ea_replay_policy_summary(int i);
int ea_replay_policy_find(const char *name);	/* index or -1 */
/* Whether the policy moves tasks as the recording did (`recorded`): it
 * needs the workload's segments (ea_workload_config.no_segments). */
bool ea_replay_policy_follows(const char *name);
bool ea_replay_governor_valid(const char *name);	/* syntax only */
/* A --governor against the model it runs on (fixed: its clusters and
 * OPPs). 0, or -1 with a one-line err. */
int ea_replay_governor_check(const char *governor, const struct ea_model *m,
			     struct ea_err *err);
bool ea_replay_idle_valid(const char *name);

/* Where the simulated events go besides the accountant (--emit-trace). */
struct ea_replay_sink {
	/* cur_comm: the comm of ev->cur_pid. Returns 0 or -1 (errno). */
	int (*event)(void *ctx, const struct ea_event *ev, const char *cur_comm);
	void *ctx;
};

/*
 * What an activation asks of the replay (--work, docs/replay.md "Work"):
 * DEMAND, the CPU from its release to its recorded end, whatever the
 * platform's speed; FIXED, the work it received in the recording; AUTO,
 * demand for those that never slept (ran or waited until the task exited
 * or the trace ended), fixed for the others.
 */
enum ea_replay_work { EA_WORK_AUTO, EA_WORK_DEMAND, EA_WORK_FIXED };
/* "auto", "demand", "fixed": the mode, or -1. */
int ea_replay_work_parse(const char *name);

struct ea_replay_config {
	const struct ea_model *model;	/* the platform replayed on */
	const char *policy;		/* ea_replay_policy_name() */
	const char *governor;		/* recorded|schedutil[:rate_limit_us=N]|
					   performance|powersave|fixed:CL=KHZ,.. */
	const char *idle;		/* recorded|menu|oracle */
	enum ea_replay_work work;	/* --work; 0: auto */
	/* The workload was recorded on `model` (no --target-model): recorded
	 * CPU ids, frequencies and idle states apply as they are. */
	bool same_platform;
	/* Window and swapper idle state for pricing, as `report` uses. */
	struct ea_state_config state_cfg;
	struct ea_acct_config acct_cfg;
	const struct ea_replay_sink *sink;	/* NULL: none */
	/* Leave the result's pricing open at its own end (end_ns), for
	 * ea_replay_close() to close at the common end of several runs
	 * (the sink must live until then); false: closed at its own end. */
	bool keep_open;
	/* Keep no latency samples: the result's latency and floor
	 * percentiles are 0 (lat_n still counts them). For runs whose
	 * energy alone is read (ensemble members, sensitivity): 16 bytes
	 * less per activation while the run lasts. */
	bool no_latencies;
	/* Price the simulated timeline on a thread of its own, beside the
	 * simulator (src/replay/sim-apart.c): for a run with a core to
	 * spare, not for runs already side by side. The same figures. */
	bool price_apart;
};

/* Tolerance of `late`: 1 ms. */
#define EA_REPLAY_LATE_NS 1000000ull

struct ea_replay_result {
	char policy[32];
	struct ea_acct acct;		/* the simulated timeline, priced (per
					   CPU and cluster: no task figures) */
	/* Performance: wakeup-to-run latency percentiles (ns), over
	 * activations with a recorded wakeup in the window that ran (lat_n;
	 * 0: not available, e.g. no sched_wakeup in the trace). */
	uint64_t lat_p50, lat_p90, lat_p99, lat_max;
	uint64_t lat_n;
	/* The latency floor: of each of those latencies, the part the
	 * recording supplies (its wakeup-to-switch-in gaps, docs/replay.md
	 * "Idle exit and the latency floor"), its percentiles over the same
	 * lat_n activations */
	uint64_t floor_p50, floor_p90, floor_p99, floor_max;
	uint64_t wait_ns;		/* runnable, not running */
	uint64_t wait_floor_ns;		/* of wait_ns, the recording's gaps */
	/* of those lat_n, finished later than both their recorded end and
	 * their work on the platform's biggest CPU at its top OPP allows,
	 * by more than EA_REPLAY_LATE_NS */
	uint64_t late;
	uint64_t overutilised_ns;	/* some CPU above 80% of its capacity */
	uint64_t migrations;		/* placements or pulls to another CPU */
	uint64_t events;		/* simulated events emitted */
	/* placement decisions: the activations the simulator chose a CPU
	 * for, every one (lat_n counts those measured) */
	uint64_t placements;
	uint64_t *cpu_busy_ns;		/* per simulated CPU, ncpus entries */
	/* Work done in the window, ns x capacity (the target model's
	 * units): per CPU, ncpus entries, and in all */
	uint64_t *cpu_work;
	uint64_t work;
	int ncpus;
	/* Absolute ns: its own end (every task's work done, at least the
	 * trace's last event; past it by end_ns - wl.last_ts), and the end
	 * it is priced to (end_ns, or the latest end_ns of the runs closed
	 * together: idle from its own end on) */
	uint64_t end_ns, priced_to_ns;
	struct rp_pricing *pricing;	/* open (keep_open), else NULL */
};

/*
 * Simulate w with cfg and price the result into r (r->acct initialised
 * here; free with ea_replay_result_free). Deterministic. 0 or -1 + err.
 */
int ea_replay_run(const struct ea_workload *w, const struct ea_replay_config *cfg,
		  struct ea_replay_result *r, struct ea_err *err);
/*
 * Price the open results of r[0, n) (cfg.keep_open) on to the latest
 * end_ns among r[0, n), every CPU idle from its own run's end, and close
 * them (priced_to_ns; their sinks are done with). The same work for every
 * policy, priced over the same time (docs/replay.md "Work"). 0 or -1 + err.
 */
int ea_replay_close(struct ea_replay_result *r, int n, struct ea_err *err);
void ea_replay_result_free(struct ea_replay_result *r);

/*
 * Uncertainty (--ensemble N, src/replay/ensemble.c, docs/replay.md
 * "Ensemble"): every policy replayed again on n perturbed copies of the
 * workload (src/replay/workload-perturb.c: the start cut at a point drawn
 * in [0, cut range], each activation released up to jitter_ns later),
 * the same copy for every policy in one member, for the mean of each
 * policy's energy and of its ratio to the baseline, paired by member,
 * each with its 95% prediction interval (Student t; on the log ratios):
 * where one more perturbed replay's answer falls.
 */
/* --ensemble's defaults (docs/replay.md "Ensemble"): members, the most
 * it takes, the start cut's range, the wakeups' delay, the intervals'
 * confidence, the seed. */
#define EA_REPLAY_ENSEMBLE_N 10
#define EA_REPLAY_ENSEMBLE_MAX 1000
#define EA_REPLAY_CUT_MAX_NS 5000000ull
#define EA_REPLAY_JITTER_NS 5000ull
#define EA_REPLAY_CONFIDENCE 0.95
#define EA_REPLAY_SEED 1ull

struct ea_ensemble_config {
	int n;			/* members, >= 2 */
	uint64_t seed;		/* --seed: the same seed, the same members */
	/* cuts are drawn in [0, min(cut_max_ns, the window's length / 100)],
	 * counted from the trace's start; at most the workload's
	 * ea_workload_config.early_ns */
	uint64_t cut_max_ns;
	uint64_t jitter_ns;
	double confidence;	/* of the intervals, e.g. 0.95 */
	int baseline;		/* index into the policies, -1: no ratios */
	int threads;		/* members replayed at once (0, 1: one) */
	/* as each member ends, one call at a time; NULL: none */
	void (*progress)(void *ctx, int done, int n);
	void *progress_ctx;
};

/* Ratios to the baseline whose interval lies below, above or around 1. */
enum ea_ensemble_verdict {
	EA_ENSEMBLE_NONE,	/* no interval (no baseline, no energy) */
	EA_ENSEMBLE_BASELINE,	/* the baseline itself */
	EA_ENSEMBLE_SAVES,	/* interval below 1 */
	EA_ENSEMBLE_COSTS,	/* interval above 1 */
	EA_ENSEMBLE_INCONCLUSIVE, /* interval includes 1: no change */
};

struct ea_ensemble_policy {
	/* per member: energy (power_unit x s) over the member's window,
	 * scaled to the whole window's length (x window / member window) */
	double *energy;
	double energy_mean, energy_lo, energy_hi;	/* NaN: none */
	/* per member: energy / the baseline's in the same member; NULL:
	 * no baseline */
	double *ratio;
	double ratio_mean, ratio_lo, ratio_hi;	/* geometric mean; NaN: none */
	enum ea_ensemble_verdict verdict;
};

struct ea_ensemble {
	struct ea_ensemble_config cfg;
	uint64_t cut_range_ns;	/* the cuts were drawn in [0, this] */
	uint64_t *cut_ns;	/* per member */
	int npol;
	struct ea_ensemble_policy *pol;	/* as cfgs */
	/* of all its runs: ea_replay_result.lat_n, .placements, summed */
	uint64_t decisions, placements;
};

/*
 * The ensemble of w (extracted with early_ns >= cfg->cut_max_ns) under
 * each of cfgs[0, npol) (their sinks unused). Deterministic whatever the
 * threads. 0, or -1 + err; free with ea_ensemble_free() either way.
 */
int ea_replay_ensemble(const struct ea_workload *w,
		       const struct ea_replay_config *cfgs, int npol,
		       const struct ea_ensemble_config *cfg,
		       struct ea_ensemble *out, struct ea_err *err);
void ea_ensemble_free(struct ea_ensemble *e);
/* "saves", "costs", "inconclusive", "baseline", NULL (NONE). */
const char *ea_ensemble_verdict_name(enum ea_ensemble_verdict v);

/*
 * How much of each answer is wakeup energy (src/replay/sensitivity.c,
 * docs/replay.md "Sensitivity"), from the replays of the report (res):
 * each policy's share of wakeup energy, its ratio to the baseline with
 * the same timelines priced without wakeup energy (`report
 * --no-wakeups`), and with every policy replayed again on the model
 * whose wakeup energies are zero (placements that read them, such as
 * eas-rfc's, then change).
 */
struct ea_sensitivity_policy {
	double wakeup_share;		/* wakeup / energy; NaN: no energy */
	double ratio_repriced;		/* NaN: no baseline, or 0 */
	double ratio_resimulated;	/* NaN: no baseline, or 0 */
	double energy_resimulated;	/* power_unit x s */
};

struct ea_sensitivity {
	int npol, baseline;
	struct ea_sensitivity_policy *pol;	/* as cfgs */
	/* of its runs: ea_replay_result.lat_n, .placements, summed */
	uint64_t decisions, placements;
};

/* threads as ea_ensemble_config's. 0, or -1 + err; free either way. */
int ea_replay_sensitivity(const struct ea_workload *w,
			  const struct ea_replay_config *cfgs, int npol,
			  const struct ea_replay_result *res, int baseline,
			  int threads, struct ea_sensitivity *out,
			  struct ea_err *err);
void ea_sensitivity_free(struct ea_sensitivity *s);

/*
 * Decision-level validation (replay --shadow, src/replay/shadow.c): a
 * state consumer that, at every recorded sched_wakeup, asks a policy where
 * it would place the task on the recorded state and compares with the
 * kernel's target_cpu.
 */
/* One decision, for --emit-decisions. */
struct ea_shadow_decision {
	uint64_t ts;			/* the sched_wakeup's, ns */
	int32_t pid;
	const char *comm;
	int prev_cpu, recorded_cpu, policy_cpu;
	int kind;			/* ea_shadow_result's index of n[] */
	int ncpus;
	/* per CPU, the policy's own estimate of placing the task there, in
	 * the model's power_unit per window (feec: compute_energy() with
	 * minus without, the CPU's perf domain; eas-rfc: energy_diff_util());
	 * NaN: none */
	const double *energy;
};

/* Where the decisions go: begin() once (the model's CPUs), decision() at
 * each, end() from ea_shadow_done(). */
struct ea_shadow_sink {
	void (*begin)(void *ctx, int ncpus);
	void (*decision)(void *ctx, const struct ea_shadow_decision *d);
	void (*end)(void *ctx);
	void *ctx;
};

struct ea_shadow_config {
	const struct ea_model *model;	/* the recorded platform */
	const char *policy;
	const struct ea_shadow_sink *decisions;	/* --emit-decisions, NULL */
};

struct ea_shadow_result {
	/* per kind: 0 stayed on prev, 1 moved (the kernel's choice, the
	 * state not overutilised), 2 overutilised */
	uint64_t n[3], agree[3];
	/* on the same decisions, the agreement of "keep prev" and of "the
	 * waker's CPU" (where try_to_wake_up() ran); the decisions where the
	 * policy compared candidates (loads, energies, a scan), and its
	 * agreement on them */
	uint64_t agree_prev[3], agree_waker[3];
	uint64_t compared[3], compared_agree[3];
	uint64_t kernel_util;	/* decisions with some kernel util value */
	uint64_t skipped_rt, skipped_running, skipped_no_prev,
		 skipped_no_target;
};

struct ea_shadow;
int ea_shadow_new(struct ea_shadow **sh, const struct ea_shadow_config *cfg,
		  struct ea_err *err);
extern const struct ea_state_ops ea_shadow_ops;
/* After ea_run(): ends the decisions (their sink's end()). 0 or -1 + err. */
int ea_shadow_done(struct ea_shadow *sh, struct ea_err *err);
const struct ea_shadow_result *ea_shadow_result(const struct ea_shadow *sh);
void ea_shadow_free(struct ea_shadow *sh);
void ea_shadow_render(FILE *f, bool json, const char *trace,
		      const struct ea_model *m, const char *policy,
		      const struct ea_shadow_result *r);
/* --emit-decisions (src/output/replay-shadow.c): a sink writing each
 * decision to f, as CSV or (json) one JSON array; NULL: out of memory.
 * Free it after ea_shadow_done(). */
struct ea_shadow_sink *ea_shadow_rows_new(FILE *f, bool json);
void ea_shadow_rows_free(struct ea_shadow_sink *rows);

/* The replay JSON's and text's renderers (src/output/replay-*.c). */
struct ea_energy_unit;
struct ea_replay_report {
	const char *path;
	const struct ea_model *model, *target;
	const char *governor, *idle;
	const char *work;		/* --work: auto, demand, fixed; NULL */
	const struct ea_acct *actual;	/* NULL: no source model */
	const struct ea_workload_counts *wl;
	const struct ea_replay_result *results;
	int nresults;
	/* the unit energies are shown in (--unit; eatrace/unit.h): unit for
	 * the policies (NULL: the target model's power_unit x s),
	 * actual_unit for the actual run (NULL: the model's) */
	const struct ea_energy_unit *unit, *actual_unit;
	/* --ensemble, --baseline; NULL: not run (the output is as before) */
	const struct ea_ensemble *ensemble;
	/* the sensitivity to wakeup energy; NULL: not computed */
	const struct ea_sensitivity *sensitivity;
	const char *baseline;		/* its policy's name, NULL: none */
};

void ea_replay_render_json(FILE *f, const struct ea_replay_report *r);
void ea_replay_render_text(FILE *f, const struct ea_replay_report *r);
/* delta of e against actual in percent; NaN when actual is absent or 0. */
double ea_replay_delta_pct(const struct ea_replay_report *r,
			   const struct ea_replay_result *res);
/* Energy per unit of work (power_unit x s per capacity x s); NaN: none. */
double ea_replay_energy_per_work(const struct ea_replay_result *res);
/* r's unit: r->unit, or the target model's power_unit x s in *tmp
 * (src/output/replay-json.c). */
const struct ea_energy_unit *ea_replay_unit(const struct ea_replay_report *r,
					    struct ea_energy_unit *tmp);
/* ... and the actual run's (r->actual_unit, or r->model's). */
const struct ea_energy_unit *ea_replay_actual_unit(const struct ea_replay_report *r,
						   struct ea_energy_unit *tmp);
/* How far apart the policies' work is: (max - min) / max in percent. */
double ea_replay_work_spread_pct(const struct ea_replay_report *r);
/* Spreads above this say the policies did different amounts of work. */
#define EA_REPLAY_WORK_SPREAD_PCT 0.5
/* The time past the trace's last event res needed to do its work, ns. */
uint64_t ea_replay_extra_ns(const struct ea_replay_report *r,
			    const struct ea_replay_result *res);
/* The time every policy is priced over: the window, past the trace's end
 * to the latest policy's end when the window reaches it, ns. */
uint64_t ea_replay_priced_ns(const struct ea_replay_report *r);

/* ftrace text writer for --emit-trace (src/output/replay-trace.c). */
struct ea_trace_writer;
int ea_trace_writer_open(struct ea_trace_writer **tw, FILE *f, int ncpus,
			 const char *comment);
int ea_trace_writer_event(void *tw, const struct ea_event *ev,
			  const char *cur_comm);
void ea_trace_writer_free(struct ea_trace_writer *tw);

#endif
