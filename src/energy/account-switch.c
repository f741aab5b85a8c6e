// SPDX-License-Identifier: GPL-2.0-only
/*
 * The accountant's entry (ea_acct_ops): a CPU change that is a task switch
 * on a busy CPU, the bulk of most traces, priced here on a fast path with
 * what the general path (src/energy/account.c) checks answered once; every
 * other change priced there.
 */
#include <stdbool.h>

#include "energy/acct-freq.h"
#include "energy/acct-general.h"
#include "energy/acct-tasks.h"
#include "energy/part.h"
#include "energy/price.h"
#include "energy/split.h"
#include "eatrace/energy.h"

/* account.c's charge_task() with no CPU filter (a->plain), on a busy CPU's
 * pid; the task's entry, NULL out of memory (a->error says it). */
static inline __attribute__((always_inline)) struct ea_task_acct *
charge_task_plain(struct ea_acct *a, struct ea_cpu_acct *ca, int cpu,
		  int32_t pid, enum part part, ea_energy_t v)
{
	struct ea_task_acct *t;

	if (pid < -1 && pid != EA_PID_SUSPENDED && pid != EA_PID_OFFLINE)
		pid = -1;
	if (__builtin_expect(ca->last_task && ca->last_pid == pid, 1)) {
		t = &a->tasks[ca->last_task - 1];
		add(&t->e, part, v);
		return t;
	}
	/* ea_acct_task()'s lookup of a task it has */
	for (size_t j = a->task_nslots ? ea_acct_slot_of(pid, a->task_nslots) : 0;
	     a->task_nslots && a->task_slots[j].idx;
	     j = (j + 1) & (a->task_nslots - 1)) {
		if (a->task_slots[j].pid == pid) {
			ca->last_pid = pid;
			ca->last_task = a->task_slots[j].idx;
			t = &a->tasks[ca->last_task - 1];
			add(&t->e, part, v);
			return t;
		}
	}
	ea_acct_charge_task_slow(a, cpu, pid, part, v);
	return ca->last_task && ca->last_pid == pid ? &a->tasks[ca->last_task - 1]
						    : NULL;
}

/*
 * The common change, a task switch, priced as ea_acct_general_change()
 * would with what it checks answered once: a CPU busy before and after at the
 * same frequency, in a cluster whose aggregate (busy CPUs, highest cap)
 * this leaves as it is and whose last integration and this interval lie
 * inside the window, with no filter, no time windows and no wakeup
 * waiting for its payer. The same charges in the same order (the tasks'
 * entries are made in the same order). false: nothing done.
 */
