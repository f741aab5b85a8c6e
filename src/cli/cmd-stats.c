// SPDX-License-Identifier: GPL-2.0-only
/* eatrace stats: what each CPU and task did, no model needed. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/filter-opts.h"
#include "cli/options.h"
#include "eatrace/energy.h"
#include "eatrace/pipeline.h"
#include "eatrace/stats.h"

static const char usage_text[] =
	"usage: eatrace stats [OPTIONS] TRACE\n"
	"\n"
	"Reconstruct what every CPU and task did, time instant by time instant,\n"
	"from a trace.dat (v6/v7, compressed or not), ftrace text, trace-cmd\n"
	"report output, Android systrace (text or HTML) or a Perfetto trace.\n"
	"No model needed.\n"
	"\n"
	"Per CPU: busy, idle and inferred time; time per frequency; per idle\n"
	"state time, entries and residency (min/avg/max); idle exits; busy\n"
	"fraction and reconstructed PELT util_avg (time-weighted mean, max).\n"
	"Per task: runtime, runnable-wait time, activations, wakeups,\n"
	"migrations. Then every inference and warning (see eatrace(1),\n"
	"INFERENCE RULES).\n"
	"\n"
	"options:\n"
	"  -m, --model MODEL  optional: frequency domains and CPU capacities\n"
	"                     for PELT invariance (else freq / highest seen)\n"
	"      --cpus LIST    only these CPUs' rows (as 0-1,4)\n"
	"      --task PID|COMM  only these tasks' rows (by PID, or name: an\n"
	"                     fnmatch pattern, 'kworker*'); repeatable. The\n"
	"                     rows are the same; task rows stay whole-trace\n"
	"                     under --cpus\n"
	EA_COMMON_OPTS_HELP
	"  -h, --help         this text\n"
	"\n"
	"Exit status: 0 ok, 2 usage or input error (one line on stderr naming\n"
	"the file and position).\n";

static const struct option extra[] = { EA_FILTER_LONG_OPTS };

static int on_opt(int opt, const char *arg, void *ctx)
{
	return ea_cli_filter_opt(ctx, opt, arg) ? -1 : 0;
}

/* A --cpus CPU the trace has (ea_cli_filter_warn()). */
static bool stats_has_cpu(const void *ctx, int cpu)
{
	return cpu < ((const struct ea_stats *)ctx)->ncpus;
}

/* Which --task selected a task of the trace (by its last name). */
static void mark_tasks(struct ea_filter *f, const struct ea_state *s)
{
	for (size_t i = 0; f->ntasks && i < ea_state_ntasks(s); i++) {
		const struct ea_task *t = ea_state_task_at(s, i);

		ea_filter_task_hit(f, t->pid, t->comm);
	}
}

static int stats_run(struct ea_common_opts *o, struct ea_filter *filter,
		     const char *path);

int cmd_stats(int argc, char **argv)
{
	struct ea_common_opts o = { .format = EA_FMT_TEXT };
	struct ea_filter filter = { 0 };
	char **args;
	int nargs, rc;
	bool help;

	if (ea_parse_common(argc, argv, &o, extra, sizeof(extra) / sizeof(extra[0]),
			    on_opt, &filter, &help, &args, &nargs)) {
		rc = EXIT_ERROR;
	} else if (help) {
		fputs(usage_text, stdout);
		rc = 0;
	} else if (nargs != 1)
		rc = ea_die("stats: expected one TRACE (see 'eatrace stats --help')");
	else
		rc = stats_run(&o, &filter, args[0]);
	ea_filter_free(&filter);
	return rc;
}

static int stats_run(struct ea_common_opts *o, struct ea_filter *filter,
		     const char *path)
{
	const char *label = ea_trace_label(path);	/* '-': <stdin> */
	struct ea_stats st;
	struct ea_consumer cons;
	struct ea_run run;
	struct ea_out out;
	struct ea_model *model = NULL;
	struct ea_acct acct;
	struct ea_err err;
	int rc;

	ea_stats_init(&st);
	st.filter = filter;
	cons.ops = &ea_stats_ops;
	cons.ctx = &st;
	o->cfg.ncpus = -1;
	if (o->model) {
		struct ea_acct_config acfg = { 0 };

		if (ea_model_load(&model, o->model, &err) ||
		    ea_acct_init(&acct, model, &acfg, &err)) {
			ea_model_free(model);
			return ea_die("%s", err.msg);
		}
		ea_acct_state_config(&acct, &o->cfg);
	}
	rc = ea_run(&run, path, &o->cfg, &cons, 1, &err);
	if (model) {	/* the finished state no longer needs them */
		ea_acct_free(&acct);
		ea_model_free(model);
	}
	if (rc) {
		ea_stats_free(&st);
		return ea_die("%s", err.msg);
	}
	if (ea_stats_done(&st, run.state)) {
		ea_run_free(&run);
		ea_stats_free(&st);
		return ea_die("%s: %s", label, st.error);
	}
	if (ea_check_window(o, run.state, label)) {
		ea_run_free(&run);
		ea_stats_free(&st);
		return EXIT_ERROR;
	}
	mark_tasks(filter, run.state);
	if (ea_out_open(&out, o->output, &err)) {
		ea_run_free(&run);
		ea_stats_free(&st);
		return ea_die("%s", err.msg);
	}
	switch (o->format) {
	case EA_FMT_JSON:
		ea_stats_render_json(out.f, &st, &run.info);
		break;
	case EA_FMT_CSV:
		ea_stats_render_csv(out.f, &st, &run.info);
		break;
	default:
		ea_stats_render_text(out.f, &st, &run.info, label);
		break;
	}
	if (ea_out_commit(&out, &err)) {
		ea_stats_free(&st);
		ea_run_free(&run);
		return ea_die("%s", err.msg);
	}
	ea_notes_to_stderr(o, &st, &run.info, NULL, label);
	ea_cli_filter_warn(filter, label, o->verbose < 0, stats_has_cpu, &st);
	ea_stats_free(&st);
	ea_run_free(&run);
	return 0;
}
