// SPDX-License-Identifier: GPL-2.0-only
/* `eatrace replay --html FILE`: actual against each counterfactual. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "eatrace/output.h"
#include "output/html-common.h"
#include "output/replay-ensemble.h"

static void td_s(FILE *f, uint64_t ns, const char *unit, double div)
{
	char b[32];

	fprintf(f, "<td>%s %s</td>", svg_num(b, (double)ns / div), unit);
}

/* Each run's extra time past the trace's end, the time all are priced
 * over, and the latency floor where there is one (docs/replay.md "Work",
 * "Idle exit and the latency floor"). */
static void costs_note(FILE *f, const struct ea_replay_report *r)
{
	fprintf(f,
		"<p class=\"note\">Every run went on until its work was done, "
		"past the trace's end if need be (recorded on its own platform "
		"ends with the trace), and all are priced over the same %.6f "
		"s; "
		"extra time past the trace's end:",
		(double)ea_replay_priced_ns(r) / 1e9);
	for (int i = 0; i < r->nresults; i++) {
		fputc(' ', f);
		svg_esc(f, r->results[i].policy);
		fprintf(f, " %.6f s%s",
			(double)ea_replay_extra_ns(r, &r->results[i]) / 1e9,
			i + 1 < r->nresults ? "," : ".");
	}
	for (int i = 0; i < r->nresults; i++) {
		const struct ea_replay_result *res = &r->results[i];

		if (!res->floor_max && !res->wait_floor_ns)
			continue;
		fputs(" Latency floor of ", f);
		svg_esc(f, res->policy);
		fprintf(f,
			" (the recording's own wakeup-to-run gaps): p50 %.3f "
			"ms, "
			"p99 %.3f ms, wait %.6f s.",
			(double)res->floor_p50 / 1e6,
			(double)res->floor_p99 / 1e6,
			(double)res->wait_floor_ns / 1e9);
	}
	fputs("</p>\n", f);
}

