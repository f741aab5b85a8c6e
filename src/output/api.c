// SPDX-License-Identifier: GPL-2.0-only
/* One-call library entry points (include/eatrace/eatrace.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eatrace/eatrace.h"
#include "eatrace/progress.h"
#include "eatrace/rails.h"
#include "output/api.h"

void ea_free(void *p)
{
	free(p);
}

static int fail(char **err, const char *msg)
{
	if (err)
		*err = strdup(msg);
	return -1;
}

/* Render into a new string; 0 with *json, or -1. */
static int render(char **json, void (*fn)(FILE *f, const void *ctx), const void *ctx)
{
	size_t len;
	char *buf = NULL;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return -1;
	fn(f, ctx);
	if (fclose(f)) {
		free(buf);
		return -1;
	}
	if (json)
		*json = buf;
	else
		free(buf);
	return 0;
}

static void report_fn(FILE *f, const void *ctx)
{
	ea_report_render_json(f, ctx);
}

/*
 * The library's calls print no progress line (a Python or Dask caller's
 * stderr is not a terminal user's); the caller's ea_progress_enabled is
 * restored after each (the library's global, not a side effect of a call).
 */
int ea_api_quiet_begin(void)
{
	int was = ea_progress_enabled;

	ea_progress_enabled = 0;
	return was;
}

void ea_api_quiet_end(int was)
{
	ea_progress_enabled = was;
}

int ea_report_json(const char *path, const char *model, char **json, char **err)
{
	return ea_report_json_interval(path, model, 0, json, err);
}

/* cmd-report.c's check: an --assume-opp above every OPP is refused; a
 * CPU filter names CPUs of the model. */
static int check_model(const struct ea_model *m, const struct ea_acct_config *acfg,
		       struct ea_err *e)
{
	uint32_t top = 0;

	for (int i = 0; i < m->nclusters; i++)
		for (int k = 0; k < m->clusters[i].ncaps; k++)
			if (m->clusters[i].caps[k].freq_khz > top)
				top = m->clusters[i].caps[k].freq_khz;
	if (acfg->assumed_khz > top)
		return ea_err_set(e, "--assume-opp: %u kHz is above every OPP of model %s (the highest is %u kHz)",
				  acfg->assumed_khz, m->name, top);
	for (int cpu = 0; acfg->cpu_only && cpu < acfg->ncpu_only; cpu++)
		if (acfg->cpu_only[cpu] && (cpu >= m->ncpus || m->cpu_cluster[cpu] < 0))
			return ea_err_set(e, "cpus: CPU %d is not in model %s (CPUs 0 to %d)",
					  cpu, m->name, m->ncpus - 1);
	return 0;
}

int ea_api_report(const struct ea_api_src *s, const char *model,
		  const struct ea_trace_opts *o, char **json, char **err)
{
	struct ea_acct_config acfg = { 0 };
	struct ea_state_config cfg = { .ncpus = -1 };
	struct ea_rail_cmp *rails = NULL;
	struct ea_model *m = NULL;
	struct ea_consumer cons[2];
	struct ea_report rep;
	struct ea_stats st;
	struct ea_acct acct;
	struct ea_run run;
	struct ea_err e;
	bool *cpu_only = NULL;
	size_t nrails = 0;
	int rc = -1;

	if (ea_api_opts(o, &cfg, &acfg, &cpu_only, &e))
		return fail(err, e.msg);
	if (ea_model_load(&m, model, &e) || check_model(m, &acfg, &e)) {
		ea_model_free(m);
		free(cpu_only);
		return fail(err, e.msg);
	}
	if (ea_acct_init(&acct, m, &acfg, &e)) {
		ea_model_free(m);
		free(cpu_only);
		return fail(err, e.msg);
	}
	ea_stats_init(&st);
	ea_acct_state_config(&acct, &cfg);
	cfg.ncpus = -1;
	cfg.util_if_kernel_util = true;	/* as `eatrace report` */
	cons[0] = (struct ea_consumer){ &ea_stats_ops, &st };
	cons[1] = (struct ea_consumer){ &ea_acct_ops, &acct };
	if (ea_api_run(s, &run, &cfg, cons, 2, &e)) {
		fail(err, e.msg);
		goto out;
	}
	if (ea_acct_done(&acct, run.state, &e) || ea_stats_done(&st, run.state)) {
		char msg[EA_ERR_MAX + 64];

		snprintf(msg, sizeof(msg), "%s: %s", s->path, e.msg);
		fail(err, msg);
		goto out_run;
	}
	/* measured rails beside the estimate, as report (not for a CPU's
	 * share: the rails measure whole clusters) */
	if (ea_api_check_window(&cfg, run.state, s->path, &e)) {
		fail(err, e.msg);
		goto out_run;
	}
	if (!cpu_only && ea_rails_compare(run.info.rails, &acct, NULL, 0, &rails, &nrails, &e)) {
		char msg[EA_ERR_MAX + 64];

		snprintf(msg, sizeof(msg), "%s: %s", s->path, e.msg);
		fail(err, msg);
		goto out_run;
	}
	rep = (struct ea_report){ .path = s->path, .info = &run.info, .acct = &acct,
				  .stats = &st, .rails = rails, .nrails = nrails };
	rc = render(json, report_fn, &rep) ? fail(err, "out of memory") : 0;
	ea_rails_cmp_free(rails, nrails);
out_run:
	ea_run_free(&run);
out:
	ea_stats_free(&st);
	ea_acct_free(&acct);
	ea_model_free(m);
	free(cpu_only);
	return rc;
}

