// SPDX-License-Identifier: GPL-2.0-only
/*
 * `replay --shadow POLICY`: decision-level validation. At every recorded
 * sched_wakeup, the policy is asked where it would place the task, on the
 * recorded state at that instant, and its answer is compared with the CPU
 * the kernel chose (the wakeup's target_cpu):
 *  - util: each CPU's and the task's reconstructed PELT util (state/pelt.c)
 *    or, where the trace has them, the kernel's own last sched_load_cfs_rq
 *    (root) and sched_load_se values; the task's util is taken out of its
 *    previous CPU's, as the kernel's cpu_util_without();
 *  - OPP: each CPU's recorded frequency (the top OPP while unknown);
 *  - nr: the task running on the CPU plus those queued there (woken to it,
 *    preempted on it, migrated to it), the waking task excluded;
 *  - overutilised: some CPU's util above 80% of its capacity;
 *  - prev: the CPU the task last ran on; RFC wakeup rate as the simulator.
 * Skipped: wakeups of tasks never seen running (no prev), of RT/DL tasks
 * (prio < 100: no CFS policy places them), of a task running already (no
 * placement), and those without a target_cpu. Each decision is counted in
 * one kind: "overutilised" (the recorded state was), else "stayed on prev"
 * (the kernel kept prev) or "moved".
 *
 * It computes only: the counts (struct ea_shadow_result) and, for
 * --emit-decisions, each decision with the policy's own estimate per CPU
 * (struct rp_policy cpu_energy) handed to a sink; src/output writes both.
 */
#include <math.h>
#include <stdlib.h>

#include "eatrace/replay.h"
#include "replay/policy.h"
#include "state/pelt.h"

struct sh_task {
	int32_t pid; /* 0: free slot */
	int32_t qcpu; /* queued on, -1 */
	uint32_t kutil; /* sched_load_se util */
	bool has_kutil;
	uint64_t wake_sum, wake_last_ms;
};

struct ea_shadow {
	struct ea_shadow_config cfg;
	const struct rp_policy *pol;
	struct rp_cl_cache *clc;
	int ncpus; /* the model's */
	uint32_t *util, *kcpu;
	bool *has_kcpu;
	int *cap, *nr, *queued;
	struct sh_task *tasks; /* open addressing on pid */
	size_t ntasks, cap_tasks;
	struct ea_shadow_result res;
	bool failed;
	double *energy; /* a decision's, per CPU (decisions only) */
};

static struct sh_task *task_get(struct ea_shadow *sh, int32_t pid)
{
	size_t i;

	if (pid <= 0)
		return NULL;
	if (2 * (sh->ntasks + 1) > sh->cap_tasks) {
		size_t n = sh->cap_tasks ? 2 * sh->cap_tasks : 1024;
		struct sh_task *t = calloc(n, sizeof(*t)), *old = sh->tasks;

		if (!t) {
			sh->failed = true;
			return NULL;
		}
		for (size_t k = 0; k < sh->cap_tasks; k++) {
			if (!old[k].pid)
				continue;
			for (i = (size_t)old[k].pid % n; t[i].pid;
			     i = (i + 1) % n)
				;
			t[i] = old[k];
		}
		free(old);
		sh->tasks = t;
		sh->cap_tasks = n;
	}
	for (i = (size_t)pid % sh->cap_tasks; sh->tasks[i].pid;
	     i = (i + 1) % sh->cap_tasks)
		if (sh->tasks[i].pid == pid)
			return &sh->tasks[i];
	sh->tasks[i] = (struct sh_task){.pid = pid, .qcpu = -1};
	sh->ntasks++;
	return &sh->tasks[i];
}

int ea_shadow_new(struct ea_shadow **out, const struct ea_shadow_config *cfg,
		  struct ea_err *err)
{
	struct ea_shadow *sh = calloc(1, sizeof(*sh));
	int n = cfg->model->ncpus;

	*out = NULL;
	if (!sh)
		return ea_err_set(err, "out of memory");
	sh->cfg = *cfg;
	sh->pol = rp_policy_get(cfg->policy);
	if (!sh->pol || sh->pol->follow_segments) {
		free(sh);
		return ea_err_set(err,
				  "--shadow: '%s' is not a placement policy "
				  "(eas-rfc, feec, cfs, pack, spread)",
				  cfg->policy);
	}
	sh->ncpus = n;
	sh->util = calloc(n, sizeof(*sh->util));
	sh->kcpu = calloc(n, sizeof(*sh->kcpu));
	sh->has_kcpu = calloc(n, sizeof(*sh->has_kcpu));
	sh->cap = calloc(n, sizeof(*sh->cap));
	sh->nr = calloc(n, sizeof(*sh->nr));
	sh->queued = calloc(n, sizeof(*sh->queued));
	sh->clc = rp_cl_cache_new(cfg->model);
	sh->energy = calloc(n, sizeof(*sh->energy));
	if (!sh->util || !sh->kcpu || !sh->has_kcpu || !sh->cap || !sh->nr ||
	    !sh->queued || !sh->clc || !sh->energy) {
		ea_shadow_free(sh);
		return ea_err_set(err, "out of memory");
	}
	if (cfg->decisions)
		cfg->decisions->begin(cfg->decisions->ctx, n);
	*out = sh;
	return 0;
}

