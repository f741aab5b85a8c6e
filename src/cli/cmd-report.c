// SPDX-License-Identifier: GPL-2.0-only
/* eatrace report: the energy of a trace, priced with a model. */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/filter-opts.h"
#include "cli/not-input.h"
#include "cli/options.h"
#include "cli/pictures.h"
#include "eatrace/energy.h"
#include "eatrace/html.h"
#include "eatrace/input.h"
#include "eatrace/model.h"
#include "eatrace/perfetto.h"
#include "eatrace/pipeline.h"
#include "eatrace/rails.h"
#include "eatrace/report.h"
#include "eatrace/stats.h"
#include "eatrace/unit.h"

static const char usage_text[] =
	"usage: eatrace report [OPTIONS] -m MODEL TRACE\n"
	"\n"
	"Price what every CPU did with a platform energy model (the 2014 RFC's\n"
	"cost model): busy core and cluster power at the P-state, idle power\n"
	"per C-state (cluster at its shallowest CPU's state), and wakeup energy\n"
	"per idle exit. Breakdowns per cluster, CPU, P-state, C-state, task and\n"
	"time window each sum exactly to the total.\n"
	"\n"
	"options:\n"
	"  -m, --model MODEL  model file, or a bundled model's name (tc2, juno-r0;\n"
	"                     'eatrace model show NAME' prints one)\n"
	"      --per-task     list the tasks by energy (text; JSON always has them)\n"
	"      --top N|all    ... the first N of them, or all (default 15;\n"
	"                     implies --per-task)\n"
	"      --interval MS  also break energy down into windows of MS ms\n"
	"      --assume-opp F frequency in kHz to charge while a CPU's frequency\n"
	"                     is unknown (no cpu_frequency yet): its cluster's\n"
	"                     OPP at or above F; default: the highest OPP;\n"
	"                     above every OPP of the model: refused\n"
	"      --no-wakeups   price wakeups at zero\n"
	EA_UNIT_HELP
	"      --html FILE    also write a self-contained HTML report with plots\n"
	"      --perfetto FILE  also write a trace for ui.perfetto.dev: Perfetto\n"
	"                     protobuf when FILE ends in .pftrace or\n"
	"                     .perfetto-trace, else Chrome trace-event JSON\n"
	EA_PERFETTO_MAX_MB_HELP
	"      --rail CLUSTER=RAIL  a Perfetto trace's power rail RAIL feeds\n"
	"                     CLUSTER: its measured energy is shown beside the\n"
	"                     estimate (repeatable; default: from the rail's\n"
	"                     name, docs/perfetto.md)\n"
	"      --cpus LIST    only these CPUs' share of the energy (as 0-1,4):\n"
	"                     each one's own and its share of its cluster's,\n"
	"                     exactly their figures in the full report\n"
	"      --task PID|COMM  only the energy charged to these tasks (by PID,\n"
	"                     or name: an fnmatch pattern, 'kworker*');\n"
	"                     repeatable; lists them (--per-task). Shares are\n"
	"                     of the filtered total; not with --perfetto\n"
	EA_COMMON_OPTS_HELP
	"  -h, --help         this text\n"
	"\n"
	"Energy is in the model's power_unit x seconds (--unit: J, mJ or uJ),\n"
	"named in every output. JSON keys: docs/json.md. TRACE '-' is standard\n"
	"input, named <stdin> in the output.\n"
	"A model that 'eatrace model check' rejects is used with a warning, on\n"
	"stderr and in the report (its notes, JSON model_check, the HTML page).\n"
	"Exit status: 0 ok, 2 usage or input error.\n";

/* 100 GHz, the most a trace may say a CPU runs at (src/input/input.c) */
#define EA_MAX_ASSUME_KHZ 100000000u

enum { OPT_PER_TASK = 2000, OPT_TOP, OPT_INTERVAL, OPT_ASSUME, OPT_NO_WAKEUPS, OPT_HTML,
       OPT_PERFETTO, OPT_PERFETTO_MAX, OPT_RAIL, OPT_UNIT };

static const struct option extra[] = {
	{ "per-task", no_argument, NULL, OPT_PER_TASK },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "assume-opp", required_argument, NULL, OPT_ASSUME },
	{ "no-wakeups", no_argument, NULL, OPT_NO_WAKEUPS },
	{ "html", required_argument, NULL, OPT_HTML },
	{ "perfetto", required_argument, NULL, OPT_PERFETTO },
	{ "perfetto-max-mb", required_argument, NULL, OPT_PERFETTO_MAX },
	{ "rail", required_argument, NULL, OPT_RAIL },
	{ "unit", required_argument, NULL, OPT_UNIT },
	EA_FILTER_LONG_OPTS,
};

