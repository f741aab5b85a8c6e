// SPDX-License-Identifier: GPL-2.0-only
/* The energy notes shared by the report renderers. */
#include <stdio.h>

#include "eatrace/output.h"
#include "eatrace/report.h"

void ea_report_foreach_energy_note(const struct ea_report *r,
				   void (*fn)(void *arg, const char *kind, const char *msg),
				   void *arg)
{
	const struct ea_acct *a = r->acct;
	const struct ea_model *m = a->model;
	double total = ea_energy_to_double(ea_energy_total(&a->total));
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
			 "CPU %d: no cpu_idle events: its idle time (%.6f s running pid 0) is priced in idle state %d '%s' (--idle-state N for another): %.6f %s x s, %.2f%% of the total",
			 i, c->idle_ns / 1e9, k, m->clusters[cl].idles[k].name, e,
			 m->power_unit, total > 0 ? 100 * e / total : 0);
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
