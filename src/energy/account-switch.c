// SPDX-License-Identifier: GPL-2.0-only
/*
 * The accountant's entry (ea_acct_ops): a task switch on a busy CPU, the
 * bulk of most traces, priced here while its cluster's stretch is open,
 * with every figure not read during a run deferred (acct-lazy.h), and
 * the energies too when the state stage gives it as a task switch
 * (task_switch(): acct-defer.h); every other change ends its cluster's
 * stretch and is priced by the general path (src/energy/account.c).
 */
#include <stdbool.h>
#include <string.h>

#include "energy/acct-defer.h"
#include "energy/acct-general.h"
#include "energy/acct-lazy.h"
#include "energy/acct-tasks.h"
#include "energy/split.h"
#include "eatrace/energy.h"

/* Two CPU states alike in every field (12 bytes, no padding). */
static inline __attribute__((always_inline)) bool
same_state(const struct ea_cpu_state *x, const struct ea_cpu_state *y)
{
	uint64_t u, v;

	memcpy(&u, x, sizeof(u));
	memcpy(&v, y, sizeof(v));
	return u == v && x->freq_khz == y->freq_khz;
}

/* Busy with nothing inferred: mode and inferred both 0. */
static inline __attribute__((always_inline)) bool
busy_plain(const struct ea_cpu_state *st)
{
	_Static_assert(EA_CPU_BUSY == 0, "busy_plain() reads mode as 0");
	return !st->mode && !st->inferred;
}

/*
 * Whether the open stretch of cpu's cluster prices this change (r not
 * LZ_SLOW): the CPU as the accountant knew it (busy at the stretch's
 * frequency with nothing inferred, which its records keep from the
 * stretch's start) before, the same after but for the task, inside the
 * window, and no CPU new to the accountant (ea_acct_general_change()'s
 * know_states()).
 */
static inline __attribute__((always_inline)) bool
lazy_ok(const struct ea_acct *a, const struct ea_lazy_cpu *r,
	const struct ea_state *s, uint64_t since, uint64_t now,
	const struct ea_cpu_state *old, const struct ea_cpu_state *new)
{
	return r->fast != LZ_SLOW && same_state(old, &r->ca->st) &&
	       busy_plain(new) && new->freq_khz == r->freq && now >= since &&
	       since >= a->clip_start && now <= a->clip_end &&
	       (a->st_known >= a->ncpus || ea_state_ncpus(s) <= a->st_known);
}

/* ea_acct_task()'s lookup of the CPU's payer when it has an entry, as
 * account.c's charge_task() finds it: cached (cpus[].last_*), paid; false:
 * the entry is still to be made. cached: try the CPU's last payer first
 * (the steady switch does not: its payer has just changed). */
static inline __attribute__((always_inline)) bool
find_payer(const struct ea_acct *a, struct ea_lazy_cpu *r,
	   struct ea_cpu_acct *ca, bool cached)
{
	int32_t pid = ca->st.pid;
	size_t mask = a->task_nslots - 1;

	if (pid < -1 && pid != EA_PID_SUSPENDED && pid != EA_PID_OFFLINE)
		pid = -1;
	if (cached && ca->last_task && ca->last_pid == pid) {
		r->paid = true;
		return true;
	}
	if ((uint32_t)pid < ACCT_PIDS) {	/* the table by pid has it */
		int32_t idx = ea_acct_task_page_idx(a, pid);

		if (!idx)
			return false;
		ca->last_pid = pid;
		ca->last_task = idx;
		r->paid = true;
		return true;
	}
	if (!a->task_nslots)
		return false;
	for (size_t j = ea_acct_slot_of(pid, a->task_nslots);
	     a->task_slots[j].idx; j = (j + 1) & mask) {
		if (a->task_slots[j].pid == pid) {
			ca->last_pid = pid;
			ca->last_task = a->task_slots[j].idx;
			r->paid = true;
			return true;
		}
	}
	return false;
}

static inline __attribute__((always_inline)) void
lazy_pay(struct ea_acct *a, struct ea_lazy_cpu *r, struct ea_cpu_acct *ca)
{
	if (!find_payer(a, r, ca, true))
		ea_acct_lazy_pay_slow(a, r, ca);
}

