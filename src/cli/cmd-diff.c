// SPDX-License-Identifier: GPL-2.0-only
/* eatrace diff: gate a change on estimated energy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/not-input.h"
#include "cli/options.h"
#include "eatrace/diff.h"
#include "eatrace/html.h"
#include "eatrace/output.h"

static const char usage_text[] =
	"usage: eatrace diff [OPTIONS] -m MODEL --base BASE... --new NEW...\n"
	"       eatrace diff [OPTIONS] --models A B TRACE...\n"
	"\n"
	"Did energy go up by more than allowed, with confidence, and where from?\n"
	"Each trace is priced like 'eatrace report'; each run's energy is\n"
	"normalised, each side summarised (mean, sd), and the relative change of\n"
	"the means given with a Welch t confidence interval. The gate passes when\n"
	"the whole interval is at or below --max-increase, fails when it is all\n"
	"above, and is inconclusive when it straddles it (the verdict then says\n"
	"how many runs per side would resolve a change of that size). With a\n"
	"single run on a side there is no interval: the point estimate decides.\n"
	"With --models, the same traces are priced by model A (base) and model B\n"
	"(new): for platform teams comparing table revisions. The runs are then\n"
	"pairs: the change is the geometric mean of the per-trace ratios B/A, its\n"
	"interval Student's t on their logs, and an inconclusive verdict says how\n"
	"many traces would resolve it. A trace with zero energy under both models\n"
	"is left out; under one only, refused. Figures that do not exist (a rate\n"
	"of a run of 0 s, a change from 0) are n/a, the reason under the table.\n"
	"\n"
	"options:\n"
	"  -m, --model MODEL      model file or bundled name\n"
	"      --base TRACE...    the traces of the base runs (up to the next option)\n"
	"      --new TRACE...     the traces of the new runs (up to the next option)\n"
	"      --models A B       compare two models on the same traces, as pairs\n"
	"      --max-increase PCT allowed increase in percent (default 1)\n"
	"      --confidence C     confidence level of the interval (default 0.95)\n"
	"      --inconclusive V   count an inconclusive verdict as pass or fail\n"
	"                         (default: its own exit status, 3)\n"
	"      --start T          price each run from T seconds after its first\n"
	"                         event (@T: an absolute trace timestamp)\n"
	"      --end T            ... up to T (same forms); a window outside a\n"
	"                         run is an error\n"
	"      --idle-state N     idle state for CPUs without cpu_idle (as report)\n"
	"      --assume-opp F     kHz charged while a frequency is unknown (as report)\n"
	"      --no-wakeups       price wakeups at zero\n"
	"      --unit U           energies in J, mJ or uJ (powers in W, mW, uW),\n"
	"                         not the model's power_unit x s; refused (exit 2)\n"
	"                         for a model whose power_unit is not W, mW, uW, nW\n"
	"      --normalize N      none (energy), time (energy / duration: mean\n"
	"                         power) or work (energy / capacity-seconds of\n"
	"                         work done, in capacity x s); default none\n"
	"  -f, --format FMT       text, json, markdown or junit (default text)\n"
	"  -o, --output FILE      write there (atomically) instead of stdout\n"
	"      --html FILE        also write a self-contained HTML page, base against new\n"
	"  -j, --jobs N           price up to N traces at once (default: the CPU count,\n"
	"                         one after the other under 16 MiB of traces; same results)\n"
	"  -h, --help             this text\n"
	"  --                     end of options: what follows are traces (of the\n"
	"                         side named last), even if they start with '-'\n"
	"\n"
	"example:\n"
	"  eatrace diff -m juno-r0 --max-increase 2 --base base*.dat --new new*.dat\n"
	"\n"
	"A model that 'eatrace model check' rejects is used with a warning (stderr\n"
	"and every format: JSON model_check). "
	"Traces must come from machines with the same CPU count. With -f junit, a\n"
	"run that cannot read a trace or model still writes the JUnit file, with\n"
	"one error case.\n"
	"Exit status: 0 pass, 1 fail (the increase exceeds the threshold),\n"
	"2 error, 3 inconclusive (run more iterations, or --inconclusive).\n";

enum fmt { F_TEXT, F_JSON, F_MD, F_JUNIT };

struct diff_opts {
	const char *model, *model_a, *model_b, *output, *html, *unit;
	const char *dashed;	/* an argument after '--' that looks like an option */
	enum ea_verdict inconclusive_as;
	double max_increase, confidence;
	enum ea_norm norm;
	enum fmt fmt;
	char **base, **new;
	int nbase, nnew;
	int jobs;		/* -j: pricing processes at once, 0 auto */
	struct ea_state_config cfg;	/* window, idle state */
	struct ea_acct_config acfg;	/* assumed OPP, wakeups */
	bool abs_start, abs_end, have_start, have_end;
};

