// SPDX-License-Identifier: GPL-2.0-only
/*
 * rp_run_jobs() (runs.h): every policy on each job's workload, jobs in
 * threads. What the threads share they only read (the workload, models,
 * configs); each job has its own copy of the workload, simulator, state
 * stage and accountant. The PELT decay table is filled once before the
 * threads start (state/pelt.c fills it on first use).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "replay/runs.h"
#include "replay/workload.h"
#include "state/pelt.h"

struct pool {
	const struct ea_workload *w;
	const struct ea_replay_config *cfgs;
	int npol;
	const struct rp_job *jobs;
	int njobs;
	struct rp_job_out *out;
	void (*progress)(void *ctx, int done, int n);
	void *ctx;
	pthread_mutex_t lock;
	int next, done;
	bool failed;
	bool apart; /* a thread to spare for each job's pricing */
	struct ea_err err;
};

/* Job j, all its policies, priced to their common end (each left open,
 * then ea_replay_close() on them together, as the report's own runs). 0
 * or -1 + err. */
static int run_job(const struct pool *p, int j, struct ea_err *err)
{
	const struct rp_job *job = &p->jobs[j];
	const struct ea_workload *w = p->w;
	struct ea_workload *copy = NULL;
	struct ea_replay_result *r;
	const struct ea_workload_counts *c;
	int *pol, nr = 0, rc = 0;

	r = calloc(p->npol, sizeof(*r));
	pol = calloc(p->npol, sizeof(*pol));
	if (!r || !pol) {
		free(r);
		free(pol);
		return ea_err_set(err, "out of memory");
	}
	if (job->perturb) {
		copy = rp_workload_perturb(p->w, job->cut_ns, job->jitter_ns,
					   job->seed);
		if (!copy) {
			rc = ea_err_set(err, "out of memory");
			goto out;
		}
		w = copy;
	}
	c = ea_workload_counts(w);
	for (int i = 0; i < p->npol; i++) {
		struct ea_replay_config cfg = p->cfgs[i];

		if (job->policy >= 0 && job->policy != i)
			continue;
		cfg.sink = NULL;
		cfg.keep_open = true;
		cfg.no_latencies = true; /* its energy alone is read */
		cfg.price_apart = p->apart;
		if (job->model)
			cfg.model = job->model;
		if (copy) {
			/* the member's window, in trace time */
			cfg.state_cfg.win_start = c->win_start;
			cfg.state_cfg.win_end = c->win_end;
			cfg.state_cfg.win_relative = false;
		}
		if (ea_replay_run(w, &cfg, &r[nr], err)) {
			rc = -1;
			goto out;
		}
		pol[nr++] = i;
	}
	if (ea_replay_close(r, nr, err)) {
		rc = -1;
		goto out;
	}
	for (int k = 0; k < nr; k++) {
		struct rp_job_out *o = &p->out[j * p->npol + pol[k]];

		o->energy =
			ea_energy_to_double(ea_energy_total(&r[k].acct.total));
		o->wakeup =
			ea_energy_to_double(ea_energy_wakeup(&r[k].acct.total));
		o->win_ns = c->win_end - c->win_start;
		o->decisions = r[k].lat_n;
		o->placements = r[k].placements;
	}
out:
	for (int k = 0; k < nr; k++)
		ea_replay_result_free(&r[k]);
	free(r);
	free(pol);
	ea_workload_free(copy);
	return rc;
}

static void *worker(void *arg)
{
	struct pool *p = arg;

	for (;;) {
		struct ea_err err;
		int j;

		pthread_mutex_lock(&p->lock);
		j = p->failed || p->next >= p->njobs ? -1 : p->next++;
		pthread_mutex_unlock(&p->lock);
		if (j < 0)
			return NULL;
		if (run_job(p, j, &err)) {
			pthread_mutex_lock(&p->lock);
			if (!p->failed)
				p->err = err;
			p->failed = true;
			pthread_mutex_unlock(&p->lock);
			return NULL;
		}
		pthread_mutex_lock(&p->lock);
		p->done++;
		if (p->progress)
			p->progress(p->ctx, p->done, p->njobs);
		pthread_mutex_unlock(&p->lock);
	}
}

int rp_run_jobs(const struct ea_workload *w,
		const struct ea_replay_config *cfgs, int npol,
		const struct rp_job *jobs, int njobs, int threads,
		struct rp_job_out *out,
		void (*progress)(void *ctx, int done, int n), void *ctx,
		struct ea_err *err)
{
	struct pool p = {.w = w,
			 .cfgs = cfgs,
			 .npol = npol,
			 .jobs = jobs,
			 .njobs = njobs,
			 .out = out,
			 .progress = progress,
			 .ctx = ctx};
	pthread_t *tids = NULL;
	int started = 0;

	/* fewer jobs than threads: each job's runs price apart (beside
	 * their simulator) on those left */
	p.apart = threads >= 2 * njobs;
	if (threads > njobs)
		threads = njobs;
	if (threads < 1)
		threads = 1;
	pthread_mutex_init(&p.lock, NULL);
	(void)ea_pelt_decay(1, 1); /* its table, before any thread reads it */
	if (threads > 1)
		tids = calloc(threads - 1, sizeof(*tids));
	for (int i = 0; tids && i < threads - 1; i++) {
		if (pthread_create(&tids[i], NULL, worker, &p))
			break; /* fewer threads: slower, not wrong */
		started++;
	}
	worker(&p); /* this thread too */
	for (int i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	free(tids);
	pthread_mutex_destroy(&p.lock);
	if (p.failed) {
		*err = p.err;
		return -1;
	}
	return 0;
}
