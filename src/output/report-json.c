// SPDX-License-Identifier: GPL-2.0-only
/*
 * `eatrace report --format json` (docs/json.md). Energies are exact
 * decimals in energy_unit (power_unit x s, or --unit's): every breakdown
 * adds up to its total exactly.
 */
#include <stdlib.h>

#include "eatrace/model-verdict.h"
#include "eatrace/output.h"
#include "eatrace/report.h"
#include "eatrace/version.h"
#include "output/filter-out.h"

static void states_json(struct ea_json *j, const struct ea_cluster *cl,
			const struct ea_pstate_acct *ps,
			const struct ea_cstate_acct *cs, const struct ea_energy_unit *u)
{
	char b[EA_EU_BUF];

	ea_json_arr(j, "pstates");
	for (int k = 0; k < cl->ncaps; k++) {
		ea_json_obj(j, NULL);
		ea_json_uint(j, "freq_khz", cl->caps[k].freq_khz);
		ea_json_uint(j, "cap", cl->caps[k].cap);
		ea_json_ns_as_s(j, "time_s", ps[k].ns);
		ea_json_raw(j, "energy", ea_eu_fmt(b, u, ps[k].energy));
		ea_json_obj_end(j);
	}
	ea_json_arr_end(j);
	ea_json_arr(j, "cstates");
	for (int k = 0; k < cl->nidles; k++) {
		ea_json_obj(j, NULL);
		ea_json_str(j, "name", cl->idles[k].name);
		ea_json_int(j, "state", k);
		ea_json_ns_as_s(j, "time_s", cs[k].ns);
		ea_json_uint(j, "entries", cs[k].entries);
		ea_json_uint(j, "wakeups", cs[k].wakeups);
		ea_json_raw(j, "energy", ea_eu_fmt(b, u, cs[k].energy));
		ea_json_obj_end(j);
	}
	ea_json_arr_end(j);
}

