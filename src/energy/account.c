// SPDX-License-Identifier: GPL-2.0-only
/*
 * The accountant (see include/eatrace/energy.h): every CPU change closes an
 * interval of constant state; its core energy is charged to the CPU, and its
 * cluster is integrated up to the same instant from the states of all its
 * CPUs, which the state stage guarantees constant since the cluster's last
 * integration. Wakeup energy is charged at the instant of the exit. The
 * accountant's entry, ea_acct_ops, is src/energy/account-switch.c: a task
 * switch in a cluster's stretch of them priced there, its figures deferred
 * (acct-lazy.h) and added up before any other change of the cluster,
 * which is priced here (ea_acct_general_change()), and before
 * ea_acct_done().
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "energy/acct-agg.h"
#include "energy/acct-freq.h"
#include "energy/acct-general.h"
#include "energy/acct-lazy.h"
#include "energy/acct-tasks.h"
#include "energy/part.h"
#include "energy/price.h"
#include "energy/split.h"
#include "energy/task-only.h"
#include "energy/windows.h"
#include "eatrace/energy.h"

static struct ea_prices *prices(const struct ea_acct *a)
{
	return a->prices;
}

/* ea_state_clip() and ea_state_in_window() on the bounds kept by on_change() */
static inline uint64_t clip(const struct ea_acct *a, uint64_t *t0, uint64_t *t1)
{
	return ea_clip_to(a->clip_start, a->clip_end, t0, t1);
}

static inline bool in_window(const struct ea_acct *a, uint64_t t)
{
	return t >= a->clip_start && t < a->clip_end;
}

/* cfg.cpu_only: whether cpu's energy reaches the totals (all, without). */
static inline bool selected(const struct ea_acct *a, int cpu)
{
	return !a->cfg.cpu_only || (cpu < a->cfg.ncpu_only && a->cfg.cpu_only[cpu]);
}

bool ea_acct_cpu_selected(const struct ea_acct *a, int cpu)
{
	return selected(a, cpu);
}

bool ea_acct_cluster_selected(const struct ea_acct *a, int ci)
{
	const struct ea_cluster *cl = &a->model->clusters[ci];

	for (int i = 0; i < cl->ncpus; i++)
		if (selected(a, cl->cpus[i]))
			return true;
	return false;
}

/* cfg.task_only: whether what cpu charges pid counts (all, without). */
static inline bool task_counts(struct ea_acct *a, int cpu, int32_t pid)
{
	return !a->cfg.task_only || ea_acct_task_selected(a, cpu, pid);
}

/* Only some CPUs' or tasks' share: the clusters' figures are shares. */
static inline bool filtered(const struct ea_acct *a)
{
	return a->cfg.cpu_only || a->cfg.task_only;
}

/* ---- tasks ---- */

/* Charge pid for cpu's energy; the CPU remembers its last payer's entry. */
static inline void charge_task(struct ea_acct *a, int cpu, int32_t pid,
			       enum part part, ea_energy_t v)
{
	struct ea_cpu_acct *ca = &a->cpus[cpu];

	if (!selected(a, cpu))
		return;
	if (pid < -1 && pid != EA_PID_SUSPENDED && pid != EA_PID_OFFLINE)
		pid = -1;
	if (ca->last_task && ca->last_pid == pid)
		add(&a->tasks[ca->last_task - 1].e, part, v);
	else
		ea_acct_charge_task_slow(a, cpu, pid, part, v);
}

/* The task a CPU's interval is charged to: idle time to pid 0. */
static int32_t payer(const struct ea_cpu_state *st)
{
	switch (st->mode) {
	case EA_CPU_IDLE:
		return 0;
	case EA_CPU_SUSPENDED:
		return EA_PID_SUSPENDED;
	case EA_CPU_OFFLINE:
		return EA_PID_OFFLINE;
	default:
		return st->pid;
	}
}

/* ---- per-state prices ---- */

