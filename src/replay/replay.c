// SPDX-License-Identifier: GPL-2.0-only
/*
 * ea_replay_run(): one policy's replay, from workload to priced timeline,
 * the top of src/replay (docs/replay.md "Layout of src/replay"). The
 * simulator's events (simulator.h) go into a fresh state stage driving the
 * same accountant (ea_acct_ops) as `eatrace report`, configured by the
 * replay platform's model exactly as `report` configures it (pricing.c),
 * up to the run's own end or, with ea_replay_close(), a common one; its
 * metrics become the result's (latency percentiles here).
 */
#include <stdlib.h>
#include <string.h>

#include "replay/pricing.h"
#include "replay/simulator.h"
#include "replay/workload.h"

/*
 * select_nth_T(v, n, k): put the k-th smallest of v[0, n) at v[k], the
 * smaller ones before it and the larger after (quickselect, three-way
 * partition: O(n) on average, and runs of equal latencies cost one pass).
 * percentiles_T(v, n, out): the percentiles p50, p90, p99 and the max of
 * v, exactly those of the sorted array, without sorting: select p50, then
 * p90 above it, then p99 above that (each selection leaves only larger
 * values past its rank, so the next one looks at fewer). For latencies
 * kept in 64 bits and in 32 (sim.h: lat32), the same values either way.
 */
#define PERCENTILES(T, SUF)                                                    \
	static void swap_##SUF(T *a, T *b)                                     \
	{                                                                      \
		T t = *a;                                                      \
                                                                               \
		*a = *b;                                                       \
		*b = t;                                                        \
	}                                                                      \
                                                                               \
	static void select_nth_##SUF(T *v, size_t n, size_t k)                 \
	{                                                                      \
		size_t lo = 0, hi = n; /* k is in [lo, hi) */                  \
                                                                               \
		while (hi - lo > 1) {                                          \
			size_t mid = lo + (hi - lo) / 2, lt = lo, i = lo,      \
			       gt = hi;                                        \
			T a = v[lo], b = v[mid], c = v[hi - 1], pivot;         \
                                                                               \
			/* median of three */                                  \
			pivot = a < b ? (b < c ? b : a < c ? c : a)            \
				      : (a < c ? a : b < c ? c : b);           \
			while (i < gt) {                                       \
				if (v[i] < pivot)                              \
					swap_##SUF(&v[lt++], &v[i++]);         \
				else if (v[i] > pivot)                         \
					swap_##SUF(&v[i], &v[--gt]);           \
				else                                           \
					i++;                                   \
			}                                                      \
			/* [lo, lt) < pivot, [lt, gt) == pivot, [gt, hi) >     \
			 * pivot */                                            \
			if (k < lt)                                            \
				hi = lt;                                       \
			else if (k >= gt)                                      \
				lo = gt;                                       \
			else                                                   \
				return;                                        \
		}                                                              \
	}                                                                      \
                                                                               \
	static void percentiles_##SUF(T *v, size_t n, uint64_t out[4])         \
	{                                                                      \
		size_t r99, r90, r50;                                          \
		T max = 0;                                                     \
                                                                               \
		if (!n)                                                        \
			return;                                                \
		for (size_t i = 0; i < n; i++)                                 \
			if (v[i] > max)                                        \
				max = v[i];                                    \
		r99 = rank(n, 99);                                             \
		r90 = rank(n, 90);                                             \
		r50 = rank(n, 50);                                             \
		select_nth_##SUF(v, n, r50);                                   \
		out[0] = v[r50];                                               \
		select_nth_##SUF(v + r50, n - r50, r90 - r50);                 \
		out[1] = v[r90];                                               \
		select_nth_##SUF(v + r90, n - r90, r99 - r90);                 \
		out[2] = v[r99];                                               \
		out[3] = max;                                                  \
	}

/* Nearest-rank index of percentile p among n values. */
static size_t rank(size_t n, unsigned p)
{
	size_t r = (n * p + 99) / 100;

	return r ? r - 1 : 0;
}

PERCENTILES(uint64_t, u64)
PERCENTILES(uint32_t, u32)

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
	struct sim_config sc;
	struct sim_metrics sm;
	uint64_t q[4] = {0};
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
				 .assumed_khz = cfg->acct_cfg.assumed_khz,
				 .no_latencies = cfg->no_latencies};
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
	r->pricing = rp_pricing_new(&scfg, &r->acct, cfg->sink);
	if (!r->pricing) {
		ea_err_set(err, "out of memory");
		goto out;
	}
	sim_set_sink(s, rp_pricing_event, r->pricing);
	if (sim_run(s)) {
		ea_err_set(err, "replay %s: %s", pol->name,
			   *rp_pricing_error(r->pricing)
				   ? rp_pricing_error(r->pricing)
				   : sim_error(s));
		goto out;
	}
	sim_get_metrics(s, &sm);
	r->end_ns = sm.end_ns;
	if (!cfg->keep_open && ea_replay_close(r, 1, err))
		goto out;
	r->lat_n = sm.nlat;
	if (sm.lat)
		percentiles_u64(sm.lat, sm.nlat, q);
	else if (sm.lat32)
		percentiles_u32(sm.lat32, sm.nlat, q);
	r->lat_p50 = q[0];
	r->lat_p90 = q[1];
	r->lat_p99 = q[2];
	r->lat_max = q[3];
	if (sm.floor)
		percentiles_u64(sm.floor, sm.nlat, q);
	else if (sm.floor32)
		percentiles_u32(sm.floor32, sm.nlat, q);
	r->floor_p50 = q[0];
	r->floor_p90 = q[1];
	r->floor_p99 = q[2];
	r->floor_max = q[3];
	r->wait_floor_ns = sm.floor_wait_ns;
	r->wait_ns = sm.wait_ns;
	r->late = sm.late;
	r->overutilised_ns = sm.overutil_ns;
	r->migrations = sm.migrations;
	r->placements = sm.placements;
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
	sim_delete(s);
	rp_gov_spec_free(&gov);
	if (rc)
		ea_replay_result_free(r);
	return rc;
}

int ea_replay_close(struct ea_replay_result *r, int n, struct ea_err *err)
{
	uint64_t end = 0;

	for (int i = 0; i < n; i++)
		if (r[i].end_ns > end)
			end = r[i].end_ns;
	for (int i = 0; i < n; i++) {
		if (!r[i].pricing)
			continue;
		if (rp_pricing_close(r[i].pricing, end, err)) {
			char msg[EA_ERR_MAX];

			snprintf(msg, sizeof(msg), "%s", err->msg);
			return ea_err_set(err, "replay %s: %s", r[i].policy,
					  msg);
		}
		rp_pricing_free(r[i].pricing);
		r[i].pricing = NULL;
		r[i].priced_to_ns = end;
	}
	return 0;
}

void ea_replay_result_free(struct ea_replay_result *r)
{
	rp_pricing_free(r->pricing);
	r->pricing = NULL;
	ea_acct_free(&r->acct);
	free(r->cpu_busy_ns);
	r->cpu_busy_ns = NULL;
	free(r->cpu_work);
	r->cpu_work = NULL;
}
