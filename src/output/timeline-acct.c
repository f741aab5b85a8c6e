// SPDX-License-Identifier: GPL-2.0-only
/*
 * The accountant and the timeline as one consumer (ea_timeline_acct_ops,
 * include/eatrace/html.h), with the timeline's reading of the
 * accountant's figures deferred while changes stay in the near bucket.
 *
 * A change whose cluster and core stretches and instant all lie in the
 * bucket last looked up (the near one), inside the clip bounds (most
 * changes), only notes its cluster's last change and is recorded; what
 * the figures grew by in such changes is added to the near bucket's row
 * at once by flush_near(), before the accountant prices the next change
 * that is not such (which may move the near bucket, and whose own growth
 * is spread as timeline.c's tl_change() does).
 *
 * This gives the rows that reading the figures after each change (each
 * growth into the near bucket's row, as timeline.c's near_change() does)
 * gave, because the accountant changes, for a change on a CPU, only
 * figures the timeline reads after that change (src/energy/account.c,
 * account-switch.c): the CPU's core, suspended, offline and wakeup
 * parts, the cluster parts of its cluster's CPUs and its cluster's
 * figures. So what a figure grew by since it was last read, the figure
 * now less the figure seen, is what those reads would have added one
 * by one (integers: the same sum in any order), and it goes to the same
 * column: a CPU's parts to its column, all of a cluster's to the
 * cluster's, the wakeup parts again to the columns after ncols when the
 * timeline has them. The trace's end (new NULL, each CPU's last change)
 * is never deferred, so nothing is once the run is over, when
 * ea_acct_done() adds to the figures.
 *
 * A task switch the state gives as one (task_switch()) and the timeline
 * defers goes to the accountant as one too (ea_acct_task_switch()),
 * which may defer its energies in turn (src/energy/acct-defer.h): the
 * figures then grow only when the accountant syncs them, at the latest
 * at ea_acct_sync() right before flush_near() reads them, and every such
 * growth is of changes deferred here since the last flush (a change not
 * deferred here goes through the accountant's cpu_change(), which ends
 * any deferral first, and the sync comes before it): the figures read
 * are the live path's (acct-defer.h), their growth the same sum into
 * the same near bucket's row.
 *
 * With the timeline's back half on its thread (ea_timeline_use_thread()),
 * flush_near() hands the growth over as a step (TL_STEP_FLUSH) that the
 * thread adds to its near bucket's row, in order with the changes' steps:
 * the same row (src/output/timeline-near.c).
 */
#include <stdio.h>

#include "eatrace/html.h"
#include "output/timeline-changes.h"
#include "output/timeline-priv.h"
#include "output/timeline-thread.h"

/* What cluster ci's figures and its CPUs' grew by since last seen, into
 * the near bucket's row; seen updated. */
static void flush_cluster(struct ea_timeline *t, int ci)
{
	struct ea_tl_priv *pv = t->priv;
	const struct ea_acct *a = t->acct;
	const struct ea_cluster *cl = &a->model->clusters[ci];
	ea_energy_t *row = &t->e[pv->near_b * (size_t)t->stride];
	ea_energy_t *seen = pv->seen, *sp, w;
	int ccol = t->ncpus + ci, wcol = t->stride > t->ncols ? t->ncols : -1;
	const struct ea_energy *e;

	for (int i = 0; i <= cl->ncpus; i++) {
		/* its CPUs, then itself */
		int col = i < cl->ncpus ? cl->cpus[i] : ccol;

		e = i < cl->ncpus ? &a->cpus[col].e : &a->clusters[ci].e;
		sp = &seen[col * NPARTS];
		w = seen_grow(&sp[PART_WAKE], part_wake(e));
		row[col] += seen_grow(&sp[PART_CLUSTER], part_cluster(e)) +
			    seen_grow(&sp[PART_CORE], part_core(e)) + w;
		if (wcol >= 0)
			row[wcol + col] += w;
	}
}

/* With the timeline's thread: what cluster ci's figures and its CPUs'
 * grew by handed over, to be added to the near bucket's row there in
 * order with the changes (timeline.c's flush_row()); seen updated. */
static void flush_cluster_step(struct ea_timeline *t, int ci)
{
	struct ea_tl_priv *pv = t->priv;
	const struct ea_acct *a = t->acct;
	const struct ea_cluster *cl = &a->model->clusters[ci];
	struct tl_step *st = tl_thread_slot(pv->thread);
	ea_energy_t *sp, w;
	const struct ea_energy *e;

	st->kind = TL_STEP_FLUSH;
	st->ci = (uint16_t)ci;
	for (int i = 0; i <= cl->ncpus; i++) {
		int col = i < cl->ncpus ? cl->cpus[i] : t->ncpus + ci;

		e = i < cl->ncpus ? &a->cpus[col].e : &a->clusters[ci].e;
		sp = &pv->seen[col * NPARTS];
		w = seen_grow(&sp[PART_WAKE], part_wake(e));
		st->d[2 * i] = seen_grow(&sp[PART_CLUSTER], part_cluster(e)) +
			       seen_grow(&sp[PART_CORE], part_core(e)) + w;
		st->d[2 * i + 1] = w;
	}
	tl_thread_put(pv->thread);
}