static int idle_index(struct ea_acct *a, const struct ea_cluster *cl, int k,
		      uint64_t len)
{
	if (k < 0)
		k = 0;
	if (k >= cl->nidles) {
		a->idle_clamped += len;
		k = cl->nidles - 1;
	}
	return k;
}

/* ---- the core of one CPU over [t0, t1) ---- */

/*
 * A suspended or offline CPU over [t0, t1) (len ns, clipped). Offline: its
 * cluster's offline power. Suspended: the model's suspend power is the
 * whole system's, shared by the CPUs the trace has (a->st_known, within
 * the model) in integers, remainders to the lowest ids; every CPU is
 * suspended over the same intervals, so the shares add up to it exactly,
 * and the time windows take it whole from CPU 0's intervals.
 */
static void charge_absent(struct ea_acct *a, int cpu, int ci,
			  const struct cluster_price *cp,
			  const struct ea_cpu_state *st, uint64_t t0,
			  uint64_t t1, uint64_t len)
{
	struct ea_cpu_acct *ca = &a->cpus[cpu];
	bool mine = task_counts(a, cpu, payer(st));
	enum part part;
	ea_energy_t e;

	if (st->inferred)
		ca->inferred_ns += len;
	if (st->mode == EA_CPU_OFFLINE) {
		part = OFFLINE;
		e = (ea_energy_t)cp->offline * len;
		ca->offline_ns += len;
		if (selected(a, cpu) && mine)
			charge_windows(a, part, cp->offline, t0, t1);
	} else {
		ea_energy_t all = (ea_energy_t)prices(a)->suspend * len;
		int n = a->st_known < a->ncpus ? a->st_known : a->ncpus;

		if (n < 1)
			n = 1;
		part = SUSPENDED;
		e = all / n + (cpu < (int)(all % n) ? 1 : 0);
		ca->suspended_ns += len;
		if (filtered(a)) {
			if (selected(a, cpu) && mine)
				ea_acct_charge_windows_share(a, part, e, t0, t1);
		} else if (cpu == 0) {
			charge_windows(a, part, prices(a)->suspend, t0, t1);
		}
	}
	if (!mine)
		return;
	add(&ca->e, part, e);
	if (selected(a, cpu))
		add(&a->clusters[ci].e, part, e);
	if (!a->cfg.no_tasks)
		charge_task(a, cpu, payer(st), part, e);
}

static void charge_core(struct ea_acct *a, int cpu, int ci,
			const struct ea_cluster *cl,
			const struct cluster_price *cp,
			const struct ea_cpu_state *st, uint64_t t0, uint64_t t1)
{
	struct ea_cpu_acct *ca = &a->cpus[cpu];
	uint64_t len = clip(a, &t0, &t1);
	ea_energy_t e;
	int64_t power;
	enum part part;
	bool mine;

	if (!len)
		return;
	if (st->mode == EA_CPU_SUSPENDED || st->mode == EA_CPU_OFFLINE) {
		charge_absent(a, cpu, ci, cp, st, t0, t1, len);
		return;
	}
	mine = task_counts(a, cpu, payer(st));
	if (st->inferred)
		ca->inferred_ns += len;
	if (st->mode == EA_CPU_BUSY) {
		int k = ea_acct_cap_index(a, cl, cpu, st->freq_khz, len);

		power = cp->cap_core[k];
		part = CORE_BUSY;
		e = (ea_energy_t)power * len;
		if (st->inferred & EA_INF_UNKNOWN)
			ca->unknown_ns += len;
		else
			ca->busy_ns += len;
		ca->work += len * cl->caps[k].cap;
		ca->pstates[k].ns += len;
		if (mine) {
			ca->pstates[k].energy += e;
			if (!st->freq_khz)
				ca->assumed_freq_energy += e;
			else if (ca->exact_cap < 0)	/* ea_acct_cap_index() just set it */
				ca->unmodelled_freq_energy += e;
		}
	} else {
		int k = idle_index(a, cl, st->idle_state, len);

		power = cp->idle_core[k];
		part = CORE_IDLE;
		e = (ea_energy_t)power * len;
		if (st->inferred & EA_INF_UNKNOWN) {
			ca->unknown_ns += len;
			ca->unknown_idle_ns += len;
		} else {
			ca->idle_ns += len;
		}
		ca->cstates[k].ns += len;
		if (st->idle_state >= cl->nidles)
			ca->idle_clamped_ns += len;
		if (mine) {
			ca->cstates[k].energy += e;
			if (st->idle_state >= cl->nidles)
				ca->idle_clamped_energy += e;
		}
	}
	if (!mine)
		return;
	if (st->inferred & EA_INF_UNKNOWN)
		ca->unknown_energy += e;
	add(&ca->e, part, e);
	if (!selected(a, cpu))
		return;
	add(&a->clusters[ci].e, part, e);
	if (!a->cfg.no_tasks) {
		charge_task(a, cpu, payer(st), part, e);
		/* the payer's runtime: the same intervals as its energy */
		if (part == CORE_BUSY && ca->last_task && ca->last_pid ==
		    (payer(st) < -1 ? -1 : payer(st)))
			a->tasks[ca->last_task - 1].runtime_ns += len;
	}
	charge_windows(a, part, power, t0, t1);
}

