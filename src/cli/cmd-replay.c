// SPDX-License-Identifier: GPL-2.0-only
/* eatrace replay: the recorded workload under other scheduling decisions. */
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cmd.h"
#include "cli/not-input.h"
#include "cli/options.h"
#include "cli/pictures.h"
#include "eatrace/energy.h"
#include "eatrace/html.h"
#include "eatrace/input.h"
#include "eatrace/model.h"
#include "eatrace/perfetto.h"
#include "eatrace/pipeline.h"
#include "eatrace/progress.h"
#include "eatrace/replay.h"
#include "eatrace/unit.h"

#define STR_(x) #x
#define STR(x) STR_(x)

static const char usage_text[] =
	"usage: eatrace replay [OPTIONS] -m MODEL TRACE\n"
	"\n"
	"Replay the recorded workload (per task: wakeups, work in capacity units,\n"
	"sleeps) through other placement policies, frequency governors and idle\n"
	"selection on a simulated platform, price each timeline with the same\n"
	"accountant as 'eatrace report', and compare with the actual energy.\n"
	"\n"
	"options:\n"
	"  -m, --model MODEL     model of the recorded platform (prices 'actual',\n"
	"                        gives the recorded CPUs' capacities)\n"
	"      --policy LIST     comma-separated policies, or 'all' (default):\n"
	"                        recorded, eas-rfc, feec, cfs, pack, spread\n"
	"                        (pack and spread are heuristics, not bounds)\n"
	"      --governor G      recorded, schedutil, performance, powersave, or\n"
	"                        fixed:CLUSTER=KHZ,... (every cluster of the model\n"
	"                        at one OPP, e.g. fixed:A15=600000,A7=1000000);\n"
	"                        schedutil:rate_limit_us=N (default 1000),\n"
	"                        schedutil:all_opps (inefficient OPPs too)\n"
	"                        (default: recorded; schedutil with --target-model)\n"
	"      --idle I          recorded, menu, oracle (default: recorded;\n"
	"                        menu with --target-model)\n"
	"      --target-model M  replay on another platform (what-if hardware)\n"
	"      --work W          what a task asks for: demand (what it would have\n"
	"                        run with a CPU of its own from each wakeup to its\n"
	"                        recorded end, at the speed it ran at), fixed (the\n"
	"                        work it received in the recording), auto (default:\n"
	"                        demand for activations that never slept, i.e. ran\n"
	"                        or waited until the task exited or the trace ended;\n"
	"                        fixed for those that slept). Every policy runs\n"
	"                        until that work is done, past the trace's end if\n"
	"                        need be, and all are priced to the latest end\n"
	"      --source-capacity N  the recorded CPUs' capacity, whatever their\n"
	"                        frequency (traces from machines without a model;\n"
	"                        -m may then be omitted if --target-model is given)\n"
	"      --pin PID=CPUS, --pin COMM=CPUS  keep the task of that pid, or\n"
	"                        tasks whose comm matches (fnmatch), on those CPUs\n"
	"                        of the platform replayed on (a list: 2, 0-1,4);\n"
	"                        per-CPU kthreads (ksoftirqd/N, kworker/N:M, ...)\n"
	"                        stay on the CPU their recorded N maps to\n"
	"      --shadow POLICY   instead of replaying: at every recorded wakeup, ask\n"
	"                        POLICY where it would place the task on the\n"
	"                        recorded state and compare with the kernel's CPU\n"
	"                        (agreement by stayed on prev, moved, overutilised,\n"
	"                        beside keep-prev's and the waker's CPU's, and\n"
	"                        the decisions where POLICY compared candidates)\n"
	"      --emit-decisions FILE  with --shadow: each decision (time, task, prev,\n"
	"                        recorded and policy CPU, each candidate's energy)\n"
	"                        as JSON if FILE ends in .json, else CSV\n"
	"      --ensemble N      replay every policy N more times on perturbed\n"
	"                        copies of the workload (start cut 0-5 ms, at most\n"
	"                        1% of the window; each wakeup 0-5 us later) for\n"
	"                        the mean and a 95% prediction interval of each\n"
	"                        energy and ratio to the baseline; a saving whose\n"
	"                        interval includes 1 is inconclusive\n"
	"                        (default " STR(EA_REPLAY_ENSEMBLE_N) "; 1 or 0: off)\n"
	"      --baseline POLICY  the ratios' denominator (default cfs; one of\n"
	"                        --policy)\n"
	"      --seed N          the ensemble's perturbations (default 1): the same\n"
	"                        seed gives the same output\n"
	"      --no-sensitivity  no share of wakeup energy, and no ratios with\n"
	"                        wakeup energy at zero (default: both; the latter\n"
	"                        replays every policy once more)\n"
	"      --emit-trace OUT  write the simulated timeline as ftrace text\n"
	"                        ('eatrace report' reads it; one policy only)\n"
	"      --html FILE       also write a self-contained HTML page comparing the runs\n"
	"      --perfetto FILE   also write a trace for ui.perfetto.dev, one process\n"
	"                        per run: Perfetto protobuf when FILE ends in\n"
	"                        .pftrace or .perfetto-trace, else Chrome JSON\n"
	EA_PERFETTO_MAX_MB_HELP

	"  -f, --format FMT   text (default) or json\n"
	EA_UNIT_HELP
	EA_COMMON_OPTS_HELP_NOFMT
	"      --auto-pin        also pin tasks never seen off one CPU over 10+\n"
	"                        activations (recorded platform only; default off:\n"
	"                        --no-auto-pin is accepted and changes nothing)\n"
	"      --timing          print to stderr (even with -q) the CPU and wall\n"
	"                        time of reading the trace and extracting the\n"
	"                        workload, of each policy (simulation and\n"
	"                        pricing) with its decisions, of the ensemble\n"
	"                        and the sensitivity runs, and of the whole\n"
	"                        command with every run's decisions; -v does it\n"
	"                        too\n"
	"  -h, --help            this text\n"
	"\n"
	"Energy is in the model's power_unit x seconds (--unit: J, mJ or uJ),\n"
	"work in capacity x s. A model that 'eatrace model check' rejects is\n"
	"used with a warning (stderr, text, JSON model_check, HTML). Performance costs per\n"
	"policy: wakeup-to-run latency, runnable wait, activations finishing later\n"
	"than recorded, overutilised time, migrations. See docs/replay.md.\n"
	"--ensemble 1 --no-sensitivity gives the output of a single replay.\n"
	"Exit status: 0 ok, 2 usage or input error.\n";

