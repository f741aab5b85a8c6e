// SPDX-License-Identifier: GPL-2.0-only
/*
 * `eatrace replay --format json` (docs/replay.md "JSON"). Energies are
 * exact decimals in energy_unit (power_unit x s, or --unit's), in the shape
 * `report` uses; work in capacity x s; times in s.
 */
#include <math.h>

#include "eatrace/model-verdict.h"
#include "eatrace/output.h"
#include "eatrace/replay.h"
#include "eatrace/report.h"
#include "eatrace/unit.h"
#include "output/replay-ensemble.h"

const struct ea_energy_unit *ea_replay_unit(const struct ea_replay_report *r,
					    struct ea_energy_unit *tmp)
{
	return ea_energy_unit_or(r->unit, r->target->power_unit, tmp);
}

const struct ea_energy_unit *ea_replay_actual_unit(const struct ea_replay_report *r,
						   struct ea_energy_unit *tmp)
{
	return ea_energy_unit_or(r->actual_unit, (r->model ? r->model : r->target)->power_unit,
				 tmp);
}

double ea_replay_delta_pct(const struct ea_replay_report *r,
			   const struct ea_replay_result *res)
{
	double a, e;

	if (!r->actual)
		return NAN;
	a = ea_energy_to_double(ea_energy_total(&r->actual->total));
	e = ea_energy_to_double(ea_energy_total(&res->acct.total));
	return a > 0 ? (e - a) / a * 100.0 : NAN;
}

double ea_replay_energy_per_work(const struct ea_replay_result *res)
{
	double e = ea_energy_to_double(ea_energy_total(&res->acct.total));

	return res->work ? e / ((double)res->work / 1e9) : NAN;
}

double ea_replay_work_spread_pct(const struct ea_replay_report *r)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	for (int i = 0; i < r->nresults; i++) {
		if (r->results[i].work < lo)
			lo = r->results[i].work;
		if (r->results[i].work > hi)
			hi = r->results[i].work;
	}
	return hi ? (double)(hi - lo) / (double)hi * 100.0 : 0.0;
}

uint64_t ea_replay_extra_ns(const struct ea_replay_report *r,
			    const struct ea_replay_result *res)
{
	return res->end_ns > r->wl->last_ts ? res->end_ns - r->wl->last_ts : 0;
}

uint64_t ea_replay_priced_ns(const struct ea_replay_report *r)
{
	uint64_t end = r->wl->win_end;

	for (int i = 0; r->wl->win_past_end && i < r->nresults; i++)
		if (r->results[i].priced_to_ns > end)
			end = r->results[i].priced_to_ns;
	return end - r->wl->win_start;
}

static void clusters_json(struct ea_json *j, const struct ea_acct *a,
			  const struct ea_energy_unit *u)
{
	const struct ea_model *m = a->model;

	ea_json_arr(j, "clusters");
	for (int i = 0; i < m->nclusters; i++) {
		ea_json_obj(j, NULL);
		ea_json_str(j, "name", m->clusters[i].name);
		ea_json_energy(j, "energy", &a->clusters[i].e, u);
		ea_json_ns_as_s(j, "busy_s", a->clusters[i].busy_ns);
		ea_json_obj_end(j);
	}
	ea_json_arr_end(j);
}