/*
 * A task switch priced as ea_acct_general_change() would, its deferred
 * figures left to the stretch's end: the cluster integrated over [last,
 * now) and shared among its busy CPUs in the same integer shares, the
 * core's interval [since, now); the payers' entries looked up (or made)
 * in the same order; the old payer's charges into its entry when the
 * task changes, a wakeup waiting for its payer settled. Any number of
 * sharers.
 */
static __attribute__((noinline)) void
lazy_switch(struct ea_acct *a, struct ea_lazy_cpu *r, uint64_t since,
	    uint64_t now, const struct ea_cpu_state *new)
{
	struct ea_cpu_acct *ca = r->ca;
	struct ea_lazy_cluster *lc = r->lc;
	struct ea_cluster_acct *cla = lc->cla;
	bool tasks = !a->cfg.no_tasks;
	uint64_t last = cla->last_ns;

	cla->last_ns = now;
	if (now > last) {	/* busy: its energy shared by the busy CPUs */
		uint64_t len = now - last;
		ea_energy_t e = (ea_energy_t)((unsigned __int128)lc->pcl * len);
		ea_energy_t share;
		int64_t rem;
		int n = lc->n;

		cla->busy_ns += len;
		cla->e.cluster_busy += e;
		if (lc->shift >= 0) {	/* e >= 0: ea_acct_split()'s quotient */
			share = e >> lc->shift;
			rem = (int64_t)((uint64_t)e & (uint64_t)(n - 1));
		} else {
			ea_acct_split(e, n, &share, &rem);
		}
		for (int i = 0; i < n; i++) {
			if (tasks && !lc->shr[i]->paid)
				lazy_pay(a, lc->shr[i], lc->sh[i]);
			lc->sh[i]->e.cluster_busy += share + (ea_energy_t)(i < rem);
		}
	}
	if (now > since) {	/* the core's, its payer's */
		uint64_t len = now - since;
		ea_energy_t e = (ea_energy_t)((unsigned __int128)r->pcore * len);

		if (tasks && !r->paid)
			lazy_pay(a, r, ca);
		ca->busy_ns += len;
		ca->e.core_busy += e;
		cla->e.core_busy += e;
	}
	if (tasks && new->pid != ca->st.pid)
		ea_acct_lazy_pay(a, r, ca);
	if (r->pending)
		ea_acct_lazy_settle(a, r, ca, new->pid);
	ca->st = *new;
}

/* Any other change: its cluster's stretch ended, priced by the general
 * path; or a task switch whose cluster's stretch is open, or can open. */
static __attribute__((noinline)) void
other_change(struct ea_acct *a, const struct ea_state *s, int cpu,
	     uint64_t since, uint64_t now, const struct ea_cpu_state *old,
	     const struct ea_cpu_state *new)
{
	int ci = cpu >= 0 && cpu < a->ncpus ? a->model->cpu_cluster[cpu] : -1;

	if (ci >= 0 && new) {
		struct ea_lazy_cpu *r = &a->lz_cpu[cpu];

		if (!a->lz_cl[ci].open && old->mode == EA_CPU_BUSY &&
		    new->mode == EA_CPU_BUSY)
			ea_acct_lazy_open(a, ci);
		if (lazy_ok(a, r, s, since, now, old, new)) {
			lazy_switch(a, r, since, now, new);
			return;
		}
	}
	if (ci >= 0)
		ea_acct_lazy_close(a, ci);
	/* know_states(): every cluster's aggregate to be made again */
	if (a->st_known < a->ncpus && ea_state_ncpus(s) > a->st_known)
		ea_acct_lazy_close_all(a);
	ea_acct_general_change(a, s, cpu, since, now, old, new);
}

/*
 * The entry. The steady switch (LZ_STEADY: one or two sharers, no
 * window's end, every CPU known, no wakeup waiting) is lazy_switch() for
 * n <= 2 inline, its payers' entries found before anything is charged
 * (one to be made: lazy_switch(), in the same order); everything else
 * through other_change().
 */
