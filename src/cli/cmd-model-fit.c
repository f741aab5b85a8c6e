// SPDX-License-Identifier: GPL-2.0-only
/*
 * eatrace model fit: an energy table fitted to measured energy; and
 * eatrace model check MODEL --trace T --measured CSV (or --rails): the
 * same error figures for a model as it is, the validation a platform team
 * runs in CI (docs/model-fit.md). The work is src/fit's; this file parses
 * the options, writes the files and prints.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <getopt.h>

#include "cli/cmd.h"
#include "cli/options.h"
#include "eatrace/fit-report.h"
#include "eatrace/fit.h"
#include "eatrace/model.h"
#include "eatrace/output.h"

static const char usage_fit[] =
	"usage: eatrace model fit -m INITIAL --pair TRACE MEASURED [--pair "
	"TRACE MEASURED]...\n"
	"                         [TRACE_WITH_RAILS]... [--rail "
	"RAIL=CLUSTER[+CLUSTER...]]...\n"
	"                         [--window MS] [--hold KEY[,KEY...]]... [-o "
	"FITTED.json]\n"
	"                         [--html FILE] [-f text|json] [OPTIONS]\n"
	"\n"
	"Fit a model's coefficients to measured energy. The accountant is "
	"linear\n"
	"in them: a window's energy is, summed over coefficients, a "
	"coefficient\n"
	"times what the trace gives it (busy CPU-seconds at each OPP, "
	"cluster-busy\n"
	"seconds at each OPP, idle CPU-seconds and cluster-idle seconds per "
	"idle\n"
	"state, CPU and cluster wakeups per idle state, offline CPU-seconds). "
	"The\n"
	"fit is least squares over every window of every trace, under the\n"
	"physical constraints the initial table satisfies (powers not "
	"negative,\n"
	"busy core power above idle, deeper idle states drawing no more, "
	"power\n"
	"not falling as frequency rises...). Coefficients the windows cannot\n"
	"determine (an OPP never used, a state never entered, a combination\n"
	"only) keep INITIAL's value and are listed as held, with the reason.\n"
	"\n"
	"Printed: per rail the error before and after (total, and mean "
	"absolute\n"
	"error per window), each coefficient's change with a confidence "
	"interval\n"
	"from the residuals, the held coefficients, the active constraints,\n"
	"'model check' of the result and the worst windows. docs/model-fit.md\n"
	"explains the method, its assumptions and limits, with an example.\n"
	"\n"
	"MEASURED is a CSV, one window per line (a header line is allowed):\n"
	"    start_s,end_s,rail,energy\n"
	"times in the trace's own seconds, energy in the model's power_unit x "
	"s;\n"
	"each rail's windows follow each other without gap or overlap. A "
	"trace\n"
	"given alone is a Perfetto trace with power rails: each pair of\n"
	"consecutive samples of a rail's counter is a window, its energy\n"
	"converted from uWs to the model's power unit (W, mW, uW or nW).\n"
	"A rail measures the clusters --rail gives it, else those its name\n"
	"names (VDD_A57, CPU(A57): cluster A57; docs/perfetto.md).\n"
	"\n"
	"options:\n"
	"  -m, --model MODEL  the initial model, a file or a bundled name\n"
	"      --pair TRACE MEASURED  a trace and the CSV of its measurements\n"
	"                     (repeatable)\n"
	"      --rail RAIL=CLUSTER[+CLUSTER...]  rail RAIL measures these "
	"clusters\n"
	"                     (repeatable; report's order CLUSTER=RAIL is\n"
	"                     understood too)\n"
	"      --window MS    merge consecutive windows of a rail until each\n"
	"                     spans at least MS ms (default: as measured)\n"
	"      --hold KEY[,KEY...]  keep these coefficients at their initial\n"
	"                     values (repeatable; shell patterns allowed). "
	"Keys:\n"
	"                     CLUSTER.FREQ_KHZ.core_power, ...cluster_power,\n"
	"                     CLUSTER.IDLE_STATE.core_power, "
	"...cluster_power,\n"
	"                     ...core_wakeup, ...cluster_wakeup,\n"
	"                     CLUSTER.offline_power, suspend_power\n"
	"      --weights W    relative (default): minimise each window's "
	"error\n"
	"                     relative to its measured energy (a meter whose "
	"error\n"
	"                     is a share of its reading); equal: absolute "
	"errors\n"
	"      --assume-opp F frequency in kHz charged while a CPU's is "
	"unknown\n"
	"                     (as for report; default: the highest OPP)\n"
	"      --worst N      list the N worst windows (default 5)\n"
	"      --html FILE    also write an HTML page: measured and estimated\n"
	"                     power over time per trace and rail, the "
	"residuals\n"
	"  -o, --output FILE  write the fitted model there (atomically), its\n"
	"                     \"source\" saying how it was fitted; without -o\n"
	"                     only the figures are printed\n"
	"  -f, --format FMT   the figures as text (default) or json "
	"(docs/json.md)\n"
	"      --start T      use the traces from T seconds after their first\n"
	"                     event (@T: absolute); windows outside: an error\n"
	"      --end T        ... up to T (same forms)\n"
	"      --idle-state N idle state for CPUs without cpu_idle events "
	"while\n"
	"                     they run pid 0 (default 0)\n"
	"      --unknown-idle-state N  idle state priced for idle time whose "
	"state\n"
	"                     the trace does not show (default 0)\n"
	"      --absent-offline  a CPU with no event is offline, not unknown\n"
	"  -q, --quiet        no progress line\n"
	"  -j, --jobs N       threads reading a trace (as for report)\n"
	"  -h, --help         this text\n"
	"\n"
	"Exit status: 0, or 2 for a usage or input error (one line naming the\n"
	"file and line; no file is written).\n";

enum {
	OPT_PAIR = 3000,
	OPT_RAIL,
	OPT_WINDOW,
	OPT_HOLD,
	OPT_ASSUME,
	OPT_HTML,
	OPT_WORST,
	OPT_TRACE,
	OPT_MEASURED,
	OPT_RAILS,
	OPT_MAX_ERROR,
	OPT_MAX_WINDOW_ERROR,
	OPT_WEIGHTS
};

static const struct option fit_long[] = {
	{"pair", required_argument, NULL, OPT_PAIR},
	{"rail", required_argument, NULL, OPT_RAIL},
	{"window", required_argument, NULL, OPT_WINDOW},
	{"hold", required_argument, NULL, OPT_HOLD},
	{"assume-opp", required_argument, NULL, OPT_ASSUME},
	{"html", required_argument, NULL, OPT_HTML},
	{"worst", required_argument, NULL, OPT_WORST},
	{"weights", required_argument, NULL, OPT_WEIGHTS},
};

static const struct option check_long[] = {
	{"trace", required_argument, NULL, OPT_TRACE},
	{"measured", required_argument, NULL, OPT_MEASURED},
	{"rails", no_argument, NULL, OPT_RAILS},
	{"rail", required_argument, NULL, OPT_RAIL},
	{"window", required_argument, NULL, OPT_WINDOW},
	{"assume-opp", required_argument, NULL, OPT_ASSUME},
	{"html", required_argument, NULL, OPT_HTML},
	{"worst", required_argument, NULL, OPT_WORST},
	{"max-error", required_argument, NULL, OPT_MAX_ERROR},
	{"max-window-error", required_argument, NULL, OPT_MAX_WINDOW_ERROR},
};

struct fit_opts {
	int argc;
	char **argv;
	const char *cmd; /* "model fit" or "model check" */
	struct ea_fit_input *in;
	int nin;
	struct ea_fit_railmap *maps;
	char **map_text; /* each map's copy of its argument */
	int nmaps;
	char **hold;
	int nhold;
	uint64_t window_ns;
	unsigned long assume_khz;
	const char *html;
	int worst;
	double max_error, max_window_error;
	bool equal_weights;
};

