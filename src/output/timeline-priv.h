/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The timeline's private part (struct ea_timeline's priv), kept out of
 * include/eatrace/html.h so that the public struct's layout does not
 * change with timeline.c's bookkeeping: the accountant's figures already
 * seen, the bucket last looked up, the state's clip bounds, the changes
 * recorded (src/output/timeline-changes.h), the step between the two
 * halves of its work and the thread the second may run on
 * (src/output/timeline-thread.h).
 */
#ifndef EATRACE_OUTPUT_TIMELINE_PRIV_H
#define EATRACE_OUTPUT_TIMELINE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eatrace/energy.h"
#include "eatrace/html.h"
#include "output/timeline-changes.h"
#include "output/timeline-cpus.h"

/* The parts of a column's figures followed apart (seen[col * NPARTS +
 * part]): spread over different stretches, or put at an instant. */
enum part { PART_CLUSTER, PART_CORE, PART_WAKE, NPARTS };

static inline ea_energy_t part_cluster(const struct ea_energy *e)
{
	return e->cluster_busy + e->cluster_idle;
}

/* the core's part holds its suspended and offline energy too */
static inline ea_energy_t part_core(const struct ea_energy *e)
{
	return e->core_busy + e->core_idle + e->suspended + e->offline;
}

static inline ea_energy_t part_wake(const struct ea_energy *e)
{
	return e->core_wakeup + e->cluster_wakeup;
}

/* Growth of a figure (now) since *seen; updates *seen. */
static inline ea_energy_t seen_grow(ea_energy_t *seen, ea_energy_t now)
{
	ea_energy_t d = now - *seen;

	*seen = now;
	return d;
}

/*
 * One change's figures between the two halves of the timeline's work
 * (timeline.c's front() and back()): the stretches it covers, the state
 * the CPU left, and what the accountant's figures grew by (d[]).
 */
struct tl_step {
	uint64_t now;
	uint64_t cl_c0, cl_c1; /* the cluster's stretch, clipped */
	uint64_t c0, c1; /* the CPU's, clipped */
	int32_t pid;
	uint32_t freq_khz;
	int16_t idle_state;
	uint8_t mode;
	bool in_window; /* c0 < c1 */
	uint8_t kind; /* enum tl_step_kind */
	uint16_t cpu, ci;
	/* TL_STEP_CHANGE: the cluster's cluster part, each of its n CPUs'
	 * cluster part, then the CPU's core part, the cluster's, the CPU's
	 * wakeups, the cluster's: n + 5. TL_STEP_FLUSH: for each of cluster
	 * ci's n CPUs, then itself, what its column and its wakeup column
	 * grew by: 2 (n + 1) */
	ea_energy_t d[];
};

/* A step is a change's, or (with a thread, ea_timeline_use_thread()) what
 * the near bucket's row grew by in the changes timeline-acct.c deferred
 * on cluster ci (its flush_near()), to be added there in turn. */
enum tl_step_kind { TL_STEP_CHANGE, TL_STEP_FLUSH };

struct tl_thread;

struct ea_tl_priv {
	ea_energy_t *seen; /* ncols x 3: cluster, core and wakeup parts */
	uint64_t *cl_last;
	/* each CPU's state as told (timeline-cpus.h): ncpus */
	struct tl_cpu_seen *cpus;
	/* changes deferred (src/output/timeline-acct.c): any, by cluster;
	 * the times such a change's stretches must lie in (tl_near_set()) */
	bool deferred;
	bool *cl_deferred;
	uint64_t defer_lo, defer_top;
	/* the bucket last looked up, near_b, holds [near_lo, near_hi)
	   (empty: none) */
	uint64_t near_lo, near_hi;
	size_t near_b;
	uint64_t clip_start, clip_end; /* ea_state_clip_bounds() */
	size_t max_rows; /* the most rows of t->e a size_t can count */
	size_t cap_rows; /* the rows t->e has room for */
	struct tl_changes changes; /* record_changes */
	struct tl_step *step; /* step_bytes: the one step in hand */
	/* back()'s columns: cluster ci's row (cols_n a row) is itself,
	 * then its CPUs */
	int *cols, cols_n;
	size_t step_bytes;
	struct tl_thread *thread; /* ea_timeline_use_thread(): back() there */
	/* with the thread, the near bucket as the caller's thread sees it
	 * (src/output/timeline-near.c): [sh_lo, sh_hi), and the width at
	 * that point of the steps (0: none from then on) */
	uint64_t sh_lo, sh_hi, sh_width;
};

/*
 * After the near bucket or the clip bounds change: the times a change's
 * stretches must lie in for timeline-acct.c to defer it, [defer_lo,
 * defer_top]: in the near bucket and the clip bounds, after 0 (a
 * cluster's last change not known yet is 0); none while the timeline
 * has an error, or no near bucket (near_hi == near_lo). With a thread of
 * its own (whose back half finds the buckets there), the near bucket is
 * the caller's view of it (sh_lo, sh_hi: tl_near_back()); called on the
 * caller's thread only.
 */
static inline void tl_near_set(struct ea_timeline *t)
{
	struct ea_tl_priv *pv = t->priv;
	/* with a thread, the caller's view (t->error is the thread's) */
	uint64_t lo = pv->thread ? pv->sh_lo : pv->near_lo;
	uint64_t hi = pv->thread ? pv->sh_hi : pv->near_hi;

	if ((!pv->thread && t->error[0]) || hi <= lo) {
		pv->defer_lo = UINT64_MAX;
		pv->defer_top = 0;
		return;
	}
	pv->defer_lo = lo > pv->clip_start ? lo : pv->clip_start;
	if (!pv->defer_lo)
		pv->defer_lo = 1;
	pv->defer_top = hi - 1 < pv->clip_end ? hi - 1 : pv->clip_end;
}

/* Saturating (timeline.c): start of bucket b of width w from start. */
static inline uint64_t tl_bucket_start(uint64_t start, uint64_t w, uint64_t b)
{
	uint64_t r;

	if (__builtin_mul_overflow(b, w, &r))
		return UINT64_MAX;
	return start > UINT64_MAX - r ? UINT64_MAX : start + r;
}

/*
 * With a thread: the bucket lookups back() will make there for change
 * step st, made on the caller's view of the buckets (their width and
 * count as the thread's lookups leave them, the near bucket the last
 * found), then tl_near_set(): the changes timeline-acct.c defers are
 * those it would defer without the thread (src/output/timeline-near.c).
 */
void tl_near_back(struct ea_timeline *t, const struct tl_step *st);

/*
 * One change read and spread as the timeline does when the change is not
 * in the near bucket (timeline.c): the accountant's figures read after
 * it, the growth spread over the buckets and the change recorded (or
 * handed to the timeline's thread, ea_timeline_use_thread()).
 */
void tl_change(struct ea_timeline *t, const struct ea_state *s, int cpu,
	       uint64_t since, uint64_t now, const struct ea_cpu_state *old);

/* ea_timeline_acct_ops' two ops (src/output/timeline-acct.c; ctx: the
 * timeline), for a consumer that calls them directly
 * (src/output/timeline-stats.c). */
void tl_acct_change(void *ctx, const struct ea_state *s, int cpu,
		    uint64_t since, uint64_t now, const struct ea_cpu_state *old,
		    const struct ea_cpu_state *new);
void tl_acct_switch(void *ctx, const struct ea_state *s, int cpu,
		    uint64_t since, uint64_t now, int32_t pid);

#endif