/* ---- a cluster over [last, now) ---- */

/* Whether a CPU going from old to new changes what ea_acct_aggregate()
 * finds. */
static bool same_aggregate(const struct ea_cpu_state *old,
			   const struct ea_cpu_state *new)
{
	if (old->mode != new->mode)
		return false;
	if (old->mode == EA_CPU_BUSY)
		return old->freq_khz == new->freq_khz;
	return (old->idle_state < 0 ? 0 : old->idle_state) ==
	       (new->idle_state < 0 ? 0 : new->idle_state);
}

static void integrate_cluster(struct ea_acct *a, int ci,
			      const struct ea_cluster *cl,
			      const struct cluster_price *cp, uint64_t now)
{
	struct ea_cluster_acct *ca = &a->clusters[ci];
	uint64_t t0 = ca->last_ns, t1 = now;
	uint64_t len = clip(a, &t0, &t1);
	int nbusy, npresent, cap, idle;
	const int *who = ca->who;
	int nsharers;
	enum part part;
	int64_t power, rem;	/* |rem| < nsharers */
	ea_energy_t e, share, sel = 0;

	ca->last_ns = now;
	if (!len)
		return;
	if (!ca->agg_ok)
		ea_acct_aggregate(a, ci, cl);
	nbusy = ca->nbusy;
	npresent = ca->npresent;
	cap = ca->cap;
	idle = ca->idle;
	if (!npresent)
		return;
	if (nbusy) {
		part = CLUSTER_BUSY;
		power = cp->cap_cluster[cap];
		ca->busy_ns += len;
		ca->pstates[cap].ns += len;
	} else {
		idle = idle >= cl->nidles ? cl->nidles - 1 : idle;
		part = CLUSTER_IDLE;
		power = cp->idle_cluster[idle];
		ca->idle_ns += len;
		ca->cstates[idle].ns += len;
	}
	e = (ea_energy_t)power * len;
	if (!filtered(a)) {
		if (nbusy)
			ca->pstates[cap].energy += e;
		else
			ca->cstates[idle].energy += e;
		add(&ca->e, part, e);
		charge_windows(a, part, power, t0, t1);
	}

	/* Shares: busy energy among busy CPUs, idle energy among all (the
	 * first 64 of them in cluster order). */
	nsharers = nbusy ? nbusy : npresent;
	if (nsharers > 64)
		nsharers = 64;
	ea_acct_split(e, nsharers, &share, &rem);
	for (int i = 0; i < nsharers; i++) {
		struct ea_cpu_acct *cpa = &a->cpus[who[i]];
		ea_energy_t mine = share + (i < rem ? 1 : 0);

		if (!task_counts(a, who[i], payer(&cpa->st)))
			continue;
		add(&cpa->e, part, mine);
		if (cpa->st.inferred & EA_INF_UNKNOWN)
			cpa->unknown_energy += mine;
		if (nbusy)
			ea_acct_freq_assumed(a, cl, who[i], mine);
		else if (ca->idle >= cl->nidles)
			cpa->idle_clamped_energy += mine;
		if (nbusy)
			cpa->pstates[cap].energy += mine;
		else
			cpa->cstates[idle].energy += mine;
		if (!a->cfg.no_tasks)
			charge_task(a, who[i], payer(&cpa->st), part, mine);
		if (filtered(a) && selected(a, who[i]))
			sel += mine;
	}
	/* filtered: the cluster's figures are the selected CPUs' and tasks'
	 * shares */
	if (sel) {
		if (nbusy)
			ca->pstates[cap].energy += sel;
		else
			ca->cstates[idle].energy += sel;
		add(&ca->e, part, sel);
		ea_acct_charge_windows_share(a, part, sel, t0, t1);
	}
}