static int parse_double(const char *opt, const char *arg, double lo, double hi,
			double *out)
{
	char *end;
	double v = arg ? strtod(arg, &end) : 0;

	if (!arg || *end || !(v >= lo && v <= hi))
		return ea_die("%s: '%s' is not a number in [%g, %g]", opt,
			      arg ? arg : "", lo, hi), -1;
	*out = v;
	return 0;
}

/* A trace argument: to the side named last (--base, --new); before either,
 * to the base list, which --models uses and which is an error otherwise. */
static void add_trace(struct diff_opts *o, int side, char *path)
{
	if (side == 1)
		o->new[o->nnew++] = path;
	else
		o->base[o->nbase++] = path;
}

static int parse(int argc, char **argv, struct diff_opts *o, bool *help,
		 bool *named)
{
	int i, side = -1;
	bool opts_done = false;

	o->base = calloc(argc, sizeof(char *));
	o->new = calloc(argc, sizeof(char *));
	if (!o->base || !o->new)
		return ea_die("out of memory"), -1;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (opts_done) {
			if (a[0] == '-' && !o->dashed)
				o->dashed = a;
			add_trace(o, side, argv[i]);
		} else if (!strcmp(a, "--")) {
			opts_done = true;
		} else if (!strcmp(a, "--base") || !strcmp(a, "--new")) {
			side = a[2] == 'n';
			*named = true;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			*help = true;
		} else if (!strcmp(a, "-m") || !strcmp(a, "--model")) {
			if (!v)
				return ea_die("%s needs a model", a), -1;
			o->model = v;
			i++;
		} else if (!strcmp(a, "--models")) {
			if (i + 2 >= argc)
				return ea_die("--models needs two models"), -1;
			o->model_a = argv[++i];
			o->model_b = argv[++i];
		} else if (!strcmp(a, "--max-increase")) {
			if (parse_double(a, v, -100, 1e6, &o->max_increase))
				return -1;
			i++;
		} else if (!strcmp(a, "--confidence")) {
			if (parse_double(a, v, 0.5, 0.9999, &o->confidence))
				return -1;
			i++;
		} else if (!strcmp(a, "--start") || !strcmp(a, "--end")) {
			bool end = a[2] == 'e';
			uint64_t ns;
			bool abs;

			if (!v || ea_parse_time(v, &ns, &abs))
				return ea_die("%s: '%s' is not a time in seconds", a, v ? v : ""), -1;
			if (end) {
				o->cfg.win_end = ns;
				o->abs_end = abs;
				o->have_end = true;
			} else {
				o->cfg.win_start = ns;
				o->abs_start = abs;
				o->have_start = true;
			}
			i++;
		} else if (!strcmp(a, "--idle-state")) {
			char *e;
			long n = v ? strtol(v, &e, 10) : -1;

			if (!v || *e || n < 0 || n > 63)
				return ea_die("--idle-state: '%s' is not an idle state index (0-63)",
					      v ? v : ""), -1;
			o->cfg.swapper_idle_state = (int)n;
			i++;
		} else if (!strcmp(a, "--assume-opp")) {
			double khz;

			if (parse_double(a, v, 1, 4e9, &khz))
				return -1;
			o->acfg.assumed_khz = (uint32_t)khz;
			i++;
		} else if (!strcmp(a, "--no-wakeups")) {
			o->acfg.zero_wakeups = true;
		} else if (!strcmp(a, "--unit")) {
			if (!v)
				return ea_die("%s needs a unit (J, mJ or uJ)", a), -1;
			o->unit = v;
			i++;
		} else if (!strcmp(a, "--inconclusive")) {
			if (v && !strcmp(v, "pass"))
				o->inconclusive_as = EA_VERDICT_PASS;
			else if (v && !strcmp(v, "fail"))
				o->inconclusive_as = EA_VERDICT_FAIL;
			else
				return ea_die("--inconclusive: '%s' is not pass or fail",
					      v ? v : ""), -1;
			i++;
		} else if (!strcmp(a, "--normalize")) {
			if (v && !strcmp(v, "none"))
				o->norm = EA_NORM_NONE;
			else if (v && !strcmp(v, "time"))
				o->norm = EA_NORM_TIME;
			else if (v && !strcmp(v, "work"))
				o->norm = EA_NORM_WORK;
			else
				return ea_die("--normalize: '%s' is not none, time or work",
					      v ? v : ""), -1;
			i++;
		} else if (!strcmp(a, "-f") || !strcmp(a, "--format")) {
			if (v && !strcmp(v, "text"))
				o->fmt = F_TEXT;
			else if (v && !strcmp(v, "json"))
				o->fmt = F_JSON;
			else if (v && (!strcmp(v, "markdown") || !strcmp(v, "md")))
				o->fmt = F_MD;
			else if (v && !strcmp(v, "junit"))
				o->fmt = F_JUNIT;
			else
				return ea_die("--format: '%s' is not text, json, markdown or junit",
					      v ? v : ""), -1;
			i++;
		} else if (!strcmp(a, "-j") || !strcmp(a, "--jobs")) {
			char *e;
			long n = v ? strtol(v, &e, 10) : 0;

			if (!v || *e || e == v || n < 1 || n > 64)
				return ea_die("%s: '%s' is not a count of processes (1 to 64)",
					      a, v ? v : ""), -1;
			o->jobs = (int)n;
			i++;
		} else if (!strcmp(a, "--html")) {
			if (!v)
				return ea_die("%s needs a file", a), -1;
			o->html = v;
			i++;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			if (!v)
				return ea_die("%s needs a file", a), -1;
			o->output = v;
			i++;
		} else if (a[0] == '-' && a[1]) {
			return ea_die("diff: unknown option '%s' (see --help)", a), -1;
		} else {
			add_trace(o, side, argv[i]);
		}
	}
	return 0;
}