static int parse_pct(const char *opt, const char *arg, double *v)
{
	char *end;

	*v = strtod(arg, &end);
	if (*end || end == arg || !(*v >= 0) || *v > 1e6)
		return ea_die("%s: '%s' is not a percentage (0 or more)", opt,
			      arg);
	return 0;
}

/* Add a comma-separated list of --hold patterns. */
static int add_holds(struct fit_opts *fo, const char *arg)
{
	const char *p = arg;

	while (*p) {
		size_t len = strcspn(p, ",");

		if (len) {
			char **h = realloc(fo->hold, (size_t)(fo->nhold + 1) *
							     sizeof(*h));
			char *k = strndup(p, len);

			if (h)
				fo->hold = h;
			if (!h || !k) {
				free(k);
				return ea_die("out of memory");
			}
			fo->hold[fo->nhold++] = k;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

static int on_opt(int opt, const char *arg, void *ctx)
{
	struct fit_opts *fo = ctx;
	char *end;
	double v;

	switch (opt) {
	case OPT_PAIR:
		/* --pair TRACE MEASURED: MEASURED is the next argument */
		if (optind >= fo->argc || !*fo->argv[optind])
			return ea_die("%s: --pair %s needs its measurements: "
				      "--pair TRACE MEASURED.csv",
				      fo->cmd, arg);
		fo->in[fo->nin++] =
			(struct ea_fit_input){arg, fo->argv[optind++]};
		return 0;
	case OPT_TRACE:
		fo->in[fo->nin++] = (struct ea_fit_input){arg, NULL};
		return 0;
	case OPT_MEASURED:
		if (!fo->nin || fo->in[fo->nin - 1].measured)
			return ea_die("%s: --measured %s must follow the "
				      "--trace it measures",
				      fo->cmd, arg);
		fo->in[fo->nin - 1].measured = arg;
		return 0;
	case OPT_RAILS:
		return 0;
	case OPT_RAIL: {
		char *copy, *eq = strchr(arg, '=');

		if (!eq || eq == arg || !eq[1])
			return ea_die(
				"--rail: '%s' is not RAIL=CLUSTER[+CLUSTER...]",
				arg);
		copy = strdup(arg);
		if (!copy)
			return ea_die("out of memory");
		fo->map_text[fo->nmaps] = copy;
		eq = copy + (eq - arg);
		*eq = '\0';
		fo->maps[fo->nmaps++] = (struct ea_fit_railmap){copy, eq + 1};
		return 0;
	}
	case OPT_WINDOW:
		v = strtod(arg, &end);
		if (*end || end == arg || !(v >= 0.001) || v > 1e9)
			return ea_die("--window: '%s' is not a duration in ms",
				      arg);
		fo->window_ns = (uint64_t)(v * 1e6 + 0.5);
		return 0;
	case OPT_HOLD:
		return add_holds(fo, arg);
	case OPT_ASSUME:
		fo->assume_khz = strtoul(arg, &end, 10);
		if (!*arg || *end || strspn(arg, "0123456789") != strlen(arg) ||
		    !fo->assume_khz || fo->assume_khz > EA_MODEL_MAX_FREQ_KHZ)
			return ea_die("--assume-opp: '%s' is not a frequency "
				      "in kHz (1 to %u)",
				      arg, EA_MODEL_MAX_FREQ_KHZ);
		return 0;
	case OPT_HTML:
		fo->html = arg;
		return 0;
	case OPT_WORST:
		v = strtod(arg, &end);
		if (*end || end == arg || !(v >= 0) || v > 1000 || v != (int)v)
			return ea_die("--worst: '%s' is not a number of "
				      "windows (0 to 1000)",
				      arg);
		fo->worst = (int)v;
		return 0;
	case OPT_WEIGHTS:
		if (strcmp(arg, "relative") && strcmp(arg, "equal"))
			return ea_die(
				"--weights: '%s' is not relative or equal",
				arg);
		fo->equal_weights = !strcmp(arg, "equal");
		return 0;
	case OPT_MAX_ERROR:
		return parse_pct("--max-error", arg, &fo->max_error);
	case OPT_MAX_WINDOW_ERROR:
		return parse_pct("--max-window-error", arg,
				 &fo->max_window_error);
	}
	return -1;
}

static void free_opts(struct fit_opts *fo)
{
	for (int i = 0; i < fo->nhold; i++)
		free(fo->hold[i]);
	for (int i = 0; i < fo->nmaps; i++)
		free(fo->map_text[i]);
	free(fo->in);
	free(fo->maps);
	free(fo->map_text);
	free(fo->hold);
}

struct findings {
	struct ea_fit_finding *v;
	int n, errors, warnings;
};

static void on_finding(void *ctx, enum ea_severity sev, const char *msg)
{
	struct findings *f = ctx;
	struct ea_fit_finding *p =
		realloc(f->v, (size_t)(f->n + 1) * sizeof(*p));

	if (sev == EA_SEV_ERROR)
		f->errors++;
	else
		f->warnings++;
	if (!p)
		return;
	f->v = p;
	f->v[f->n].sev = sev;
	if ((f->v[f->n].msg = strdup(msg)))
		f->n++;
}

/* The gates of check --measured: a rail over either limit fails. */
static int gate_failures(const struct ea_fit *fit, double max_error,
			 double max_window_error)
{
	int n = 0;

	for (int k = 0; k < fit->nrails; k++) {
		const struct ea_fit_err *e = &fit->rails[k].before;

		if ((!isnan(max_error) && !(fabs(e->total_pct) <= max_error)) ||
		    (!isnan(max_window_error) &&
		     !(e->mae_pct <= max_window_error)))
			n++;
	}
	return n;
}

static int write_outputs(const struct ea_fit_report *rep,
			 const struct ea_common_opts *o, const char *html,
			 const char *stdout_path)
{
	struct ea_out out;
	struct ea_err err;

	if (!rep->check && o->output) {
		if (ea_out_open(&out, o->output, &err))
			return ea_die("%s", err.msg);
		if (ea_model_write_json(rep->fit->fitted, out.f)) {
			ea_out_abort(&out);
			return ea_die("%s: write error", o->output);
		}
		if (ea_out_commit(&out, &err))
			return ea_die("%s", err.msg);
	}
	if (ea_out_open(&out, stdout_path, &err))
		return ea_die("%s", err.msg);
	if (o->format == EA_FMT_JSON)
		ea_fit_render_json(out.f, rep);
	else
		ea_fit_render_text(out.f, rep);
	if (ea_out_commit(&out, &err))
		return ea_die("%s", err.msg);
	if (html) {
		if (ea_out_open(&out, html, &err))
			return ea_die("%s", err.msg);
		ea_fit_render_html(out.f, rep);
		if (ea_out_commit(&out, &err))
			return ea_die("%s", err.msg);
	}
	return 0;
}

/* model fit (check false) and model check --measured (check true). */
static int run(int argc, char **argv, bool check)
{
	struct ea_common_opts o = {.format = EA_FMT_TEXT};
	struct fit_opts fo = {.argc = argc,
			      .argv = argv,
			      .worst = 5,
			      .cmd = check ? "model check" : "model fit",
			      .max_error = NAN,
			      .max_window_error = NAN};
	struct ea_fit_config cfg = {0};
	struct ea_fit_report rep = {0};
	struct findings fd = {0};
	struct ea_model *m = NULL;
	struct ea_fit fit;
	struct ea_err err;
	const char *model;
	char **args;
	int nargs, rc = EXIT_ERROR;
	bool help, ran = false;

	fo.in = calloc((size_t)argc + 1, sizeof(*fo.in));
	fo.maps = calloc((size_t)argc + 1, sizeof(*fo.maps));
	fo.map_text = calloc((size_t)argc + 1, sizeof(*fo.map_text));
	if (!fo.in || !fo.maps || !fo.map_text) {
		free_opts(&fo);
		return ea_die("out of memory");
	}
	if (ea_parse_common(
		    argc, argv, &o, check ? check_long : fit_long,
		    check ? (int)(sizeof(check_long) / sizeof(check_long[0]))
			  : (int)(sizeof(fit_long) / sizeof(fit_long[0])),
		    on_opt, &fo, &help, &args, &nargs))
		goto out;
	if (help) {
		/* model check --help is model check's own (cmd-model.c) */
		fputs(usage_fit, stdout);
		rc = 0;
		goto out;
	}
	if (o.format == EA_FMT_CSV) {
		ea_die("%s: --format csv is not offered (text or json)",
		       fo.cmd);
		goto out;
	}
	if (check) {
		if (o.model || nargs != 1) {
			ea_die("model check: expected one MODEL, then --trace "
			       "TRACE [--measured CSV]... (try 'eatrace model "
			       "check --help')");
			goto out;
		}
		model = args[0];
		if (!fo.nin) {
			ea_die("model check: --measured and --rails need a "
			       "--trace");
			goto out;
		}
	} else {
		if (!o.model) {
			rc = ea_die_no_model("model fit", NULL);
			goto out;
		}
		model = o.model;
		for (int i = 0; i < nargs; i++)
			fo.in[fo.nin++] = (struct ea_fit_input){args[i], NULL};
		if (!fo.nin) {
			ea_die("model fit: no trace: give --pair TRACE "
			       "MEASURED, or a Perfetto trace with power rails "
			       "(try 'eatrace model fit --help')");
			goto out;
		}
	}
	if (ea_model_load(&m, model, &err)) {
		ea_die("%s", err.msg);
		goto out;
	}
	for (int k = 0; k < fo.nmaps; k++)
		if (ea_fit_railmap_orient(m, &fo.maps[k], &err)) {
			ea_die("%s", err.msg);
			goto out;
		}
	cfg = (struct ea_fit_config){
		.in = fo.in,
		.nin = fo.nin,
		.maps = fo.maps,
		.nmaps = fo.nmaps,
		.window_ns = fo.window_ns,
		.hold = (const char *const *)fo.hold,
		.nhold = fo.nhold,
		.assumed_khz = (uint32_t)fo.assume_khz,
		.scfg = o.cfg,
		.fit = !check,
		.nworst = fo.worst,
		.confidence = 0.95,
		.equal_weights = fo.equal_weights,
	};
	if (ea_fit_run(&fit, m, &cfg, &err)) {
		ea_die("%s", err.msg);
		goto out;
	}
	ran = true;
	ea_model_check_cb(check ? m : fit.fitted, on_finding, &fd);
	rep = (struct ea_fit_report){
		.fit = &fit,
		.cfg = &cfg,
		.check = check,
		.output = check ? NULL : o.output,
		.findings = fd.v,
		.nfindings = fd.n,
		.errors = fd.errors,
		.warnings = fd.warnings,
		.quiet = o.verbose < 0 && check,
		.max_error_pct = fo.max_error,
		.max_window_error_pct = fo.max_window_error,
	};
	if (check)
		rep.gate_failures =
			gate_failures(&fit, fo.max_error, fo.max_window_error);
	rc = write_outputs(&rep, &o, fo.html, check ? o.output : NULL);
	if (!rc && check && (rep.gate_failures || fd.errors))
		rc = EXIT_GATE;
out:
	if (ran)
		ea_fit_free(&fit);
	for (int i = 0; i < fd.n; i++)
		free(fd.v[i].msg);
	free(fd.v);
	ea_model_free(m);
	free_opts(&fo);
	return rc;
}

int cmd_model_fit(int argc, char **argv)
{
	return run(argc, argv, false);
}

/* Options only the measured check has; --help stays model check's own. */
bool cmd_model_check_is_measured(int argc, char **argv)
{
	static const char *const only[] = {
		"--measured", "--rails",     "--rail",
		"--window",   "--max-error", "--max-window-error",
		"--html",     "--worst",     "--assume-opp"};
	bool measured = false;

	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return false;
		for (size_t k = 0; k < sizeof(only) / sizeof(only[0]); k++) {
			size_t len = strlen(only[k]);

			if (!strncmp(argv[i], only[k], len) &&
			    (!argv[i][len] || argv[i][len] == '='))
				measured = true;
		}
	}
	return measured;
}

int cmd_model_check_measured(int argc, char **argv)
{
	return run(argc, argv, true);
}
