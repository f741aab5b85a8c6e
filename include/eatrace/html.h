/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Pictures of the accountant's figures: a time series of energy per CPU and
 * per cluster (the timeline consumer), and self-contained HTML reports with
 * inline SVG plots (docs/html.md).
 *
 * The timeline is a state consumer chained AFTER an accountant (struct
 * ea_acct) on the same state stage. After each change it reads how much the
 * accountant's public per-CPU and per-cluster figures grew and spreads the
 * growth over the interval it covers (constant power there), wakeups at their
 * instant. Its buckets therefore sum exactly, per CPU and per cluster, to the
 * accountant's totals, and per bucket to its --interval windows.
 *
 * Bucket width: fixed (width_ns), or automatic: starting at 1 us and doubling
 * (merging pairs) whenever more than max_buckets would be needed.
 */
#ifndef EATRACE_HTML_H
#define EATRACE_HTML_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "eatrace/diff.h"
#include "eatrace/energy.h"
#include "eatrace/replay.h"
#include "eatrace/report.h"
#include "eatrace/state.h"

/* One closed stretch of a CPU's state (kept only with record_changes). */
struct ea_tl_change {
	uint64_t t0, t1;	/* clipped to the window */
	int32_t pid;
	uint32_t freq_khz;
	int16_t idle_state;
	uint8_t mode;		/* enum ea_cpu_mode */
	uint16_t cpu;
};

struct ea_tl_priv;

struct ea_timeline {
	const struct ea_acct *acct;
	int ncpus, nclusters, ncols;	/* columns: CPUs, then clusters */
	int stride;			/* ncols, or 2 x ncols with record_changes:
					   then the wakeup energy of each column */
	uint64_t width;			/* ns per bucket */
	bool fixed;
	size_t max_buckets;
	size_t nbuckets;
	ea_energy_t *e;			/* nbuckets x stride */
	uint64_t start, end;		/* window, absolute ns */
	bool started;
	bool record_changes;
	char error[128];
	struct ea_tl_priv *priv;	/* private (src/output/timeline.c) */
};

/* width_ns 0: automatic with at most max_buckets (>= 2) buckets. */
int ea_timeline_init(struct ea_timeline *t, const struct ea_acct *acct,
		     uint64_t width_ns, size_t max_buckets, bool record_changes);
void ea_timeline_free(struct ea_timeline *t);
extern const struct ea_state_ops ea_timeline_ops;
/*
 * The accountant t was made with and the timeline as one consumer (ctx:
 * t; the accountant given to ea_timeline_init() must be one the caller
 * may change): each change goes to the accountant, then to the timeline,
 * as with the two consumers in that order, one call fewer a change (a
 * run with two consumers has the state call them directly). The same
 * buckets and changes as the accountant's ea_acct_live_ops then
 * ea_timeline_ops, though the accountant's task switches may defer their
 * energies between the timeline's readings (ea_acct_sync()).
 */
extern const struct ea_state_ops ea_timeline_acct_ops;
/*
 * A stats collector (eatrace/stats.h) and ea_timeline_acct_ops as one
 * consumer (src/output/timeline-stats.c): what ea_stats_ops then
 * ea_timeline_acct_ops would do, the state stage calling one op a change
 * instead of two (a task switch as one, its new state not built).
 */
struct ea_stats;
struct ea_timeline_stats {
	struct ea_stats *st;
	struct ea_timeline *tl;
};
extern const struct ea_state_ops ea_timeline_stats_ops;
/*
 * From the first change on, spread the accountant's figures over the
 * buckets on a thread of its own, the figures still read (and the changes
 * recorded) in the state stage's thread, which with ea_timeline_acct_ops
 * still defers the reading while changes stay in one bucket
 * (src/output/timeline-near.c): the same buckets and changes. Before the
 * first change; ea_timeline_done() and ea_timeline_free() stop the thread.
 * 0, or -1 (then all of it runs in the state stage's thread, as without).
 */
int ea_timeline_use_thread(struct ea_timeline *t);
/* After ea_state_finish(): folds stragglers, sets the end. 0 or -1 + err. */
int ea_timeline_done(struct ea_timeline *t, const struct ea_state *s,
		     struct ea_err *err);
/* Energy of column col (CPU i, or ncpus + cluster i) in bucket b. */
static inline ea_energy_t ea_timeline_at(const struct ea_timeline *t, size_t b,
					 int col)
{
	return t->e[b * t->stride + col];
}
/* The wakeup part of ea_timeline_at() (record_changes timelines only). */
static inline ea_energy_t ea_timeline_wakeup_at(const struct ea_timeline *t,
						size_t b, int col)
{
	return t->stride > t->ncols ? t->e[b * t->stride + t->ncols + col] : 0;
}
/* [*t0, *t1) of bucket b, absolute ns, the last clipped to the end. */
void ea_timeline_bucket(const struct ea_timeline *t, size_t b, uint64_t *t0,
			uint64_t *t1);

/*
 * The changes a record_changes timeline recorded, read back in the order
 * they came (time order of their ends): ea_tl_reader_next() fills *ch and
 * says true, false after the last. A reader is NULL when out of memory.
 */
struct ea_tl_reader;
size_t ea_timeline_nchanges(const struct ea_timeline *t);
struct ea_tl_reader *ea_tl_reader_new(const struct ea_timeline *t);
bool ea_tl_reader_next(struct ea_tl_reader *r, struct ea_tl_change *ch);
void ea_tl_reader_free(struct ea_tl_reader *r);

/*
 * A second pricing of a replayed timeline: a sink for struct
 * ea_replay_config that feeds the simulated events into its own state stage,
 * accountant and timeline (the same events and configuration as the replay's
 * own pricing, hence the same figures), and passes them on to next.
 */
struct ea_tl_shadow {
	struct ea_state *st;
	struct ea_acct acct;
	struct ea_timeline tl;
	const struct ea_replay_sink *next;
	struct ea_err err;
	bool failed;
	char policy[32];
};

int ea_tl_shadow_init(struct ea_tl_shadow *sh, const struct ea_model *model,
		      const struct ea_state_config *scfg,
		      const struct ea_acct_config *acfg, int ncpus,
		      uint64_t width_ns, size_t max_buckets, bool record_changes,
		      const struct ea_replay_sink *next, struct ea_err *err);
int ea_tl_shadow_event(void *ctx, const struct ea_event *ev, const char *comm);
int ea_tl_shadow_done(struct ea_tl_shadow *sh, struct ea_err *err);
void ea_tl_shadow_free(struct ea_tl_shadow *sh);

/* HTML renderers (src/output/html-*.c). tl may be NULL (no time plots). */
void ea_report_render_html(FILE *f, const struct ea_report *r,
			   const struct ea_timeline *tl);
/* tls[0]: the actual run (NULL when absent), tls[1 + i]: results[i]. */
void ea_replay_render_html(FILE *f, const struct ea_replay_report *r,
			   const struct ea_timeline *const *tls);
void ea_diff_render_html(FILE *f, const struct ea_diff *d);

#endif