static void on_change(void *ctx, const struct ea_state *s, int cpu,
		      uint64_t since, uint64_t now,
		      const struct ea_cpu_state *old,
		      const struct ea_cpu_state *new)
{
	struct ea_acct *a = ctx;
	struct ea_lazy_cpu *r;
	struct ea_lazy_cluster *lc;
	struct ea_cluster_acct *cla;
	struct ea_cpu_acct *ca;
	uint64_t last;
	bool tasks, two;

	if (a->lz_ndefer)	/* task_switch()'s deferred energies first */
		ea_acct_defer_sync_all(a);
	if (!new || (unsigned int)cpu >= (unsigned int)a->ncpus)
		goto other;
	r = &a->lz_cpu[cpu];
	if (r->fast != LZ_STEADY)
		goto other;
	ca = r->ca;
	if (!same_state(old, &ca->st) || !busy_plain(new) ||
	    new->freq_khz != r->freq || now < since || since < a->clip_start)
		goto other;
	lc = r->lc;
	cla = lc->cla;
	last = cla->last_ns;
	two = lc->n == 2;
	tasks = !a->cfg.no_tasks;
	if (tasks) {
		if (now > last) {	/* every sharer charged, this CPU one */
			if ((!lc->shr[0]->paid &&
			     !find_payer(a, lc->shr[0], lc->sh[0], false)) ||
			    (two && !lc->shr[1]->paid &&
			     !find_payer(a, lc->shr[1], lc->sh[1], false)))
				goto any;
		} else if (now > since && !r->paid &&
			   !find_payer(a, r, ca, false)) {
			goto any;
		}
	}
	cla->last_ns = now;
	if (now > last) {	/* ea_acct_split() by 2: e >> 1, e & 1 */
		uint64_t len = now - last;
		ea_energy_t e = (ea_energy_t)((unsigned __int128)lc->pcl * len);

		cla->busy_ns += len;
		cla->e.cluster_busy += e;
		if (two) {
			ea_energy_t share = e >> 1;

			lc->sh[0]->e.cluster_busy +=
				share + (ea_energy_t)((uint64_t)e & 1);
			lc->sh[1]->e.cluster_busy += share;
		} else {
			ca->e.cluster_busy += e;
		}
	}
	if (now > since) {
		uint64_t len = now - since;
		ea_energy_t e = (ea_energy_t)((unsigned __int128)r->pcore * len);

		ca->busy_ns += len;
		ca->e.core_busy += e;
		cla->e.core_busy += e;
	}
	if (tasks && new->pid != ca->st.pid)
		ea_acct_lazy_pay(a, r, ca);
	ca->st = *new;
	return;
any:
	lazy_switch(a, r, since, now, new);
	return;
other:
	other_change(a, s, cpu, since, now, old, new);
}

/* on_change() of a task switch's two states (ea_acct_task_switch()) */
static __attribute__((noinline)) void
switch_change(struct ea_acct *a, const struct ea_state *s, int cpu,
	      uint64_t since, uint64_t now, int32_t pid)
{
	struct ea_cpu_state old = *ea_state_cpu(s, cpu), new = old;

	new.pid = pid;
	on_change(a, s, cpu, since, now, &old, &new);
}

/*
 * A task switch of a deferring steady stretch (acct-defer.h), its payers'
 * entries found: the busy times and the odd count; the payer's charges
 * into its entry when it changes, and the new payer's entry found at
 * once when it has one (ea_acct_ops.task_switch below).
 */
static inline __attribute__((always_inline)) void
defer_switch(struct ea_acct *a, struct ea_lazy_cpu *r,
	     struct ea_lazy_cluster *lc, uint64_t since, uint64_t now,
	     int32_t pid)
{
	struct ea_cluster_acct *cla = lc->cla;
	struct ea_cpu_acct *ca = r->ca;
	uint64_t last = cla->last_ns;

	cla->last_ns = now;
	if (now > last) {
		uint64_t len = now - last;

		cla->busy_ns += len;
		lc->odd += len & lc->podd;
	}
	ca->busy_ns += now - since;
	if (!a->cfg.no_tasks && pid != ca->st.pid) {
		ea_acct_defer_pay(a, r, ca, lc);
		if ((uint32_t)pid < ACCT_PIDS) {
			int32_t idx = ea_acct_task_page_idx(a, pid);

			if (idx) {
				ca->last_pid = pid;
				ca->last_task = idx;
				r->paid = true;
			}
		}
	}
	ca->st.pid = pid;
}