static void policy_json(struct ea_json *j, const struct ea_replay_report *r,
			const struct ea_replay_result *res, int idx)
{
	const struct ea_cluster *cl;
	struct ea_energy_unit ut;
	const struct ea_energy_unit *u = ea_replay_unit(r, &ut);
	char b[EA_EU_BUF];

	ea_json_obj(j, NULL);
	ea_json_str(j, "name", res->policy);
	ea_json_energy(j, "energy", &res->acct.total, u);
	ea_json_num(j, "delta_pct", ea_replay_delta_pct(r, res));
	/* work in capacity x s: ns x capacity, read as seconds */
	ea_json_ns_as_s(j, "work", res->work);
	ea_json_num(j, "energy_per_work", ea_eu_double(u, ea_replay_energy_per_work(res)));
	ea_json_obj(j, "latency");
	if (res->lat_n) {
		ea_json_ns_as_s(j, "p50", res->lat_p50);
		ea_json_ns_as_s(j, "p90", res->lat_p90);
		ea_json_ns_as_s(j, "p99", res->lat_p99);
		ea_json_ns_as_s(j, "max", res->lat_max);
	} else {	/* not available: no recorded wakeup in the window */
		ea_json_raw(j, "p50", "null");
		ea_json_raw(j, "p90", "null");
		ea_json_raw(j, "p99", "null");
		ea_json_raw(j, "max", "null");
	}
	ea_json_uint(j, "activations", res->lat_n);
	/* of each latency, the part the recording supplies */
	ea_json_obj(j, "floor");
	if (res->lat_n) {
		ea_json_ns_as_s(j, "p50", res->floor_p50);
		ea_json_ns_as_s(j, "p90", res->floor_p90);
		ea_json_ns_as_s(j, "p99", res->floor_p99);
		ea_json_ns_as_s(j, "max", res->floor_max);
	} else {
		ea_json_raw(j, "p50", "null");
		ea_json_raw(j, "p90", "null");
		ea_json_raw(j, "p99", "null");
		ea_json_raw(j, "max", "null");
	}
	ea_json_obj_end(j);
	ea_json_obj_end(j);
	ea_json_ns_as_s(j, "wait_s", res->wait_ns);
	ea_json_ns_as_s(j, "wait_floor_s", res->wait_floor_ns);
	ea_json_ns_as_s(j, "extra_s", ea_replay_extra_ns(r, res));
	/* its work done: from the window's start */
	ea_json_ns_as_s(j, "end_s", res->end_ns - r->wl->win_start);
	if (res->lat_n)
		ea_json_uint(j, "late_activations", res->late);
	else
		ea_json_raw(j, "late_activations", "null");
	ea_json_ns_as_s(j, "overutilised_s", res->overutilised_ns);
	ea_json_uint(j, "migrations", res->migrations);
	clusters_json(j, &res->acct, u);
	ea_json_arr(j, "cpus");
	for (int i = 0; i < res->ncpus; i++) {
		ea_json_obj(j, NULL);
		ea_json_int(j, "cpu", i);
		ea_json_ns_as_s(j, "task_busy_s", res->cpu_busy_ns[i]);
		ea_json_ns_as_s(j, "work", res->cpu_work[i]);
		cl = ea_model_cpu_cluster(r->target, i);
		/* its top capacity: work <= capacity x task_busy_s */
		ea_json_uint(j, "capacity", cl ? cl->caps[cl->ncaps - 1].cap : 0);
		ea_json_raw(j, "energy",
			    ea_eu_fmt(b, u, ea_energy_total(&res->acct.cpus[i].e)));
		ea_json_obj_end(j);
	}
	ea_json_arr_end(j);
	rp_out_ensemble_json_policy(j, r, idx);
	ea_json_obj_end(j);
}

void ea_replay_render_json(FILE *f, const struct ea_replay_report *r)
{
	const struct ea_workload_counts *wl = r->wl;
	const struct ea_model *models[2] = { r->model, r->target };
	struct ea_energy_unit ut;
	const struct ea_energy_unit *u = ea_replay_unit(r, &ut);
	struct ea_json j;

	ea_json_begin(&j, f);
	ea_json_obj(&j, NULL);
	ea_json_int(&j, "eatrace_replay", 1);
	ea_json_str(&j, "trace", r->path);
	if (r->model)
		ea_json_str(&j, "model", r->model->name);
	ea_json_str(&j, "target_model", r->target->name);
	ea_json_str(&j, "power_unit", u->power);
	ea_json_str(&j, "energy_unit", u->energy);
	ea_json_str(&j, "work_unit", EA_WORK_UNIT);
	ea_model_verdict_json(&j, models, 2);
	ea_json_str(&j, "governor", r->governor);
	ea_json_str(&j, "idle", r->idle);
	ea_json_str(&j, "work", r->work ? r->work : "auto");
	ea_json_ns_as_s(&j, "duration_s", wl->win_end - wl->win_start);
	ea_json_ns_as_s(&j, "priced_s", ea_replay_priced_ns(r));
	ea_json_obj(&j, "workload");
	ea_json_uint(&j, "tasks", wl->tasks);
	ea_json_uint(&j, "activations", wl->activations);
	ea_json_uint(&j, "at_start", wl->at_start);
	ea_json_uint(&j, "open", wl->open);
	ea_json_uint(&j, "never_ran", wl->never_ran);
	ea_json_uint(&j, "split", wl->split);
	ea_json_uint(&j, "lost_span", wl->lost_span);
	ea_json_uint(&j, "pinned_tasks", wl->pinned_tasks);
	ea_json_uint(&j, "rt_tasks", wl->rt_tasks);
	ea_json_uint(&j, "idle_task_stretches", wl->idle_busy);
	ea_json_obj_end(&j);
	if (r->actual) {
		ea_json_obj(&j, "actual");
		struct ea_energy_unit at;
		const struct ea_energy_unit *au = ea_replay_actual_unit(r, &at);

		/* priced with the recorded model: in its unit */
		ea_json_str(&j, "energy_unit", au->energy);
		ea_json_energy(&j, "energy", &r->actual->total, au);
		clusters_json(&j, r->actual, au);
		ea_json_obj_end(&j);
	} else {
		ea_json_raw(&j, "actual", "null");
	}
	ea_json_num(&j, "work_spread_pct", ea_replay_work_spread_pct(r));
	ea_json_bool(&j, "work_differs",
		     ea_replay_work_spread_pct(r) > EA_REPLAY_WORK_SPREAD_PCT);
	rp_out_ensemble_json_head(&j, r);
	ea_json_arr(&j, "policies");
	for (int i = 0; i < r->nresults; i++)
		policy_json(&j, r, &r->results[i], i);
	ea_json_arr_end(&j);
	ea_json_obj_end(&j);
	ea_json_end(&j);
}