enum { OPT_POLICY = 2000, OPT_GOVERNOR, OPT_IDLE, OPT_TARGET, OPT_SRC_CAP,
       OPT_PIN, OPT_EMIT, OPT_NO_AUTO_PIN, OPT_HTML, OPT_PERFETTO,
       OPT_TIMING, OPT_WORK, OPT_AUTO_PIN, OPT_SHADOW, OPT_DECISIONS, OPT_PERFETTO_MAX,
       OPT_UNIT, OPT_ENSEMBLE, OPT_BASELINE, OPT_SEED, OPT_NO_SENS };

static const struct option extra[] = {
	{ "policy", required_argument, NULL, OPT_POLICY },
	{ "governor", required_argument, NULL, OPT_GOVERNOR },
	{ "idle", required_argument, NULL, OPT_IDLE },
	{ "target-model", required_argument, NULL, OPT_TARGET },
	{ "source-capacity", required_argument, NULL, OPT_SRC_CAP },
	{ "pin", required_argument, NULL, OPT_PIN },
	{ "emit-trace", required_argument, NULL, OPT_EMIT },
	{ "no-auto-pin", no_argument, NULL, OPT_NO_AUTO_PIN },
	{ "auto-pin", no_argument, NULL, OPT_AUTO_PIN },
	{ "shadow", required_argument, NULL, OPT_SHADOW },
	{ "emit-decisions", required_argument, NULL, OPT_DECISIONS },
	{ "html", required_argument, NULL, OPT_HTML },
	{ "perfetto", required_argument, NULL, OPT_PERFETTO },
	{ "perfetto-max-mb", required_argument, NULL, OPT_PERFETTO_MAX },
	{ "timing", no_argument, NULL, OPT_TIMING },
	{ "work", required_argument, NULL, OPT_WORK },
	{ "unit", required_argument, NULL, OPT_UNIT },
	{ "ensemble", required_argument, NULL, OPT_ENSEMBLE },
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "no-sensitivity", no_argument, NULL, OPT_NO_SENS },
};

#define MAX_PINS 64
#define MAX_POLICIES 16

struct replay_opts {
	const char *policy, *governor, *idle, *target, *emit, *html, *perfetto;
	const char *shadow, *decisions, *unit, *baseline;
	double perfetto_max_mb;
	long ensemble;			/* members; 0, 1: none */
	unsigned long long seed;
	bool no_sensitivity;
	unsigned long source_capacity;
	bool auto_pin, timing;
	enum ea_replay_work work;
	struct ea_pin pins[MAX_PINS];
	char pin_text[MAX_PINS][64];
	int npins;
};