void ea_shadow_free(struct ea_shadow *sh)
{
	if (!sh)
		return;
	free(sh->util);
	free(sh->kcpu);
	free(sh->has_kcpu);
	free(sh->cap);
	free(sh->nr);
	free(sh->queued);
	free(sh->tasks);
	free(sh->energy);
	rp_cl_cache_free(sh->clc);
	free(sh);
}

const struct ea_shadow_result *ea_shadow_result(const struct ea_shadow *sh)
{
	return &sh->res;
}

int ea_shadow_done(struct ea_shadow *sh, struct ea_err *err)
{
	if (sh->failed)
		return ea_err_set(err, "out of memory");
	if (sh->cfg.decisions)
		sh->cfg.decisions->end(sh->cfg.decisions->ctx);
	return 0;
}

/* The policy's own estimate of placing the task on cpu (struct rp_policy
 * cpu_energy); false: none. */
static bool candidate_energy(const struct ea_shadow *sh, const struct rp_env *e,
			     const struct rp_wakee *p, int cpu, double *v)
{
	return sh->pol->cpu_energy && sh->pol->cpu_energy(e, p, cpu, v);
}

/* The decision to the --emit-decisions sink, with the policy's estimate
 * for each CPU. */
static void send_decision(struct ea_shadow *sh, const struct ea_event *ev,
			  const struct ea_task *t, const struct rp_env *e,
			  const struct rp_wakee *p, int pick, int kind)
{
	const struct ea_shadow_sink *sink = sh->cfg.decisions;
	struct ea_shadow_decision d = {
		.ts = ev->ts,
		.pid = t->pid,
		.comm = t->comm,
		.prev_cpu = p->prev_cpu,
		.recorded_cpu = p->rec_cpu,
		.policy_cpu = pick,
		.kind = kind,
		.ncpus = e->ncpus,
		.energy = sh->energy,
	};

	for (int c = 0; c < e->ncpus; c++)
		if (!candidate_energy(sh, e, p, c, &sh->energy[c]))
			sh->energy[c] = NAN;
	sink->decision(sink->ctx, &d);
}

static void decide(struct ea_shadow *sh, const struct ea_state *s,
		   const struct ea_event *ev, struct sh_task *st)
{
	const struct ea_model *m = sh->cfg.model;
	int n = ea_state_ncpus(s) < sh->ncpus ? ea_state_ncpus(s) : sh->ncpus;
	struct ea_task *t = ea_state_task(s, ev->wake.pid);
	struct rp_env e = {.model = m,
			   .ncpus = n,
			   .util = sh->util,
			   .cap_idx = sh->cap,
			   .nr = sh->nr,
			   .asymmetric = rp_asymmetric(m),
			   .clc = sh->clc};
	struct rp_wakee p = {0};
	struct ea_pelt tp;
	bool kernel = false;
	int pick, kind;
	uint64_t ms = ev->ts / 1000000;

	if (!t) {
		sh->res.skipped_no_prev++;
		return;
	}
	if (t->prio < 100 || ev->wake.prio < 100) {
		sh->res.skipped_rt++;
		return;
	}
	if (t->run == EA_TASK_RUNNING) {
		sh->res.skipped_running++;
		return;
	}
	if (t->cpu < 0 || t->cpu >= n) {
		sh->res.skipped_no_prev++;
		return;
	}
	if (ev->wake.target_cpu < 0 || ev->wake.target_cpu >= n) {
		sh->res.skipped_no_target++;
		return;
	}
	/* RFC wakeup tracking, as the simulator's */
	if (ms > st->wake_last_ms) {
		st->wake_sum =
			ea_pelt_decay(st->wake_sum, ms - st->wake_last_ms);
		st->wake_last_ms = ms;
	}
	st->wake_sum += 1024;
	tp = t->pelt;
	p.util = ea_pelt_update(&tp, ev->ts, false, 0);
	if (st->has_kutil) {
		p.util = st->kutil;
		kernel = true;
	}
	p.wakeups = (uint32_t)(st->wake_sum > UINT32_MAX ? UINT32_MAX
							 : st->wake_sum);
	p.prev_cpu = t->cpu;
	p.rec_cpu = ev->wake.target_cpu;
	for (int c = 0; c < n; c++) {
		const struct ea_cpu_state *cs = ea_state_cpu(s, c);
		const struct ea_cluster *cl;

		if (m->cpu_cluster[c] < 0) {
			sh->res.skipped_no_target++; /* CPU not in the model */
			return;
		}
		cl = &m->clusters[m->cpu_cluster[c]];
		sh->util[c] = sh->has_kcpu[c]
				      ? sh->kcpu[c]
				      : ea_state_cpu_util_at(s, c, ev->ts);
		kernel |= sh->has_kcpu[c];
		sh->cap[c] =
			cs->freq_khz
				? ea_model_cap_index_nearest(cl, cs->freq_khz)
				: cl->ncaps - 1;
		sh->nr[c] = (cs->pid > 0 && cs->pid != ev->wake.pid) +
			    sh->queued[c];
		if (!rp_fits(sh->util[c], cl->caps[cl->ncaps - 1].cap))
			e.overutilised = true;
	}
	sh->util[p.prev_cpu] = sh->util[p.prev_cpu] > p.util
				       ? sh->util[p.prev_cpu] - p.util
				       : 0;
	pick = sh->pol->select_cpu(&e, &p);
	kind = e.overutilised ? 2 : p.rec_cpu == p.prev_cpu ? 0 : 1;
	sh->res.n[kind]++;
	sh->res.agree[kind] += pick == p.rec_cpu;
	sh->res.kernel_util += kernel;
	if (sh->cfg.decisions)
		send_decision(sh, ev, t, &e, &p, pick, kind);
}

