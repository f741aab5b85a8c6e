// SPDX-License-Identifier: GPL-2.0-only
/* `eatrace stats --format json`: keys documented in docs/json.md. */
#include <stdlib.h>

#include "eatrace/input.h"
#include "eatrace/output.h"
#include "eatrace/stats.h"
#include "output/filter-out.h"

void ea_stats_note_json(void *arg, const char *kind, const char *msg)
{
	struct ea_json *j = arg;

	ea_json_obj(j, NULL);
	ea_json_str(j, "kind", kind);
	ea_json_str(j, "message", msg);
	ea_json_obj_end(j);
}

static void cpu_json(struct ea_json *j, const struct ea_stats *st, int i)
{
	const struct ea_cpu_stats *c = &st->cpus[i];
	uint64_t span = st->win_end - st->win_start;

	ea_json_obj(j, NULL);
	ea_json_int(j, "cpu", i);
	ea_json_ns_as_s(j, "busy_s", c->busy_ns);
	ea_json_ns_as_s(j, "idle_s", c->idle_ns);
	ea_json_ns_as_s(j, "unknown_s", c->unknown_ns);
	ea_json_ns_as_s(j, "unknown_priced_idle_s", c->unknown_idle_ns);
	ea_json_ns_as_s(j, "suspended_s", c->suspended_ns);
	ea_json_ns_as_s(j, "offline_s", c->offline_ns);
	ea_json_ns_as_s(j, "inferred_s", c->inferred_ns);
	ea_json_obj(j, "inferred");
	ea_json_ns_as_s(j, "start_s", c->inferred_start_ns);
	ea_json_ns_as_s(j, "end_s", c->inferred_end_ns);
	ea_json_ns_as_s(j, "idle_from_pid0_s", c->inferred_swapper_ns);
	ea_json_ns_as_s(j, "lost_s", c->inferred_lost_ns);
	ea_json_ns_as_s(j, "resync_s", c->inferred_resync_ns);
	ea_json_obj_end(j);
	ea_json_str(j, "idle_source", c->has_cpuidle ? "cpu_idle" : "pid0");
	ea_json_num(j, "busy_frac", span ? (double)c->busy_ns / span : 0);
	ea_json_num(j, "util_avg_mean", c->util_mean);
	ea_json_uint(j, "util_avg_max", c->util_max);
	ea_json_uint(j, "idle_exits", c->idle_exits);
	ea_json_arr(j, "freqs");
	for (int k = 0; k < c->nfreqs; k++) {
		ea_json_obj(j, NULL);
		ea_json_uint(j, "freq_khz", c->freqs[k].freq_khz);
		ea_json_ns_as_s(j, "time_s", c->freqs[k].ns);
		ea_json_obj_end(j);
	}
	ea_json_arr_end(j);
	ea_json_arr(j, "idle_states");
	for (int k = 0; k < c->nidle; k++) {
		const struct ea_idle_stat *is = &c->idle[k];

		ea_json_obj(j, NULL);
		ea_json_int(j, "state", k);
		ea_json_ns_as_s(j, "time_s", is->ns);
		ea_json_uint(j, "entries", is->entries);
		ea_json_uint(j, "periods", is->periods);
		ea_json_ns_as_s(j, "residency_min_s", is->min_ns);
		ea_json_ns_as_s(j, "residency_avg_s",
				is->periods ? is->sum_ns / is->periods : 0);
		ea_json_ns_as_s(j, "residency_max_s", is->max_ns);
		ea_json_obj_end(j);
	}
	ea_json_arr_end(j);
	ea_json_obj_end(j);
}

static void task_json(struct ea_json *j, const struct ea_task *t)
{
	ea_json_obj(j, NULL);
	ea_json_int(j, "pid", t->pid);
	ea_json_str(j, "comm", t->comm);
	ea_json_ns_as_s(j, "runtime_s", t->runtime_ns);
	ea_json_ns_as_s(j, "wait_s", t->wait_ns);
	ea_json_uint(j, "activations", t->activations);
	ea_json_uint(j, "wakeups", t->wakeups);
	ea_json_uint(j, "wakeups_inferred", t->wakeups_inferred);
	ea_json_uint(j, "migrations", t->migrations);
	ea_json_uint(j, "preemptions", t->preemptions);
	ea_json_uint(j, "util_avg", t->pelt.util_avg);
	ea_json_obj_end(j);
}