static int on_opt(int opt, const char *arg, void *ctx)
{
	struct replay_opts *ro = ctx;
	const char *eq;
	char *end;
	long cpu;

	switch (opt) {
	case OPT_POLICY:
		ro->policy = arg;
		return 0;
	case OPT_GOVERNOR:
		if (!ea_replay_governor_valid(arg)) {
			struct ea_err gerr;

			ea_replay_governor_check(arg, NULL, &gerr);
			return ea_die("%s", gerr.msg);
		}
		ro->governor = arg;
		return 0;
	case OPT_IDLE:
		if (!ea_replay_idle_valid(arg))
			return ea_die("--idle: '%s' is not one of recorded, menu, oracle", arg);
		ro->idle = arg;
		return 0;
	case OPT_TARGET:
		ro->target = arg;
		return 0;
	case OPT_EMIT:
		ro->emit = arg;
		return 0;
	case OPT_NO_AUTO_PIN:
		ro->auto_pin = false;	/* the default now */
		return 0;
	case OPT_AUTO_PIN:
		ro->auto_pin = true;
		return 0;
	case OPT_SHADOW:
		ro->shadow = arg;
		return 0;
	case OPT_DECISIONS:
		ro->decisions = arg;
		return 0;
	case OPT_HTML:
		ro->html = arg;
		return 0;
	case OPT_PERFETTO_MAX:
		return ea_cli_parse_max_mb(arg, &ro->perfetto_max_mb);
	case OPT_PERFETTO:
		ro->perfetto = arg;
		return 0;
	case OPT_TIMING:
		ro->timing = true;
		return 0;
	case OPT_UNIT:
		ro->unit = arg;
		return 0;
	case OPT_WORK:
		if (ea_replay_work_parse(arg) < 0)
			return ea_die("--work: '%s' is not one of demand, fixed, auto", arg);
		ro->work = (enum ea_replay_work)ea_replay_work_parse(arg);
		return 0;
	case OPT_ENSEMBLE:
		errno = 0;
		ro->ensemble = strtol(arg, &end, 10);
		if (errno || end == arg || *end || ro->ensemble < 0 ||
		    ro->ensemble > EA_REPLAY_ENSEMBLE_MAX)
			return ea_die("--ensemble: '%s' is not a count of runs (0 to %d)",
				      arg, EA_REPLAY_ENSEMBLE_MAX);
		return 0;
	case OPT_BASELINE:
		if (ea_replay_policy_find(arg) < 0)
			return ea_die("--baseline: '%s' is not a policy (recorded, eas-rfc, feec, cfs, pack, spread)", arg);
		ro->baseline = arg;
		return 0;
	case OPT_SEED:
		errno = 0;
		ro->seed = strtoull(arg, &end, 10);
		if (errno || end == arg || *end || arg[0] == '-')
			return ea_die("--seed: '%s' is not a number (0 to 2^64 - 1)", arg);
		return 0;
	case OPT_NO_SENS:
		ro->no_sensitivity = true;
		return 0;
	case OPT_SRC_CAP:
		ro->source_capacity = strtoul(arg, &end, 10);
		if (*end || !ro->source_capacity || ro->source_capacity > EA_MODEL_MAX_CAP)
			return ea_die("--source-capacity: '%s' is not a capacity (1..%u)",
				      arg, EA_MODEL_MAX_CAP);
		return 0;
	case OPT_PIN:
		eq = strrchr(arg, '=');
		if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(ro->pin_text[0]))
			return ea_die("--pin: '%s' is not PID=CPULIST or COMM=CPULIST", arg);
		if (ro->npins == MAX_PINS)
			return ea_die("--pin: more than %d", MAX_PINS);
		if (ea_cpulist_parse(eq + 1, ro->pins[ro->npins].cpus, EA_MAX_CPUS) < 0)
			return ea_die("--pin: '%s' is not a CPU list (e.g. 2 or 0-1,4)", eq + 1);
		memcpy(ro->pin_text[ro->npins], arg, eq - arg);
		ro->pin_text[ro->npins][eq - arg] = '\0';
		cpu = strtol(ro->pin_text[ro->npins], &end, 10);
		if (!*end && cpu >= 0 && cpu <= INT32_MAX) {
			ro->pins[ro->npins].pattern = NULL;
			ro->pins[ro->npins].pid = (int32_t)cpu;
		} else {
			ro->pins[ro->npins].pattern = ro->pin_text[ro->npins];
			ro->pins[ro->npins].pid = -1;
		}
		ro->npins++;
		return 0;
	}
	return -1;
}

/* "all" or "a,b,c" into names; returns how many, or -1 (message printed). */
static int parse_policies(const char *list, const char **names, char *buf,
			  size_t n)
{
	int count = 0;
	char *tok, *save;

	if (!list || !strcmp(list, "all")) {
		for (int i = 0; i < ea_replay_policy_count(); i++)
			names[count++] = ea_replay_policy_name(i);
		return count;
	}
	snprintf(buf, n, "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (ea_replay_policy_find(tok) < 0) {
			ea_die("--policy: '%s' is not a policy (recorded, eas-rfc, feec, cfs, pack, spread, all)", tok);
			return -1;
		}
		if (count == MAX_POLICIES) {
			ea_die("--policy: too many");
			return -1;
		}
		names[count++] = ea_replay_policy_name(ea_replay_policy_find(tok));
	}
	if (!count) {
		ea_die("--policy: empty list");
		return -1;
	}
	return count;
}

/* --timing: CPU time of the process and wall time, in seconds. */
struct stamp {
	double cpu, wall;
};

static double ts_s(const struct timespec *ts)
{
	return (double)ts->tv_sec + (double)ts->tv_nsec * 1e-9;
}

static struct stamp stamp_now(void)
{
	struct timespec c = { 0 }, w = { 0 };

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c);
	clock_gettime(CLOCK_MONOTONIC, &w);
	return (struct stamp){ ts_s(&c), ts_s(&w) };
}

