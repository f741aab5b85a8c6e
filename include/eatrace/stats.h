/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `eatrace stats`: what each CPU and task did, with no energy model.
 * A consumer of the state stage (include/eatrace/state.h).
 */
#ifndef EATRACE_STATS_H
#define EATRACE_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "eatrace/filter.h"
#include "eatrace/state.h"

#define EA_STATS_MAX_IDLE 64

struct ea_freq_time {
	uint32_t freq_khz;	/* 0: not reported */
	uint64_t ns;
};

/*
 * Per cpuidle state: ns the time in it (known, in the window); a period
 * is one stay in it, its residency the part of the stay ns counts, so the
 * periods' sum_ns is ns exactly.
 */
struct ea_idle_stat {
	uint64_t ns;
	uint64_t entries;	/* stays begun by entering it in the window */
	uint64_t periods;	/* stays with time in the window */
	uint64_t min_ns, max_ns, sum_ns;	/* their residencies */
};

struct ea_cpu_stats {
	/* busy + idle + unknown + suspended + offline = the window, each ns
	 * in one of them */
	uint64_t busy_ns, idle_ns;
	uint64_t suspended_ns, offline_ns;	/* EA_CPU_SUSPENDED, _OFFLINE */
	uint64_t unknown_ns;	/* state not known (EA_INF_UNKNOWN) ... */
	uint64_t unknown_idle_ns;	/* ... of which priced as idle */
	uint64_t inferred_ns;	/* time with any inference (union) */
	uint64_t inferred_start_ns, inferred_end_ns, inferred_swapper_ns;
	uint64_t inferred_lost_ns, inferred_resync_ns;
	uint64_t idle_exits;	/* idle -> busy transitions in the window */
	struct ea_freq_time *freqs;	/* ascending freq */
	int nfreqs;
	struct ea_idle_stat idle[EA_STATS_MAX_IDLE];
	int nidle;		/* highest idle state index used + 1 */
	bool has_cpuidle;
	double util_mean;	/* reconstructed PELT util_avg, time-weighted */
	uint32_t util_max;
	/* private: current idle period, its state, time so far, and whether
	 * it began inside the window */
	uint64_t idle_len;
	int idle_cur;
	bool idle_at_in;
	int freq_last;	/* private: freqs[] index last added to */
	/* private: a stretch of busy changes at freqs[freq_last]'s frequency
	 * (steady_freq), its residency busy_ns - steady_busy, added when it
	 * ends */
	bool steady;
	uint32_t steady_freq;
	uint64_t steady_busy;
	/* private: in such a stretch, busy at steady_freq with nothing
	 * inferred since its last change: a task switch adds only its busy
	 * time (ea_stats_ops.task_switch) */
	bool quick;
};

struct ea_pelt_check {
	uint64_t samples;	/* kernel sched_load_cfs_rq root samples */
	double sum_abs_err, max_abs_err;
	uint64_t samples_warm;	/* after the first 100 ms (PELT warm-up) */
	double sum_abs_err_warm, max_abs_err_warm;
};

struct ea_stats {
	int ncpus, cpus_cap;
	struct ea_cpu_stats *cpus;
	uint64_t first_ts, last_ts;	/* trace */
	uint64_t win_start, win_end;	/* analysis window */
	struct ea_state_counts counts;
	struct ea_pelt_check pelt;
	int unknown_idle_state;		/* cfg.unknown_idle_state */
	const struct ea_state *state;	/* for tasks, valid until freed */
	/* The rows shown (--cpus, --task; NULL: all): the renderers' CPU
	 * rows (ea_stats_cpu_shown()), ea_stats_tasks_sorted()'s tasks. The
	 * figures are the same; the trace's totals and notes stay whole. */
	const struct ea_filter *filter;
	char error[256];		/* allocation failure inside a callback */
	/* private: ea_state_clip_bounds(), once clip_known */
	uint64_t clip_start, clip_end;
	bool clip_known;
};

/* Wire a stats collector to a state stage: pass these as its ops/ctx. */
extern const struct ea_state_ops ea_stats_ops;

/*
 * A stats collector and an accountant (eatrace/energy.h) as one consumer
 * (src/stats/with-acct.c): what ea_stats_ops then ea_acct_ops would do,
 * the state stage calling one op a change instead of two.
 */
struct ea_acct;
struct ea_stats_acct {
	struct ea_stats *st;
	struct ea_acct *acct;
};
extern const struct ea_state_ops ea_stats_acct_ops;
void ea_stats_init(struct ea_stats *st);
/* After ea_state_finish(): copy counters and util figures. */
int ea_stats_done(struct ea_stats *st, const struct ea_state *s);
void ea_stats_free(struct ea_stats *st);

/* Calls fn once per inference or warning worth telling a person about:
 * one note per cause, naming the CPUs it concerns (messages shorter than
 * EA_NOTE_LEN). */
#define EA_NOTE_LEN 1024
struct ea_input_info;
void ea_stats_foreach_note(const struct ea_stats *st,
			   const struct ea_input_info *info,
			   void (*fn)(void *arg, const char *kind, const char *msg),
			   void *arg);
/* ... but those of the causes in skip, which a report's notes tell with
 * their energy (src/output/report-common.c). */
enum ea_note_cause {
	EA_NOTE_NO_CPUIDLE = 1 << 0,	/* a CPU without cpu_idle events */
	EA_NOTE_UNKNOWN = 1 << 1,	/* unknown time */
	EA_NOTE_NO_FREQ = 1 << 2,	/* no cpu_frequency yet */
};
void ea_stats_foreach_note_but(const struct ea_stats *st,
			       const struct ea_input_info *info, unsigned skip,
			       void (*fn)(void *arg, const char *kind,
					  const char *msg),
			       void *arg);

/* Tasks sorted by runtime (descending, then pid), those st->filter
 * selects by pid and name; caller frees. */
struct ea_task **ea_stats_tasks_sorted(const struct ea_stats *st, size_t *n);
/* Whether st->filter shows CPU cpu's rows. */
bool ea_stats_cpu_shown(const struct ea_stats *st, int cpu);

/* Renderers (src/output/stats-*.c). */
void ea_stats_render_text(FILE *f, const struct ea_stats *st,
			  const struct ea_input_info *info, const char *path);
void ea_stats_render_json(FILE *f, const struct ea_stats *st,
			  const struct ea_input_info *info);
void ea_stats_render_csv(FILE *f, const struct ea_stats *st,
			 const struct ea_input_info *info);
/* An ea_stats_foreach_note() callback for the JSON renderers (stats and
 * report): one {"kind", "message"} object into the struct ea_json *arg. */
void ea_stats_note_json(void *arg, const char *kind, const char *msg);

#endif
