// SPDX-License-Identifier: GPL-2.0-only
/*
 * ea_replay_run(): one policy's replay, from workload to priced timeline,
 * the top of src/replay (docs/replay.md "Layout of src/replay"). The
 * simulator's events (simulator.h) go into a fresh state stage driving the
 * same accountant (ea_acct_ops) as `eatrace report`, configured by the
 * replay platform's model exactly as `report` configures it; its metrics
 * become the result's (latency percentiles here).
 */
#include <stdlib.h>
#include <string.h>

#include "replay/simulator.h"
#include "replay/workload.h"

struct feed {
	struct ea_state *st;
	const struct ea_replay_sink *sink;
	struct ea_err err;
	bool failed;
};

static int feed_event(void *ctx, const struct ea_event *ev, const char *comm)
{
	struct feed *f = ctx;

	if (f->failed)
		return -1;
	if (ea_state_feed(f->st, ev, &f->err)) {
		f->failed = true;
		return -1;
	}
	if (f->sink && f->sink->event(f->sink->ctx, ev, comm)) {
		ea_err_set(&f->err, "writing the simulated trace failed");
		f->failed = true;
		return -1;
	}
	return 0;
}

static void swap_u64(uint64_t *a, uint64_t *b)
{
	uint64_t t = *a;

	*a = *b;
	*b = t;
}

/*
 * Put the k-th smallest of v[0, n) at v[k], the smaller ones before it and
 * the larger after (quickselect, three-way partition: O(n) on average, and
 * runs of equal latencies cost one pass).
 */
static void select_nth(uint64_t *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n; /* k is in [lo, hi) */

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2, lt = lo, i = lo, gt = hi;
		uint64_t a = v[lo], b = v[mid], c = v[hi - 1], pivot;

		/* median of three */
		pivot = a < b ? (b < c	 ? b
				 : a < c ? c
					 : a)
			      : (a < c	 ? a
				 : b < c ? c
					 : b);
		while (i < gt) {
			if (v[i] < pivot)
				swap_u64(&v[lt++], &v[i++]);
			else if (v[i] > pivot)
				swap_u64(&v[i], &v[--gt]);
			else
				i++;
		}
		/* [lo, lt) < pivot, [lt, gt) == pivot, [gt, hi) > pivot */
		if (k < lt)
			hi = lt;
		else if (k >= gt)
			lo = gt;
		else
			return;
	}
}

/* Nearest-rank index of percentile p among n values. */
static size_t rank(size_t n, unsigned p)
{
	size_t r = (n * p + 99) / 100;

	return r ? r - 1 : 0;
}

/*
 * The latency percentiles, exactly those of the sorted array, without
 * sorting: select p50, then p90 above it, then p99 above that (each
 * selection leaves only larger values past its rank, so the next one
 * looks at fewer).
 */
static void percentiles(uint64_t *v, size_t n, struct ea_replay_result *r)
{
	size_t r99, r90, r50;
	uint64_t max = 0;

	if (!n)
		return;
	for (size_t i = 0; i < n; i++)
		if (v[i] > max)
			max = v[i];
	r99 = rank(n, 99);
	r90 = rank(n, 90);
	r50 = rank(n, 50);
	select_nth(v, n, r50);
	r->lat_p50 = v[r50];
	select_nth(v + r50, n - r50, r90 - r50);
	r->lat_p90 = v[r90];
	select_nth(v + r90, n - r90, r99 - r90);
	r->lat_p99 = v[r99];
	r->lat_max = max;
}

int ea_replay_work_parse(const char *name)
{
	if (!strcmp(name, "auto"))
		return EA_WORK_AUTO;
	if (!strcmp(name, "demand"))
		return EA_WORK_DEMAND;
	if (!strcmp(name, "fixed"))
		return EA_WORK_FIXED;
	return -1;
}

