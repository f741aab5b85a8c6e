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
	uint16_t cpu, ci;
	/* the cluster's cluster part, each of its n CPUs' cluster part, then
	 * the CPU's core part, the cluster's, the CPU's wakeups, the
	 * cluster's: n + 5 */
	ea_energy_t d[];
};

struct tl_thread;

struct ea_tl_priv {
	ea_energy_t *seen; /* ncols x 3: cluster, core and wakeup parts */
	uint64_t *cl_last;
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
	struct tl_changes changes; /* record_changes */
	struct tl_step *step; /* step_bytes: the one step in hand */
	int *cols; /* back()'s columns: a cluster's CPUs and itself */
	size_t step_bytes;
	struct tl_thread *thread; /* ea_timeline_use_thread(): back() there */
};

/*
 * After the near bucket or the clip bounds change: the times a change's
 * stretches must lie in for timeline-acct.c to defer it, [defer_lo,
 * defer_top]: in the near bucket and the clip bounds, after 0 (a
 * cluster's last change not known yet is 0); none while the timeline
 * has an error or a thread of its own (whose back half finds the buckets
 * there), or no near bucket (near_hi == near_lo).
 */
static inline void tl_near_set(struct ea_timeline *t)
{
	struct ea_tl_priv *pv = t->priv;

	if (pv->thread)
		return; /* none from ea_timeline_use_thread() on */
	if (t->error[0] || pv->near_hi <= pv->near_lo) {
		pv->defer_lo = UINT64_MAX;
		pv->defer_top = 0;
		return;
	}
	pv->defer_lo = pv->near_lo > pv->clip_start ? pv->near_lo
						    : pv->clip_start;
	if (!pv->defer_lo)
		pv->defer_lo = 1;
	pv->defer_top = pv->near_hi - 1 < pv->clip_end ? pv->near_hi - 1
							: pv->clip_end;
}

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