/* ---- wakeups at `now` ---- */

/*
 * Whether every present CPU of the cluster is idle; *state the shallowest
 * of their states, -1 when none is present (all offline: the cluster is
 * powered down).
 */
static bool cluster_all_idle(const struct ea_acct *a,
			     const struct ea_cluster *cl, int *state)
{
	int k = -1;

	for (int i = 0; i < cl->ncpus; i++) {
		const struct ea_cpu_state *st;

		if (!ea_acct_present(a, cl->cpus[i]))
			continue;
		st = &a->cpus[cl->cpus[i]].st;
		if (st->mode != EA_CPU_IDLE)
			return false;
		if (k < 0 || st->idle_state < k)
			k = st->idle_state < 0 ? 0 : st->idle_state;
	}
	*state = k;
	return true;
}

/*
 * A wakeup's energy, out of the CPU's C-state k (core; k < 0: a CPU brought
 * online) and the cluster's kc (kc < 0: the cluster was not all idle), into the CPU's figures, and the
 * selected CPUs' into the cluster's and the windows' (at ts).
 */
static void book_wakeup(struct ea_acct *a, int cpu, int k, ea_energy_t core,
			int kc, ea_energy_t cluster, uint64_t ts)
{
	struct ea_cpu_acct *ca = &a->cpus[cpu];
	int ci = a->model->cpu_cluster[cpu];

	if (k >= 0) {	/* k < 0: a CPU brought online, no C-state left */
		ca->cstates[k].energy += core;
		add(&ca->e, CORE_WAKEUP, core);
		if (selected(a, cpu)) {
			add(&a->clusters[ci].e, CORE_WAKEUP, core);
			charge_window_at(a, CORE_WAKEUP, core, ts);
		}
	}
	if (kc < 0)
		return;
	ca->cstates[kc].energy += cluster;
	add(&ca->e, CLUSTER_WAKEUP, cluster);
	if (selected(a, cpu)) {
		a->clusters[ci].cstates[kc].energy += cluster;
		add(&a->clusters[ci].e, CLUSTER_WAKEUP, cluster);
		charge_window_at(a, CLUSTER_WAKEUP, cluster, ts);
	}
}