/*
 * ea_acct_task_switch() when its stretch does not defer yet, or a payer it
 * charges has no entry found: found (on_change()'s order), or made by
 * on_change() (then all of it there).
 */
static __attribute__((noinline)) void
switch_prepare(struct ea_acct *a, const struct ea_state *s, int cpu,
	       uint64_t since, uint64_t now, int32_t pid)
{
	struct ea_lazy_cpu *r = &a->lz_cpu[cpu];
	struct ea_lazy_cluster *lc = r->lc;

	/* LZ_STEADY, its cluster not deferring yet (begun below), or
	 * LZ_DEFER */
	if (!(r->fast == LZ_STEADY ? !lc->defer : r->fast == LZ_DEFER) ||
	    now < since || since < a->clip_start) {
		switch_change(a, s, cpu, since, now, pid);
		return;
	}
	if (!a->cfg.no_tasks) {
		if (now > lc->cla->last_ns) {	/* every sharer charged */
			if ((!lc->shr[0]->paid &&
			     !find_payer(a, lc->shr[0], lc->sh[0], false)) ||
			    (lc->n == 2 && !lc->shr[1]->paid &&
			     !find_payer(a, lc->shr[1], lc->sh[1], false))) {
				switch_change(a, s, cpu, since, now, pid);
				return;
			}
		} else if (now > since && !r->paid &&
			   !find_payer(a, r, r->ca, false)) {
			switch_change(a, s, cpu, since, now, pid);
			return;
		}
	}
	if (!lc->defer)
		ea_acct_defer_begin(a, lc);
	defer_switch(a, r, lc, since, now, pid);
}

/*
 * ea_acct_ops.task_switch: cpu's task becomes pid, its state otherwise
 * the same, busy with nothing inferred (the state stage's word). The
 * state before is then cpus[cpu].st, the state after the CPU's last
 * change (every change sets it; LZ_STEADY: every CPU's is known), which
 * its steady stretch keeps busy at r->freq with nothing inferred, as
 * on_change()'s checks of old and new find it. So on_change()'s steady
 * switch when every payer it charges has an entry (else on_change(),
 * which makes it in the same order), its energies deferred
 * (acct-defer.h: these callers read them at the end only), and the new
 * payer's entry found at once when it has one: the entry its first
 * charge would find (none is made here), its charges since the marks
 * none yet (paying it adds nothing until it is charged). Anything else:
 * on_change() of the two states.
 */
void ea_acct_task_switch(void *ctx, const struct ea_state *s, int cpu,
			 uint64_t since, uint64_t now, int32_t pid)
{
	struct ea_acct *a = ctx;
	struct ea_lazy_cpu *r;
	struct ea_lazy_cluster *lc;

	if ((unsigned int)cpu >= (unsigned int)a->ncpus)
		goto other;
	r = &a->lz_cpu[cpu];
	lc = r->lc;
	if (r->fast != LZ_DEFER || now < since || since < a->clip_start ||
	    (!a->cfg.no_tasks &&
	     (now > lc->cla->last_ns ?
		      !lc->shr[0]->paid || (lc->n == 2 && !lc->shr[1]->paid) :
		      now > since && !r->paid))) {
		switch_prepare(a, s, cpu, since, now, pid);
		return;
	}
	defer_switch(a, r, lc, since, now, pid);
	return;
other:
	switch_change(a, s, cpu, since, now, pid);
}

const struct ea_state_ops ea_acct_ops = {
	.cpu_change = on_change,
	.task_switch = ea_acct_task_switch,
};

const struct ea_state_ops ea_acct_live_ops = {
	.cpu_change = on_change,
};
