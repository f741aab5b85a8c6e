// SPDX-License-Identifier: GPL-2.0-only
/* `eatrace replay` for people: one line per policy, then per cluster. */
#include <math.h>
#include <string.h>

#include "eatrace/escape.h"
#include "eatrace/model-verdict.h"
#include "eatrace/replay.h"
#include "eatrace/unit.h"
#include "output/replay-ensemble.h"

static const char *s_of(char *buf, uint64_t ns)
{
	snprintf(buf, 32, "%.6f", (double)ns / 1e9);
	return buf;
}

static const char *ms_of(char *buf, uint64_t ns)
{
	snprintf(buf, 32, "%.3f", (double)ns / 1e6);
	return buf;
}

/*
 * Every policy did the same work, priced to one end: the time each needed
 * past the trace's end; the part of the latencies and wait the recording
 * supplied (its gaps: the floor), where there is one.
 */
static void costs_text(FILE *f, const struct ea_replay_report *r)
{
	char b1[32], b2[32], b3[32], t[4 * EA_NAME_LEN + 1];
	bool floor = false;

	fprintf(f, "priced over %s s: each policy until its work was done, extra s past the trace's end:",
		s_of(b1, ea_replay_priced_ns(r)));
	for (int i = 0; i < r->nresults; i++)
		fprintf(f, " %s %s", ea_esc_term_buf(t, sizeof(t), r->results[i].policy),
			s_of(b1, ea_replay_extra_ns(r, &r->results[i])));
	fputc('\n', f);
	for (int i = 0; i < r->nresults; i++)
		floor |= r->results[i].floor_max || r->results[i].wait_floor_ns;
	if (!floor)
		return;
	fprintf(f, "latency floor (the recording's wakeup-to-run gaps in the latencies and wait):");
	for (int i = 0; i < r->nresults; i++) {
		const struct ea_replay_result *res = &r->results[i];

		if (!res->floor_max && !res->wait_floor_ns)
			continue;
		fprintf(f, " %s p50 %s p99 %s ms wait %s s;",
			ea_esc_term_buf(t, sizeof(t), res->policy),
			ms_of(b1, res->floor_p50), ms_of(b2, res->floor_p99),
			s_of(b3, res->wait_floor_ns));
	}
	fputc('\n', f);
}