#define MAX_RAIL_MAPS 64

struct report_opts {
	bool per_task, no_wakeups;
	size_t top;
	uint64_t interval_ns;
	unsigned long assume_khz;
	const char *html, *perfetto, *unit;
	double perfetto_max_mb;
	struct ea_rail_map rail[MAX_RAIL_MAPS];
	char rail_buf[MAX_RAIL_MAPS][2 * EA_NAME_LEN];
	int nrail;
	struct ea_filter filter;	/* --cpus, --task */
};

static int on_opt(int opt, const char *arg, void *ctx)
{
	struct report_opts *ro = ctx;
	char *end;
	double v;
	int f = ea_cli_filter_opt(&ro->filter, opt, arg);

	if (f <= 0)
		return f;
	switch (opt) {
	case OPT_PER_TASK:
		ro->per_task = true;
		return 0;
	case OPT_TOP:
		ro->per_task = true;
		if (!strcmp(arg, "all")) {
			ro->top = SIZE_MAX;
			return 0;
		}
		v = strtod(arg, &end);
		if (*end || !(v >= 1) || v > 1e9 || v != (size_t)v)
			return ea_die("--top: '%s' is not a number of tasks or 'all'", arg);
		ro->top = (size_t)v;
		return 0;
	case OPT_NO_WAKEUPS:
		ro->no_wakeups = true;
		return 0;
	case OPT_HTML:
		ro->html = arg;
		return 0;
	case OPT_UNIT:
		ro->unit = arg;
		return 0;
	case OPT_PERFETTO:
		ro->perfetto = arg;
		return 0;
	case OPT_PERFETTO_MAX:
		return ea_cli_parse_max_mb(arg, &ro->perfetto_max_mb);
	case OPT_RAIL: {
		char *b = ro->rail_buf[ro->nrail], *eq;

		if (ro->nrail == MAX_RAIL_MAPS)
			return ea_die("--rail: more than %d", MAX_RAIL_MAPS);
		if (strlen(arg) >= sizeof(ro->rail_buf[0]))
			return ea_die("--rail: '%.40s...' is too long", arg);
		strcpy(b, arg);
		eq = strchr(b, '=');
		if (!eq || eq == b || !eq[1])
			return ea_die("--rail: '%s' is not CLUSTER=RAIL", arg);
		*eq = '\0';
		ro->rail[ro->nrail++] = (struct ea_rail_map){ b, eq + 1 };
		return 0;
	}
	case OPT_INTERVAL:
		v = strtod(arg, &end);
		if (*end || !(v >= 0.001) || v > 1e9)
			return ea_die("--interval: '%s' is not a duration in ms", arg);
		ro->interval_ns = (uint64_t)(v * 1e6 + 0.5);
		return 0;
	case OPT_ASSUME:
		/* digits only: strtoul takes "-1" (as ULONG_MAX) and " 5" */
		errno = 0;
		ro->assume_khz = strtoul(arg, &end, 10);
		if (!*arg || strspn(arg, "0123456789") != strlen(arg) || errno ||
		    !ro->assume_khz || ro->assume_khz > EA_MAX_ASSUME_KHZ)
			return ea_die("--assume-opp: '%s' is not a frequency in kHz (1 to %u)",
				      arg, EA_MAX_ASSUME_KHZ);
		return 0;
	}
	return -1;
}

/*
 * The --html and --perfetto files, each written atomically: both opened
 * first (an unwritable one refused before any work), the Perfetto file
 * written first so that its fsync() runs while the HTML is drawn.
 */
static int write_pictures(const struct report_opts *ro, const struct ea_report *rep,
			  const struct ea_timeline *tl, const struct ea_state *s,
			  struct ea_perfetto_ahead *ahead)
{
	struct ea_perfetto *pf;
	struct ea_out html, out;

	if (ro->html && ea_cli_pic_open(&html, ro->html))
		return EXIT_ERROR;
	if (ro->perfetto) {
		if (ea_cli_perfetto_open(&out, ro->perfetto, &pf, ro->perfetto_max_mb)) {
			if (ro->html)
				ea_out_abort(&html);
			return EXIT_ERROR;
		}
		if (ahead)
			ea_perfetto_use_ahead(pf, ahead);
		ea_perfetto_process(pf, "actual (recorded trace)", tl, s, 0);
		if (ea_cli_perfetto_commit(&out, pf, ro->perfetto_max_mb, ro->perfetto)) {
			if (ro->html)
				ea_out_abort(&html);
			return EXIT_ERROR;
		}
	}
	if (ro->html) {
		ea_report_render_html(html.f, rep, tl);
		if (ea_cli_pic_commit(&html))
			return EXIT_ERROR;
	}
	return 0;
}

