// SPDX-License-Identifier: GPL-2.0-only
/* The notes shared by the report renderers, in the order they show them. */
#include <stdio.h>

#include "eatrace/model-verdict.h"
#include "eatrace/output.h"
#include "eatrace/report.h"

const struct ea_energy_unit *ea_report_unit(const struct ea_report *r,
					    struct ea_energy_unit *tmp)
{
	return ea_energy_unit_or(r->unit, r->acct->model->power_unit, tmp);
}

void ea_report_foreach_energy_note(const struct ea_report *r,
				   void (*fn)(void *arg, const char *kind, const char *msg),
				   void *arg)
{
	const struct ea_acct *a = r->acct;
	const struct ea_model *m = a->model;
	double total = ea_energy_to_double(ea_energy_total(&a->total));
	struct ea_energy_unit ut;
	const struct ea_energy_unit *u = ea_report_unit(r, &ut);
	char msg[400], b1[32];

	for (int i = 0; r->stats && i < a->trace_ncpus && i < a->ncpus &&
			i < r->stats->ncpus; i++) {
		const struct ea_cpu_acct *c = &a->cpus[i];
		int cl = m->cpu_cluster[i], k = 0;
		double e;

		if (r->stats->cpus[i].has_cpuidle || !c->idle_ns || cl < 0)
			continue;
		/* all its idle time is in the one state it is priced in */
		for (int j = 1; j < m->clusters[cl].nidles; j++)
			if (c->cstates[j].ns > c->cstates[k].ns)
				k = j;
		e = ea_energy_to_double(ea_energy_idle(&c->e));
		snprintf(msg, sizeof(msg),
			 "CPU %d: no cpu_idle events: its idle time (%.6f s running pid 0) is priced in idle state %d '%s' (--idle-state N for another): %.6f %s, %.2f%% of the total",
			 i, c->idle_ns / 1e9, k, m->clusters[cl].idles[k].name,
			 ea_eu_double(u, e), u->energy, total > 0 ? 100 * e / total : 0);
		fn(arg, "inference", msg);
	}
	for (int i = 0; i < a->trace_ncpus && i < a->ncpus; i++) {
		if (a->cpus[i].assumed_freq_ns) {
			snprintf(msg, sizeof(msg), "CPU %d: %s s busy with no frequency reported, priced at the assumed OPP",
				 i, ea_fmt_s(b1, a->cpus[i].assumed_freq_ns));
			fn(arg, "inference", msg);
		}
		if (a->cpus[i].unmodelled_freq_ns) {
			snprintf(msg, sizeof(msg), "CPU %d: %s s at frequencies the model lacks, priced at the next higher OPP",
				 i, ea_fmt_s(b1, a->cpus[i].unmodelled_freq_ns));
			fn(arg, "warning", msg);
		}
	}
	if (a->idle_clamped) {
		snprintf(msg, sizeof(msg), "%s s in idle states deeper than the model has, priced as its deepest",
			 ea_fmt_s(b1, a->idle_clamped));
		fn(arg, "warning", msg);
	}
}

const char *ea_report_inference_msg(const struct ea_report *r, char *msg, size_t n)
{
	const struct ea_acct *a = r->acct;
	ea_energy_t tot = ea_energy_total(&a->total);
	char b1[32];
	int len;

	if (!a->unknown_ns)
		return NULL;
	len = snprintf(msg, n, "%.1f%% of this energy rests on inference: %s s of unknown time (",
		       tot > 0 ? 100.0 * ea_energy_to_double(a->unknown_energy) /
					 ea_energy_to_double(tot) : 0.0,
		       ea_fmt_s(b1, a->unknown_ns));
	for (int i = 0, first = 1; i < a->trace_ncpus && i < a->ncpus; i++) {
		if (!a->cpus[i].unknown_ns || len >= (int)n)
			continue;
		len += snprintf(msg + len, n - len, "%sCPU %d %s s", first ? "" : ", ", i,
				ea_fmt_s(b1, a->cpus[i].unknown_ns));
		first = 0;
	}
	if (len < (int)n)
		snprintf(msg + len, n - len,
			 "), priced as the last state known, idle in state %d (--unknown-idle-state) where the state is not",
			 a->unknown_idle_state);
	return msg;
}

void ea_report_foreach_note(const struct ea_report *r,
			    void (*fn)(void *arg, const char *kind, const char *msg),
			    void *arg)
{
	const struct ea_model *m = r->acct->model;
	char msg[512];

	ea_model_verdict_notes(&m, 1, fn, arg);
	if (ea_report_inference_msg(r, msg, sizeof(msg)))
		fn(arg, "inference", msg);
	if (r->stats)
		ea_stats_foreach_note(r->stats, r->info, fn, arg);
	ea_report_foreach_energy_note(r, fn, arg);
	if (r->info) {
		int agree = ea_topology_check(m, r->info, msg, sizeof(msg));

		if (agree >= 0)
			fn(arg, agree ? "check" : "warning", msg);
	}
}