/*
 * One line per phase, "key value" pairs that bench/run.sh reads:
 *   eatrace replay timing: phase read+workload cpu_s S wall_s S activations N
 *   eatrace replay timing: policy P cpu_s S wall_s S decisions N
 *                          decisions_per_cpu_s N placements N
 *   eatrace replay timing: ensemble members cpu_s S wall_s S runs N
 *                          decisions N placements N
 *   eatrace replay timing: sensitivity no-wakeups ... (the same keys)
 *   eatrace replay timing: total all cpu_s S wall_s S decisions N
 *                          decisions_per_cpu_s N main_decisions N
 *                          main_decisions_per_cpu_s N placements N
 * (each on one line). A decision is an activation a run placed and
 * measured (its latency.activations: ea_replay_result.lat_n, counted in
 * every run, the ensemble's and the sensitivity's too); placements count
 * the CPUs chosen at wakeup (an activation released while its task still
 * runs an earlier one goes on where it runs, no choice made). `total`:
 * every run's decisions (main_: the main runs' alone) over the command's
 * CPU time so far.
 */
static void timing_head(const char *kind, const char *name, struct stamp t0,
			double *cpu)
{
	struct stamp t1 = stamp_now();
	double wall = t1.wall - t0.wall;

	*cpu = t1.cpu - t0.cpu;
	fprintf(stderr, "eatrace replay timing: %s %s cpu_s %.3f wall_s %.3f",
		kind, name, *cpu, wall);
}

static void timing_n(const char *what, uint64_t n, const double *cpu)
{
	fprintf(stderr, " %s %llu", what, (unsigned long long)n);
	if (cpu)
		fprintf(stderr, " %s_per_cpu_s %.0f", what,
			*cpu > 0 ? (double)n / *cpu : 0.0);
}

static void timing_line(const char *kind, const char *name, struct stamp t0,
			const char *what, uint64_t n)
{
	double cpu;

	timing_head(kind, name, t0, &cpu);
	timing_n(what, n, NULL);
	fputc('\n', stderr);
}

/* ... a line of runs: n runs, decisions, placements */
static void timing_runs(const char *kind, const char *name, struct stamp t0,
			uint64_t n, uint64_t decisions, uint64_t placements)
{
	double cpu;

	timing_head(kind, name, t0, &cpu);
	timing_n("runs", n, NULL);
	timing_n("decisions", decisions, NULL);
	timing_n("placements", placements, NULL);
	fputc('\n', stderr);
}

struct replay_run {
	struct ea_model *model, *target;
	struct ea_acct acct;
	bool have_acct;
	struct ea_workload *wl;
	struct ea_run run;
	struct ea_replay_result res[MAX_POLICIES];
	int nres;
	/* --html, --perfetto: timelines of the actual run and of each replay */
	struct ea_timeline tl;
	bool have_tl;
	struct ea_tl_shadow sh[MAX_POLICIES];
	int nsh;
	struct ea_ensemble ens;
	struct ea_sensitivity sens;
	bool have_ens, have_sens;
};

static void replay_free(struct replay_run *rr)
{
	for (int i = 0; i < rr->nres; i++)
		ea_replay_result_free(&rr->res[i]);
	for (int i = 0; i < rr->nsh; i++)
		ea_tl_shadow_free(&rr->sh[i]);
	if (rr->have_ens)
		ea_ensemble_free(&rr->ens);
	if (rr->have_sens)
		ea_sensitivity_free(&rr->sens);
	if (rr->have_tl)
		ea_timeline_free(&rr->tl);
	ea_run_free(&rr->run);
	ea_workload_free(rr->wl);
	if (rr->have_acct)
		ea_acct_free(&rr->acct);
	if (rr->target != rr->model)
		ea_model_free(rr->target);
	ea_model_free(rr->model);
}

static int emit_open(struct ea_out *eo, struct ea_trace_writer **tw,
		     const char *path, int ncpus, const char *policy)
{
	struct ea_err err;
	char comment[128];

	if (ea_out_open(eo, path, &err))
		return ea_die("%s", err.msg);
	snprintf(comment, sizeof(comment), "eatrace replay --policy %s: simulated", policy);
	if (ea_trace_writer_open(tw, eo->f, ncpus, comment)) {
		ea_out_abort(eo);
		return ea_die("%s: cannot write", path);
	}
	return 0;
}