struct stats_ctx {
	const struct ea_stats *st;
	const struct ea_input_info *info;
};

static void stats_fn(FILE *f, const void *ctx)
{
	const struct stats_ctx *c = ctx;

	ea_stats_render_json(f, c->st, c->info);
}

int ea_api_stats(const struct ea_api_src *s, const char *model,
		 const struct ea_trace_opts *o, char **json, char **err)
{
	struct ea_state_config cfg = { .ncpus = -1 };
	struct ea_acct_config acfg = { 0 };
	struct ea_model *m = NULL;
	struct ea_consumer cons;
	struct stats_ctx c;
	struct ea_stats st;
	struct ea_acct acct;
	struct ea_run run;
	struct ea_err e;
	bool *cpu_only = NULL;
	int rc;

	if (ea_api_opts(o, &cfg, &acfg, &cpu_only, &e))
		return fail(err, e.msg);
	if (cpu_only) {	/* stats has no CPU filter (yet) */
		free(cpu_only);
		return fail(err, "stats: no CPU filter (cpus): it is report's");
	}
	/* with a model: its frequency domains and capacities, as `stats -m` */
	if (model) {
		struct ea_acct_config none = { 0 };

		if (ea_model_load(&m, model, &e) || ea_acct_init(&acct, m, &none, &e)) {
			ea_model_free(m);
			return fail(err, e.msg);
		}
		ea_acct_state_config(&acct, &cfg);
	}
	ea_stats_init(&st);
	cons = (struct ea_consumer){ &ea_stats_ops, &st };
	rc = ea_api_run(s, &run, &cfg, &cons, 1, &e);
	if (m) {	/* the finished state no longer needs them */
		ea_acct_free(&acct);
		ea_model_free(m);
	}
	if (rc) {
		ea_stats_free(&st);
		return fail(err, e.msg);
	}
	if (ea_stats_done(&st, run.state)) {
		char msg[EA_ERR_MAX + 64];

		snprintf(msg, sizeof(msg), "%s: %s", s->path, st.error);
		rc = fail(err, msg);
	} else if (ea_api_check_window(&cfg, run.state, s->path, &e)) {
		rc = fail(err, e.msg);
	} else {
		c = (struct stats_ctx){ &st, &run.info };
		rc = render(json, stats_fn, &c) ? fail(err, "out of memory") : 0;
	}
	ea_run_free(&run);
	ea_stats_free(&st);
	return rc;
}

struct rows_ctx {
	FILE *f;
	enum ea_batch_fmt fmt;
};

static void rows_emit(const struct ea_batch_row *row, void *ctx)
{
	const struct rows_ctx *c = ctx;

	ea_batch_row_write(c->f, c->fmt, row);
}

static int batch_rows_text(const char *path, const char *model, const char *format,
			   const char *rows, char **text, char **err)
{
	struct ea_batch_row row = { .path = path, .model = model };
	struct rows_ctx c;
	struct ea_model *m = NULL;
	struct ea_err e;
	char *buf = NULL;
	size_t len;
	int kind = rows ? ea_batch_rows_parse(rows) : EA_ROWS_TRACE, rc;

	if (!format || !strcmp(format, "csv"))
		c.fmt = EA_BATCH_CSV;
	else if (!strcmp(format, "jsonl"))
		c.fmt = EA_BATCH_JSONL;
	else
		return fail(err, "batch: format is not csv or jsonl");
	if (kind < 0)
		return fail(err, "batch: rows is not trace, cluster, cpu or task");
	row.kind = (enum ea_batch_rows)kind;
	if (ea_model_load(&m, model, &e))
		return fail(err, e.msg);
	if (!(c.f = open_memstream(&buf, &len))) {
		ea_model_free(m);
		return fail(err, "out of memory");
	}
	if (ea_hash_file(path, row.hash, &e)) {
		/* unreadable: the error row batch writes */
		row.failed = true;
		snprintf(row.error, sizeof(row.error), "%s", e.msg);
		ea_batch_row_write(c.f, c.fmt, &row);
		rc = 1;
	} else {
		rc = ea_batch_price_rows(&row, m, rows_emit, &c) ? 1 : 0;
	}
	ea_model_free(m);
	if (fclose(c.f)) {
		free(buf);
		return fail(err, "out of memory");
	}
	if (text)
		*text = buf;
	else
		free(buf);
	return rc;
}

int ea_report_json_interval(const char *path, const char *model, uint64_t interval_ns,
			    char **json, char **err)
{
	struct ea_trace_opts o = { .interval_ns = interval_ns };
	struct ea_api_src s = { .path = path };
	int was = ea_api_quiet_begin(), rc = ea_api_report(&s, model, &o, json, err);

	ea_api_quiet_end(was);
	return rc;
}

int ea_stats_json(const char *path, char **json, char **err)
{
	struct ea_api_src s = { .path = path };
	int was = ea_api_quiet_begin(), rc = ea_api_stats(&s, NULL, NULL, json, err);

	ea_api_quiet_end(was);
	return rc;
}

int ea_batch_rows_text(const char *path, const char *model, const char *format,
		       const char *rows, char **text, char **err)
{
	int was = ea_api_quiet_begin(), rc = batch_rows_text(path, model, format, rows, text, err);

	ea_api_quiet_end(was);
	return rc;
}
