// SPDX-License-Identifier: GPL-2.0-only
/* `eatrace diff --format json` (keys in docs/json.md). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "eatrace/diff.h"
#include "eatrace/model-verdict.h"
#include "eatrace/output.h"
#include "diff/rows.h"

static void side_json(struct ea_json *j, const struct ea_diff_side *s)
{
	ea_json_obj(j, s->name);
	ea_json_str(j, "model", s->model->name);
	ea_json_int(j, "n", s->n);
	ea_json_num(j, "mean", s->mean);
	ea_json_num(j, "sd", s->n > 1 ? s->sd : NAN);
	ea_json_arr(j, "runs");
	for (int i = 0; i < s->n; i++) {
		const struct ea_diff_run *r = &s->runs[i];

		ea_json_obj(j, NULL);
		ea_json_str(j, "trace", r->path);
		ea_json_num(j, "energy", r->energy);
		ea_json_num(j, "busy", r->busy);
		ea_json_num(j, "idle", r->idle);
		ea_json_num(j, "wakeup", r->wakeup);
		ea_json_num(j, "duration_s", r->duration_s);
		/* work in capacity x s, as replay's (1024 x work_cap_s) */
		ea_json_num(j, "work", r->work_cap_s * 1024);
		ea_json_num(j, "value", r->value);
		ea_json_obj_end(j);
	}
	ea_json_arr_end(j);
	ea_json_obj_end(j);
}

/* --models: the paired comparison (src/diff/paired.c). */
static void paired_json(struct ea_json *j, const struct ea_diff *d)
{
	const struct ea_diff_paired *p = &d->paired;

	ea_json_obj(j, "paired");
	ea_json_str(j, "test", "t on ln(new / base) per trace");
	ea_json_int(j, "n", p->n);
	ea_json_int(j, "left_out", p->left_out);
	ea_json_num(j, "mean_log_ratio", p->mean_log);
	ea_json_num(j, "sd_log_ratio", p->n > 1 ? p->sd_log : NAN);
	ea_json_num(j, "geomean_ratio", exp(p->mean_log));
	ea_json_arr(j, "pairs");
	for (int i = 0; i < d->side[0].n; i++) {
		const char *why;
		double r;
		int rc = ea_diff_pair_ratio(d, i, &r, &why);

		ea_json_obj(j, NULL);
		ea_json_str(j, "trace", d->side[0].runs[i].path);
		ea_json_num(j, "base", d->side[0].runs[i].value);
		ea_json_num(j, "new", d->side[1].runs[i].value);
		ea_json_num(j, "ratio", r);
		ea_json_num(j, "change_pct", rc ? NAN : 100 * (r - 1));
		ea_json_num(j, "log_ratio", rc ? NAN : log(r));
		if (rc)
			ea_json_str(j, "reason", why);
		ea_json_obj_end(j);
	}
	ea_json_arr_end(j);
	ea_json_obj_end(j);
}

/* Idle exits per second of a side: null with a reason when a run lasts 0 s. */
static void rate_json(struct ea_json *j, const char *key, const struct ea_diff_side *s)
{
	const struct ea_diff_run *z = ea_diff_zero_run(s);
	char k[64], why[4200];

	ea_json_num(j, key, ea_diff_wakeups_mean(s));
	if (!z)
		return;
	snprintf(k, sizeof(k), "%s_reason", key);
	snprintf(why, sizeof(why), "run %s lasts 0 s: it has no rate", z->path);
	ea_json_str(j, k, why);
}