/* --models A B from different platforms: the per-cluster breakdown pairs
 * A's cluster i with B's cluster i; say so when they do not correspond. */
static void cpu_list(char *buf, size_t n, const struct ea_cluster *c)
{
	size_t len = 0;

	buf[0] = 0;
	for (int i = 0; i < c->ncpus && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%d", i ? "," : "", c->cpus[i]);
}

static void warn_cluster_match(const struct ea_model *a, const struct ea_model *b)
{
	char ca[128], cb[128];
	int c, n = a->nclusters < b->nclusters ? a->nclusters : b->nclusters;

	for (c = 0; c < n; c++) {
		const struct ea_cluster *x = &a->clusters[c], *y = &b->clusters[c];

		if (strcmp(x->name, y->name) || x->ncpus != y->ncpus ||
		    memcmp(x->cpus, y->cpus, (size_t)x->ncpus * sizeof(*x->cpus)))
			break;
	}
	if (c == n && a->nclusters == b->nclusters)
		return;
	if (c == n) {
		ea_msg("warning: models %s and %s have %d and %d clusters: the per-cluster rows pair them by index",
			a->name, b->name, a->nclusters, b->nclusters);
		return;
	}
	cpu_list(ca, sizeof(ca), &a->clusters[c]);
	cpu_list(cb, sizeof(cb), &b->clusters[c]);
	ea_msg("warning: models %s and %s differ: cluster %d is %s (CPUs %s) in one, %s (CPUs %s) in the other; the per-cluster rows pair clusters by index",
		a->name, b->name, c, a->clusters[c].name, ca, b->clusters[c].name, cb);
}

/*
 * An error after the options were read: one line on stderr and, with
 * -f junit, a JUnit file with one error case, so CI still shows it. That
 * file is the one output a run exiting 2 replaces (docs/robustness.md,
 * "Output files"): it is committed and renamed here, as main() discards
 * every pending output of a failed run. No other output is open yet (the
 * report and --html are written only after pricing succeeded).
 */
static int run_error(const struct diff_opts *o, const char *msg)
{
	struct ea_out out;
	struct ea_err err;

	ea_die("%s", msg);
	if (o->fmt != F_JUNIT)
		return EXIT_ERROR;
	if (ea_out_open(&out, o->output, &err)) {
		ea_die("%s", err.msg);
		return EXIT_ERROR;
	}
	ea_diff_render_junit_error(out.f, msg);
	if (ea_out_commit(&out, &err) || ea_out_commit_all(&err))
		ea_die("%s", err.msg);
	return EXIT_ERROR;
}

int cmd_diff(int argc, char **argv)
{
	struct diff_opts o = { .max_increase = 1, .confidence = 0.95 };
	struct ea_model *ma = NULL, *mb = NULL;
	struct ea_diff d;
	struct ea_out out;
	struct ea_err err;
	bool help = false, named = false;
	int rc = EXIT_ERROR;

	memset(&d, 0, sizeof(d));
	if (parse(argc, argv, &o, &help, &named))
		goto out;
	if (help) {
		fputs(usage_text, stdout);
		rc = 0;
		goto out;
	}
	if (o.have_start && o.have_end && o.abs_start != o.abs_end) {
		ea_die("--start and --end must both be relative or both absolute (@)");
		goto out;
	}
	if (o.have_end && o.cfg.win_end <= o.cfg.win_start) {
		ea_die("--end must be after --start");
		goto out;
	}
	o.cfg.win_relative = !(o.abs_start || o.abs_end);
	if (o.model_a) {
		if (o.model || named) {
			ea_die("diff: --models takes TRACE... alone (no -m, no --base/--new)");
			goto out;
		}
		o.new = memcpy(o.new, o.base, o.nbase * sizeof(char *));
		o.nnew = o.nbase;
	} else if (!o.model) {
		if (o.dashed)
			ea_die("diff: no model: give -m MODEL (or --models A B); '%s' after '--' is a trace, not an option",
			       o.dashed);
		else
			ea_die_no_model("diff", " (or --models A B)");
		goto out;
	} else if (!named) {
		ea_die("diff: give the two sets of runs as --base BASE... --new NEW... "
		       "('--' only ends the options)");
		goto out;
	}
	if (!o.nbase || !o.nnew) {
		ea_die("diff: the %s side has no traces (usage: --base BASE... --new NEW...)",
		       o.nbase ? "new" : "base");
		goto out;
	}
	if (ea_model_load(&ma, o.model_a ? o.model_a : o.model, &err) ||
	    (o.model_b && ea_model_load(&mb, o.model_b, &err))) {
		rc = run_error(&o, err.msg);
		goto out;
	}
	{
		/* before any trace is read; no JUnit error file then: -o
		 * may be the very trace */
		const char *outs[] = { o.output, o.html };
		const struct ea_model *ms[] = { ma, mb };

		if (ea_cli_refuse_inputs_as_outputs(outs, 2, o.base, o.nbase, ms, 2) ||
		    ea_cli_refuse_inputs_as_outputs(outs, 2, o.new, o.nnew, ms, 0))
			goto out;
	}
	d.norm = o.norm;
	d.max_increase_pct = o.max_increase;
	d.confidence = o.confidence;
	d.inconclusive_as = o.inconclusive_as;
	d.models_mode = o.model_a != NULL;
	d.side[0] = (struct ea_diff_side){ .name = "base", .model = ma,
					   .state_cfg = &o.cfg, .acct_cfg = &o.acfg };
	d.side[1] = (struct ea_diff_side){ .name = "new", .model = mb ? mb : ma,
					   .state_cfg = &o.cfg, .acct_cfg = &o.acfg };
	if (mb)
		warn_cluster_match(ma, mb);
	for (int s = 0; s < 2; s++)
		if (ea_cli_unit(&d.side[s].unit, o.unit, d.side[s].model))
			goto out;
	{
		const struct ea_model *models[2] = { ma, mb };

		ea_cli_model_warnings(0, models, 2);
	}
	if (ea_diff_price(&d, o.base, o.nbase, o.new, o.nnew, o.norm,
			  o.jobs, &err)) {
		rc = run_error(&o, err.msg);
		goto out;
	}
	ea_diff_in_unit(&d);
	if (ea_diff_compute(&d, &err)) {
		rc = run_error(&o, err.msg);
		goto out;
	}
	if (ea_out_open(&out, o.output, &err)) {
		ea_die("%s", err.msg);
		goto out;
	}
	if (o.fmt == F_JSON)
		ea_diff_render_json(out.f, &d);
	else if (o.fmt == F_MD)
		ea_diff_render_markdown(out.f, &d);
	else if (o.fmt == F_JUNIT)
		ea_diff_render_junit(out.f, &d);
	else
		ea_diff_render_text(out.f, &d);
	if (ea_out_commit(&out, &err)) {
		ea_die("%s", err.msg);
		goto out;
	}
	if (o.html) {
		if (ea_out_open(&out, o.html, &err)) {
			ea_die("%s", err.msg);
			goto out;
		}
		ea_diff_render_html(out.f, &d);
		if (ea_out_commit(&out, &err)) {
			ea_die("%s", err.msg);
			goto out;
		}
	}
	if (d.fail)
		rc = EXIT_GATE;
	else if (d.verdict == EA_VERDICT_INCONCLUSIVE && d.inconclusive_as == EA_VERDICT_INCONCLUSIVE)
		rc = EXIT_INCONCLUSIVE;
	else
		rc = 0;
out:
	ea_diff_free(&d);
	ea_model_free(ma);
	ea_model_free(mb);
	free(o.base);
	free(o.new);
	return rc;
}
