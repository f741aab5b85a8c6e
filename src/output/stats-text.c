// SPDX-License-Identifier: GPL-2.0-only
/* `eatrace stats` for people: a few aligned tables. */
#include <stdlib.h>

#include "eatrace/escape.h"
#include "eatrace/input.h"
#include "eatrace/output.h"
#include "eatrace/stats.h"

#define TOP_TASKS 20

struct notes {
	FILE *f;
	unsigned n;
};

/* Notes under one "Notes:" header; "Notes: none" when there are none. */
static void note(void *arg, const char *kind, const char *msg)
{
	struct notes *notes = arg;

	char m[4 * 256 + 1];

	if (!notes->n++)
		fprintf(notes->f, "\nNotes:\n");
	fprintf(notes->f, "  %-9s %s\n", kind, ea_esc_term_buf(m, sizeof(m), msg));
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0;
}

void ea_stats_render_text(FILE *f, const struct ea_stats *st,
			  const struct ea_input_info *info, const char *path)
{
	uint64_t span = st->win_end - st->win_start;
	struct notes notes = { f, 0 };
	struct ea_task **tasks;
	char b1[32], b2[32], t1[4 * 4096 + 1], t2[4 * 64 + 1];
	size_t nt;

	fprintf(f, "%s: %s, %d CPUs, %s s from %s s, %llu events used\n",
		ea_esc_term_buf(t1, sizeof(t1), path),
		info && info->format ? info->format : "?", st->ncpus,
		ea_fmt_s(b1, span), ea_fmt_s(b2, st->win_start),
		(unsigned long long)st->counts.events);
	if (st->filter && (st->filter->cpus || st->filter->ntasks)) {
		char sel[1024];

		ea_filter_describe(sel, sizeof(sel), st->filter->cpus, st->filter->ncpus,
				   st->filter);
		fprintf(f, "filter: %s: only their rows (events and notes: the whole trace's)\n",
			ea_esc_term_buf(t1, sizeof(t1), sel));
	}

	/* busy_s + idle_s + unknown_s (+ suspended and offline, their own
	 * table) = the window, per CPU */
	fprintf(f, "\n%-4s %12s %12s %12s %12s %6s %8s %8s %7s %s\n", "CPU",
		"busy_s", "idle_s", "unknown_s", "inferred_s", "busy%",
		"util_avg", "util_max", "exits", "idle from");
	for (int i = 0; i < st->ncpus; i++) {
		const struct ea_cpu_stats *c = &st->cpus[i];
		char b3[32], b4[32];

		if (!ea_stats_cpu_shown(st, i))
			continue;
		fprintf(f, "%-4d %12s %12s %12s %12s %6.1f %8.1f %8u %7llu %s\n",
			i, ea_fmt_s(b1, c->busy_ns), ea_fmt_s(b2, c->idle_ns),
			ea_fmt_s(b4, c->unknown_ns),
			ea_fmt_s(b3, c->inferred_ns), pct(c->busy_ns, span),
			c->util_mean, c->util_max,
			(unsigned long long)c->idle_exits,
			c->has_cpuidle ? "cpu_idle" : "pid 0");
	}
	/* suspended and offline time: their own table, when there is some */
	for (int i = 0; i < st->ncpus; i++) {
		if ((!st->cpus[i].suspended_ns && !st->cpus[i].offline_ns) ||
		    !ea_stats_cpu_shown(st, i))
			continue;
		fprintf(f, "\n%-4s %12s %12s\n", "CPU", "suspended_s", "offline_s");
		for (int k = 0; k < st->ncpus; k++)
			if (ea_stats_cpu_shown(st, k))
				fprintf(f, "%-4d %12s %12s\n", k,
					ea_fmt_s(b1, st->cpus[k].suspended_ns),
					ea_fmt_s(b2, st->cpus[k].offline_ns));
		break;
	}

	fprintf(f, "\n%-4s %12s %12s %6s\n", "CPU", "freq_khz", "time_s", "%");
	for (int i = 0; i < st->ncpus; i++)
		for (int k = 0; k < st->cpus[i].nfreqs && ea_stats_cpu_shown(st, i); k++) {
			const struct ea_freq_time *ft = &st->cpus[i].freqs[k];

			if (ft->freq_khz)
				fprintf(f, "%-4d %12u", i, ft->freq_khz);
			else
				fprintf(f, "%-4d %12s", i, "unknown");
			fprintf(f, " %12s %6.1f\n", ea_fmt_s(b1, ft->ns),
				pct(ft->ns, span));
		}

	fprintf(f, "\n%-4s %5s %12s %8s %12s %12s %12s\n", "CPU", "state",
		"time_s", "entries", "min_s", "avg_s", "max_s");
	for (int i = 0; i < st->ncpus; i++)
		for (int k = 0; k < st->cpus[i].nidle && ea_stats_cpu_shown(st, i); k++) {
			const struct ea_idle_stat *is = &st->cpus[i].idle[k];
			char b3[32], b4[32];

			if (!is->ns && !is->entries)
				continue;
			fprintf(f, "%-4d %5d %12s %8llu %12s %12s %12s\n", i, k,
				ea_fmt_s(b1, is->ns),
				(unsigned long long)is->entries,
				ea_fmt_s(b2, is->min_ns),
				ea_fmt_s(b3, is->periods ? is->sum_ns / is->periods : 0),
				ea_fmt_s(b4, is->max_ns));
		}

	tasks = ea_stats_tasks_sorted(st, &nt);
	if (tasks && nt) {
		fprintf(f, "\n%-8s %-16s %12s %12s %6s %6s %6s %5s\n", "PID",
			"COMM", "runtime_s", "wait_s", "acts", "wakes", "migr",
			"util");
		for (size_t i = 0; i < nt && i < TOP_TASKS; i++) {
			const struct ea_task *t = tasks[i];

			fprintf(f, "%-8d %-16s %12s %12s %6llu %6llu %6llu %5u\n",
				t->pid, ea_esc_term_buf(t2, sizeof(t2), t->comm),
				ea_fmt_s(b1, t->runtime_ns),
				ea_fmt_s(b2, t->wait_ns),
				(unsigned long long)t->activations,
				(unsigned long long)(t->wakeups + t->wakeups_inferred),
				(unsigned long long)t->migrations, t->pelt.util_avg);
		}
		if (nt > TOP_TASKS)
			fprintf(f, "(%zu more tasks: --format json lists all)\n",
				nt - TOP_TASKS);
	}
	free(tasks);
	ea_stats_foreach_note(st, info, note, &notes);
	if (!notes.n)
		fprintf(f, "\nNotes: none\n");
}