void ea_report_render_json(FILE *f, const struct ea_report *r)
{
	const struct ea_acct *a = r->acct;
	const struct ea_model *m = a->model;
	const struct ea_task_acct **tasks;
	struct ea_energy_unit ut;
	const struct ea_energy_unit *u = ea_report_unit(r, &ut);
	struct ea_json j;

	ea_json_begin(&j, f);
	ea_json_obj(&j, NULL);
	ea_json_int(&j, "eatrace_report", 1);
	ea_json_str(&j, "eatrace_version", EA_VERSION);
	ea_json_str(&j, "trace", r->path);
	ea_json_str(&j, "format", r->info && r->info->format ? r->info->format : "");
	ea_json_str(&j, "model", m->name);
	/* powers in power_unit, energies in energy_unit: the model's
	 * power_unit and power_unit x s, or --unit's (W and J, ...) */
	ea_json_str(&j, "power_unit", u->power);
	ea_json_str(&j, "energy_unit", u->energy);
	ea_model_verdict_json(&j, &m, 1);
	ea_json_ns_as_s(&j, "start_s", a->win_start);
	ea_json_ns_as_s(&j, "end_s", a->win_end);
	ea_json_ns_as_s(&j, "duration_s", a->win_end - a->win_start);
	if (a->cfg.cpu_only) {
		/* only these CPUs' share (energy.h cpu_only) */
		ea_json_arr(&j, "cpu_filter");
		for (int i = 0; i < a->cfg.ncpu_only && i < a->ncpus; i++)
			if (a->cfg.cpu_only[i])
				ea_json_int(&j, NULL, i);
		ea_json_arr_end(&j);
	}
	if (a->cfg.task_only)	/* only these tasks' share (energy.h task_only) */
		ea_filter_tasks_json(&j, "task_filter", a->cfg.task_only);
	ea_json_energy(&j, "energy", &a->total, u);
	/* Time whose state the trace does not show (docs/inference.md) */
	{
		char b[EA_EU_BUF];
		ea_energy_t tot = ea_energy_total(&a->total);

		ea_json_obj(&j, "unknown");
		ea_json_ns_as_s(&j, "time_s", a->unknown_ns);
		ea_json_raw(&j, "energy", ea_eu_fmt(b, u, a->unknown_energy));
		ea_json_num(&j, "share", tot > 0 ? ea_energy_to_double(a->unknown_energy) /
					 ea_energy_to_double(tot) : 0);
		ea_json_int(&j, "idle_state", a->unknown_idle_state);
		ea_json_obj_end(&j);
		/* Suspended system and offline CPUs (docs/inference.md) */
		ea_json_obj(&j, "suspended");
		ea_json_ns_as_s(&j, "time_s", a->suspended_ns);
		ea_json_raw(&j, "energy", ea_eu_fmt(b, u, a->total.suspended));
		ea_json_num(&j, "share", tot > 0 ? ea_energy_to_double(a->total.suspended) /
					 ea_energy_to_double(tot) : 0);
		ea_json_num(&j, "power", ea_eu_double(u, m->suspend_power));
		ea_json_obj_end(&j);
		ea_json_obj(&j, "offline");
		ea_json_ns_as_s(&j, "cpu_time_s", a->offline_ns);
		ea_json_raw(&j, "energy", ea_eu_fmt(b, u, a->total.offline));
		ea_json_num(&j, "share", tot > 0 ? ea_energy_to_double(a->total.offline) /
					 ea_energy_to_double(tot) : 0);
		ea_json_obj_end(&j);
	}

	ea_json_arr(&j, "cpus");
	for (int i = 0; i < a->trace_ncpus && i < a->ncpus; i++) {
		const struct ea_cpu_acct *c = &a->cpus[i];
		const struct ea_cluster *cl = &m->clusters[m->cpu_cluster[i]];

		if (!ea_acct_cpu_selected(a, i))
			continue;
		ea_json_obj(&j, NULL);
		ea_json_int(&j, "cpu", i);
		ea_json_str(&j, "cluster", cl->name);
		ea_json_energy(&j, "energy", &c->e, u);
		ea_json_ns_as_s(&j, "busy_s", c->busy_ns);
		ea_json_ns_as_s(&j, "idle_s", c->idle_ns);
		ea_json_ns_as_s(&j, "unknown_s", c->unknown_ns);
		ea_json_ns_as_s(&j, "unknown_priced_idle_s", c->unknown_idle_ns);
		ea_json_ns_as_s(&j, "suspended_s", c->suspended_ns);
		ea_json_ns_as_s(&j, "offline_s", c->offline_ns);
		{
			char b[EA_EU_BUF];

			ea_json_raw(&j, "unknown_energy",
				    ea_eu_fmt(b, u, c->unknown_energy));
		}
		ea_json_ns_as_s(&j, "inferred_s", c->inferred_ns);
		ea_json_ns_as_s(&j, "assumed_freq_s", c->assumed_freq_ns);
		ea_json_ns_as_s(&j, "unmodelled_freq_s", c->unmodelled_freq_ns);
		ea_json_uint(&j, "wakeups", c->wakeups);
		states_json(&j, cl, c->pstates, c->cstates, u);
		ea_json_obj_end(&j);
	}
	ea_json_arr_end(&j);

	ea_json_arr(&j, "clusters");
	for (int i = 0; i < m->nclusters; i++) {
		const struct ea_cluster_acct *c = &a->clusters[i];
		const struct ea_cluster *cl = &m->clusters[i];

		if (!ea_acct_cluster_selected(a, i))
			continue;
		ea_json_obj(&j, NULL);
		ea_json_str(&j, "name", cl->name);
		ea_json_arr(&j, "cpus");
		for (int k = 0; k < cl->ncpus; k++)
			ea_json_int(&j, NULL, cl->cpus[k]);
		ea_json_arr_end(&j);
		ea_json_energy(&j, "energy", &c->e, u);
		ea_json_ns_as_s(&j, "busy_s", c->busy_ns);
		ea_json_ns_as_s(&j, "idle_s", c->idle_ns);
		ea_json_uint(&j, "wakeups", c->wakeups);
		states_json(&j, cl, c->pstates, c->cstates, u);
		ea_json_obj_end(&j);
	}
	ea_json_arr_end(&j);

	ea_json_arr(&j, "tasks");
	tasks = ea_acct_tasks_by_energy(a);
	for (size_t i = 0; tasks && i < a->ntasks; i++) {
		ea_json_obj(&j, NULL);
		ea_json_int(&j, "pid", tasks[i]->pid);
		if (r->info && r->info->procs) {
			bool in;

			ea_json_int(&j, "tgid", ea_report_task_tgid(r, tasks[i]->pid, &in));
		}
		ea_json_str(&j, "comm", tasks[i]->comm);
		ea_json_energy(&j, "energy", &tasks[i]->e, u);
		ea_json_ns_as_s(&j, "runtime_s", tasks[i]->runtime_ns);
		ea_json_uint(&j, "wakeups", tasks[i]->wakeups);
		ea_json_obj_end(&j);
	}
	free(tasks);
	ea_json_arr_end(&j);
	ea_report_procs_json(&j, r);

	if (a->cfg.interval_ns) {
		ea_json_arr(&j, "windows");
		for (size_t i = 0; i < a->nwindows; i++) {
			uint64_t t0 = a->win_start + i * a->cfg.interval_ns;
			uint64_t t1 = t0 + a->cfg.interval_ns;

			ea_json_obj(&j, NULL);
			ea_json_ns_as_s(&j, "start_s", t0);
			ea_json_ns_as_s(&j, "end_s", t1 < a->win_end ? t1 : a->win_end);
			ea_json_energy(&j, "energy", &a->windows[i], u);
			ea_json_obj_end(&j);
		}
		ea_json_arr_end(&j);
	}
	ea_report_rails_json(&j, r);
	ea_json_arr(&j, "notes");
	ea_report_foreach_note(r, ea_stats_note_json, &j);
	ea_json_arr_end(&j);
	ea_json_obj_end(&j);
	ea_json_end(&j);
}
