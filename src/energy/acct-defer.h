/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The energies of a steady stretch's task switches deferred
 * (src/energy/acct-defer.c), for ea_acct_ops.task_switch.
 *
 * A steady stretch (LZ_STEADY, acct-lazy.h: one or two sharers) keeps
 * live, after every task switch, the figures a timeline reads during a
 * run: the cluster's and its CPUs' struct ea_energy. The timelines get
 * their changes through cpu_change() (on_change()); the state stage
 * gives the task switches to task_switch() only to a consumer that has
 * one, which ea_acct_ops' callers read nothing of until ea_acct_done(),
 * or read only after ea_acct_sync() (the timeline with the accountant as
 * one consumer, src/output/timeline-acct.c, before it reads them at a
 * bucket's edge; a caller whose other consumer reads them after every
 * change, a timeline of its own, gives ea_acct_live_ops instead: no
 * task_switch op).
 * So there the switches keep live only the busy times (the cluster's
 * busy_ns and last_ns, each CPU's busy_ns) and count the cluster's odd
 * energies (odd), and the energies they would have added are added when
 * the deferral ends (ea_acct_defer_sync()):
 *
 *   In the stretch the cluster's price pcl, its sharers (n, who[]'s
 *   order) and each sharer's core price pcore are fixed. Each integration
 *   of len ns added e = pcl x len to the cluster's e.cluster_busy and
 *   (ea_acct_split() by n) e >> 1 + (e & 1) to sh[0]'s, e >> 1 to sh[1]'s
 *   (n = 2), e to sh[0]'s (n = 1); each core interval of len ns pcore x
 *   len to its CPU's e.core_busy and its cluster's. Over the integrations
 *   since the deferral began, whose lengths sum to L (the cluster's
 *   busy_ns since: d_ns0) and of which O had an odd e:
 *     the cluster's e.cluster_busy grew by sum(pcl x len) = pcl x L = E;
 *     n = 2: sh[0]'s by sum((e + (e & 1)) / 2) = (E + O) / 2, sh[1]'s by
 *     sum((e - (e & 1)) / 2) = (E - O) / 2 (each term even: the sum of
 *     halves is half the sum); n = 1: sh[0]'s by E;
 *     a sharer's e.core_busy by pcore x (its busy_ns since: d_ns0), its
 *     cluster's by the sum of those.
 *   e = pcl x len is odd when pcl and len both are: O counts len & pcl &
 *   1 (podd: pcl & 1 with two sharers, 0 with one, so that O stays 0).
 *   Energies are integers (ea_energy_t, 128 bits, far from overflow), so
 *   the sums regrouped are the same sums, whatever the order.
 *
 * A payer's charges (ea_acct_lazy_pay()) read its CPU's e.cluster_busy:
 * during the deferral that is the value when it began plus the CPU's part
 * above so far (ea_acct_defer_cluster_now()); its busy_ns is live.
 *
 * The deferral ends before anything else of the accountant runs: a
 * cpu_change() of any CPU (on_change(): ea_acct_defer_sync_all()), a
 * stretch's end (ea_acct_lazy_close(), ea_acct_done()); and when a
 * reader asks (ea_acct_sync()), between two changes.
 *
 * Ending it at any change, the stretch going on, is exact too: the sync
 * adds the sums above over the integrations since it began, which are
 * what the live path had added by then, so every figure (the cluster's,
 * its sharers' e.cluster_busy and e.core_busy; the busy times were live)
 * is the live path's; the payers' marks (t_cl) were set from
 * ea_acct_defer_cluster_now(), the live e.cluster_busy of their time, so
 * they stay right against the live figures after. The stretch, LZ_STEADY
 * again, is then priced as it would have been: live by on_change(), or a
 * new deferral begun at the next task switch from the figures as they
 * are (ea_acct_defer_begin(): new marks d_ns0, odd 0), whose sums are
 * those of the integrations after it. A stretch's sums so cut into parts
 * are the sum of the parts' (integers).
 */
#ifndef EATRACE_ENERGY_ACCT_DEFER_H
#define EATRACE_ENERGY_ACCT_DEFER_H

#include "energy/acct-lazy.h"

/* Begin deferring the open steady stretch lc (not deferring): its
 * LZ_STEADY sharers LZ_DEFER until it ends. */
void ea_acct_defer_begin(struct ea_acct *a, struct ea_lazy_cluster *lc);

/* End lc's deferral (if it defers): every deferred energy added. */
void ea_acct_defer_sync(struct ea_acct *a, struct ea_lazy_cluster *lc);
void ea_acct_defer_sync_all(struct ea_acct *a);

/*
 * The e.cluster_busy of r's CPU (ca) now, its cluster lc deferring: n = 2,
 * (E + O) / 2 for sh[0], (E - O) / 2 for sh[1]; n = 1, E = 2 x E / 2 (O
 * is 0). lc->d_pcl is pcl, or 2 x pcl with one sharer (pcl < 2^63: a price
 * is an int64_t >= 0).
 */
static inline __attribute__((always_inline)) ea_energy_t
ea_acct_defer_cluster_now(const struct ea_lazy_cpu *r,
			  const struct ea_cpu_acct *ca,
			  const struct ea_lazy_cluster *lc)
{
	unsigned __int128 e = (unsigned __int128)lc->d_pcl *
			      (lc->cla->busy_ns - lc->d_ns0);

	e = r->d_first ? e + lc->odd : e - lc->odd;
	return ca->e.cluster_busy + (ea_energy_t)(e >> 1);
}

/*
 * ea_acct_lazy_pay() while lc defers: the payer's charges since the marks
 * into its entry (paid: it has one, and then only), the marks moved to
 * now.
 */
static inline __attribute__((always_inline)) void
ea_acct_defer_pay(struct ea_acct *a, struct ea_lazy_cpu *r,
		  const struct ea_cpu_acct *ca,
		  const struct ea_lazy_cluster *lc)
{
	struct ea_task_acct *t;
	ea_energy_t cl;
	uint64_t dns;

	if (!r->paid)
		return;	/* no charge since the marks */
	t = &a->tasks[ca->last_task - 1];
	dns = ca->busy_ns - r->t_ns;
	cl = ea_acct_defer_cluster_now(r, ca, lc);
	t->e.core_busy += (ea_energy_t)((unsigned __int128)r->pcore * dns);
	t->e.cluster_busy += cl - r->t_cl;
	t->runtime_ns += dns;
	r->t_cl = cl;
	r->t_ns = ca->busy_ns;
	r->paid = false;
}

#endif
