// SPDX-License-Identifier: GPL-2.0-only
/*
 * `eatrace report --format csv`: one row per breakdown entry,
 *   scope,id,name,freq_khz,time_s,total,busy,idle,wakeup,start_s,energy_unit
 * scope: total, cluster, cpu, cpu_pstate, cpu_cstate, task, window, and
 * with power rails (report-rails.c) rail and rail_estimate; first, under
 * --cpus or --task, filter rows (id cpus or tasks, name the selection).
 * time_s is always a duration, the time the row covers: the window's
 * length (total, cluster, cpu, window), the residency (cpu_pstate,
 * cpu_cstate), the runtime (task). start_s, on total and window rows
 * only, is where that time starts (absolute trace time).
 * Energies are exact decimals in energy_unit, on every row: the model's
 * power_unit x s ("mW x s"), or --unit's (J, mJ, uJ). A unit column, not
 * a header line: pandas and DuckDB read the file as it is.
 */
#include <stdlib.h>

#include "eatrace/escape.h"
#include "eatrace/output.h"
#include "eatrace/report.h"

static void energies(FILE *f, const struct ea_energy *e, const struct ea_energy_unit *u)
{
	char b[EA_EU_BUF];

	fprintf(f, ",%s", ea_eu_fmt(b, u, ea_energy_total(e)));
	fprintf(f, ",%s", ea_eu_fmt(b, u, ea_energy_busy(e)));
	fprintf(f, ",%s", ea_eu_fmt(b, u, ea_energy_idle(e)));
	fprintf(f, ",%s", ea_eu_fmt(b, u, ea_energy_wakeup(e)));
}

void ea_report_render_csv(FILE *f, const struct ea_report *r)
{
	const struct ea_acct *a = r->acct;
	const struct ea_model *m = a->model;
	const struct ea_task_acct **t;
	char b[64], b2[EA_EU_BUF], sel[1024];
	struct ea_energy_unit ut;
	const struct ea_energy_unit *u = ea_report_unit(r, &ut);
	char eu[4 * sizeof(u->energy) + 8];

	/* a power_unit is any label: quoted when it needs it */
	ea_esc_csv_buf(eu, sizeof(eu), u->energy);

	fprintf(f, "scope,id,name,freq_khz,time_s,total,busy,idle,wakeup,start_s,energy_unit\n");
	/* the selection in the name column; no energy, so no unit */
	if (a->cfg.cpu_only) {
		fputs("filter,cpus,", f);
		ea_esc_csv(f, ea_cpu_list_fmt(sel, sizeof(sel), a->cfg.cpu_only,
					      a->cfg.ncpu_only));
		fputs(",,,,,,,,\n", f);
	}
	if (a->cfg.task_only) {
		fputs("filter,tasks,", f);
		ea_esc_csv(f, ea_filter_tasks_fmt(sel, sizeof(sel), a->cfg.task_only));
		fputs(",,,,,,,,\n", f);
	}
	fprintf(f, "total,,,,%s", ea_fmt_s(b, a->win_end - a->win_start));
	energies(f, &a->total, u);
	fprintf(f, ",%s,%s\n", ea_fmt_s(b, a->win_start), eu);
	/* suspended (system time) and offline (CPU time): only when some */
	if (a->suspended_ns || a->total.suspended)
		fprintf(f, "suspended,,,,%s,%s,,,,,%s\n", ea_fmt_s(b, a->suspended_ns),
			ea_eu_fmt(b2, u, a->total.suspended), eu);
	if (a->offline_ns || a->total.offline)
		fprintf(f, "offline,,,,%s,%s,,,,,%s\n", ea_fmt_s(b, a->offline_ns),
			ea_eu_fmt(b2, u, a->total.offline), eu);
	for (int i = 0; i < m->nclusters; i++) {
		if (!ea_acct_cluster_selected(a, i))
			continue;
		fprintf(f, "cluster,%d,", i);
		ea_esc_csv(f, m->clusters[i].name);
		fprintf(f, ",,%s", ea_fmt_s(b, a->clusters[i].busy_ns + a->clusters[i].idle_ns));
		energies(f, &a->clusters[i].e, u);
		fprintf(f, ",,%s\n", eu);
	}
	for (int i = 0; i < a->trace_ncpus && i < a->ncpus; i++) {
		const struct ea_cluster *cl = &m->clusters[m->cpu_cluster[i]];

		if (!ea_acct_cpu_selected(a, i))
			continue;
		fprintf(f, "cpu,%d,,,%s", i, ea_fmt_s(b, a->cpus[i].busy_ns + a->cpus[i].idle_ns));
		energies(f, &a->cpus[i].e, u);
		fprintf(f, ",,%s\n", eu);
		for (int k = 0; k < cl->ncaps; k++)
			fprintf(f, "cpu_pstate,%d,,%u,%s,%s,,,,,%s\n", i, cl->caps[k].freq_khz,
				ea_fmt_s(b, a->cpus[i].pstates[k].ns),
				ea_eu_fmt(b2, u, a->cpus[i].pstates[k].energy), eu);
		for (int k = 0; k < cl->nidles; k++) {
			fprintf(f, "cpu_cstate,%d,", i);
			ea_esc_csv(f, cl->idles[k].name);
			fprintf(f, ",,%s,%s,,,,,%s\n", ea_fmt_s(b, a->cpus[i].cstates[k].ns),
				ea_eu_fmt(b2, u, a->cpus[i].cstates[k].energy), eu);
		}
	}
	t = ea_acct_tasks_by_energy(a);
	for (size_t i = 0; t && i < a->ntasks; i++) {
		fprintf(f, "task,%d,", t[i]->pid);
		ea_esc_csv(f, t[i]->comm);
		fprintf(f, ",,%s", ea_fmt_s(b, t[i]->runtime_ns));
		energies(f, &t[i]->e, u);
		fprintf(f, ",,%s\n", eu);
	}
	free(t);
	for (size_t i = 0; i < a->nwindows && a->cfg.interval_ns; i++) {
		uint64_t t0 = a->win_start + i * a->cfg.interval_ns;
		uint64_t t1 = t0 + a->cfg.interval_ns < a->win_end ? t0 + a->cfg.interval_ns
								   : a->win_end;

		fprintf(f, "window,%zu,,,%s", i, ea_fmt_s(b, t1 - t0));
		energies(f, &a->windows[i], u);
		fprintf(f, ",%s,%s\n", ea_fmt_s(b, t0), eu);
	}
	ea_report_rails_csv(f, r);
}