static void charge_wakeups(struct ea_acct *a, int cpu, int ci,
			   const struct ea_cluster *cl,
			   const struct cluster_price *cp, uint64_t now,
			   const struct ea_cpu_state *old,
			   const struct ea_cpu_state *new)
{
	struct ea_cpu_acct *ca = &a->cpus[cpu];
	ea_energy_t core = 0, cluster = 0;
	int k = -1, kc = -1;
	bool online;

	if (!new || !in_window(a, now))
		return;
	if (new->mode == EA_CPU_IDLE &&
	    (old->mode != EA_CPU_IDLE || old->idle_state != new->idle_state)) {
		k = idle_index(a, cl, new->idle_state, 0);
		ca->cstates[k].entries++;
	}
	/* A CPU brought online busy wakes a fully idle (or powered down)
	 * cluster as an idle CPU would, but leaves no idle state of its own. */
	online = old->mode == EA_CPU_OFFLINE && new->mode == EA_CPU_BUSY;
	if (!(old->mode == EA_CPU_IDLE && new->mode == EA_CPU_BUSY) && !online)
		return;
	if (!online) {
		k = idle_index(a, cl, old->idle_state, 0);
		ca->wakeups++;
		ca->cstates[k].wakeups++;
		core = cp->wake_core[k];
	}
	/* a->cpus[cpu].st is still `old`: the cluster before this change;
	 * no CPU present (the others offline too): as from its deepest
	 * state, a cluster power-down. */
	if (cluster_all_idle(a, cl, &kc)) {
		kc = idle_index(a, cl, kc < 0 ? cl->nidles - 1 : kc, 0);
		a->clusters[ci].wakeups++;
		a->clusters[ci].cstates[kc].wakeups++;
		cluster = cp->wake_cluster[kc];
	} else {
		kc = -1;
		if (online)	/* nothing woke */
			return;
	}
	if (a->cfg.task_only) {	/* priced once its payer is known */
		ca->pending_k = k;
		ca->pending_kc = kc;
		ca->pending_ts = now;
	} else {
		book_wakeup(a, cpu, k, core, kc, cluster, now);
	}
	if (!a->cfg.no_tasks) {
		ca->pending_core_wakeup += core;
		ca->pending_cluster_wakeup += cluster;
	}
}

/* Wakeups are paid by the first task that runs after them. */
static void settle_wakeups(struct ea_acct *a, int cpu,
			   const struct ea_cpu_state *new)
{
	struct ea_cpu_acct *ca = &a->cpus[cpu];
	int32_t pid;

	if (!ca->pending_core_wakeup && !ca->pending_cluster_wakeup)
		return;
	if (new && new->mode == EA_CPU_BUSY && new->pid == 0)
		return;	/* still in the idle task: wait for a task */
	pid = new && new->mode == EA_CPU_BUSY ? new->pid : 0;
	if (a->cfg.task_only) {
		/* one wakeup at most waits: the CPU idles again first */
		if (task_counts(a, cpu, pid))
			book_wakeup(a, cpu, ca->pending_k, ca->pending_core_wakeup,
				    ca->pending_kc, ca->pending_cluster_wakeup,
				    ca->pending_ts);
		else {
			ca->pending_core_wakeup = ca->pending_cluster_wakeup = 0;
			return;
		}
	}
	charge_task(a, cpu, pid, CORE_WAKEUP, ca->pending_core_wakeup);
	charge_task(a, cpu, pid, CLUSTER_WAKEUP, ca->pending_cluster_wakeup);
	ca->pending_core_wakeup = ca->pending_cluster_wakeup = 0;
}

/*
 * The state of every CPU, kept from the changes: the first change brings
 * the states of the CPUs the trace has so far (and the window, fixed by
 * then), a CPU the trace adds later its initial state.
 */
static void know_states(struct ea_acct *a, const struct ea_state *s, int n)
{
	if (!a->st_known)
		ea_state_clip_bounds(s, &a->clip_start, &a->clip_end);
	for (int i = a->st_known; i < n && i < a->ncpus; i++)
		a->cpus[i].st = *ea_state_cpu(s, i);
	a->st_known = n;
	for (int i = 0; i < a->model->nclusters; i++)
		a->clusters[i].agg_ok = false;
}