void ea_stats_render_json(FILE *f, const struct ea_stats *st,
			  const struct ea_input_info *info)
{
	const struct ea_state_counts *c = &st->counts;
	struct ea_task **tasks;
	struct ea_json j;
	size_t nt;

	ea_json_begin(&j, f);
	ea_json_obj(&j, NULL);
	ea_json_int(&j, "eatrace_stats", 1);
	ea_json_int(&j, "ncpus", st->ncpus);
	ea_json_ns_as_s(&j, "first_ts_s", st->first_ts);
	ea_json_ns_as_s(&j, "last_ts_s", st->last_ts);
	ea_json_ns_as_s(&j, "duration_s", st->win_end - st->win_start);
	ea_json_obj(&j, "window");
	ea_json_ns_as_s(&j, "start_s", st->win_start);
	ea_json_ns_as_s(&j, "end_s", st->win_end);
	ea_json_obj_end(&j);
	/* only these CPUs' and tasks' rows (--cpus, --task) */
	if (st->filter && st->filter->cpus)
		ea_filter_cpus_json(&j, "cpu_filter", st->filter->cpus, st->filter->ncpus);
	if (st->filter && st->filter->ntasks)
		ea_filter_tasks_json(&j, "task_filter", st->filter);
	ea_json_obj(&j, "events");
	for (int t = 0; t < EA_EV_NR; t++)
		if (t != EA_EV_MARKER)
			ea_json_uint(&j, ea_event_type_name(t), c->by_type[t]);
	ea_json_obj_end(&j);
	ea_json_obj(&j, "inferences");
	ea_json_uint(&j, "resyncs", c->resyncs);
	ea_json_uint(&j, "resyncs_at_wakeup", c->resync_from_wakeup);
	ea_json_uint(&j, "resyncs_after_prev_record", c->resync_after_prev);
	ea_json_uint(&j, "resyncs_proven", c->resync_proven);
	ea_json_uint(&j, "prev_from_waking", c->prev_from_waking);
	ea_json_uint(&j, "prev_from_scanner", c->prev_from_scanner);
	ea_json_uint(&j, "records_overruled", c->records_overruled);
	ea_json_uint(&j, "curr_from_record", c->curr_from_record);
	ea_json_uint(&j, "wakeups_inferred", c->wakeups_inferred);
	ea_json_uint(&j, "lost_markers", c->lost_markers);
	ea_json_uint(&j, "lost_events", c->lost_events);
	ea_json_uint(&j, "start_guessed_cpus", c->start_guessed);
	ea_json_uint(&j, "start_read_ahead_cpus", c->start_far);
	ea_json_uint(&j, "tasks_shown_gone", c->tasks_left);
	ea_json_ns_as_s(&j, "unknown_unplaced_s", c->unknown_unplaced_ns);
	ea_json_int(&j, "unknown_idle_state", st->unknown_idle_state);
	ea_json_uint(&j, "idle_exit_unmatched", c->idle_exit_unmatched);
	ea_json_uint(&j, "idle_enter_nested", c->idle_enter_nested);
	ea_json_uint(&j, "freq_propagated", c->freq_propagated);
	ea_json_uint(&j, "suspends", c->suspends);
	ea_json_uint(&j, "suspend_unmatched", c->suspend_unmatched);
	ea_json_uint(&j, "cpus_offlined", c->cpus_offlined);
	ea_json_uint(&j, "cpus_onlined", c->cpus_onlined);
	ea_json_uint(&j, "absent_offline_cpus", c->absent_offline);
	ea_json_uint(&j, "reordered_events", info ? info->reordered : 0);
	ea_json_obj_end(&j);
	ea_json_arr(&j, "cpus");
	for (int i = 0; i < st->ncpus; i++)
		if (ea_stats_cpu_shown(st, i))
			cpu_json(&j, st, i);
	ea_json_arr_end(&j);
	ea_json_arr(&j, "tasks");
	tasks = ea_stats_tasks_sorted(st, &nt);
	for (size_t i = 0; tasks && i < nt; i++)
		task_json(&j, tasks[i]);
	free(tasks);
	ea_json_arr_end(&j);
	if (st->pelt.samples) {
		ea_json_obj(&j, "pelt_vs_kernel");
		ea_json_uint(&j, "samples", st->pelt.samples);
		ea_json_num(&j, "mean_abs_err",
			    st->pelt.sum_abs_err / st->pelt.samples);
		ea_json_num(&j, "max_abs_err", st->pelt.max_abs_err);
		ea_json_uint(&j, "samples_after_warmup", st->pelt.samples_warm);
		ea_json_num(&j, "mean_abs_err_after_warmup",
			    st->pelt.samples_warm ?
				    st->pelt.sum_abs_err_warm / st->pelt.samples_warm : 0);
		ea_json_num(&j, "max_abs_err_after_warmup", st->pelt.max_abs_err_warm);
		ea_json_obj_end(&j);
	}
	ea_json_arr(&j, "notes");
	ea_stats_foreach_note(st, info, ea_stats_note_json, &j);
	ea_json_arr_end(&j);
	ea_json_obj_end(&j);
	ea_json_end(&j);
}