/* What the numbers rest on: a model 'model check' rejects is used with a
 * warning; an --assume-opp above every OPP of the model, and a --cpus CPU
 * the model lacks, are refused. */
static int check_model(const struct ea_model *m, const struct report_opts *ro,
		       const struct ea_common_opts *o)
{
	uint32_t top = 0;

	for (int i = 0; i < m->nclusters; i++)
		for (int k = 0; k < m->clusters[i].ncaps; k++)
			if (m->clusters[i].caps[k].freq_khz > top)
				top = m->clusters[i].caps[k].freq_khz;
	if (ro->assume_khz > top)
		return ea_die("--assume-opp: %lu kHz is above every OPP of model %s (the highest is %u kHz)",
			      ro->assume_khz, m->name, top), -1;
	for (int cpu = 0; ro->filter.cpus && cpu < ro->filter.ncpus; cpu++)
		if (ro->filter.cpus[cpu] && (cpu >= m->ncpus || m->cpu_cluster[cpu] < 0))
			return ea_die("--cpus: CPU %d is not in model %s (CPUs 0 to %d): it cannot be priced",
				      cpu, m->name, m->ncpus - 1), -1;
	ea_cli_model_warnings(o->verbose, &m, 1);
	return 0;
}

/* A --cpus CPU the trace has (ea_cli_filter_warn()). */
static bool acct_has_cpu(const void *ctx, int cpu)
{
	return cpu < ((const struct ea_acct *)ctx)->trace_ncpus;
}