/* The --html and --perfetto files, each written atomically. */
static int write_pictures(const struct replay_opts *ro, struct replay_run *rr,
			  const struct ea_replay_report *rep)
{
	const struct ea_timeline *tls[MAX_POLICIES + 1];
	struct ea_perfetto *pf;
	struct ea_out out;
	uint64_t t0 = UINT64_MAX;

	tls[0] = rr->have_tl ? &rr->tl : NULL;
	for (int i = 0; i < rr->nsh; i++)
		tls[i + 1] = &rr->sh[i].tl;
	for (int i = 0; i <= rr->nsh; i++)
		if (tls[i] && tls[i]->start < t0)
			t0 = tls[i]->start;
	if (ro->html) {
		if (ea_cli_pic_open(&out, ro->html))
			return EXIT_ERROR;
		ea_replay_render_html(out.f, rep, tls);
		if (ea_cli_pic_commit(&out))
			return EXIT_ERROR;
	}
	if (ro->perfetto) {
		if (ea_cli_perfetto_open(&out, ro->perfetto, &pf, ro->perfetto_max_mb))
			return EXIT_ERROR;
		/* the trace's own times (0 origin), to line up with it */
		if (tls[0])
			ea_perfetto_process(pf, "actual (recorded trace)", tls[0],
					    rr->run.state, 0);
		for (int i = 0; i < rr->nsh; i++) {
			char name[64];

			snprintf(name, sizeof(name), "replay: %s", rr->res[i].policy);
			ea_perfetto_process(pf, name, tls[i + 1], rr->sh[i].st, 0);
		}
		if (ea_cli_perfetto_commit(&out, pf, ro->perfetto_max_mb, ro->perfetto))
			return EXIT_ERROR;
	}
	return 0;
}

/* The ensemble's progress line: one call at a time (runs.c's lock). */
static void ensemble_progress(void *ctx, int done, int n)
{
	char step[256];

	snprintf(step, sizeof(step), "%s: ensemble of perturbed replays",
		 (const char *)ctx);
	ea_progress_step(step, done, n);
}

/*
 * --ensemble and the sensitivity to wakeup energy, after the replays of
 * cfgs (rr->res): 0, or EXIT_ERROR with the message printed.
 */
static int run_extra(const struct replay_opts *ro, struct replay_run *rr,
		     const struct ea_replay_config *cfgs, int npol,
		     int baseline, const char *trace, bool timing)
{
	struct ea_err err;
	struct stamp t0;

	if (ro->ensemble >= 2) {
		struct ea_ensemble_config ec = {
			.n = (int)ro->ensemble, .seed = ro->seed,
			.cut_max_ns = EA_REPLAY_CUT_MAX_NS,
			.jitter_ns = EA_REPLAY_JITTER_NS,
			.confidence = EA_REPLAY_CONFIDENCE,
			.baseline = baseline, .threads = ea_input_jobs(),
			.progress = ensemble_progress,
			.progress_ctx = (void *)trace,
		};

		t0 = stamp_now();
		rr->have_ens = true;
		if (ea_replay_ensemble(rr->wl, cfgs, npol, &ec, &rr->ens, &err)) {
			ea_progress_end();
			return ea_die("%s: %s", trace, err.msg);
		}
		ea_progress_end();
		if (timing)
			timing_runs("ensemble", "members", t0,
				    (uint64_t)ro->ensemble * npol,
				    rr->ens.decisions, rr->ens.placements);
	}
	if (!ro->no_sensitivity) {
		t0 = stamp_now();
		rr->have_sens = true;
		if (ea_replay_sensitivity(rr->wl, cfgs, npol, rr->res, baseline,
					  ea_input_jobs(), &rr->sens, &err))
			return ea_die("%s: %s", trace, err.msg);
		if (timing)
			timing_runs("sensitivity", "no-wakeups", t0,
				    (uint64_t)npol, rr->sens.decisions,
				    rr->sens.placements);
	}
	return 0;
}

/* --shadow: one pass over the recording with the shadow consumer. */
static int run_shadow(struct ea_common_opts *o, const struct replay_opts *ro,
		      const char *trace)
{
	struct ea_shadow_config scfg = { .policy = ro->shadow };
	struct ea_shadow_sink *rows = NULL;
	struct ea_shadow *sh = NULL;
	struct ea_model *m = NULL;
	struct ea_consumer cons;
	struct ea_out out, dec = { 0 };
	struct ea_run run = { 0 };
	struct ea_err err;
	size_t n;
	int rc = EXIT_ERROR;

	if (!o->model || ro->target)
		return ea_die("replay --shadow: needs -m MODEL of the recorded platform, and no --target-model");
	if (ro->emit || ro->html || ro->perfetto)
		return ea_die("replay --shadow: no --emit-trace, --html or --perfetto (nothing is simulated)");
	if (ea_replay_policy_find(ro->shadow) < 0)
		return ea_die("--shadow: '%s' is not a policy (eas-rfc, feec, cfs, pack, spread)", ro->shadow);
	if (ea_model_load(&m, o->model, &err))
		return ea_die("%s", err.msg);
	scfg.model = m;
	{
		const char *outs[] = { o->output, ro->decisions };
		const struct ea_model *ms[] = { m };
		char *tr[] = { (char *)trace };

		if (ea_cli_refuse_inputs_as_outputs(outs, 2, tr, 1, ms, 1))
			goto out;
	}
	if (ro->decisions) {
		if (ea_out_open(&dec, ro->decisions, &err)) {
			ea_die("%s", err.msg);
			goto out;
		}
		n = strlen(ro->decisions);
		rows = ea_shadow_rows_new(dec.f, n >= 5 &&
					  !strcmp(ro->decisions + n - 5, ".json"));
		if (!rows) {
			ea_die("out of memory");
			goto out;
		}
		scfg.decisions = rows;
	}
	if (ea_shadow_new(&sh, &scfg, &err)) {
		ea_die("%s", err.msg);
		goto out;
	}
	cons = (struct ea_consumer){ &ea_shadow_ops, sh };
	o->cfg.ncpus = -1;
	if (ea_run(&run, trace, &o->cfg, &cons, 1, &err) ||
	    ea_shadow_done(sh, &err)) {
		ea_die("%s", err.msg);
		goto out;
	}
	if (dec.f && ea_out_commit(&dec, &err)) {
		dec.f = NULL;
		ea_die("%s", err.msg);
		goto out;
	}
	dec.f = NULL;
	if (ea_out_open(&out, o->output, &err)) {
		ea_die("%s", err.msg);
		goto out;
	}
	ea_shadow_render(out.f, o->format == EA_FMT_JSON, trace, m, ro->shadow,
			 ea_shadow_result(sh));
	rc = ea_out_commit(&out, &err) ? ea_die("%s", err.msg) : 0;
out:
	if (dec.f)
		ea_out_abort(&dec);
	ea_run_free(&run);
	ea_shadow_free(sh);
	ea_shadow_rows_free(rows);
	ea_model_free(m);
	return rc;
}

