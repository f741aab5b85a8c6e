// SPDX-License-Identifier: GPL-2.0-only
/*
 * The accountant's deferred figures (acct-lazy.h): a cluster's stretch of
 * task switches opened, its figures added up when it ends, and the
 * payer's entry looked up at its first charge.
 */
#include <stdio.h>
#include <stdlib.h>

#include "energy/acct-agg.h"
#include "energy/acct-defer.h"
#include "energy/acct-freq.h"
#include "energy/acct-lazy.h"
#include "energy/acct-tasks.h"
#include "energy/price.h"

int ea_acct_lazy_new(struct ea_acct *a)
{
	int ncpus = a->model->ncpus, ncl = a->model->nclusters;

	a->lz_cpu = calloc(ncpus ? ncpus : 1, sizeof(*a->lz_cpu));
	a->lz_cl = calloc(ncl ? ncl : 1, sizeof(*a->lz_cl));
	return a->lz_cpu && a->lz_cl ? 0 : -1;
}

void ea_acct_lazy_free(struct ea_acct *a)
{
	free(a->lz_cpu);
	free(a->lz_cl);
	a->lz_cpu = NULL;
	a->lz_cl = NULL;
}

/* account.c's charge_task(): a busy CPU's pid as its entry's */
static int32_t payer_pid(int32_t pid)
{
	if (pid < -1 && pid != EA_PID_SUSPENDED && pid != EA_PID_OFFLINE)
		pid = -1;
	return pid;
}

static bool payer_known(const struct ea_cpu_acct *ca)
{
	return ca->last_task && ca->last_pid == payer_pid(ca->st.pid);
}

/* A CPU's core: its cap index and class, as ea_acct_cap_index() prices
 * it (the same memos); its share's class, as ea_acct_freq_assumed(). */
static int core_index(struct ea_acct *a, const struct ea_cluster *cl,
		      int cpu, uint32_t freq, uint8_t *cls, uint8_t *clcls)
{
	int k;

	if (!freq) {
		*cls = *clcls = LZ_ASSUMED;
		return a->clusters[a->model->cpu_cluster[cpu]].assumed_cap;
	}
	k = ea_acct_cap_index(a, cl, cpu, freq, 0);
	*cls = a->cpus[cpu].exact_cap < 0 ? LZ_UNMODELLED : LZ_EXACT;
	*clcls = cl->caps[ea_acct_busy_cap(a, cl, cpu, freq)].freq_khz != freq
			 ? LZ_UNMODELLED : LZ_EXACT;
	return k;
}

/* The first n sharers' records opened by a stretch that cannot open after
 * all, closed again (nothing was deferred yet); false. */
static bool unopen(struct ea_acct *a, const struct ea_cluster_acct *cla, int n)
{
	for (int i = 0; i < n; i++) {
		a->lz_cpu[cla->who[i]].open = false;
		a->lz_cpu[cla->who[i]].fast = LZ_SLOW;
	}
	return false;
}

bool ea_acct_lazy_open(struct ea_acct *a, int ci)
{
	const struct ea_cluster *cl = &a->model->clusters[ci];
	const struct cluster_price *cp = &((struct ea_prices *)a->prices)->cl[ci];
	struct ea_cluster_acct *cla = &a->clusters[ci];
	struct ea_lazy_cluster *lc = &a->lz_cl[ci];
	bool tasks = !a->cfg.no_tasks, steady;
	int n;

	if (lc->open || !a->plain || !a->st_known || a->error[0] ||
	    !a->win_start || !cla->last_ns || cla->last_ns < a->clip_start)
		return false;
	/* what the general path would find when it next integrates it */
	if (!cla->agg_ok)
		ea_acct_aggregate(a, ci, cl);
	n = cla->nbusy;
	if (n < 1 || n > 64 || !cla->npresent || cla->cap < 0 ||
	    cla->cap >= cl->ncaps || cp->cap_cluster[cla->cap] < 0)
		return false;
	/* what LZ_STEADY leaves unchecked: no window's end to clip to, every
	 * CPU's state known (st_known only grows) */
	steady = n <= 2 && a->clip_end == UINT64_MAX && a->st_known >= a->ncpus;
	for (int i = 0; i < n; i++) {
		int cpu = cla->who[i];
		struct ea_cpu_acct *ca = &a->cpus[cpu];
		struct ea_lazy_cpu *r = &a->lz_cpu[cpu];

		if (ca->st.mode != EA_CPU_BUSY || ca->st.inferred)
			return unopen(a, cla, i);
		r->freq = ca->st.freq_khz;
		r->k = core_index(a, cl, cpu, r->freq, &r->cls, &r->clcls);
		if (r->k < 0 || r->k >= cl->ncaps || cp->cap_core[r->k] < 0)
			return unopen(a, cla, i);
		r->ci = ci;
		r->ca = ca;
		r->lc = lc;
		r->pcore = (uint64_t)cp->cap_core[r->k];
		r->capk = cl->caps[r->k].cap;
		r->m_cl = r->t_cl = ca->e.cluster_busy;
		r->m_ns = r->t_ns = ca->busy_ns;
		r->paid = tasks && payer_known(ca);
		r->open = true;
		r->steady = steady;
		/* a wakeup waiting for its payer: lazy_switch() settles it */
		r->pending = tasks && (ca->pending_core_wakeup ||
				       ca->pending_cluster_wakeup);
		r->fast = steady && !r->pending ? LZ_STEADY : LZ_CHECKED;
		lc->sh[i] = ca;
		lc->shr[i] = r;
	}
	lc->cla = cla;
	lc->cap = cla->cap;
	lc->n = n;
	lc->shift = n & (n - 1) ? -1 : __builtin_ctz((unsigned int)n);
	lc->pcl = (uint64_t)cp->cap_cluster[cla->cap];
	lc->m_cl = cla->e.cluster_busy;
	lc->m_ns = cla->busy_ns;
	lc->open = true;
	return true;
}