int cmd_report(int argc, char **argv)
{
	struct ea_common_opts o = { .format = EA_FMT_TEXT };
	struct report_opts ro = { .perfetto_max_mb = -1 };	/* -1: the default */
	struct ea_acct_config acfg = { 0 };
	struct ea_model *model = NULL;
	struct ea_consumer cons[2];
	struct ea_timeline tl = { 0 };
	struct ea_perfetto_ahead *ahead = NULL;
	struct ea_report rep;
	struct ea_rail_cmp *rails = NULL;
	size_t nrails = 0;
	struct ea_stats st;
	struct ea_acct acct;
	struct ea_stats_acct both = { &st, &acct };
	struct ea_timeline_stats tl_st = { &st, &tl };
	struct ea_energy_unit unit;
	struct ea_run run;
	struct ea_out out;
	struct ea_err err;
	char **args;
	int nargs, ncons = 2, rc = EXIT_ERROR;
	bool help;

	if (ea_parse_common(argc, argv, &o, extra, sizeof(extra) / sizeof(extra[0]),
			    on_opt, &ro, &help, &args, &nargs))
		goto out_filter;
	if (help) {
		fputs(usage_text, stdout);
		rc = 0;
		goto out_filter;
	}
	if (nargs != 1) {
		ea_die("report: expected one TRACE (see 'eatrace report --help')");
		goto out_filter;
	}
	if (ro.perfetto && (ro.filter.cpus || ro.filter.ntasks)) {
		/* its tracks are the whole trace's: every CPU, every task */
		ea_die("report: --perfetto shows the whole trace: not with --cpus or --task");
		goto out_filter;
	}
	if (!o.model) {
		rc = ea_die_no_model("report", NULL);
		goto out_filter;
	}
	if (ea_model_load(&model, o.model, &err)) {
		ea_die("%s", err.msg);
		goto out_filter;
	}
	if (ea_cli_unit(&unit, ro.unit, model) || check_model(model, &ro, &o))
		goto out_model;
	{
		const char *outs[] = { o.output, ro.html, ro.perfetto };
		const struct ea_model *ms[] = { model };

		if (ea_cli_refuse_inputs_as_outputs(outs, 3, args, 1, ms, 1))
			goto out_model;
	}
	acfg.assumed_khz = (uint32_t)ro.assume_khz;
	acfg.interval_ns = ro.interval_ns;
	acfg.zero_wakeups = ro.no_wakeups;
	acfg.cpu_only = ro.filter.cpus;
	acfg.ncpu_only = ro.filter.ncpus;
	if (ro.filter.ntasks) {
		acfg.task_only = &ro.filter;
		ro.per_task = true;	/* the selected tasks are what was asked */
	}
	if (ea_acct_init(&acct, model, &acfg, &err)) {
		ea_die("%s", err.msg);
		goto out_model;
	}
	ea_stats_init(&st);
	ea_acct_state_config(&acct, &o.cfg);
	o.cfg.ncpus = -1;
	/* the report shows util only in the notes' check against the kernel's */
	o.cfg.util_if_kernel_util = true;
	cons[0] = (struct ea_consumer){ &ea_stats_ops, &st };
	cons[1] = (struct ea_consumer){ &ea_acct_ops, &acct };
	if (ro.html || ro.perfetto) {
		/* after the accountant: it reads the accountant's figures */
		if (ea_timeline_init(&tl, &acct, ro.interval_ns,
				     ro.perfetto ? 20000 : 400, ro.perfetto != NULL)) {
			ea_die("out of memory");
			goto out;
		}
		/* the buckets spread on a thread of their own (a timeline
		 * without its thread gives the same, in this thread) when
		 * -j asks for three or more: -j 2 already fills two cores
		 * (an uncompressed trace.dat decoded on a thread of its
		 * own, or the look-ahead's split) and, with --perfetto, the
		 * encoder's and the record's threads; the changes are
		 * deferred with the thread too (timeline-near.c), but on 2
		 * vCPUs the thread was not seen to gain (bench/README.md,
		 * pictures9): not by default */
		if (ea_input_jobs_explicit() && ea_input_jobs() >= 3)
			(void)ea_timeline_use_thread(&tl);
		/* the --perfetto file's slices and counters encoded as
		 * the run goes, on a thread of their own (the second CPU
		 * is idle while an uncompressed trace is read on one):
		 * most of the file's work done when the run ends */
		if (ro.perfetto)
			ahead = ea_cli_perfetto_ahead(&tl, ro.perfetto,
						      ro.perfetto_max_mb);
		/* after the accountant, in one consumer with it, and that
		 * after the collector, in one consumer with it: the state
		 * gives a task switch to one consumer as one call */
		cons[0] = (struct ea_consumer){ &ea_timeline_stats_ops, &tl_st };
		ncons = 1;
		ea_cli_pic_drop_old(ro.html, ro.perfetto);
	} else {
		/* the two as one consumer: one call a change */
		cons[0] = (struct ea_consumer){ &ea_stats_acct_ops, &both };
		ncons = 1;
	}
	if (ea_run(&run, args[0], &o.cfg, cons, ncons, &err)) {
		ea_die("%s", err.msg);
		goto out;
	}
	if (ea_acct_done(&acct, run.state, &err) || ea_stats_done(&st, run.state) ||
	    ((ro.html || ro.perfetto) && ea_timeline_done(&tl, run.state, &err))) {
		ea_die("%s: %s", ea_trace_label(args[0]), err.msg);
		goto out_run;
	}
	if (ea_check_window(&o, run.state, ea_trace_label(args[0])))
		goto out_run;
	/* the rails measure whole clusters: no comparison for a share */
	if (!acfg.cpu_only && !acfg.task_only &&
	    ea_rails_compare(run.info.rails, &acct, ro.rail, ro.nrail, &rails,
			     &nrails, &err)) {
		ea_die("%s: %s", ea_trace_label(args[0]), err.msg);
		goto out_run;
	}
	if (ea_out_open(&out, o.output, &err)) {
		ea_die("%s", err.msg);
		goto out_run;
	}
	rep = (struct ea_report){ ea_trace_label(args[0]), &run.info, &acct, &st,
				  ro.per_task, ro.top, rails, nrails, &unit };
	if (o.format == EA_FMT_JSON)
		ea_report_render_json(out.f, &rep);
	else if (o.format == EA_FMT_CSV)
		ea_report_render_csv(out.f, &rep);
	else
		ea_report_render_text(out.f, &rep);
	rc = ea_out_commit(&out, &err) ? ea_die("%s", err.msg) : 0;
	if (!rc)
		ea_notes_to_stderr(&o, &st, &run.info, &rep, rep.path);
	if (!rc)
		ea_cli_filter_warn(&ro.filter, rep.path, o.verbose < 0, acct_has_cpu, &acct);
	if (!rc && write_pictures(&ro, &rep, &tl, run.state, ahead))
		rc = EXIT_ERROR;
out_run:
	ea_rails_cmp_free(rails, nrails);
	ea_run_free(&run);
out:
	ea_perfetto_ahead_free(ahead);	/* its thread reads tl's record */
	ea_timeline_free(&tl);
	ea_stats_free(&st);
	ea_acct_free(&acct);
out_model:
	ea_model_free(model);
out_filter:
	ea_filter_free(&ro.filter);
	return rc;
}
