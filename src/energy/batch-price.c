// SPDX-License-Identifier: GPL-2.0-only
/* Batch rows: a whole trace priced with a model, per trace or per cluster,
 * CPU or task (include/eatrace/batch.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eatrace/batch.h"
#include "eatrace/energy.h"
#include "eatrace/pipeline.h"

int ea_batch_rows_parse(const char *s)
{
	static const char *const names[] = { "trace", "cluster", "cpu", "task" };

	for (int i = 0; i < 4; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

static void set_energy(struct ea_batch_row *row, const struct ea_energy *e)
{
	row->total = ea_energy_total(e);
	row->busy = ea_energy_busy(e);
	row->idle = ea_energy_idle(e);
	row->wakeup = ea_energy_wakeup(e);
}

/* One row per part of kind row->kind. 0, or -1 out of memory. */
static int emit_parts(struct ea_batch_row *row, const struct ea_acct *a,
		      void (*emit)(const struct ea_batch_row *, void *), void *ctx)
{
	const struct ea_model *m = a->model;
	const struct ea_task_acct **t;

	switch (row->kind) {
	case EA_ROWS_TRACE:
		set_energy(row, &a->total);
		emit(row, ctx);
		break;
	case EA_ROWS_CLUSTER:
		for (int i = 0; i < m->nclusters; i++) {
			row->cluster = m->clusters[i].name;
			set_energy(row, &a->clusters[i].e);
			emit(row, ctx);
		}
		break;
	case EA_ROWS_CPU:
		for (int i = 0; i < a->trace_ncpus && i < a->ncpus; i++) {
			row->cpu = i;
			row->cluster = m->clusters[m->cpu_cluster[i]].name;
			set_energy(row, &a->cpus[i].e);
			emit(row, ctx);
		}
		break;
	case EA_ROWS_TASK:
		if (!a->ntasks)
			break;
		if (!(t = ea_acct_tasks_by_energy(a)))
			return -1;
		for (size_t i = 0; i < a->ntasks; i++) {
			row->pid = t[i]->pid;
			row->comm = t[i]->comm;
			set_energy(row, &t[i]->e);
			emit(row, ctx);
		}
		free(t);
		break;
	}
	return 0;
}

int ea_batch_price_rows(struct ea_batch_row *row, const struct ea_model *m,
			void (*emit)(const struct ea_batch_row *row, void *ctx), void *ctx)
{
	struct ea_acct_config acfg = { .no_tasks = row->kind != EA_ROWS_TASK };
	struct ea_state_config cfg = { .ncpus = -1 };
	struct ea_consumer cons;
	struct ea_acct acct;
	struct ea_run run;
	struct ea_err err;
	int rc = -1;

	row->failed = false;
	row->cluster = row->comm = NULL;
	snprintf(row->power_unit, sizeof(row->power_unit), "%s", m->power_unit);
	row->model_errors = ea_model_check_cb(m, NULL, NULL);
	if (ea_acct_init(&acct, m, &acfg, &err))
		goto fail;
	ea_acct_state_config(&acct, &cfg);
	cfg.ncpus = -1;
	cfg.no_util = true;	/* the accountant alone reads no utilisation */
	cons = (struct ea_consumer){ &ea_acct_ops, &acct };
	if (ea_run(&run, row->path, &cfg, &cons, 1, &err))
		goto fail_acct;
	if (ea_acct_done(&acct, run.state, &err)) {
		/* same form as `eatrace report`'s message */
		char msg[EA_ERR_MAX];

		snprintf(msg, sizeof(msg), "%s", err.msg);
		ea_err_set(&err, "%s: %s", row->path, msg);
		goto fail_run;
	}
	row->duration_ns = acct.win_end - acct.win_start;
	if (emit_parts(row, &acct, emit, ctx))
		ea_err_set(&err, "%s: out of memory", row->path);
	else
		rc = 0;
fail_run:
	ea_run_free(&run);
fail_acct:
	ea_acct_free(&acct);
fail:
	if (rc) {
		row->failed = true;
		row->cluster = row->comm = NULL;
		snprintf(row->error, sizeof(row->error), "%s", err.msg);
		emit(row, ctx);
	}
	return rc;
}

static void keep_row(const struct ea_batch_row *r, void *ctx)
{
	if (ctx != r)
		*(struct ea_batch_row *)ctx = *r;
}

int ea_batch_price(struct ea_batch_row *row, const struct ea_model *m)
{
	row->kind = EA_ROWS_TRACE;
	return ea_batch_price_rows(row, m, keep_row, row);
}
