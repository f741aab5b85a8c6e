/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The accountant's deferred figures (src/energy/acct-lazy.c).
 *
 * While a cluster's busy CPUs keep their frequencies (its aggregate as it
 * is) and only switch tasks, every change charges the same few figures at
 * the same prices. Its fast path (src/energy/account-switch.c) then adds
 * only what is read during a run (the CPUs' and clusters' struct
 * ea_energy, which the timelines read after every change) and the busy
 * times; each other figure such a charge feeds receives, across all the
 * charges of the stretch, the sum of the same terms, so it is added at
 * the stretch's end as the difference of a live figure since its start
 * (a mark):
 *
 *   a CPU's P-state k (its core's) time, assumed_freq_ns or
 *   unmodelled_freq_ns: busy_ns since the mark; work: that times the
 *   state's capacity (len1 x c + len2 x c = (len1 + len2) x c, in
 *   uint64_t as before, modulo 2^64 both);
 *   its P-state k energy, and assumed_freq_energy or
 *   unmodelled_freq_energy: the P-state's power times that time (each
 *   charge was power x len, in integers: the same sum);
 *   its P-state cap (the cluster's) energy, and the assumed or unmodelled
 *   energy: e.cluster_busy since the mark (its integer shares, the same
 *   terms);
 *   the cluster's P-state cap time and energy: its busy_ns and
 *   e.cluster_busy since the mark;
 *   a task's runtime_ns, core_busy (power times it) and cluster_busy: its
 *   CPU's busy_ns and e.cluster_busy since the task became the CPU's
 *   payer (or the stretch began), added when it stops being it.
 *
 * Energies are integers (ea_energy_t, 128 bits, far from overflow), so a
 * sum regrouped is the same sum. A task's entry is still looked up (and
 * made, in the same order as before) at its first charge on the CPU.
 * A stretch ends (ea_acct_lazy_close()) before any other change of its
 * cluster is priced and before the figures are read (ea_acct_done()).
 */
#ifndef EATRACE_ENERGY_ACCT_LAZY_H
#define EATRACE_ENERGY_ACCT_LAZY_H

#include <stdbool.h>
#include <stdint.h>

#include "eatrace/energy.h"

enum lz_class {
	LZ_EXACT,	/* a frequency of the model */
	LZ_ASSUMED,	/* none reported */
	LZ_UNMODELLED,	/* not the model's */
};

/* How a CPU's changes may be priced while its cluster's stretch is open */
enum lz_fast {
	LZ_SLOW,	/* not at all: closed */
	LZ_CHECKED,	/* after the window's and the CPUs' checks */
	LZ_STEADY,	/* with no window's end, every CPU known, one or two
			   sharers, no wakeup waiting for its payer */
	LZ_DEFER,	/* LZ_STEADY, its cluster deferring (acct-defer.h) */
};

struct ea_lazy_cluster;

/* A CPU of an open cluster, busy at freq with nothing inferred (cpus[].st)
 * from the stretch's start on. */
struct ea_lazy_cpu {
	bool open;	/* its figures are deferred */
	uint8_t fast;	/* enum lz_fast */
	bool paid;	/* cpus[].last_task is its payer's entry */
	bool steady;	/* LZ_STEADY but for a wakeup waiting */
	bool pending;	/* a wakeup waits for its payer (the next task) */
	uint8_t cls, clcls;	/* enum lz_class of its core, of its share */
	bool d_first;	/* its cluster deferring (acct-defer.h): it is sh[0] */
	int ci;		/* its cluster */
	int k;		/* its core's cap index */
	uint32_t freq;
	struct ea_cpu_acct *ca;	/* its figures */
	struct ea_lazy_cluster *lc;
	uint64_t pcore;	/* cap_core[k] (>= 0) */
	uint64_t capk;	/* caps[k].cap */
	/* e.cluster_busy and busy_ns when the stretch began ... */
	ea_energy_t m_cl;
	uint64_t m_ns;
	/* ... and when the payer's last charges were added to its entry */
	ea_energy_t t_cl;
	uint64_t t_ns;
	uint64_t d_ns0;	/* its cluster deferring: busy_ns when it began */
};

struct ea_lazy_cluster {
	bool open;
	int cap;	/* the aggregate's */
	int n;		/* sharers: nbusy (<= 64), who[] */
	int shift;	/* n == 1 << shift, else -1 */
	uint64_t pcl;	/* cap_cluster[cap] (>= 0) */
	struct ea_cluster_acct *cla;
	ea_energy_t m_cl;	/* e.cluster_busy and busy_ns at the start */
	uint64_t m_ns;
	/* deferring its energies (acct-defer.h): since busy_ns was d_ns0,
	 * odd integrations (len & podd); pcl as a share's numerator (2 x pcl
	 * with one sharer) */
	bool defer;
	uint64_t d_ns0, odd, podd, d_pcl;
	/* the sharers' figures and records, who[]'s order */
	struct ea_cpu_acct *sh[64];
	struct ea_lazy_cpu *shr[64];
};

/*
 * The payer's charges since the marks into its entry (paid: it has one,
 * and then only), the marks moved to now. Its core's are pcore x its
 * busy time (each charge was pcore x len, in integers).
 */
static inline __attribute__((always_inline)) void
ea_acct_lazy_pay(struct ea_acct *a, struct ea_lazy_cpu *r,
		 const struct ea_cpu_acct *ca)
{
	struct ea_task_acct *t;
	uint64_t dns;

	if (!r->paid)
		return;	/* no charge since the marks */
	t = &a->tasks[ca->last_task - 1];
	dns = ca->busy_ns - r->t_ns;
	t->e.core_busy += (ea_energy_t)((unsigned __int128)r->pcore * dns);
	t->e.cluster_busy += ca->e.cluster_busy - r->t_cl;
	t->runtime_ns += dns;
	r->t_cl = ca->e.cluster_busy;
	r->t_ns = ca->busy_ns;
	r->paid = false;
}

/* The records (a->lz_cpu, a->lz_cl), none open; -1 out of memory. */
int ea_acct_lazy_new(struct ea_acct *a);
void ea_acct_lazy_free(struct ea_acct *a);

/*
 * Open cluster ci's stretch when the fast path can price its changes: no
 * filter or time windows, its aggregate known, busy CPUs (at most 64),
 * each at a frequency whose prices are not negative and with nothing
 * unknown, its last integration inside the window. false: not opened.
 */
bool ea_acct_lazy_open(struct ea_acct *a, int ci);

/* End cluster ci's stretch (if open): every deferred figure added. */
void ea_acct_lazy_close(struct ea_acct *a, int ci);
void ea_acct_lazy_close_all(struct ea_acct *a);

/* The CPU of r and ca (open) is about to charge its payer (cpus[].st.pid):
 * its entry looked up or made as ea_acct_charge_task_slow() would, paid
 * (a->error out of memory). */
void ea_acct_lazy_pay_slow(struct ea_acct *a, struct ea_lazy_cpu *r,
			   struct ea_cpu_acct *ca);

/*
 * account.c's settle_wakeups() for a CPU of an open stretch switching to
 * pid (r->pending): the wakeup energy waiting into pid's entry (found or
 * made, cached as the CPU's last payer), unless pid is the idle task's
 * (0: it waits on).
 */
void ea_acct_lazy_settle(struct ea_acct *a, struct ea_lazy_cpu *r,
			 struct ea_cpu_acct *ca, int32_t pid);

#endif