void ea_diff_render_json(FILE *f, const struct ea_diff *d)
{
	const struct ea_diff_side *b = &d->side[0], *n = &d->side[1];
	const struct ea_model *models[2] = { b->model, n->model };
	struct ea_energy_unit ut;
	const struct ea_energy_unit *u = ea_diff_unit(d, &ut);
	struct ea_diff_task_delta *t;
	struct ea_json j;
	char vu[64];
	size_t nt;

	ea_json_begin(&j, f);
	ea_json_obj(&j, NULL);
	ea_json_int(&j, "eatrace_diff", 1);
	ea_json_str(&j, "normalize", ea_norm_name(d->norm));
	ea_json_str(&j, "power_unit", u->power);
	ea_json_str(&j, "energy_unit", u->energy);
	ea_json_str(&j, "value_unit", ea_diff_value_unit(d, vu, sizeof(vu)));
	ea_json_str(&j, "work_unit", EA_WORK_UNIT);
	ea_model_verdict_json(&j, models, 2);
	ea_json_num(&j, "max_increase_pct", d->max_increase_pct);
	ea_json_num(&j, "confidence", d->confidence);
	side_json(&j, b);
	side_json(&j, n);
	ea_json_num(&j, "change_pct", d->change_pct);
	ea_json_bool(&j, "stats_available", d->stats);
	if (d->stats) {
		ea_json_num(&j, "ci_low_pct", d->ci_low_pct);
		ea_json_num(&j, "ci_high_pct", d->ci_high_pct);
		ea_json_num(&j, d->models_mode ? "df" : "welch_df", d->df);
		ea_json_num(&j, "t", d->t);
	}
	if (d->models_mode)
		paired_json(&j, d);
	ea_json_str(&j, "verdict", ea_verdict_name(d->verdict));
	if (d->verdict == EA_VERDICT_INCONCLUSIVE) {
		if (d->models_mode)
			ea_json_int(&j, "traces_needed", d->paired.traces_needed);
		else
			ea_json_int(&j, "runs_per_side_needed", d->runs_needed);
		ea_json_str(&j, "counted_as", ea_verdict_name(d->inconclusive_as));
	}

	ea_json_obj(&j, "attribution");
	ea_json_obj(&j, "energy");
	ea_json_num(&j, "busy_base", ea_diff_side_mean(b, offsetof(struct ea_diff_run, busy)));
	ea_json_num(&j, "busy_new", ea_diff_side_mean(n, offsetof(struct ea_diff_run, busy)));
	ea_json_num(&j, "idle_base", ea_diff_side_mean(b, offsetof(struct ea_diff_run, idle)));
	ea_json_num(&j, "idle_new", ea_diff_side_mean(n, offsetof(struct ea_diff_run, idle)));
	ea_json_num(&j, "wakeup_base", ea_diff_side_mean(b, offsetof(struct ea_diff_run, wakeup)));
	ea_json_num(&j, "wakeup_new", ea_diff_side_mean(n, offsetof(struct ea_diff_run, wakeup)));
	rate_json(&j, "wakeups_per_s_base", b);
	rate_json(&j, "wakeups_per_s_new", n);
	ea_json_obj_end(&j);
	ea_json_arr(&j, "clusters");
	for (int c = 0; c < ea_diff_nclusters(d); c++) {
		const char *other, *name = ea_diff_cluster_name(d, c, &other);
		struct ea_diff_row *rows;
		int nr;

		ea_json_obj(&j, NULL);
		ea_json_str(&j, "name", name);
		if (other)
			ea_json_str(&j, "name_new", other);
		ea_json_num(&j, "energy_base", ea_diff_cluster_mean(b, c));
		ea_json_num(&j, "energy_new", ea_diff_cluster_mean(n, c));
		ea_json_arr(&j, "pstates");
		nr = ea_diff_pstate_rows(d, c, &rows);
		for (int i = 0; i < nr; i++) {
			ea_json_obj(&j, NULL);
			ea_json_uint(&j, "freq_khz", ea_diff_row_freq(d, c, &rows[i]));
			ea_json_num(&j, "share_base", ea_diff_pstate_mean(b, c, rows[i].k[0]));
			ea_json_num(&j, "share_new", ea_diff_pstate_mean(n, c, rows[i].k[1]));
			ea_json_obj_end(&j);
		}
		free(rows);
		ea_json_arr_end(&j);
		ea_json_arr(&j, "cstates");
		nr = ea_diff_cstate_rows(d, c, &rows);
		for (int i = 0; i < nr; i++) {
			ea_json_obj(&j, NULL);
			ea_json_str(&j, "name", ea_diff_row_cstate(d, c, &rows[i]));
			ea_json_num(&j, "share_base", ea_diff_cstate_mean(b, c, rows[i].k[0]));
			ea_json_num(&j, "share_new", ea_diff_cstate_mean(n, c, rows[i].k[1]));
			ea_json_obj_end(&j);
		}
		free(rows);
		ea_json_arr_end(&j);
		ea_json_obj_end(&j);
	}
	ea_json_arr_end(&j);
	ea_json_arr(&j, "tasks");
	nt = ea_diff_task_deltas(d, &t);
	for (size_t i = 0; i < nt && i < 20; i++) {
		ea_json_obj(&j, NULL);
		ea_json_str(&j, "comm", t[i].comm);
		ea_json_num(&j, "energy_base", t[i].base);
		ea_json_num(&j, "energy_new", t[i].new);
		ea_json_obj_end(&j);
	}
	free(t);
	ea_json_arr_end(&j);
	ea_json_obj_end(&j);
	ea_json_obj_end(&j);
	ea_json_end(&j);
}