static bool fast_switch(struct ea_acct *a, const struct ea_state *s, int cpu,
			uint64_t since, uint64_t now,
			const struct ea_cpu_state *old,
			const struct ea_cpu_state *new)
{
	struct ea_cpu_acct *ca = &a->cpus[cpu];
	struct ea_cluster_acct *cla;
	const struct ea_cluster *cl;
	const struct cluster_price *cp;
	uint64_t len;
	ea_energy_t e;
	bool tasks = !a->cfg.no_tasks;
	int ci, k;

	if (old->mode != EA_CPU_BUSY || new->mode != EA_CPU_BUSY ||
	    old->freq_khz != new->freq_khz || ca->st.mode != EA_CPU_BUSY ||
	    ca->st.freq_khz != new->freq_khz)
		return false;
	ci = a->model->cpu_cluster[cpu];
	cla = &a->clusters[ci];
	if (!cla->agg_ok || !cla->nbusy || !cla->last_ns ||
	    cla->last_ns < a->clip_start || since < a->clip_start ||
	    now > a->clip_end || !a->win_start || a->error[0])
		return false;
	if (tasks && (ca->pending_core_wakeup || ca->pending_cluster_wakeup))
		return false;
	if (a->st_known < a->ncpus && ea_state_ncpus(s) > a->st_known)
		return false;
	a->cur_state = s;
	cl = &a->model->clusters[ci];
	cp = &((struct ea_prices *)a->prices)->cl[ci];

	/* account.c's integrate_cluster(): busy, no clipping, no filter */
	if (now > cla->last_ns && cla->npresent) {
		int cap = cla->cap, nsharers = cla->nbusy;
		int64_t power = cp->cap_cluster[cap], rem;
		ea_energy_t share;

		len = now - cla->last_ns;
		cla->busy_ns += len;
		cla->pstates[cap].ns += len;
		e = (ea_energy_t)power * len;
		cla->pstates[cap].energy += e;
		cla->e.cluster_busy += e;
		if (nsharers > 64)
			nsharers = 64;
		ea_acct_split(e, nsharers, &share, &rem);
		for (int i = 0; i < nsharers; i++) {
			int who = cla->who[i];
			struct ea_cpu_acct *cpa = &a->cpus[who];
			ea_energy_t mine = share + (ea_energy_t)(i < rem);
			uint32_t freq = cpa->st.freq_khz;

			cpa->e.cluster_busy += mine;
			if (cpa->st.inferred & EA_INF_UNKNOWN)
				cpa->unknown_energy += mine;
			/* ea_acct_freq_assumed(), its memo read here */
			if (!freq)
				cpa->assumed_freq_energy += mine;
			else if (freq != cpa->near_freq)
				ea_acct_freq_assumed(a, cl, who, mine);
			else if (cl->caps[cpa->near_cap].freq_khz != freq)
				cpa->unmodelled_freq_energy += mine;
			cpa->pstates[cap].energy += mine;
			if (tasks)	/* busy: its task pays */
				charge_task_plain(a, cpa, who, cpa->st.pid,
						  CLUSTER_BUSY, mine);
		}
	}
	cla->last_ns = now;

	/* account.c's charge_core(): busy, no clipping, no filter */
	len = now > since ? now - since : 0;
	if (len) {
		int32_t pid = old->pid;	/* payer(old): busy */
		uint32_t freq = old->freq_khz;

		if (old->inferred)
			ca->inferred_ns += len;
		/* ea_acct_cap_index(), its memo read here */
		if (!freq) {
			ca->assumed_freq_ns += len;
			k = cla->assumed_cap;
		} else if (freq == ca->exact_freq && ca->exact_cap >= 0) {
			k = ca->exact_cap;
		} else {
			k = ea_acct_cap_index(a, cl, cpu, freq, len);
		}
		e = (ea_energy_t)cp->cap_core[k] * len;
		if (old->inferred & EA_INF_UNKNOWN) {
			ca->unknown_ns += len;
			ca->unknown_energy += e;
		} else {
			ca->busy_ns += len;
		}
		ca->work += len * cl->caps[k].cap;
		ca->pstates[k].ns += len;
		ca->pstates[k].energy += e;
		if (!old->freq_khz)
			ca->assumed_freq_energy += e;
		else if (ca->exact_cap < 0)
			ca->unmodelled_freq_energy += e;
		ca->e.core_busy += e;
		cla->e.core_busy += e;
		if (tasks) {
			struct ea_task_acct *t =
				charge_task_plain(a, ca, cpu, pid, CORE_BUSY, e);

			if (t)	/* the payer's runtime, as its energy's */
				t->runtime_ns += len;
		}
	}
	ca->st = *new;
	return true;
}

static void on_change(void *ctx, const struct ea_state *s, int cpu,
		      uint64_t since, uint64_t now,
		      const struct ea_cpu_state *old,
		      const struct ea_cpu_state *new)
{
	struct ea_acct *a = ctx;

	if (a->plain && new && cpu < a->model->ncpus &&
	    a->model->cpu_cluster[cpu] >= 0 && a->st_known &&
	    fast_switch(a, s, cpu, since, now, old, new))
		return;
	ea_acct_general_change(a, s, cpu, since, now, old, new);
}

const struct ea_state_ops ea_acct_ops = {
	.cpu_change = on_change,
};