/* The deferred changes' growth into the near bucket's row. */
static __attribute__((noinline)) void flush_near(struct ea_timeline *t)
{
	struct ea_tl_priv *pv = t->priv;

	for (int ci = 0; ci < t->nclusters; ci++) {
		if (pv->cl_deferred[ci]) {
			if (pv->thread)
				flush_cluster_step(t, ci);
			else
				flush_cluster(t, ci);
			pv->cl_deferred[ci] = false;
		}
	}
	pv->deferred = false;
}

/*
 * Whether the change may be deferred: not the trace's end, a CPU of the
 * model, the cluster's last change known (tl_change() sets it first) and
 * both stretches' starts in [defer_lo, now], now <= defer_top: in the
 * near bucket, inside the clip bounds (so that tl_change() would clip
 * nothing and find the near bucket only), the timeline going (no error,
 * its window known: tl_near_set(); with a thread of its own, the near
 * bucket as src/output/timeline-near.c sees it). *ci: the CPU's cluster.
 */
static inline __attribute__((always_inline)) bool
may_defer(const struct ea_timeline *t, int cpu, uint64_t since, uint64_t now,
	  const struct ea_cpu_state *new, int *ci)
{
	const struct ea_tl_priv *pv = t->priv;
	uint64_t cl0, lo, hi;

	if (!new || (unsigned int)cpu >= (unsigned int)t->ncpus ||
	    (*ci = t->acct->model->cpu_cluster[cpu]) < 0)
		return false;
	cl0 = pv->cl_last[*ci];
	lo = cl0 < since ? cl0 : since;
	hi = cl0 > since ? cl0 : since;
	return lo >= pv->defer_lo && hi <= now && now <= pv->defer_top;
}

/* A change not deferred: the deferred ones' growth read before the
 * accountant prices it, then it, then the timeline's reading of it. */
static __attribute__((noinline)) void
not_deferred(struct ea_timeline *t, const struct ea_state *s, int cpu,
	     uint64_t since, uint64_t now, const struct ea_cpu_state *old,
	     const struct ea_cpu_state *new)
{
	/* the caller's accountant (ea_timeline_acct_ops): t keeps it const;
	 * its deferred energies into the figures before they are read */
	ea_acct_sync((struct ea_acct *)t->acct);
	if (t->priv->deferred)
		flush_near(t);
	ea_acct_ops.cpu_change((struct ea_acct *)t->acct, s, cpu, since, now,
			       old, new);
	tl_change(t, s, cpu, since, now, old);
}

/*
 * A deferred change's part: its cluster's last change noted, the change
 * recorded, before the accountant prices it (if the accountant fails
 * there, the run fails and what the timeline holds is not used).
 */
static inline __attribute__((always_inline)) void
defer(struct ea_timeline *t, int ci, int cpu, uint64_t since, uint64_t now,
      const struct ea_cpu_state *old)
{
	struct ea_tl_priv *pv = t->priv;

	pv->cl_last[ci] = now;
	pv->cl_deferred[ci] = true;
	pv->deferred = true;
	if (t->record_changes && now > since &&
	    tl_changes_add_old(&pv->changes, cpu, since, now, old)) {
		snprintf(t->error, sizeof(t->error), "out of memory");
		tl_near_set(t);
	}
}

void tl_acct_change(void *ctx, const struct ea_state *s, int cpu,
		    uint64_t since, uint64_t now,
		    const struct ea_cpu_state *old,
		    const struct ea_cpu_state *new)
{
	struct ea_timeline *t = ctx;
	int ci;

	/* the CPU's state as told (timeline-cpus.h), for its switches */
	if ((unsigned int)cpu < (unsigned int)t->ncpus)
		tl_cpu_seen_change(&t->priv->cpus[cpu], new,
				   t->acct->model->cpu_cluster[cpu]);
	if (!may_defer(t, cpu, since, now, new, &ci))
		return not_deferred(t, s, cpu, since, now, old, new);
	defer(t, ci, cpu, since, now, old);
	/* the accountant's change last: a call the compiler can make a jump */
	ea_acct_ops.cpu_change((struct ea_acct *)t->acct, s, cpu, since, now,
			       old, new);
}

/* A task switch not deferred, cpu's state known (timeline-cpus.h): the
 * two states to not_deferred(), then the new pid kept. */