/*
 * glibc raises its mmap threshold to the size of each mmapped block freed
 * (up to 32 MB): after the first look-ahead ring of a pricing stage is
 * freed, the next ones, the activations' growing arrays and the
 * latencies come from the heap, whose freed middle stays resident. Fixed
 * at its default (128 KiB), every large block is mapped apart, returned
 * when freed and grown by remapping: the peak is what is alive (6 MB
 * less on a 1.3 M-activation recording). Placement and outputs are the
 * same.
 */
static void large_blocks_mapped(void)
{
#ifdef M_MMAP_THRESHOLD
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}

int cmd_replay(int argc, char **argv)
{
	struct ea_common_opts o = { .format = EA_FMT_TEXT };
	/* -1: the default */
	struct replay_opts ro = { .perfetto_max_mb = -1,
				  .ensemble = EA_REPLAY_ENSEMBLE_N,
				  .seed = EA_REPLAY_SEED };
	struct ea_replay_config cfgs[MAX_POLICIES];
	int baseline = -1;
	struct replay_run rr = { 0 };
	struct ea_workload_config wcfg = { 0 };
	struct ea_consumer cons[3];
	struct ea_workload_apart *wa = NULL;
	int rc_run;
	const char *names[MAX_POLICIES];
	char polbuf[256];
	struct ea_replay_report rep;
	struct ea_out out, eo = { 0 };
	struct ea_trace_writer *tw = NULL;
	struct ea_replay_sink sink, shsink[MAX_POLICIES];
	struct ea_energy_unit unit, actual_unit;
	struct ea_err err;
	char **args;
	int nargs, npol, ncons = 0, rc = EXIT_ERROR;
	bool help, same, pictures, timing;
	const char *gov, *idle;
	struct stamp t0, t_all;
	char step[256];

	large_blocks_mapped();
	if (ea_parse_common(argc, argv, &o, extra, sizeof(extra) / sizeof(extra[0]),
			    on_opt, &ro, &help, &args, &nargs))
		return EXIT_ERROR;
	if (help) {
		fputs(usage_text, stdout);
		return 0;
	}
	timing = ro.timing || o.verbose > 0;
	t0 = t_all = stamp_now();
	if (nargs != 1)
		return ea_die("replay: expected one TRACE (see 'eatrace replay --help')");
	if (o.format == EA_FMT_CSV)
		return ea_die("replay: --format csv is not supported (text or json)");
	if (!o.model && !(ro.target && ro.source_capacity))
		return ea_die_no_model("replay", " (or --target-model M with --source-capacity N)");
	if (ro.decisions && !ro.shadow)
		return ea_die("replay: --emit-decisions needs --shadow POLICY");
	if (ro.shadow)
		return run_shadow(&o, &ro, args[0]);
	npol = parse_policies(ro.policy, names, polbuf, sizeof(polbuf));
	if (npol < 0)
		return EXIT_ERROR;
	if (ro.emit && npol != 1)
		return ea_die("replay: --emit-trace needs exactly one --policy");
	for (int i = 0; i < npol; i++)
		if (!strcmp(names[i], ro.baseline ? ro.baseline : "cfs"))
			baseline = i;
	if (ro.baseline && baseline < 0)
		return ea_die("--baseline: '%s' is not among the policies replayed (--policy)",
			      ro.baseline);
	same = !ro.target;
	gov = ro.governor ? ro.governor : same ? "recorded" : "schedutil";
	idle = ro.idle ? ro.idle : same ? "recorded" : "menu";
	if (!same && !strcmp(gov, "recorded"))
		return ea_die("replay: --governor recorded needs the recorded platform (no --target-model)");
	if (!same && !strcmp(idle, "recorded"))
		return ea_die("replay: --idle recorded needs the recorded platform (no --target-model)");
	if (o.model && ea_model_load(&rr.model, o.model, &err))
		return ea_die("%s", err.msg);
	if (ro.target && ea_model_load(&rr.target, ro.target, &err)) {
		ea_die("%s", err.msg);
		goto out;
	}
	if (!rr.target)
		rr.target = rr.model;
	/* each run in the unit asked, each model converted from its own */
	if (ea_cli_unit(&unit, ro.unit, rr.target) ||
	    (rr.model && ea_cli_unit(&actual_unit, ro.unit, rr.model)))
		goto out;
	{
		const struct ea_model *models[2] = { rr.model, rr.target };

		ea_cli_model_warnings(o.verbose, models, 2);
	}
	{
		const char *outs[] = { o.output, ro.html, ro.perfetto, ro.emit };
		const struct ea_model *ms[] = { rr.model, rr.target };

		if (ea_cli_refuse_inputs_as_outputs(outs, 4, args, 1, ms, 2))
			goto out;
	}
	if (rr.target && ea_replay_governor_check(gov, rr.target, &err)) {
		ea_die("%s", err.msg);
		goto out;
	}
	for (int i = 0; rr.target && i < ro.npins; i++)
		for (int c = rr.target->ncpus; c < EA_MAX_CPUS; c++)
			if (ro.pins[i].cpus[c >> 6] >> (c & 63) & 1) {
				ea_die("--pin: model '%s' has no CPU %d", rr.target->name, c);
				goto out;
			}
	pictures = ro.html || ro.perfetto;
	ea_cli_pic_drop_old(ro.html, ro.perfetto);
	if (rr.model) {
		/* the actual run's figures shown are per CPU and cluster */
		struct ea_acct_config acfg = { .no_tasks = true };

		if (ea_acct_init(&rr.acct, rr.model, &acfg, &err)) {
			ea_die("%s", err.msg);
			goto out;
		}
		rr.have_acct = true;
		ea_acct_state_config(&rr.acct, &o.cfg);
		/* the timeline (below) reads its figures after every change */
		cons[ncons++] = (struct ea_consumer){
			pictures ? &ea_acct_live_ops : &ea_acct_ops, &rr.acct };
	}
	if (pictures && rr.have_acct) {
		if (ea_timeline_init(&rr.tl, &rr.acct, 0, ro.perfetto ? 20000 : 400,
				     ro.perfetto != NULL)) {
			ea_die("out of memory");
			goto out;
		}
		rr.have_tl = true;
		cons[ncons++] = (struct ea_consumer){ &ea_timeline_ops, &rr.tl };
	}
	wcfg.model = rr.model;
	wcfg.source_capacity = (uint32_t)ro.source_capacity;
	wcfg.pins = ro.pins;
	wcfg.npins = ro.npins;
	wcfg.auto_pin = ro.auto_pin;
	/* the start cuts of the ensemble's members */
	wcfg.early_ns = ro.ensemble >= 2 ? EA_REPLAY_CUT_MAX_NS : 0;
	wcfg.no_segments = true;
	for (int i = 0; i < npol; i++)
		if (ea_replay_policy_follows(names[i]))
			wcfg.no_segments = false;
	if (ea_workload_new(&rr.wl, &wcfg)) {
		ea_die("out of memory");
		goto out;
	}
	/* the extraction beside the reading, with a job for it besides
	 * those of the reading (decoding, look-ahead, state: on the 2-vCPU
	 * VM a third thread on two cores slowed the reading down) */
	if (ea_input_jobs() >= 4 && !ea_workload_apart_start(&wa, rr.wl))
		cons[ncons++] = (struct ea_consumer){ &ea_workload_apart_ops, wa };
	else
		cons[ncons++] = (struct ea_consumer){ &ea_workload_ops, rr.wl };
	o.cfg.ncpus = -1;
	/* neither the workload, the actual run's accountant nor its
	 * timeline reads utilisation from the state; only --perfetto reads
	 * tasks (their names) */
	o.cfg.no_util = true;
	o.cfg.no_tasks = !ro.perfetto;
	rc_run = ea_run(&rr.run, args[0], &o.cfg, cons, ncons, &err);
	ea_workload_apart_end(wa); /* the workload as made, whatever rc_run */
	if (rc_run) {
		ea_die("%s", err.msg);
		goto out;
	}
	if ((rr.have_acct && ea_acct_done(&rr.acct, rr.run.state, &err)) ||
	    (rr.have_tl && ea_timeline_done(&rr.tl, rr.run.state, &err)) ||
	    ea_workload_done(rr.wl, rr.run.state, &err)) {
		ea_die("%s: %s", ea_trace_label(args[0]), err.msg);
		goto out;
	}
	if (timing)
		timing_line("phase", "read+workload", t0, "activations",
			    ea_workload_counts(rr.wl)->activations);
	if (ro.emit && emit_open(&eo, &tw, ro.emit, same ?
				 ea_workload_counts(rr.wl)->ncpus : rr.target->ncpus,
				 names[0]))
		goto out;
	sink = (struct ea_replay_sink){ ea_trace_writer_event, tw };
	for (int i = 0; i < npol; i++) {
		struct ea_replay_config cfg = {
			.model = rr.target, .policy = names[i], .governor = gov,
			.idle = idle, .same_platform = same, .work = ro.work,
			.sink = tw ? &sink : NULL,
			/* priced on to the runs' common end below */
			.keep_open = true,
			/* one run at a time: its pricing beside it */
			.price_apart = ea_input_jobs() >= 2,
		};

		cfg.state_cfg.win_start = o.cfg.win_start;
		cfg.state_cfg.win_end = o.cfg.win_end;
		cfg.state_cfg.win_relative = o.cfg.win_relative;
		cfg.state_cfg.swapper_idle_state = o.cfg.swapper_idle_state;
		if (pictures) {
			/* a second pricing of the simulated events, for plots */
			if (ea_tl_shadow_init(&rr.sh[i], rr.target, &cfg.state_cfg,
					      &cfg.acct_cfg, same ?
					      ea_workload_counts(rr.wl)->ncpus :
					      rr.target->ncpus, 0,
					      ro.perfetto ? 20000 : 400,
					      ro.perfetto != NULL, cfg.sink, &err)) {
				ea_die("%s", err.msg);
				goto out;
			}
			rr.nsh++;
			shsink[i] = (struct ea_replay_sink){ ea_tl_shadow_event, &rr.sh[i] };
			cfg.sink = &shsink[i];
		}
		t0 = stamp_now();
		snprintf(step, sizeof(step), "%s: replaying policy %s", ea_trace_label(args[0]), names[i]);
		ea_progress_step(step, i + 1, npol);
		if (ea_replay_run(rr.wl, &cfg, &rr.res[i], &err)) {
			ea_progress_end();
			ea_die("%s: %s", ea_trace_label(args[0]), err.msg);
			goto out;
		}
		rr.nres++;
		cfgs[i] = cfg;
		ea_progress_end();
		if (timing) {
			double cpu;

			timing_head("policy", names[i], t0, &cpu);
			timing_n("decisions", rr.res[i].lat_n, &cpu);
			timing_n("placements", rr.res[i].placements, NULL);
			fputc('\n', stderr);
		}
	}
	/* every policy priced to the latest end among them (same work) */
	if (ea_replay_close(rr.res, rr.nres, &err)) {
		ea_die("%s: %s", ea_trace_label(args[0]), err.msg);
		goto out;
	}
	for (int i = 0; pictures && i < rr.nres; i++) {
		if (ea_tl_shadow_done(&rr.sh[i], &err)) {
			ea_die("%s: %s", ea_trace_label(args[0]), err.msg);
			goto out;
		}
	}
	if (tw) {
		ea_trace_writer_free(tw);
		tw = NULL;
		if (ea_out_commit(&eo, &err)) {
			ea_die("%s", err.msg);
			goto out;
		}
	}
	if (run_extra(&ro, &rr, cfgs, npol, baseline, args[0], timing))
		goto out;
	if (timing) {
		uint64_t main_n = 0, main_p = 0, all_n, all_p;
		double cpu;

		for (int i = 0; i < rr.nres; i++) {
			main_n += rr.res[i].lat_n;
			main_p += rr.res[i].placements;
		}
		all_n = main_n + (rr.have_ens ? rr.ens.decisions : 0) +
			(rr.have_sens ? rr.sens.decisions : 0);
		all_p = main_p + (rr.have_ens ? rr.ens.placements : 0) +
			(rr.have_sens ? rr.sens.placements : 0);
		timing_head("total", "all", t_all, &cpu);
		timing_n("decisions", all_n, &cpu);
		timing_n("main_decisions", main_n, &cpu);
		timing_n("placements", all_p, NULL);
		fputc('\n', stderr);
	}
	if (ea_out_open(&out, o.output, &err)) {
		ea_die("%s", err.msg);
		goto out;
	}
	rep = (struct ea_replay_report){
		.path = ea_trace_label(args[0]), .model = rr.model, .target = rr.target,
		.governor = gov, .idle = idle,
		.work = ro.work == EA_WORK_DEMAND ? "demand" :
			ro.work == EA_WORK_FIXED ? "fixed" : "auto",
		.actual = rr.have_acct ? &rr.acct : NULL,
		.wl = ea_workload_counts(rr.wl), .results = rr.res,
		.nresults = rr.nres, .unit = &unit,
		.actual_unit = rr.model ? &actual_unit : NULL,
		.ensemble = rr.have_ens ? &rr.ens : NULL,
		.sensitivity = rr.have_sens ? &rr.sens : NULL,
		.baseline = baseline >= 0 ? names[baseline] : NULL,
	};
	if (o.format == EA_FMT_JSON)
		ea_replay_render_json(out.f, &rep);
	else
		ea_replay_render_text(out.f, &rep);
	rc = ea_out_commit(&out, &err) ? ea_die("%s", err.msg) : 0;
	if (!rc && write_pictures(&ro, &rr, &rep))
		rc = EXIT_ERROR;
out:
	if (tw) {
		ea_trace_writer_free(tw);
		ea_out_abort(&eo);
	}
	replay_free(&rr);
	return rc;
}