/* The energy deferred in a figure of one class, into its note's. */
static void by_class(struct ea_cpu_acct *ca, uint8_t cls, ea_energy_t e)
{
	if (cls == LZ_ASSUMED)
		ca->assumed_freq_energy += e;
	else if (cls == LZ_UNMODELLED)
		ca->unmodelled_freq_energy += e;
}

static void close_cpu(struct ea_acct *a, int cpu, int cap)
{
	struct ea_lazy_cpu *r = &a->lz_cpu[cpu];
	struct ea_cpu_acct *ca = &a->cpus[cpu];
	uint64_t dns = ca->busy_ns - r->m_ns;
	ea_energy_t dcore = (ea_energy_t)((unsigned __int128)r->pcore * dns);
	ea_energy_t dcl = ca->e.cluster_busy - r->m_cl;

	ca->pstates[r->k].ns += dns;
	ca->pstates[r->k].energy += dcore;
	ca->work += dns * r->capk;
	if (r->cls == LZ_ASSUMED)
		ca->assumed_freq_ns += dns;
	else if (r->cls == LZ_UNMODELLED)
		ca->unmodelled_freq_ns += dns;
	by_class(ca, r->cls, dcore);
	ca->pstates[cap].energy += dcl;
	by_class(ca, r->clcls, dcl);
	if (!a->cfg.no_tasks)
		ea_acct_lazy_pay(a, r, ca);
	r->open = false;
	r->fast = LZ_SLOW;
}

void ea_acct_lazy_close(struct ea_acct *a, int ci)
{
	const struct ea_cluster *cl = &a->model->clusters[ci];
	struct ea_cluster_acct *cla = &a->clusters[ci];
	struct ea_lazy_cluster *lc = &a->lz_cl[ci];

	if (!lc->open)
		return;
	ea_acct_defer_sync(a, lc);
	for (int i = 0; i < cl->ncpus; i++)
		if (a->lz_cpu[cl->cpus[i]].open)
			close_cpu(a, cl->cpus[i], lc->cap);
	cla->pstates[lc->cap].ns += cla->busy_ns - lc->m_ns;
	cla->pstates[lc->cap].energy += cla->e.cluster_busy - lc->m_cl;
	lc->open = false;
}

void ea_acct_lazy_close_all(struct ea_acct *a)
{
	for (int i = 0; a->lz_cl && i < a->model->nclusters; i++)
		ea_acct_lazy_close(a, i);
}

/* pid's entry (made if it has none), cached as ca's last payer, as
 * ea_acct_charge_task_slow() caches it; NULL out of memory (a->error). */
static struct ea_task_acct *cache_task(struct ea_acct *a,
				       struct ea_cpu_acct *ca, int32_t pid)
{
	struct ea_task_acct *t;

	pid = payer_pid(pid);
	if (ca->last_task && ca->last_pid == pid)
		return &a->tasks[ca->last_task - 1];
	t = ea_acct_task(a, pid);
	if (!t) {
		snprintf(a->error, sizeof(a->error), "out of memory");
		return NULL;
	}
	ca->last_pid = pid;
	ca->last_task = (int32_t)(t - a->tasks) + 1;
	return t;
}

void ea_acct_lazy_pay_slow(struct ea_acct *a, struct ea_lazy_cpu *r,
			   struct ea_cpu_acct *ca)
{
	if (cache_task(a, ca, ca->st.pid))
		r->paid = true;
}

void ea_acct_lazy_settle(struct ea_acct *a, struct ea_lazy_cpu *r,
			 struct ea_cpu_acct *ca, int32_t pid)
{
	struct ea_task_acct *t;

	if (!pid)
		return;	/* still in the idle task: wait for a task */
	t = cache_task(a, ca, pid);
	if (!t)
		return;
	t->e.core_wakeup += ca->pending_core_wakeup;
	t->e.cluster_wakeup += ca->pending_cluster_wakeup;
	ca->pending_core_wakeup = ca->pending_cluster_wakeup = 0;
	r->pending = false;
	r->fast = r->steady ? LZ_STEADY : LZ_CHECKED;
}