int ea_replay_run(const struct ea_workload *w,
		  const struct ea_replay_config *cfg,
		  struct ea_replay_result *r, struct ea_err *err)
{
	const struct rp_policy *pol = rp_policy_get(cfg->policy);
	int idle = rp_idle_parse(cfg->idle);
	struct rp_gov_spec gov;
	char gerr[200], serr[128];
	struct ea_state_config scfg = cfg->state_cfg;
	struct ea_acct_config acfg = cfg->acct_cfg;
	struct feed f = {0};
	struct sim_config sc;
	struct sim_metrics sm;
	struct sim *s = NULL;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	if (!pol || idle < 0)
		return ea_err_set(err,
				  "replay: unknown policy or idle selector");
	if (pol->follow_segments && w->cfg.no_segments)
		return ea_err_set(
			err, "replay: policy %s needs the workload's segments",
			pol->name);
	if (rp_gov_spec_parse(&gov, cfg->governor, cfg->model, gerr,
			      sizeof(gerr)))
		return ea_err_set(err, "replay: %s", gerr);
	snprintf(r->policy, sizeof(r->policy), "%s", pol->name);
	/* the results show CPU and cluster energy, never per-task figures */
	acfg.no_tasks = true;
	if (ea_acct_init(&r->acct, cfg->model, &acfg, err)) {
		rp_gov_spec_free(&gov);
		return -1;
	}
	sc = (struct sim_config){.w = w,
				 .m = cfg->model,
				 .policy = pol,
				 .gov = &gov,
				 .idle = idle,
				 .work = cfg->work,
				 .same_platform = cfg->same_platform,
				 .assumed_khz = cfg->acct_cfg.assumed_khz};
	s = sim_new(&sc, serr, sizeof(serr));
	if (!s) {
		ea_err_set(err, "replay: %s", serr);
		goto out;
	}
	/* First pass: how long each idle period lasts. */
	if (idle == RP_IDLE_ORACLE && sim_measure_idle(s)) {
		ea_err_set(err, "replay: %s", sim_error(s));
		goto out;
	}
	ea_acct_state_config(&r->acct, &scfg);
	scfg.ncpus = sim_ncpus(s);
	/* the simulated timeline is consistent: no look-ahead needed past
	 * the start (see ea_state_config.lookahead) */
	scfg.lookahead = 1;
	/* the accountant reads no utilisation from it, nor tasks (no_tasks
	 * above) */
	scfg.no_util = true;
	scfg.no_tasks = true;
	if (ea_state_new(&f.st, &scfg, &ea_acct_ops, &r->acct)) {
		ea_err_set(err, "out of memory");
		goto out;
	}
	f.sink = cfg->sink;
	sim_set_sink(s, feed_event, &f);
	if (sim_run(s)) {
		ea_err_set(err, "replay %s: %s", pol->name,
			   f.failed ? f.err.msg : sim_error(s));
		goto out;
	}
	if (ea_state_finish(f.st, &f.err)) {
		ea_err_set(err, "replay %s: %s", pol->name, f.err.msg);
		goto out;
	}
	if (ea_acct_done(&r->acct, f.st, err))
		goto out;
	sim_get_metrics(s, &sm);
	r->lat_n = sm.nlat;
	percentiles(sm.lat, sm.nlat, r);
	r->wait_ns = sm.wait_ns;
	r->late = sm.late;
	r->overutilised_ns = sm.overutil_ns;
	r->migrations = sm.migrations;
	r->events = sm.events;
	r->ncpus = sim_ncpus(s);
	r->cpu_busy_ns = calloc(r->ncpus, sizeof(*r->cpu_busy_ns));
	r->cpu_work = calloc(r->ncpus, sizeof(*r->cpu_work));
	if (!r->cpu_busy_ns || !r->cpu_work) {
		ea_err_set(err, "out of memory");
		goto out;
	}
	for (int i = 0; i < r->ncpus; i++) {
		sim_cpu_totals(s, i, &r->cpu_busy_ns[i], &r->cpu_work[i]);
		r->work += r->cpu_work[i];
	}
	rc = 0;
out:
	ea_state_free(f.st);
	sim_delete(s);
	rp_gov_spec_free(&gov);
	if (rc)
		ea_replay_result_free(r);
	return rc;
}

void ea_replay_result_free(struct ea_replay_result *r)
{
	ea_acct_free(&r->acct);
	free(r->cpu_busy_ns);
	r->cpu_busy_ns = NULL;
	free(r->cpu_work);
	r->cpu_work = NULL;
}
