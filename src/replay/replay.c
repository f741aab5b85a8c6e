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
	if (!cfg->sink) /* the pricing passes comms to the sink alone */
		sim_sink_no_comms(s);
	if (cfg->price_apart) {
		/* else here: slower, not wrong */
		(void)sim_apart_start(s);
		(void)sim_ahead_start(s, 0);
	}
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
		sim_lats_percentiles(sm.lat, q);
	r->lat_p50 = q[0];
	r->lat_p90 = q[1];
	r->lat_p99 = q[2];
	r->lat_max = q[3];
	if (sm.floor)
		sim_lats_percentiles(sm.floor, q);
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