void ea_acct_general_change(struct ea_acct *a, const struct ea_state *s, int cpu,
			    uint64_t since, uint64_t now,
			    const struct ea_cpu_state *old,
			    const struct ea_cpu_state *new)
{
	const struct ea_cluster *cl;
	const struct cluster_price *cp;
	int ci;

	if (a->error[0])
		return;
	a->cur_state = s;
	if (cpu >= a->model->ncpus || a->model->cpu_cluster[cpu] < 0) {
		snprintf(a->error, sizeof(a->error),
			 "the trace has CPU %d, which model '%s' does not describe",
			 cpu, a->model->name);
		return;
	}
	if (!a->win_start)
		ea_state_window(s, &a->win_start, &a->win_end);
	/* CPUs past the model's need no state: none once all of its are in */
	if (!a->st_known || a->st_known < a->ncpus) {
		int ntrace = ea_state_ncpus(s);

		if (ntrace > a->st_known)
			know_states(a, s, ntrace);
	}
	ci = a->model->cpu_cluster[cpu];
	cl = &a->model->clusters[ci];
	cp = &prices(a)->cl[ci];
	if (!a->clusters[ci].last_ns)
		a->clusters[ci].last_ns = ea_state_first_ts(s);
	integrate_cluster(a, ci, cl, cp, now);
	charge_core(a, cpu, ci, cl, cp, old, since, now);
	charge_wakeups(a, cpu, ci, cl, cp, now, old, new);
	if (!a->cfg.no_tasks)
		settle_wakeups(a, cpu, new);
	if (new) {
		if (!same_aggregate(&a->cpus[cpu].st, new))
			a->clusters[ci].agg_ok = false;
		a->cpus[cpu].st = *new;
	}
}

int ea_acct_init(struct ea_acct *a, const struct ea_model *model,
		 const struct ea_acct_config *cfg, struct ea_err *err)
{
	struct ea_prices *p;

	memset(a, 0, sizeof(*a));
	a->model = model;
	if (cfg)
		a->cfg = *cfg;
	if (a->cfg.task_only)	/* it filters the per-task attribution */
		a->cfg.no_tasks = false;
	a->plain = !a->cfg.cpu_only && !a->cfg.task_only && !a->cfg.interval_ns;
	if (ea_prices_new(&p, model, a->cfg.zero_wakeups)) {
		ea_prices_free(p);
		return ea_err_set(err, "out of memory");
	}
	a->prices = p;
	a->domains = calloc(model->ncpus ? model->ncpus : 1, sizeof(int));
	if (!a->domains)
		goto oom;
	for (int i = 0; i < model->ncpus; i++) {
		int ci = model->cpu_cluster[i];

		/* CPUs of a freq_domain cluster share one id; others alone */
		a->domains[i] = ci >= 0 && model->clusters[ci].freq_domain ? ci : -1 - i;
	}
	a->ncpus = model->ncpus;
	a->cpus = calloc(model->ncpus ? model->ncpus : 1, sizeof(*a->cpus));
	a->clusters = calloc(model->nclusters ? model->nclusters : 1,
			     sizeof(*a->clusters));
	if (!a->cpus || !a->clusters || ea_acct_lazy_new(a) ||
	    (!a->cfg.no_tasks && ea_acct_task_pages_new(a)))
		goto oom;
	for (int i = 0; i < model->nclusters; i++) {
		const struct ea_cluster *cl = &model->clusters[i];

		a->clusters[i].assumed_cap = ea_acct_assumed_index(a, cl);
		a->clusters[i].pstates = calloc(cl->ncaps + 1, sizeof(struct ea_pstate_acct));
		a->clusters[i].cstates = calloc(cl->nidles + 1, sizeof(struct ea_cstate_acct));
		if (!a->clusters[i].pstates || !a->clusters[i].cstates)
			goto oom;
		for (int j = 0; j < cl->ncpus; j++) {
			struct ea_cpu_acct *c = &a->cpus[cl->cpus[j]];

			c->pstates = calloc(cl->ncaps + 1, sizeof(*c->pstates));
			c->cstates = calloc(cl->nidles + 1, sizeof(*c->cstates));
			if (!c->pstates || !c->cstates)
				goto oom;
		}
	}
	return 0;
oom:
	ea_acct_free(a);
	return ea_err_set(err, "out of memory");
}

void ea_acct_free(struct ea_acct *a)
{
	for (int i = 0; a->cpus && i < a->ncpus; i++) {
		free(a->cpus[i].pstates);
		free(a->cpus[i].cstates);
	}
	for (int i = 0; a->clusters && a->model && i < a->model->nclusters; i++) {
		free(a->clusters[i].pstates);
		free(a->clusters[i].cstates);
	}
	free(a->cpus);
	free(a->clusters);
	free(a->tasks);
	free(a->task_slots);
	ea_acct_task_pages_free(a);
	free(a->windows);
	ea_prices_free(a->prices);
	free(a->domains);
	ea_acct_lazy_free(a);
	memset(a, 0, sizeof(*a));
}

