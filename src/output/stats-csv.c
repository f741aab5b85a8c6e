// SPDX-License-Identifier: GPL-2.0-only
/*
 * `eatrace stats --format csv`: one long table, a row per figure:
 *   scope,cpu,pid,comm,freq_khz,idle_state,metric,value
 * scope is trace, cpu, cpu_freq, cpu_idle or task; unused columns are empty;
 * under --cpus or --task, filter rows first (metric cpus or tasks, value
 * the selection).
 */
#include <stdlib.h>
#include <string.h>

#include "eatrace/escape.h"
#include "eatrace/input.h"
#include "eatrace/output.h"
#include "eatrace/stats.h"

void ea_stats_render_csv(FILE *f, const struct ea_stats *st,
			 const struct ea_input_info *info)
{
	struct ea_task **tasks;
	char b[32], sel[1024];
	size_t nt;

	fprintf(f, "scope,cpu,pid,comm,freq_khz,idle_state,metric,value\n");
	if (st->filter && st->filter->cpus) {
		fputs("filter,,,,,,cpus,", f);
		ea_esc_csv(f, ea_cpu_list_fmt(sel, sizeof(sel), st->filter->cpus,
					      st->filter->ncpus));
		fputc('\n', f);
	}
	if (st->filter && st->filter->ntasks) {
		fputs("filter,,,,,,tasks,", f);
		ea_esc_csv(f, ea_filter_tasks_fmt(sel, sizeof(sel), st->filter));
		fputc('\n', f);
	}
	fprintf(f, "trace,,,,,,ncpus,%d\n", st->ncpus);
	fprintf(f, "trace,,,,,,duration_s,%s\n", ea_fmt_s(b, st->win_end - st->win_start));
	fprintf(f, "trace,,,,,,events,%llu\n", (unsigned long long)st->counts.events);
	for (int i = 0; i < st->ncpus; i++) {
		const struct ea_cpu_stats *c = &st->cpus[i];

		if (!ea_stats_cpu_shown(st, i))
			continue;
		fprintf(f, "cpu,%d,,,,,busy_s,%s\n", i, ea_fmt_s(b, c->busy_ns));
		fprintf(f, "cpu,%d,,,,,idle_s,%s\n", i, ea_fmt_s(b, c->idle_ns));
		fprintf(f, "cpu,%d,,,,,inferred_s,%s\n", i, ea_fmt_s(b, c->inferred_ns));
		fprintf(f, "cpu,%d,,,,,idle_exits,%llu\n", i,
			(unsigned long long)c->idle_exits);
		fprintf(f, "cpu,%d,,,,,util_avg_mean,%s\n", i, ea_fmt_num(b, c->util_mean));
		fprintf(f, "cpu,%d,,,,,util_avg_max,%u\n", i, c->util_max);
		for (int k = 0; k < c->nfreqs; k++)
			fprintf(f, "cpu_freq,%d,,,%u,,time_s,%s\n", i,
				c->freqs[k].freq_khz, ea_fmt_s(b, c->freqs[k].ns));
		for (int k = 0; k < c->nidle; k++) {
			fprintf(f, "cpu_idle,%d,,,,%d,time_s,%s\n", i, k,
				ea_fmt_s(b, c->idle[k].ns));
			fprintf(f, "cpu_idle,%d,,,,%d,entries,%llu\n", i, k,
				(unsigned long long)c->idle[k].entries);
		}
	}
	tasks = ea_stats_tasks_sorted(st, &nt);
	for (size_t i = 0; tasks && i < nt; i++) {
		const struct ea_task *t = tasks[i];
		static const char *const m[] = { "runtime_s", "wait_s" };
		const uint64_t v[] = { t->runtime_ns, t->wait_ns };
		const char *const cm[] = { "activations", "wakeups", "migrations" };
		const uint64_t cv[] = { t->activations,
					t->wakeups + t->wakeups_inferred,
					t->migrations };

		for (int k = 0; k < 2; k++) {
			fprintf(f, "task,,%d,", t->pid);
			ea_esc_csv(f, t->comm);
			fprintf(f, ",,,%s,%s\n", m[k], ea_fmt_s(b, v[k]));
		}
		for (int k = 0; k < 3; k++) {
			fprintf(f, "task,,%d,", t->pid);
			ea_esc_csv(f, t->comm);
			fprintf(f, ",,,%s,%llu\n", cm[k], (unsigned long long)cv[k]);
		}
	}
	free(tasks);
	(void)info;
}