static void unqueue(struct ea_shadow *sh, struct sh_task *st)
{
	if (st && st->qcpu >= 0) {
		if (st->qcpu < sh->ncpus && sh->queued[st->qcpu] > 0)
			sh->queued[st->qcpu]--;
		st->qcpu = -1;
	}
}

static void enqueue_on(struct ea_shadow *sh, struct sh_task *st, int cpu)
{
	if (!st || cpu < 0 || cpu >= sh->ncpus)
		return;
	unqueue(sh, st);
	sh->queued[cpu]++;
	st->qcpu = cpu;
}

static void on_event(void *ctx, const struct ea_state *s,
		     const struct ea_event *ev)
{
	struct ea_shadow *sh = ctx;
	struct sh_task *st;

	switch (ev->type) {
	case EA_EV_WAKEUP:
		st = task_get(sh, ev->wake.pid);
		if (!st)
			return;
		decide(sh, s, ev, st);
		if (ea_state_task(s, ev->wake.pid) &&
		    ea_state_task(s, ev->wake.pid)->run != EA_TASK_RUNNING)
			enqueue_on(sh, st, ev->wake.target_cpu);
		return;
	case EA_EV_WAKEUP_NEW:
		enqueue_on(sh, task_get(sh, ev->wake.pid), ev->wake.target_cpu);
		return;
	case EA_EV_SWITCH:
		unqueue(sh, task_get(sh, ev->sw.next_pid));
		if (ev->sw.prev_state == EA_PREV_RUNNABLE)
			enqueue_on(sh, task_get(sh, ev->sw.prev_pid), ev->cpu);
		else
			unqueue(sh, task_get(sh, ev->sw.prev_pid));
		return;
	case EA_EV_MIGRATE:
		st = task_get(sh, ev->migrate.pid);
		if (st && st->qcpu >= 0)
			enqueue_on(sh, st, ev->migrate.dest_cpu);
		return;
	case EA_EV_UTIL_CFS:
		if (ev->util.cpu >= 0 && ev->util.cpu < sh->ncpus) {
			sh->kcpu[ev->util.cpu] = ev->util.util;
			sh->has_kcpu[ev->util.cpu] = true;
		}
		return;
	case EA_EV_UTIL_SE:
		st = task_get(sh, ev->util.pid);
		if (st) {
			st->kutil = ev->util.util;
			st->has_kutil = true;
		}
		return;
	default:
		return;
	}
}

static void no_change(void *ctx, const struct ea_state *s, int cpu,
		      uint64_t since, uint64_t now,
		      const struct ea_cpu_state *old,
		      const struct ea_cpu_state *new)
{
}

const struct ea_state_ops ea_shadow_ops = {
	.cpu_change = no_change,
	.event = on_event,
	.event_types = 1u << EA_EV_WAKEUP | 1u << EA_EV_WAKEUP_NEW |
		       1u << EA_EV_SWITCH | 1u << EA_EV_MIGRATE |
		       1u << EA_EV_UTIL_CFS | 1u << EA_EV_UTIL_SE,
};
