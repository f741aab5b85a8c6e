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

	fputs("<li data-kind=\"", f);
	svg_esc(f, kind);
	fputs("\">", f);
	svg_esc(f, kind);
	fputs(": ", f);
	svg_esc(f, msg);
	fputs("</li>\n", f);
}

void html_summary_cards(FILE *f, const struct ea_acct *a, const struct ea_energy_unit *u)
{
	double e = ea_eu_energy(u, ea_energy_total(&a->total));
	double d = (double)(a->win_end - a->win_start) / 1e9;
	char b[32], v[96];

	fputs("<div class=\"cards\">\n", f);
	snprintf(v, sizeof(v), "%s %s", svg_num(b, e), u->energy);
	card(f, v, a->cfg.cpu_only || a->cfg.task_only ? "energy, filtered" : "energy, all CPUs");
	snprintf(v, sizeof(v), "%s %s", svg_num(b, d > 0 ? e / d : 0), u->power);
	card(f, v, "mean power");
	snprintf(v, sizeof(v), "%s s", svg_num(b, d));
	card(f, v, "analysed window");
	snprintf(v, sizeof(v), "%.1f%% / %.1f%% / %.1f%%",
		 e > 0 ? 100 * ea_eu_energy(u, ea_energy_busy(&a->total)) / e : 0,
		 e > 0 ? 100 * ea_eu_energy(u, ea_energy_idle(&a->total)) / e : 0,
		 e > 0 ? 100 * ea_eu_energy(u, ea_energy_wakeup(&a->total)) / e : 0);
	card(f, v, "busy / idle / wakeups");
	fputs("</div>\n", f);
}

void ea_report_render_html(FILE *f, const struct ea_report *r,
			   const struct ea_timeline *tl)
{
	const struct ea_acct *a = r->acct;
	const struct ea_model *m = a->model;
	struct ea_energy_unit ut;
	const struct ea_energy_unit *u = ea_report_unit(r, &ut);
	char title[512], b1[32], b2[32], exact[EA_EU_BUF], msg[EA_NOTE_LEN];

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
	fprintf(f, "</code>, window %s s to %s s of the trace clock. Energy in ",
		ea_fmt_s(b1, a->win_start), ea_fmt_s(b2, a->win_end));
	svg_esc(f, u->energy);
	fputs(", power in ", f);
	svg_esc(f, u->power);
	fputs(".</p>\n", f);
	html_model_warnings(f, &m, 1);
	if (a->cfg.cpu_only || a->cfg.task_only) {
		char sel[1024];

		fputs("<p class=\"note\" id=\"filter\">Filter: ", f);
		svg_esc(f, ea_filter_describe(sel, sizeof(sel), a->cfg.cpu_only,
					      a->cfg.ncpu_only, a->cfg.task_only));
		fputs(": every energy is their share only; times are the CPUs' and "
		      "clusters' own.</p>\n", f);
	}
	/* how much of it rests on inference, as the text's first note */
	if (ea_report_inference_msg(r, msg, sizeof(msg))) {
		fputs("<p class=\"headline\" id=\"inference\"><b>", f);
		svg_esc(f, msg);
		fputs(".</b></p>\n", f);
	}
	fputs("<div data-total-energy=\"", f);
	svg_esc(f, html_e(exact, u, ea_energy_total(&a->total)));
	fputs("\" data-energy-unit=\"", f);
	svg_esc(f, u->energy);
	fputs("\"></div>\n", f);
	html_summary_cards(f, a, u);
	/* suspended and offline time: neither busy nor idle (docs/inference.md) */
	if (a->suspended_ns || a->total.suspended) {
		char v[64];

		fprintf(f, "<p class=\"note\" id=\"suspended\">Suspended %s s "
			"(machine_suspend), priced at the model's suspend_power: %s ",
			ea_fmt_s(b1, a->suspended_ns),
			svg_num(v, ea_eu_energy(u, a->total.suspended)));
		svg_esc(f, u->energy);
		fputs(".</p>\n", f);
	}
	if (a->offline_ns || a->total.offline) {
		char v[64];

		fprintf(f, "<p class=\"note\" id=\"offline\">CPUs offline (CPU hotplug) "
			"for %s CPU s in all, priced at their clusters' offline_power: %s ",
			ea_fmt_s(b1, a->offline_ns),
			svg_num(v, ea_eu_energy(u, a->total.offline)));
		svg_esc(f, u->energy);
		fputs(".</p>\n", f);
	}

	if (tl) {
		fputs("<h2>Power over time</h2>\n", f);
		html_timeline_charts(f, tl, "power", u, 0, 0);
	}
	fputs("<h2>Where the energy went</h2>\n"
	      "<p class=\"note\">Busy, idle and wakeup energy per cluster (core and "
	      "cluster power of its CPUs).</p>\n", f);
	html_split_bars(f, a, "split", u);
	fputs("<h3>By P-state and C-state, per CPU</h3>\n"
	      "<p class=\"note\">Each CPU carries its share of its cluster's power. "
	      "A C-state's energy includes the wakeups out of it. Same scale for all CPUs.</p>\n", f);
	html_state_bars(f, a, true, "energy", u);
	fputs("<h2>Residency</h2>\n<p class=\"note\">Time busy at each OPP and idle in each "
	      "C-state. \"whole cluster\": busy at its fastest busy CPU's OPP, idle in its "
	      "CPUs' shallowest state.</p>\n", f);
	html_state_bars(f, a, false, "residency", u);
	fputs("<h2>Top tasks by energy</h2>\n<p class=\"note\">A task pays its core's "
	      "busy power, an equal share of its cluster's busy power, and the wakeup it "
	      "ran after; idle energy goes to [idle].</p>\n", f);
	html_task_bars(f, a, 15, "tasks", u);
	/* the text report's notes, in its order */
	fputs("<h2>Notes</h2>\n<ul class=\"notes\" id=\"notes\">\n", f);
	ea_report_foreach_note(r, note, f);
	fputs("</ul>\n", f);
	html_foot(f);
}
