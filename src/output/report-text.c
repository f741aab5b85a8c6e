// SPDX-License-Identifier: GPL-2.0-only
/* `eatrace report` for people. */
#include <stdlib.h>
#include <string.h>

#include "eatrace/escape.h"
#include "eatrace/output.h"
#include "eatrace/report.h"

#define TOP_TASKS 15

static double pct(ea_energy_t part, ea_energy_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

struct notes {
	FILE *f;
	unsigned n;
};

/* Notes under one "Notes:" header; "Notes: none" when there are none. */
static void note(void *arg, const char *kind, const char *msg)
{
	struct notes *notes = arg;

	char m[4 * EA_NOTE_LEN + 1];

	if (!notes->n++)
		fprintf(notes->f, "\nNotes:\n");
	fprintf(notes->f, "  %-9s %s\n", kind, ea_esc_term_buf(m, sizeof(m), msg));
}

static int w = 14;	/* the label column: the longest label, at least 14 */
static const struct ea_energy_unit *eu;	/* the unit energies are shown in */

/* An energy in the unit shown. */
static double E(ea_energy_t e)
{
	return ea_eu_energy(eu, e);
}

/* A row of energies; the line is left open for the callers' columns. */
static void row_open(FILE *f, const char *label, const struct ea_energy *e,
		     ea_energy_t total)
{
	char l[4 * 96 + 1];

	fprintf(f, "%-*s %14.6f %6.1f%% %14.6f %14.6f %12.6f", w,
		ea_esc_term_buf(l, sizeof(l), label),
		E(ea_energy_total(e)), pct(ea_energy_total(e), total),
		E(ea_energy_busy(e)), E(ea_energy_idle(e)), E(ea_energy_wakeup(e)));
}

static void row(FILE *f, const char *label, const struct ea_energy *e,
		ea_energy_t total)
{
	row_open(f, label, e, total);
	fputc('\n', f);
}

static void header_open(FILE *f, const char *first)
{
	fprintf(f, "%-*s %14s %7s %14s %14s %12s", w, first, "energy", "share",
		"busy", "idle", "wakeup");
}

static void header(FILE *f, const char *first)
{
	header_open(f, first);
	fputc('\n', f);
}

void ea_report_render_text(FILE *f, const struct ea_report *r)
{
	const struct ea_acct *a = r->acct;
	const struct ea_model *m = a->model;
	ea_energy_t total = ea_energy_total(&a->total);
	char b1[32], b2[32], label[96];
	struct ea_energy_unit ut;
	char t1[4 * 4096 + 1], t2[4 * EA_NAME_LEN + 1], t3[4 * EA_NAME_LEN + 1];
	struct notes notes = { f, 0 };
	size_t top = r->top ? r->top : TOP_TASKS;
	int wc = 10;	/* the C-state column: the longest name, at least 10 */

	eu = ea_report_unit(r, &ut);
	/* columns stay in line with long cluster and C-state names */
	w = 14;
	for (int i = 0; i < m->nclusters; i++) {
		int n = (int)strlen(m->clusters[i].name);

		if (n + 6 > w)	/* "NN (name)" CPU labels */
			w = n + 6;
		for (int k = 0; k < m->clusters[i].nidles; k++)
			if ((int)strlen(m->clusters[i].idles[k].name) > wc)
				wc = (int)strlen(m->clusters[i].idles[k].name);
	}
	fprintf(f, "%s: %s s from %s s, model %s, energy in %s\n\n",
		ea_esc_term_buf(t1, sizeof(t1), r->path),
		ea_fmt_s(b1, a->win_end - a->win_start), ea_fmt_s(b2, a->win_start),
		ea_esc_term_buf(t2, sizeof(t2), m->name),
		ea_esc_term_buf(t3, sizeof(t3), eu->energy));
	if (a->cfg.cpu_only || a->cfg.task_only) {
		char sel[1024];

		fprintf(f, "filter: %s: the energies below are their share only (times: the CPUs' and clusters' own)\n\n",
			ea_esc_term_buf(t1, sizeof(t1),
					ea_filter_describe(sel, sizeof(sel), a->cfg.cpu_only,
							   a->cfg.ncpu_only, a->cfg.task_only)));
	}
	header(f, "");
	row(f, "total", &a->total, total);
	fprintf(f, "  core busy %.6f, cluster busy %.6f, core idle %.6f, cluster idle %.6f,\n"
		   "  core wakeups %.6f, cluster wakeups %.6f\n",
		E(a->total.core_busy), E(a->total.cluster_busy), E(a->total.core_idle),
		E(a->total.cluster_idle), E(a->total.core_wakeup),
		E(a->total.cluster_wakeup));
	/* its own lines, when the trace has such time (docs/inference.md) */
	if (a->suspended_ns || a->total.suspended)
		fprintf(f, "  suspended %s s: %.6f (%.1f%%) at suspend_power %g\n",
			ea_fmt_s(b1, a->suspended_ns), E(a->total.suspended),
			pct(a->total.suspended, total),
			ea_eu_double(eu, m->suspend_power));
	if (a->offline_ns || a->total.offline) {
		fprintf(f, "  offline %s CPU s: %.6f (%.1f%%);", ea_fmt_s(b1, a->offline_ns),
			E(a->total.offline), pct(a->total.offline, total));
		for (int i = 0; i < a->trace_ncpus && i < a->ncpus; i++)
			if (a->cpus[i].offline_ns && ea_acct_cpu_selected(a, i))
				fprintf(f, " cpu%d %s s", i,
					ea_fmt_s(b1, a->cpus[i].offline_ns));
		fputc('\n', f);
	}

	fputc('\n', f);
	header(f, "cluster");
	for (int i = 0; i < m->nclusters; i++)
		if (ea_acct_cluster_selected(a, i))
			row(f, m->clusters[i].name, &a->clusters[i].e, total);

	fputc('\n', f);
	/* per CPU also the time whose state the trace does not show (its
	 * energy share is in the first note) */
	header_open(f, "cpu");
	fprintf(f, " %12s\n", "unknown_s");
	for (int i = 0; i < a->trace_ncpus && i < a->ncpus; i++) {
		if (!ea_acct_cpu_selected(a, i))
			continue;
		snprintf(label, sizeof(label), "%d (%s)", i,
			 m->clusters[m->cpu_cluster[i]].name);
		row_open(f, label, &a->cpus[i].e, total);
		fprintf(f, " %12s\n", ea_fmt_s(b1, a->cpus[i].unknown_ns));
	}

	fprintf(f, "\n%-*s %10s %12s %14s %7s\n", w, "cluster", "freq_khz",
		"busy_s", "energy", "share");
	for (int i = 0; i < m->nclusters; i++) {
		const struct ea_cluster *cl = &m->clusters[i];

		for (int k = 0; k < cl->ncaps; k++) {
			ea_energy_t e = 0;

			for (int c = 0; c < cl->ncpus; c++)
				if (cl->cpus[c] < a->trace_ncpus &&
				    ea_acct_cpu_selected(a, cl->cpus[c]))
					e += a->cpus[cl->cpus[c]].pstates[k].energy;
			if ((!e && !a->clusters[i].pstates[k].ns) ||
			    !ea_acct_cluster_selected(a, i))
				continue;
			fprintf(f, "%-*s %10u %12s %14.6f %6.1f%%\n", w,
				ea_esc_term_buf(t2, sizeof(t2), cl->name),
				cl->caps[k].freq_khz,
				ea_fmt_s(b1, a->clusters[i].pstates[k].ns), E(e),
				pct(e, total));
		}
	}
	/* a C-state's energy is its idle power and the wakeups out of it */
	fprintf(f, "\n%-*s %-*s %12s %14s %7s  (energy: idle power and the wakeups out of the state)\n",
		w, "cluster", wc, "cstate", "all_idle_s", "energy", "share");
	for (int i = 0; i < m->nclusters; i++) {
		const struct ea_cluster *cl = &m->clusters[i];

		for (int k = 0; k < cl->nidles && ea_acct_cluster_selected(a, i); k++) {
			ea_energy_t e = 0;

			for (int c = 0; c < cl->ncpus; c++)
				if (cl->cpus[c] < a->trace_ncpus &&
				    ea_acct_cpu_selected(a, cl->cpus[c]))
					e += a->cpus[cl->cpus[c]].cstates[k].energy;
			fprintf(f, "%-*s %-*s %12s %14.6f %6.1f%%\n", w,
				ea_esc_term_buf(t2, sizeof(t2), cl->name), wc,
				ea_esc_term_buf(t3, sizeof(t3), cl->idles[k].name),
				ea_fmt_s(b1, a->clusters[i].cstates[k].ns), E(e),
				pct(e, total));
		}
	}
	if (r->per_task) {
		const struct ea_task_acct **t = ea_acct_tasks_by_energy(a);

		fprintf(f, "\n%-8s %-16s %14s %7s %12s %7s\n", "PID", "COMM",
			"energy", "share", "runtime_s", "wakeups");
		for (size_t i = 0; t && i < a->ntasks && i < top; i++)
			fprintf(f, "%-8d %-16s %14.6f %6.1f%% %12s %7llu\n",
				t[i]->pid, ea_esc_term_buf(t2, sizeof(t2), t[i]->comm),
				E(ea_energy_total(&t[i]->e)),
				pct(ea_energy_total(&t[i]->e), total),
				ea_fmt_s(b1, t[i]->runtime_ns),
				(unsigned long long)t[i]->wakeups);
		if (a->ntasks > top)
			fprintf(f, "(%zu more: --top N or --top all lists them)\n",
				a->ntasks - top);
		free(t);
		ea_report_procs_text(f, r, top);
	}
	if (a->cfg.interval_ns) {
		fprintf(f, "\n%-*s %14s %14s %14s %12s\n", w, "window_start_s",
			"energy", "busy", "idle", "wakeup");
		for (size_t i = 0; i < a->nwindows; i++) {
			const struct ea_energy *e = &a->windows[i];

			fprintf(f, "%-*s %14.6f %14.6f %14.6f %12.6f\n", w,
				ea_fmt_s(b1, a->win_start + i * a->cfg.interval_ns),
				E(ea_energy_total(e)), E(ea_energy_busy(e)),
				E(ea_energy_idle(e)), E(ea_energy_wakeup(e)));
		}
	}
	ea_report_rails_text(f, r);
	ea_report_foreach_note(r, note, &notes);
	if (!notes.n)
		fprintf(f, "\nNotes: none\n");
}