static __attribute__((noinline)) void
switch_not_deferred(struct ea_timeline *t, const struct ea_state *s, int cpu,
		    uint64_t since, uint64_t now, int32_t pid)
{
	struct tl_cpu_seen *c = &t->priv->cpus[cpu];
	struct ea_cpu_state new = c->st;

	new.pid = pid;
	not_deferred(t, s, cpu, since, now, &c->st, &new);
	tl_cpu_seen_switch(c, pid);
}

/*
 * A task switch whose CPU's state is not known here (timeline-cpus.h):
 * read from the state stage (ea_state_cpu(), still the old one), kept
 * for the CPU's next switches when the CPU is the model's; a CPU outside
 * the model (or its clusters) is never deferred (may_defer()).
 */
static __attribute__((noinline)) void
switch_unseen(struct ea_timeline *t, const struct ea_state *s, int cpu,
	      uint64_t since, uint64_t now, int32_t pid)
{
	const struct ea_cpu_state *old = ea_state_cpu(s, cpu);
	struct ea_cpu_state new = *old;
	int ci;

	if ((unsigned int)cpu < (unsigned int)t->ncpus &&
	    (ci = t->acct->model->cpu_cluster[cpu]) >= 0) {
		tl_cpu_seen_read(&t->priv->cpus[cpu], old, ci);
		return tl_acct_switch(t, s, cpu, since, now, pid);
	}
	new.pid = pid;
	not_deferred(t, s, cpu, since, now, old, &new);
}

/*
 * tl_changes_add_old() (timeline-changes.h: the bound, then the hand-over
 * or the record) when it is one copy or nothing: the bound closed (the
 * change dropped), or none and room in the hand-over's block. false:
 * anything else (nothing done, the bound not moved): switch_record().
 */
static inline __attribute__((always_inline)) bool
record_simply(struct tl_changes *s, int cpu, uint64_t since, uint64_t now,
	      const struct ea_cpu_state *old)
{
	struct ea_tl_change c = tl_change_of(cpu, since, now, old);

	if (s->bound.on)
		return s->bound.closed; /* tl_bound_drops(): dropped */
	if (!s->ho || s->ho_at == s->ho_lim)
		return false;
	*s->ho_at++ = c;
	return true;
}

/* A deferred task switch's record when record_simply() did not make it
 * (the record's varints, the bound's count, a block or chunk more), then
 * the rest of tl_acct_switch()'s deferred path. */
static __attribute__((noinline)) void
switch_record(struct ea_timeline *t, const struct ea_state *s, int cpu,
	      uint64_t since, uint64_t now, int32_t pid)
{
	struct tl_cpu_seen *c = &t->priv->cpus[cpu];

	if (tl_changes_add_old(&t->priv->changes, cpu, since, now, &c->st)) {
		snprintf(t->error, sizeof(t->error), "out of memory");
		tl_near_set(t);
	}
	tl_cpu_seen_switch(c, pid);
	ea_acct_task_switch((struct ea_acct *)t->acct, s, cpu, since, now, pid);
}

/*
 * A task switch (ea_state_ops.task_switch): tl_acct_change() of the
 * CPU's state (as told, timeline-cpus.h: the state stage's
 * ea_state_cpu(), still the old one) and it with pid for its task, the
 * accountant's part as a task switch when the change is deferred (its
 * energies may then be deferred too: synced in not_deferred() before
 * they are read). The deferred path (defer()'s steps) calls nothing but
 * its last call, a jump: no frame.
 */
void tl_acct_switch(void *ctx, const struct ea_state *s, int cpu,
		    uint64_t since, uint64_t now, int32_t pid)
{
	struct ea_timeline *t = ctx;
	struct ea_tl_priv *pv = t->priv;
	struct tl_cpu_seen *c;
	uint64_t cl0, lo, hi;
	int ci;

	if ((unsigned int)cpu >= (unsigned int)t->ncpus ||
	    (ci = (c = &pv->cpus[cpu])->ci) < 0)
		return switch_unseen(t, s, cpu, since, now, pid);
	/* may_defer(), the CPU the model's and its state known */
	cl0 = pv->cl_last[ci];
	lo = cl0 < since ? cl0 : since;
	hi = cl0 > since ? cl0 : since;
	if (!(lo >= pv->defer_lo && hi <= now && now <= pv->defer_top))
		return switch_not_deferred(t, s, cpu, since, now, pid);
	pv->cl_last[ci] = now;
	pv->cl_deferred[ci] = true;
	pv->deferred = true;
	if (t->record_changes && now > since &&
	    !record_simply(&pv->changes, cpu, since, now, &c->st))
		return switch_record(t, s, cpu, since, now, pid);
	tl_cpu_seen_switch(c, pid);
	ea_acct_task_switch((struct ea_acct *)t->acct, s, cpu, since, now, pid);
}

const struct ea_state_ops ea_timeline_acct_ops = {
	.cpu_change = tl_acct_change,
	.task_switch = tl_acct_switch,
};