void ea_replay_render_text(FILE *f, const struct ea_replay_report *r)
{
	const struct ea_workload_counts *wl = r->wl;
	char b1[64], b2[32], b3[32], b4[32], b5[32], b6[32];
	char t1[4 * 4096 + 1], t2[4 * EA_NAME_LEN + 1], t3[4 * EA_NAME_LEN + 1];
	char t4[4 * EA_NAME_LEN + 1], t5[4 * EA_NAME_LEN + 1], msg[512];
	const struct ea_model *models[2] = { r->model, r->target };
	struct ea_energy_unit ut, at;
	const struct ea_energy_unit *u = ea_replay_unit(r, &ut);
	const struct ea_energy_unit *au = ea_replay_actual_unit(r, &at);

	fprintf(f, "%s: %s s replayed on %s (governor %s, idle %s, work %s), energy in %s, work in %s\n",
		ea_esc_term_buf(t1, sizeof(t1), r->path),
		s_of(b2, wl->win_end - wl->win_start),
		ea_esc_term_buf(t2, sizeof(t2), r->target->name),
		ea_esc_term_buf(t3, sizeof(t3), r->governor),
		ea_esc_term_buf(t4, sizeof(t4), r->idle),
		r->work ? r->work : "auto",
		ea_esc_term_buf(t5, sizeof(t5), u->energy), EA_WORK_UNIT);
	/* a model that fails 'eatrace model check', said before the figures */
	for (int i = 0; i < 2; i++)
		if (models[i] && (!i || models[1] != models[0]) &&
		    ea_model_verdict_msg(models[i], msg, sizeof(msg)))
			fprintf(f, "warning: %s\n", ea_esc_term_buf(t1, sizeof(t1), msg));
	fprintf(f, "workload: %llu tasks, %llu activations (%llu at start, %llu never blocked, %llu pinned tasks, %llu RT tasks), %llu idle-task stretches\n\n",
		(unsigned long long)wl->tasks, (unsigned long long)wl->activations,
		(unsigned long long)wl->at_start, (unsigned long long)wl->open,
		(unsigned long long)wl->pinned_tasks,
		(unsigned long long)wl->rt_tasks,
		(unsigned long long)wl->idle_busy);
	fprintf(f, "%-10s %14s %8s %10s %10s %10s %12s %10s %10s %10s %6s %10s %6s\n",
		"policy", "energy", "delta%", "busy", "idle", "wakeup",
		"work", "e/work", "lat_p50ms", "lat_p99ms", "late",
		"overutil_s", "migr");
	if (r->actual) {
		const struct ea_energy *e = &r->actual->total;

		fprintf(f, "%-10s %14.6f %8s %10.3f %10.3f %10.3f", "actual",
			ea_eu_energy(au, ea_energy_total(e)), "",
			ea_eu_energy(au, ea_energy_busy(e)),
			ea_eu_energy(au, ea_energy_idle(e)),
			ea_eu_energy(au, ea_energy_wakeup(e)));
		/* priced with the recorded model, whose unit may differ */
		if (strcmp(au->energy, u->energy))
			fprintf(f, "  (%s)", ea_esc_term_buf(t5, sizeof(t5), au->energy));
		fputc('\n', f);
	}
	for (int i = 0; i < r->nresults; i++) {
		const struct ea_replay_result *res = &r->results[i];
		const struct ea_energy *e = &res->acct.total;
		double d = ea_replay_delta_pct(r, res);

		if (isnan(d))
			snprintf(b1, sizeof(b1), "-");
		else
			snprintf(b1, sizeof(b1), "%+.2f", d);
		if (res->lat_n) {
			ms_of(b3, res->lat_p50);
			ms_of(b4, res->lat_p99);
			snprintf(b6, sizeof(b6), "%llu",
				 (unsigned long long)res->late);
		} else {	/* no recorded wakeup in the window */
			snprintf(b3, sizeof(b3), "n/a");
			snprintf(b4, sizeof(b4), "n/a");
			snprintf(b6, sizeof(b6), "n/a");
		}
		fprintf(f, "%-10s %14.6f %8s %10.3f %10.3f %10.3f %12.3f %10.4g %10s %10s %6s %10s %6llu\n",
			ea_esc_term_buf(t2, sizeof(t2), res->policy),
			ea_eu_energy(u, ea_energy_total(e)), b1,
			ea_eu_energy(u, ea_energy_busy(e)),
			ea_eu_energy(u, ea_energy_idle(e)),
			ea_eu_energy(u, ea_energy_wakeup(e)),
			(double)res->work / 1e9,
			ea_eu_double(u, ea_replay_energy_per_work(res)),
			b3, b4, b6, s_of(b5, res->overutilised_ns),
			(unsigned long long)res->migrations);
	}
	if (ea_replay_work_spread_pct(r) > EA_REPLAY_WORK_SPREAD_PCT)
		fprintf(f, "note: the policies did different amounts of work (%.1f%% apart, %s): compare e/work, not only energy\n",
			ea_replay_work_spread_pct(r), EA_WORK_UNIT);
	costs_text(f, r);
	rp_out_ensemble_text(f, r);
	fprintf(f, "\n%-10s", "cluster");
	if (r->actual)
		fprintf(f, " %14s", "actual");
	for (int i = 0; i < r->nresults; i++)
		fprintf(f, " %14s", ea_esc_term_buf(t2, sizeof(t2), r->results[i].policy));
	fputc('\n', f);
	for (int c = 0; c < r->target->nclusters; c++) {
		fprintf(f, "%-10s", ea_esc_term_buf(t2, sizeof(t2), r->target->clusters[c].name));
		if (r->actual) {
			if (r->actual->model == r->target)
				fprintf(f, " %14.6f", ea_eu_energy(au,
					ea_energy_total(&r->actual->clusters[c].e)));
			else
				fprintf(f, " %14s", "-");
		}
		for (int i = 0; i < r->nresults; i++)
			fprintf(f, " %14.6f", ea_eu_energy(u, ea_energy_total(
					&r->results[i].acct.clusters[c].e)));
		fputc('\n', f);
	}
}