int ea_acct_done(struct ea_acct *a, const struct ea_state *s, struct ea_err *err)
{
	if (a->error[0])
		return ea_err_set(err, "%s", a->error);
	ea_acct_lazy_close_all(a);	/* the deferred figures */
	/* Every piece went to its cluster: the total is their sum. */
	memset(&a->total, 0, sizeof(a->total));
	for (int i = 0; i < a->model->nclusters; i++)
		ea_energy_add(&a->total, &a->clusters[i].e);
	ea_state_window(s, &a->win_start, &a->win_end);
	a->trace_ncpus = ea_state_ncpus(s);
	a->unknown_ns = 0;
	a->unknown_energy = 0;
	for (int i = 0; i < a->ncpus; i++) {
		if (!selected(a, i))
			continue;
		a->unknown_ns += a->cpus[i].unknown_ns;
		a->unknown_energy += a->cpus[i].unknown_energy;
	}
	a->unknown_idle_state = ea_state_config(s)->unknown_idle_state;
	a->suspended_ns = 0;
	a->offline_ns = 0;
	for (int i = 0; i < a->ncpus; i++) {
		if (!selected(a, i))
			continue;
		/* every CPU is suspended at once: the longest is the system's */
		if (a->cpus[i].suspended_ns > a->suspended_ns)
			a->suspended_ns = a->cpus[i].suspended_ns;
		a->offline_ns += a->cpus[i].offline_ns;
	}
	if (a->cfg.interval_ns) {
		size_t need = (a->win_end - a->win_start + a->cfg.interval_ns - 1) /
			      a->cfg.interval_ns;

		if (!need)
			need = 1;
		/* A wakeup at the trace's very last instant (the window's
		 * end) lands one window past the last: it belongs to the
		 * last, closed at that instant, so the windows add up to the
		 * total (only instants can be there: intervals end by then). */
		for (size_t i = need; i < a->nwindows; i++)
			ea_energy_add(&a->windows[need - 1], &a->windows[i]);
		if (need < a->nwindows)
			a->nwindows = need;
		/* the last windows, when a filter left them without a charge */
		else if (need > a->nwindows && need <= EA_MAX_WINDOWS &&
			 !ea_acct_grow_windows(a, need))
			return ea_err_set(err, "%s", a->error);
	}
	for (size_t i = 0; i < a->ntasks; i++) {
		struct ea_task_acct *t = &a->tasks[i];
		const struct ea_task *st = t->pid > 0 ? ea_state_task(s, t->pid) : NULL;

		if (st) {
			memcpy(t->comm, st->comm, EA_COMM_LEN);
			t->wakeups = st->wakeups + st->wakeups_inferred;
		} else {
			snprintf(t->comm, EA_COMM_LEN, "%s",
				 t->pid == 0 ? "[idle]" :
				 t->pid == EA_PID_SUSPENDED ? "[suspended]" :
				 t->pid == EA_PID_OFFLINE ? "[offline]" :
				 "[unknown]");
		}
	}
	return 0;
}

static uint32_t capacity_cb(void *ctx, int cpu, uint32_t freq)
{
	const struct ea_model *m = ctx;
	const struct ea_cluster *cl;
	int k;

	if (cpu >= m->ncpus || m->cpu_cluster[cpu] < 0)
		return 1024;
	cl = &m->clusters[m->cpu_cluster[cpu]];
	k = freq ? ea_model_cap_index_nearest(cl, freq) : cl->ncaps - 1;
	return k < 0 ? 1024 : cl->caps[k].cap;
}

void ea_acct_state_config(const struct ea_acct *a, struct ea_state_config *cfg)
{
	const struct ea_model *m = a->model;

	cfg->freq_domain = a->domains;
	cfg->nfreq_domain = m->ncpus;
	cfg->capacity = capacity_cb;
	cfg->cap_ctx = (void *)m;
}
