// SPDX-License-Identifier: GPL-2.0-only
/* `eatrace report --html FILE`: the report as one self-contained page. */
#include <stdlib.h>
#include <string.h>

#include "eatrace/output.h"
#include "output/html-common.h"

static void card(FILE *f, const char *value, const char *what)
{
	fputs("<div class=\"card\"><b>", f);
	svg_esc(f, value);
	fputs("</b><span>", f);
	svg_esc(f, what);
	fputs("</span></div>\n", f);
}

static void note(void *arg, const char *kind, const char *msg)
{
	FILE *f = arg;

	fputs("<li>", f);
	svg_esc(f, kind);
	fputs(": ", f);
	svg_esc(f, msg);
	fputs("</li>\n", f);
}

void html_summary_cards(FILE *f, const struct ea_acct *a)
{
	const struct ea_model *m = a->model;
	double e = ea_energy_to_double(ea_energy_total(&a->total));
	double d = (double)(a->win_end - a->win_start) / 1e9;
	char eu[32], b[32], v[96];

	html_energy_unit(eu, sizeof(eu), m->power_unit);
	fputs("<div class=\"cards\">\n", f);
	snprintf(v, sizeof(v), "%s %s", svg_num(b, e), eu);
	card(f, v, a->cfg.cpu_only || a->cfg.task_only ? "energy, filtered" : "energy, all CPUs");
	snprintf(v, sizeof(v), "%s %s", svg_num(b, d > 0 ? e / d : 0), m->power_unit);
	card(f, v, "mean power");
	snprintf(v, sizeof(v), "%s s", svg_num(b, d));
	card(f, v, "analysed window");
	snprintf(v, sizeof(v), "%.1f%% / %.1f%% / %.1f%%",
		 e > 0 ? 100 * ea_energy_to_double(ea_energy_busy(&a->total)) / e : 0,
		 e > 0 ? 100 * ea_energy_to_double(ea_energy_idle(&a->total)) / e : 0,
		 e > 0 ? 100 * ea_energy_to_double(ea_energy_wakeup(&a->total)) / e : 0);
	card(f, v, "busy / idle / wakeups");
	fputs("</div>\n", f);
}

void ea_report_render_html(FILE *f, const struct ea_report *r,
			   const struct ea_timeline *tl)
{
	const struct ea_acct *a = r->acct;
	const struct ea_model *m = a->model;
	char title[512], b1[32], b2[32], exact[64];

	snprintf(title, sizeof(title), "eatrace report: %s", r->path);
	html_head(f, title);
	fputs("<h1>Energy report</h1>\n<p class=\"meta\">Trace <code>", f);
	svg_esc(f, r->path);
	fputs("</code>", f);
	if (r->info && r->info->format) {
		fputs(" (", f);
		svg_esc(f, r->info->format);
		fputs(")", f);
	}
	fputs(", model <code>", f);
	svg_esc(f, m->name);
	fprintf(f, "</code>, window %s s to %s s of the trace clock. "
		"Energy is in the model's %s x seconds.</p>\n",
		ea_fmt_s(b1, a->win_start), ea_fmt_s(b2, a->win_end), m->power_unit);
	if (a->cfg.cpu_only || a->cfg.task_only) {
		char sel[1024];

		fputs("<p class=\"note\" id=\"filter\">Filter: ", f);
		svg_esc(f, ea_filter_describe(sel, sizeof(sel), a->cfg.cpu_only,
					      a->cfg.ncpu_only, a->cfg.task_only));
		fputs(": every energy is their share only; times are the CPUs' and "
		      "clusters' own.</p>\n", f);
	}
	fprintf(f, "<div data-total-energy=\"%s\"></div>\n",
		html_e(exact, ea_energy_total(&a->total)));
	html_summary_cards(f, a);
	/* suspended and offline time: neither busy nor idle (docs/inference.md) */
	if (a->suspended_ns || a->total.suspended) {
		char eu[32], v[64];

		html_energy_unit(eu, sizeof(eu), m->power_unit);
		fprintf(f, "<p class=\"note\" id=\"suspended\">Suspended %s s "
			"(machine_suspend), priced at the model's suspend_power: %s %s.</p>\n",
			ea_fmt_s(b1, a->suspended_ns),
			svg_num(v, ea_energy_to_double(a->total.suspended)), eu);
	}
	if (a->offline_ns || a->total.offline) {
		char eu[32], v[64];

		html_energy_unit(eu, sizeof(eu), m->power_unit);
		fprintf(f, "<p class=\"note\" id=\"offline\">CPUs offline (CPU hotplug) "
			"for %s CPU s in all, priced at their clusters' offline_power: %s %s.</p>\n",
			ea_fmt_s(b1, a->offline_ns),
			svg_num(v, ea_energy_to_double(a->total.offline)), eu);
	}

	if (tl) {
		fputs("<h2>Power over time</h2>\n", f);
		html_timeline_charts(f, tl, "power", 0, 0);
	}
	fputs("<h2>Where the energy went</h2>\n"
	      "<p class=\"note\">Busy, idle and wakeup energy per cluster (core and "
	      "cluster power of its CPUs).</p>\n", f);
	html_split_bars(f, a, "split");
	fputs("<h3>By P-state and C-state, per CPU</h3>\n"
	      "<p class=\"note\">Each CPU carries its share of its cluster's power. "
	      "A C-state's energy includes the wakeups out of it. Same scale for all CPUs.</p>\n", f);
	html_state_bars(f, a, true, "energy");
	fputs("<h2>Residency</h2>\n<p class=\"note\">Time busy at each OPP and idle in each "
	      "C-state. \"whole cluster\": busy at its fastest busy CPU's OPP, idle in its "
	      "CPUs' shallowest state.</p>\n", f);
	html_state_bars(f, a, false, "residency");
	fputs("<h2>Top tasks by energy</h2>\n<p class=\"note\">A task pays its core's "
	      "busy power, an equal share of its cluster's busy power, and the wakeup it "
	      "ran after; idle energy goes to [idle].</p>\n", f);
	html_task_bars(f, a, 15, "tasks");
	if (r->stats) {
		fputs("<h2>Notes</h2>\n<ul>\n", f);
		ea_stats_foreach_note(r->stats, r->info, note, f);
		fputs("</ul>\n", f);
	}
	html_foot(f);
}