void ea_replay_render_html(FILE *f, const struct ea_replay_report *r,
			   const struct ea_timeline *const *tls)
{
	const struct ea_model *m = r->target;
	const struct ea_model *models[2] = {r->model, r->target};
	int n = r->nresults + 1;
	const struct ea_energy **e = calloc(n, sizeof(*e));
	const char **names = calloc(n, sizeof(*names));
	double *delta = calloc(n, sizeof(*delta));
	struct ea_energy_unit ut, at;
	const struct ea_energy_unit *u = ea_replay_unit(r, &ut);
	const struct ea_energy_unit *au = ea_replay_actual_unit(r, &at);
	const char *eu = u->energy;
	char title[512], b[64], ex[EA_EU_BUF];
	double ymax = 0;

	if (!e || !names || !delta)
		goto out;
	snprintf(title, sizeof(title), "eatrace replay: %s", r->path);
	html_head(f, title);
	fputs("<h1>Replay: the recorded workload under other decisions</h1>\n"
	      "<p class=\"meta\">Trace <code>",
	      f);
	svg_esc(f, r->path);
	fputs("</code>, replayed on <code>", f);
	svg_esc(f, m->name);
	fputs("</code>", f);
	if (r->model && r->model != r->target) {
		fputs(" (recorded on <code>", f);
		svg_esc(f, r->model->name);
		fputs("</code>)", f);
	}
	fputs(", governor <code>", f);
	svg_esc(f, r->governor);
	fputs("</code>, idle selection <code>", f);
	svg_esc(f, r->idle);
	fputs("</code>. Energy in ", f);
	svg_esc(f, eu);
	fputs(", work in " EA_WORK_UNIT
	      "; delta against the actual (recorded) run.</p>\n",
	      f);
	html_model_warnings(f, models, 2);

	names[0] = "actual (recorded)";
	e[0] = r->actual ? &r->actual->total : NULL;
	delta[0] = NAN;
	for (int i = 0; i < r->nresults; i++) {
		names[i + 1] = r->results[i].policy;
		e[i + 1] = &r->results[i].acct.total;
		delta[i + 1] = ea_replay_delta_pct(r, &r->results[i]);
	}
	fputs("<h2>Energy and performance, side by side</h2>\n", f);
	html_compare_bars(f, e, names, delta, n, u, "compare");
	/* work and energy per work: what to compare when the runs did
	 * different amounts of work (the text's e/work) */
	fputs("<table "
	      "data-table=\"performance\">\n<tr><th>run</th><th>energy</th>"
	      "<th>vs actual</th><th>work</th><th>energy / work</th>"
	      "<th>wakeup latency p50</th><th>p99</th><th>max</th>"
	      "<th>runnable wait</th><th>late "
	      "activations</th><th>overutilised</th>"
	      "<th>migrations</th></tr>\n",
	      f);
	if (r->actual) {
		fprintf(f,
			"<tr><td>actual (recorded)</td><td "
			"data-energy=\"%s\">%s ",
			html_e(ex, au, ea_energy_total(&r->actual->total)),
			svg_num(b,
				ea_eu_energy(au, ea_energy_total(
							 &r->actual->total))));
		svg_esc(f, au->energy);
		fputs("</td><td></td><td colspan=\"9\">as recorded</td></tr>\n",
		      f);
	}
	for (int i = 0; i < r->nresults; i++) {
		const struct ea_replay_result *res = &r->results[i];
		double d = delta[i + 1];

		fputs("<tr><td>", f);
		svg_esc(f, res->policy);
		fprintf(f, "</td><td data-energy=\"%s\">%s ",
			html_e(ex, u, ea_energy_total(&res->acct.total)),
			svg_num(b, ea_eu_energy(u, ea_energy_total(
							   &res->acct.total))));
		svg_esc(f, eu);
		fputs("</td>", f);
		if (d == d)
			fprintf(f, "<td class=\"%s\">%+.1f%%</td>",
				d < -0.05  ? "better"
				: d > 0.05 ? "worse"
					   : "",
				d);
		else
			fputs("<td></td>", f);
		/* work: ns x capacity, read as capacity x s */
		fprintf(f, "<td data-work=\"%s\">%s</td>",
			ea_fmt_s(ex, res->work),
			svg_num(b, (double)res->work / 1e9));
		if (res->work) {
			double epw =
				ea_eu_double(u, ea_replay_energy_per_work(res));

			fprintf(f, "<td data-energy-per-work=\"%.17g\">%s</td>",
				epw, svg_num(b, epw));
		} else {
			fputs("<td>n/a: no work</td>", f);
		}
		if (res->lat_n) {
			td_s(f, res->lat_p50, "ms", 1e6);
			td_s(f, res->lat_p99, "ms", 1e6);
			td_s(f, res->lat_max, "ms", 1e6);
		} else {
			fputs("<td colspan=\"3\">n/a: no recorded wakeups</td>",
			      f);
		}
		td_s(f, res->wait_ns, "s", 1e9);
		if (res->lat_n)
			fprintf(f, "<td>%llu</td>",
				(unsigned long long)res->late);
		else
			fputs("<td>n/a</td>", f);
		td_s(f, res->overutilised_ns, "s", 1e9);
		fprintf(f, "<td>%llu</td></tr>\n",
			(unsigned long long)res->migrations);
	}
	fputs("</table>\n<p class=\"note\">Work: what each run "
	      "executed, " EA_WORK_UNIT
	      " (1024: the biggest CPU at its highest OPP for 1 s); energy / "
	      "work in ",
	      f);
	svg_esc(f, eu);
	fputs(" per " EA_WORK_UNIT ". Latency: wakeup to run. Late: of those, "
	      "activations that finished more than 1 ms after both their "
	      "recorded end "
	      "and what their work takes on the biggest CPU. Overutilised: "
	      "time some "
	      "CPU was above 80% of its capacity.</p>\n",
	      f);
	if (ea_replay_work_spread_pct(r) > EA_REPLAY_WORK_SPREAD_PCT)
		fprintf(f,
			"<p class=\"note\">The runs did different amounts of "
			"work "
			"(%.1f%% apart, capacity x s): compare energy per unit "
			"of work.</p>\n",
			ea_replay_work_spread_pct(r));
	costs_note(f, r);
	rp_out_ensemble_html(f, r);

	if (tls) {
		for (int i = 0; i < n; i++)
			if (tls[i] && html_timeline_peak(tls[i], false,
							 i ? u : au) > ymax)
				ymax = html_timeline_peak(tls[i], false,
							  i ? u : au);
		ymax = svg_nice_max(ymax);
		fputs("<h2>Power over time by cluster</h2>\n<p "
		      "class=\"note\">Same scales "
		      "in every chart, so the runs compare at a glance.</p>\n",
		      f);
		for (int i = 0; i < n; i++) {
			const struct ea_timeline *t = tls[i];
			int cols[64], k = 0;
			const char *cn[64], *cc[64];
			char id[64];

			if (!t)
				continue;
			for (int c = 0; c < t->nclusters && k < 64; c++, k++) {
				cols[k] = t->ncpus + c;
				cn[k] = t->acct->model->clusters[c].name;
				cc[k] = svg_cat(c);
			}
			fputs("<h3>", f);
			svg_esc(f, names[i]);
			fputs("</h3>\n", f);
			snprintf(id, sizeof(id), "run%d-clusters", i);
			html_power_chart(f, id, t, cols, cn, cc, k, i ? u : au,
					 ymax, 240);
		}
	}
	fputs("<h2>Residency per run</h2>\n", f);
	for (int i = 0; i < n; i++) {
		const struct ea_acct *a =
			i ? &r->results[i - 1].acct : r->actual;
		char id[64];

		if (!a)
			continue;
		fputs("<h3>", f);
		svg_esc(f, names[i]);
		fputs("</h3>\n", f);
		snprintf(id, sizeof(id), "run%d-residency", i);
		html_state_bars(f, a, false, id, i ? u : au);
	}
	html_foot(f);
out:
	free(e);
	free(names);
	free(delta);
}
