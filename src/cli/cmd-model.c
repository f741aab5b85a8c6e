// SPDX-License-Identifier: GPL-2.0-only
/*
 * eatrace model show|check|list|import|convert: look at, validate and find
 * energy models. import and convert live in cmd-model-import.c.
 */
#include <dirent.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "eatrace/input.h"
#include "eatrace/model.h"
#include "eatrace/output.h"

static const char usage_model[] =
	"usage: eatrace model show  MODEL [-f text|json] [-o FILE]\n"
	"       eatrace model check MODEL [--trace TRACE]... [-f text|json] [-o FILE] [-q]\n"
	"       eatrace model check MODEL --trace TRACE --measured CSV ... (or --rails)\n"
	"       eatrace model fit -m MODEL --pair TRACE CSV ... [-o FITTED.json]\n"
	"       eatrace model list\n"
	"       eatrace model import ...\n"
	"       eatrace model convert ...\n"
	"\n"
	"MODEL is a model file (a path, or a name ending in .json), or the name\n"
	"of a bundled model such as tc2 or juno-r0, looked up as NAME.json in\n"
	"$EATRACE_MODEL_PATH (colon-separated), ./models, the models/,\n"
	"../share/eatrace/models and ../models directories beside the eatrace\n"
	"executable, and the installed data directory.\n"
	"\n"
	"  show     print a model's tables, with efficiencies and inefficient OPPs\n"
	"  check    check a model's consistency, and its coverage of traces\n"
	"  list     list the models found along the search path\n"
	"  import   turn another energy-model format into a model file\n"
	"  convert  rewrite a model file in the native format\n"
	"  fit      fit a model's coefficients to measured energy\n"
	"\n"
	"'eatrace model SUBCOMMAND --help' describes each; docs/model-format.md\n"
	"describes the file format.\n";

static const char usage_show[] =
	"usage: eatrace model show MODEL [-f text|json] [-o FILE]\n"
	"\n"
	"Print the model's clusters: CPUs, cap states (frequency, capacity,\n"
	"core and cluster power), idle states (core and cluster power, wakeup\n"
	"energies, target residency).\n"
	"\n"
	"Per cap state, two efficiencies in power_unit per capacity unit:\n"
	"  core/cap    core_power / cap\n"
	"  shared/cap  (core_power + cluster_power / NCPUS) / cap, the cluster's\n"
	"              power shared equally by its NCPUS CPUs\n"
	"and the inefficient OPPs, by the kernel energy model's rule: with\n"
	"cost = power x max_freq / freq, an OPP is inefficient when a higher\n"
	"one costs no more; \"core\" uses core_power, \"shared\" the shared power.\n"
	"\n"
	"  -f, --format FMT   text tables (default) or json, one object:\n"
	"                     {\"eatrace_model_show\": 1, \"name\", \"path\", \"source\",\n"
	"                     \"power_unit\", \"ncpus\", \"clusters\": [{\"name\", \"cpus\",\n"
	"                     \"freq_domain\", \"idle_implicit\", \"cap_states\": [{\"freq_khz\",\n"
	"                     \"cap\", \"core_power\", \"cluster_power\", \"core_per_cap\",\n"
	"                     \"shared_per_cap\", \"inefficient_core\",\n"
	"                     \"inefficient_shared\"}], \"idle_states\": [{\"index\", \"name\",\n"
	"                     \"core_power\", \"cluster_power\", \"core_wakeup\",\n"
	"                     \"cluster_wakeup\", \"target_residency_us\",\n"
	"                     \"exit_latency_us\" (null: not given)}]}]}\n"
	"  -o, --output FILE  write there instead of stdout (atomically)\n"
	"\n"
	"Exit status: 0, or 2 when the model cannot be loaded.\n";

static const char usage_check[] =
	"usage: eatrace model check MODEL [--trace TRACE]... [-f text|json] [-o FILE] [-q]\n"
	"\n"
	"Check the model's consistency: CPU ids run from 0 without gaps and each\n"
	"CPU is in exactly one cluster; capacities and frequencies ascend; busy\n"
	"core power is not below idle core power; a deeper idle state draws no\n"
	"more core or cluster power than a shallower one. Warnings: inefficient\n"
	"OPPs, power falling as frequency rises, busy cluster power below idle\n"
	"cluster power, a cluster without idle states (one implicit state).\n"
	"\n"
	"With --trace (repeatable), also read the trace and report, as errors,\n"
	"the CPUs it has that the model lacks, and per CPU the frequencies\n"
	"(cpu_frequency) and idle-state indices (cpu_idle) it uses that the\n"
	"CPU's cluster lacks.\n"
	"\n"
	"Each finding is one line on stdout, \"MODEL: error: ...\" or\n"
	"\"MODEL: warning: ...\", then a summary line.\n"
	"\n"
	"  -t, --trace TRACE  a trace (trace.dat, ftrace or systrace text, Perfetto;\n"
	"                     gzip or zstd too) to cover\n"
	"  -f, --format FMT   finding lines (text, the default) or json, one object:\n"
	"                     {\"eatrace_model_check\": 1, \"model\", \"name\", \"traces\",\n"
	"                     \"errors\", \"warnings\", \"findings\": [{\"severity\",\n"
	"                     \"message\"}]}\n"
	"  -o, --output FILE  write there instead of stdout (atomically)\n"
	"  -q, --quiet        print errors only, no warnings or summary\n"
	"\n"
	"Against measured energy (docs/model-fit.md): with --measured CSV after a\n"
	"--trace (a trace without one: its Perfetto power rails), the model's\n"
	"estimate per measurement window against the measurement: per rail the\n"
	"total error and the mean absolute error per window, the worst windows,\n"
	"and the consistency findings above ('eatrace model fit' without the fit).\n"
	"      --measured CSV the measurements of the --trace before it\n"
	"                     (start_s,end_s,rail,energy; as for model fit)\n"
	"      --rails        use the traces' power rails (the default for a\n"
	"                     --trace without --measured)\n"
	"      --rail RAIL=CLUSTER[+CLUSTER...]  rail RAIL measures these clusters\n"
	"      --window MS    merge each rail's windows to at least MS ms\n"
	"      --assume-opp F frequency charged while a CPU's is unknown\n"
	"      --worst N      list the N worst windows (default 5)\n"
	"      --html FILE    also write an HTML page of measured and estimated power\n"
	"      --max-error PCT  exit 1 when a rail's |total error| exceeds PCT %\n"
	"      --max-window-error PCT  exit 1 when a rail's mean absolute error\n"
	"                     per window exceeds PCT % of its mean window\n"
	"\n"
	"Exit status: 0 no errors (warnings allowed), 1 errors found (or a gate\n"
	"failed), 2 the model, a trace or a CSV cannot be read.\n";

static const char usage_list[] =
	"usage: eatrace model list\n"
	"\n"
	"List the models (NAME.json files) along the search path: name, file\n"
	"and the model's own name. A name found in several directories is\n"
	"listed once, from the directory that wins.\n";

/* Options of show and check. */
struct model_opts {
	enum ea_format fmt;
	const char *output;
	bool quiet;
	const char **traces;
	int ntraces;
	const char *model;
};

static const struct option model_long[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "output", required_argument, NULL, 'o' },
	{ "trace", required_argument, NULL, 't' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/*
 * Parse the options of "model show" (check == false) or "model check".
 * Returns 0, 1 after printing help, or EXIT_ERROR after one error line.
 */
static int parse_opts(int argc, char **argv, bool check, const char *usage,
		      struct model_opts *o)
{
	const char *cmd = check ? "check" : "show";
	int opt;

	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage, stdout);
			return 1;
		}
	o->traces = calloc((size_t)argc, sizeof(*o->traces));
	if (!o->traces)
		return ea_die("model %s: out of memory", cmd);
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, check ? ":f:o:t:q" : ":f:o:",
				  model_long, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (!strcmp(optarg, "text"))
				o->fmt = EA_FMT_TEXT;
			else if (!strcmp(optarg, "json"))
				o->fmt = EA_FMT_JSON;
			else
				return ea_die("model %s: --format must be text or json, not '%s'",
					      cmd, optarg);
			break;
		case 'o':
			o->output = optarg;
			break;
		case 't':
		case 'q':
			/* the long forms reach show too: refused, not ignored */
			if (!check)
				return ea_die("model show: %s is an option of 'model check' (try 'eatrace model check %s')",
					      opt == 't' ? "--trace" : "--quiet",
					      opt == 't' ? "MODEL --trace TRACE" : "-q MODEL");
			if (opt == 't')
				o->traces[o->ntraces++] = optarg;
			else
				o->quiet = true;
			break;
		case ':':
			return ea_die("model %s: %s needs an argument (try 'eatrace model %s --help')",
				      cmd, argv[optind - 1], cmd);
		default:
			return ea_die("model %s: unknown option '%s' (try 'eatrace model %s --help')",
				      cmd, argv[optind - 1], cmd);
		}
	}
	if (argc - optind != 1)
		return ea_die("model %s: expected one MODEL, got %d arguments (try 'eatrace model %s --help')",
			      cmd, argc - optind, cmd);
	o->model = argv[optind];
	return 0;
}

/* "0-1", "0,3-5": a CPU list the way the kernel prints cpumasks. */
static void cpu_list(const struct ea_cluster *cl, char *buf, size_t n)
{
	int *c = malloc((size_t)cl->ncpus * sizeof(*c) + 1);
	size_t len = 0;

	buf[0] = '\0';
	if (!c)
		return;
	memcpy(c, cl->cpus, (size_t)cl->ncpus * sizeof(*c));
	for (int i = 1; i < cl->ncpus; i++)	/* few CPUs: insertion sort */
		for (int j = i; j > 0 && c[j - 1] > c[j]; j--) {
			int t = c[j];

			c[j] = c[j - 1];
			c[j - 1] = t;
		}
	for (int i = 0; i < cl->ncpus && len < n; i++) {
		int j = i;

		while (j + 1 < cl->ncpus && c[j + 1] == c[j] + 1)
			j++;
		if (j > i)
			len += snprintf(buf + len, n - len, "%s%d-%d",
					len ? "," : "", c[i], c[j]);
		else
			len += snprintf(buf + len, n - len, "%s%d",
					len ? "," : "", c[i]);
		i = j;
	}
	free(c);
}

static const char *num(double v, char *buf)
{
	return ea_model_fmt_num(v, buf, 32);
}

/* A CPU's busy power with its cluster's power shared equally. */
static double shared_power(const struct ea_cluster *cl, int i)
{
	return cl->caps[i].core_power +
	       (cl->ncpus ? cl->caps[i].cluster_power / cl->ncpus : 0);
}

/* ---- show ---- */

static void show_text(FILE *f, const struct ea_model *m)
{
	fprintf(f, "model: %s\nfile: %s\nsource: %s\n", m->name, m->path,
		m->source && *m->source ? m->source : "(not given)");
	fprintf(f, "power unit: %s (energies in %s x s)\n", m->power_unit,
		m->power_unit);
	fprintf(f, "CPUs: %d, in %d cluster%s\n", m->ncpus, m->nclusters,
		m->nclusters == 1 ? "" : "s");
	if (m->suspend_power) {
		char a[32];

		fprintf(f, "suspended system: %s %s\n", num(m->suspend_power, a),
			m->power_unit);
	}
	for (int ci = 0; ci < m->nclusters; ci++) {
		const struct ea_cluster *cl = &m->clusters[ci];
		bool *ic = calloc((size_t)cl->ncaps + 1, sizeof(bool));
		bool *is = calloc((size_t)cl->ncaps + 1, sizeof(bool));
		char cpus[256], a[32], b[32], c[32], d[32];

		if (ic && is) {
			ea_cluster_inefficient(cl, false, ic);
			ea_cluster_inefficient(cl, true, is);
		}
		cpu_list(cl, cpus, sizeof(cpus));
		fprintf(f, "\ncluster %s: CPU%s %s, %s\n", cl->name,
			cl->ncpus == 1 ? "" : "s", cpus,
			cl->freq_domain ? "one frequency domain" :
			"a frequency per CPU");
		if (cl->offline_power)
			fprintf(f, "  offline CPU: %s %s\n", num(cl->offline_power, a),
				m->power_unit);
		fprintf(f, "  cap states (core/cap = core_power / cap; shared/cap = (core_power + cluster_power / %d) / cap):\n",
			cl->ncpus);
		fprintf(f, "  %10s %5s %12s %14s %10s %11s  %s\n", "freq_khz",
			"cap", "core_power", "cluster_power", "core/cap",
			"shared/cap", "inefficient");
		for (int i = 0; i < cl->ncaps; i++) {
			const struct ea_cap_state *cs = &cl->caps[i];
			bool xc = ic && ic[i], xs = is && is[i];

			fprintf(f, "  %10u %5u %12s %14s %10.4f %11.4f  %s\n",
				cs->freq_khz, cs->cap, num(cs->core_power, a),
				num(cs->cluster_power, b),
				cs->core_power / cs->cap,
				shared_power(cl, i) / cs->cap,
				xc && xs ? "core,shared" : xc ? "core" :
				xs ? "shared" : "-");
		}
		fprintf(f, "  idle states (wakeups in %s x s per wakeup)%s:\n",
			m->power_unit,
			cl->idle_implicit ? ", none in the file: one implicit state drawing nothing" : "");
		fprintf(f, "  %4s %-16s %12s %14s %16s %16s %10s %8s\n", "idx",
			"name", "core_power", "cluster_power", "core_wakeup",
			"cluster_wakeup", "target_us", "exit_us");
		for (int k = 0; k < cl->nidles; k++) {
			const struct ea_idle_state *st = &cl->idles[k];
			char ex[16] = "-";

			if (st->has_exit_latency)
				snprintf(ex, sizeof(ex), "%u",
					 st->exit_latency_us);
			fprintf(f, "  %4d %-16s %12s %14s %16s %16s %10u %8s\n", k,
				st->name, num(st->core_power, a),
				num(st->cluster_power, b),
				num(st->core_wakeup, c),
				num(st->cluster_wakeup, d),
				st->target_residency_us, ex);
		}
		free(ic);
		free(is);
	}
}

static void show_json(FILE *f, const struct ea_model *m)
{
	struct ea_json j;

	ea_json_begin(&j, f);
	ea_json_obj(&j, NULL);
	ea_json_int(&j, "eatrace_model_show", 1);
	ea_json_str(&j, "name", m->name);
	ea_json_str(&j, "path", m->path);
	ea_json_str(&j, "source", m->source ? m->source : "");
	ea_json_str(&j, "power_unit", m->power_unit);
	ea_json_int(&j, "ncpus", m->ncpus);
	ea_json_num(&j, "suspend_power", m->suspend_power);
	ea_json_arr(&j, "clusters");
	for (int ci = 0; ci < m->nclusters; ci++) {
		const struct ea_cluster *cl = &m->clusters[ci];
		bool *ic = calloc((size_t)cl->ncaps + 1, sizeof(bool));
		bool *is = calloc((size_t)cl->ncaps + 1, sizeof(bool));

		if (ic && is) {
			ea_cluster_inefficient(cl, false, ic);
			ea_cluster_inefficient(cl, true, is);
		}
		ea_json_obj(&j, NULL);
		ea_json_str(&j, "name", cl->name);
		ea_json_arr(&j, "cpus");
		for (int k = 0; k < cl->ncpus; k++)
			ea_json_int(&j, NULL, cl->cpus[k]);
		ea_json_arr_end(&j);
		ea_json_bool(&j, "freq_domain", cl->freq_domain);
		ea_json_bool(&j, "idle_implicit", cl->idle_implicit);
		ea_json_num(&j, "offline_power", cl->offline_power);
		ea_json_arr(&j, "cap_states");
		for (int i = 0; i < cl->ncaps; i++) {
			const struct ea_cap_state *cs = &cl->caps[i];

			ea_json_obj(&j, NULL);
			ea_json_uint(&j, "freq_khz", cs->freq_khz);
			ea_json_uint(&j, "cap", cs->cap);
			ea_json_num(&j, "core_power", cs->core_power);
			ea_json_num(&j, "cluster_power", cs->cluster_power);
			ea_json_num(&j, "core_per_cap", cs->core_power / cs->cap);
			ea_json_num(&j, "shared_per_cap",
				    shared_power(cl, i) / cs->cap);
			ea_json_bool(&j, "inefficient_core", ic && ic[i]);
			ea_json_bool(&j, "inefficient_shared", is && is[i]);
			ea_json_obj_end(&j);
		}
		ea_json_arr_end(&j);
		ea_json_arr(&j, "idle_states");
		for (int k = 0; k < cl->nidles; k++) {
			const struct ea_idle_state *st = &cl->idles[k];

			ea_json_obj(&j, NULL);
			ea_json_int(&j, "index", k);
			ea_json_str(&j, "name", st->name);
			ea_json_num(&j, "core_power", st->core_power);
			ea_json_num(&j, "cluster_power", st->cluster_power);
			ea_json_num(&j, "core_wakeup", st->core_wakeup);
			ea_json_num(&j, "cluster_wakeup", st->cluster_wakeup);
			ea_json_uint(&j, "target_residency_us",
				     st->target_residency_us);
			if (st->has_exit_latency)
				ea_json_uint(&j, "exit_latency_us",
					     st->exit_latency_us);
			else
				ea_json_raw(&j, "exit_latency_us", "null");
			ea_json_obj_end(&j);
		}
		ea_json_arr_end(&j);
		ea_json_obj_end(&j);
		free(ic);
		free(is);
	}
	ea_json_arr_end(&j);
	ea_json_obj_end(&j);
	ea_json_end(&j);
}

static int cmd_model_show(int argc, char **argv)
{
	struct model_opts o = { .fmt = EA_FMT_TEXT };
	struct ea_model *m = NULL;
	struct ea_out out;
	struct ea_err err;
	int rc;

	rc = parse_opts(argc, argv, false, usage_show, &o);
	if (rc)
		goto done;
	if (ea_model_load(&m, o.model, &err)) {
		rc = ea_die("%s", err.msg);
		goto done;
	}
	if (ea_out_open(&out, o.output, &err)) {
		rc = ea_die("%s", err.msg);
		goto done;
	}
	if (o.fmt == EA_FMT_JSON)
		show_json(out.f, m);
	else
		show_text(out.f, m);
	if (ea_out_commit(&out, &err))
		rc = ea_die("%s", err.msg);
done:
	ea_model_free(m);
	free(o.traces);
	return rc == 1 ? 0 : rc;
}

/* ---- check ---- */

struct finding {
	enum ea_severity sev;
	char *msg;
};

struct findings {
	struct finding *v;
	int n, cap;
	int errors, warnings;
	bool oom;
};

static void add_finding(void *ctx, enum ea_severity sev, const char *msg)
{
	struct findings *f = ctx;

	if (sev == EA_SEV_ERROR)
		f->errors++;
	else
		f->warnings++;
	if (f->n == f->cap) {
		int cap = f->cap ? f->cap * 2 : 32;
		struct finding *p = realloc(f->v, (size_t)cap * sizeof(*p));

		if (!p) {
			f->oom = true;
			return;
		}
		f->v = p;
		f->cap = cap;
	}
	f->v[f->n].sev = sev;
	f->v[f->n].msg = strdup(msg);
	if (f->v[f->n].msg)
		f->n++;
	else
		f->oom = true;
}

static void add_findingf(struct findings *f, enum ea_severity sev,
			 const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void add_findingf(struct findings *f, enum ea_severity sev,
			 const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	add_finding(f, sev, msg);
}

#define MAX_IDLE_IDX 64

struct freq_use {
	uint32_t khz;
	uint64_t n;
};

/* What one CPU of a trace uses. */
struct cpu_use {
	uint64_t events;
	uint64_t idle[MAX_IDLE_IDX + 1];	/* last slot: larger indices */
	struct freq_use *freqs;
	int nfreqs, cap;
};

struct trace_use {
	struct cpu_use *cpus[EA_MODEL_MAX_CPUS];
	uint64_t nfreq_events, nidle_events;
	uint64_t out_of_range;	/* events naming a CPU id >= 4096 */
};

static struct cpu_use *use_cpu(struct trace_use *u, int cpu)
{
	if (cpu < 0 || cpu >= EA_MODEL_MAX_CPUS) {
		u->out_of_range++;
		return NULL;
	}
	if (!u->cpus[cpu])
		u->cpus[cpu] = calloc(1, sizeof(struct cpu_use));
	if (u->cpus[cpu])
		u->cpus[cpu]->events++;
	return u->cpus[cpu];
}

static void use_freq(struct cpu_use *c, uint32_t khz)
{
	for (int i = 0; i < c->nfreqs; i++)
		if (c->freqs[i].khz == khz) {
			c->freqs[i].n++;
			return;
		}
	if (c->nfreqs == c->cap) {
		int cap = c->cap ? c->cap * 2 : 8;
		struct freq_use *p;

		/* a corrupt trace could name millions: stop listing at 4096 */
		if (cap > 4096)
			return;
		p = realloc(c->freqs, (size_t)cap * sizeof(*p));
		if (!p)
			return;
		c->freqs = p;
		c->cap = cap;
	}
	c->freqs[c->nfreqs++] = (struct freq_use){ khz, 1 };
}

static void note_event(struct trace_use *u, const struct ea_event *ev)
{
	struct cpu_use *c;

	use_cpu(u, ev->cpu);
	switch (ev->type) {
	case EA_EV_FREQ:
		u->nfreq_events++;
		c = use_cpu(u, ev->freq.cpu);
		if (c)
			use_freq(c, ev->freq.freq_khz);
		break;
	case EA_EV_IDLE:
		u->nidle_events++;
		c = use_cpu(u, ev->idle.cpu);
		if (c && ev->idle.state != EA_IDLE_EXIT)
			c->idle[ev->idle.state >= 0 &&
				ev->idle.state < MAX_IDLE_IDX ?
				ev->idle.state : MAX_IDLE_IDX]++;
		break;
	case EA_EV_WAKEUP:
	case EA_EV_WAKING:
	case EA_EV_WAKEUP_NEW:
		if (ev->wake.target_cpu >= 0)
			use_cpu(u, ev->wake.target_cpu);
		break;
	case EA_EV_MIGRATE:
		use_cpu(u, ev->migrate.orig_cpu);
		use_cpu(u, ev->migrate.dest_cpu);
		break;
	default:
		break;
	}
}

static int cmp_freq(const void *a, const void *b)
{
	const struct freq_use *x = a, *y = b;

	return x->khz < y->khz ? -1 : x->khz > y->khz;
}

static const char *times(uint64_t n)
{
	return n == 1 ? "time" : "times";
}

/* The trace's CPUs, frequencies and idle states that the model lacks. */
static void report_trace(struct findings *f, const struct ea_model *m,
			 const char *trace, struct trace_use *u,
			 const struct ea_input_info *info)
{
	char list[768];

	if (u->out_of_range)
		add_findingf(f, EA_SEV_ERROR, "%s: %" PRIu64 " events name a CPU id outside 0..%d",
			     trace, u->out_of_range, EA_MODEL_MAX_CPUS - 1);
	for (int cpu = 0; cpu < EA_MODEL_MAX_CPUS; cpu++) {
		struct cpu_use *c = u->cpus[cpu];
		const struct ea_cluster *cl;
		size_t len = 0;

		if (!c)
			continue;
		cl = ea_model_cpu_cluster(m, cpu);
		if (!cl) {
			add_findingf(f, EA_SEV_ERROR, "%s: the trace has CPU %d (%" PRIu64 " events), which the model lacks",
				     trace, cpu, c->events);
			continue;
		}
		if (c->nfreqs)
			qsort(c->freqs, (size_t)c->nfreqs, sizeof(*c->freqs),
			      cmp_freq);
		list[0] = '\0';
		for (int i = 0; i < c->nfreqs && len < sizeof(list); i++)
			if (ea_model_cap_index(cl, c->freqs[i].khz) < 0)
				len += snprintf(list + len, sizeof(list) - len,
						"%s%u kHz (%" PRIu64 " %s)",
						len ? ", " : "", c->freqs[i].khz,
						c->freqs[i].n, times(c->freqs[i].n));
		if (len)
			add_findingf(f, EA_SEV_ERROR, "%s: CPU %d is set to %s, not a cap state of cluster '%s'",
				     trace, cpu, list, cl->name);
		len = 0;
		list[0] = '\0';
		for (int k = cl->nidles; k <= MAX_IDLE_IDX && len < sizeof(list); k++) {
			if (!c->idle[k])
				continue;
			len += snprintf(list + len, sizeof(list) - len,
					"%s%d%s (%" PRIu64 " %s)", len ? ", " : "",
					k, k == MAX_IDLE_IDX ? " or above" : "",
					c->idle[k], times(c->idle[k]));
		}
		if (len)
			add_findingf(f, EA_SEV_ERROR, "%s: CPU %d enters idle state %s, but cluster '%s' has idle states 0..%d only",
				     trace, cpu, list, cl->name, cl->nidles - 1);
	}
	if (info && info->ncpus > m->ncpus)
		add_findingf(f, EA_SEV_WARNING, "%s: the trace header says %d CPUs, the model has %d",
			     trace, info->ncpus, m->ncpus);
	if (!u->nfreq_events)
		add_findingf(f, EA_SEV_WARNING, "%s: no cpu_frequency events: the frequencies used cannot be checked",
			     trace);
	if (!u->nidle_events)
		add_findingf(f, EA_SEV_WARNING, "%s: no cpu_idle events: the idle states used cannot be checked",
			     trace);
}

static void free_use(struct trace_use *u)
{
	for (int cpu = 0; cpu < EA_MODEL_MAX_CPUS; cpu++) {
		if (u->cpus[cpu])
			free(u->cpus[cpu]->freqs);
		free(u->cpus[cpu]);
	}
	free(u);
}

/* Returns 0, or EXIT_ERROR after one error line. */
static int check_trace(struct findings *f, const struct ea_model *m,
		       const char *trace)
{
	struct trace_use *u = calloc(1, sizeof(*u));
	struct ea_input *in;
	struct ea_event ev;
	struct ea_err err;
	int rc;

	if (!u)
		return ea_die("%s: out of memory", trace);
	if (ea_input_open(&in, trace, &err)) {
		free_use(u);
		return ea_die("%s", err.msg);
	}
	while ((rc = ea_input_next(in, &ev, &err)) > 0)
		note_event(u, &ev);
	if (rc == 0)
		report_trace(f, m, trace, u, ea_input_info(in));
	ea_input_close(in);
	free_use(u);
	if (rc < 0)
		return ea_die("%s", err.msg);
	return 0;
}

static void check_print(FILE *out, const struct model_opts *o,
			const struct ea_model *m, const struct findings *f)
{
	if (o->fmt == EA_FMT_JSON) {
		struct ea_json j;

		ea_json_begin(&j, out);
		ea_json_obj(&j, NULL);
		ea_json_int(&j, "eatrace_model_check", 1);
		ea_json_str(&j, "model", m->path);
		ea_json_str(&j, "name", m->name);
		ea_json_arr(&j, "traces");
		for (int i = 0; i < o->ntraces; i++)
			ea_json_str(&j, NULL, o->traces[i]);
		ea_json_arr_end(&j);
		ea_json_int(&j, "errors", f->errors);
		ea_json_int(&j, "warnings", f->warnings);
		ea_json_arr(&j, "findings");
		for (int i = 0; i < f->n; i++) {
			if (o->quiet && f->v[i].sev != EA_SEV_ERROR)
				continue;
			ea_json_obj(&j, NULL);
			ea_json_str(&j, "severity", f->v[i].sev == EA_SEV_ERROR ?
				    "error" : "warning");
			ea_json_str(&j, "message", f->v[i].msg);
			ea_json_obj_end(&j);
		}
		ea_json_arr_end(&j);
		ea_json_obj_end(&j);
		ea_json_end(&j);
		return;
	}
	for (int i = 0; i < f->n; i++)
		if (!o->quiet || f->v[i].sev == EA_SEV_ERROR)
			fprintf(out, "%s: %s: %s\n", m->path,
				f->v[i].sev == EA_SEV_ERROR ? "error" : "warning",
				f->v[i].msg);
	if (!o->quiet)
		fprintf(out, "%s: %d error%s, %d warning%s\n", m->path,
			f->errors, f->errors == 1 ? "" : "s", f->warnings,
			f->warnings == 1 ? "" : "s");
}

static int cmd_model_check(int argc, char **argv)
{
	struct model_opts o = { .fmt = EA_FMT_TEXT };
	struct findings f = { 0 };
	struct ea_model *m = NULL;
	struct ea_out out;
	struct ea_err err;
	int rc;

	rc = parse_opts(argc, argv, true, usage_check, &o);
	if (rc)
		goto done;
	if (ea_model_load(&m, o.model, &err)) {
		rc = ea_die("%s", err.msg);
		goto done;
	}
	ea_model_check_cb(m, add_finding, &f);
	for (int i = 0; i < o.ntraces && !rc; i++)
		rc = check_trace(&f, m, o.traces[i]);
	if (rc)
		goto done;
	if (f.oom) {
		rc = ea_die("model check: out of memory");
		goto done;
	}
	if (ea_out_open(&out, o.output, &err)) {
		rc = ea_die("%s", err.msg);
		goto done;
	}
	check_print(out.f, &o, m, &f);
	if (ea_out_commit(&out, &err))
		rc = ea_die("%s", err.msg);
	else if (f.errors)
		rc = EXIT_GATE;
done:
	for (int i = 0; i < f.n; i++)
		free(f.v[i].msg);
	free(f.v);
	ea_model_free(m);
	free(o.traces);
	return rc == 1 && !f.errors ? 0 : rc;
}

/* ---- list ---- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One line per model found (the first of a name): name, path, title, in
 * columns as wide as their longest entry. */
static void print_list(char **names, int nnames)
{
	struct ea_model **m = calloc(nnames ? (size_t)nnames : 1, sizeof(*m));
	char (*err)[EA_ERR_MAX] = calloc(nnames ? (size_t)nnames : 1, sizeof(*err));
	int wn = 16, wp = 32;

	if (!m || !err) {
		free(m);
		free(err);
		ea_die("out of memory");
		return;
	}
	for (int i = 0; i < nnames; i++) {
		struct ea_err e;

		if (i && !strcmp(names[i], names[i - 1]))
			continue;
		if (ea_model_load(&m[i], names[i], &e))
			snprintf(err[i], sizeof(err[i]), "%s", e.msg);
		if ((int)strlen(names[i]) > wn)
			wn = (int)strlen(names[i]);
		if (m[i] && (int)strlen(m[i]->path) > wp)
			wp = (int)strlen(m[i]->path);
	}
	for (int i = 0; i < nnames; i++) {
		if (i && !strcmp(names[i], names[i - 1]))
			continue;
		if (m[i])
			printf("%-*s %-*s %s\n", wn, names[i], wp, m[i]->path, m[i]->name);
		else
			printf("%-*s (does not load: %s)\n", wn, names[i], err[i]);
		ea_model_free(m[i]);
	}
	free(m);
	free(err);
}

static int cmd_model_list(int argc, char **argv)
{
	char *dirs[64], **names = NULL;
	int ndirs, nnames = 0, cap = 0;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(usage_list, stdout);
		return 0;
	}
	if (argc != 1)
		return ea_die("model list: takes no arguments (try 'eatrace model list --help')");
	ndirs = ea_model_search_dirs(dirs, 64);
	for (int i = 0; i < ndirs; i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *de;

		while (d && (de = readdir(d))) {
			size_t len = strlen(de->d_name);

			if (len <= 5 || strcmp(de->d_name + len - 5, ".json") ||
			    de->d_name[0] == '.')
				continue;
			if (nnames == cap) {
				int ncap = cap ? cap * 2 : 32;
				char **p = realloc(names, (size_t)ncap * sizeof(*names));

				if (!p)
					break;
				names = p;
				cap = ncap;
			}
			names[nnames] = strndup(de->d_name, len - 5);
			if (names[nnames])
				nnames++;
		}
		if (d)
			closedir(d);
		free(dirs[i]);
	}
	if (nnames)
		qsort(names, (size_t)nnames, sizeof(*names), cmp_str);
	print_list(names, nnames);
	for (int i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	return 0;
}

int cmd_model(int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : NULL;

	if (!sub) {
		fputs(usage_model, stderr);
		return EXIT_ERROR;
	}
	if (!strcmp(sub, "--help") || !strcmp(sub, "-h") || !strcmp(sub, "help")) {
		fputs(usage_model, stdout);
		return 0;
	}
	if (!strcmp(sub, "show"))
		return cmd_model_show(argc - 1, argv + 1);
	if (!strcmp(sub, "check") && cmd_model_check_is_measured(argc - 1, argv + 1))
		return cmd_model_check_measured(argc - 1, argv + 1);
	if (!strcmp(sub, "check"))
		return cmd_model_check(argc - 1, argv + 1);
	if (!strcmp(sub, "fit"))
		return cmd_model_fit(argc - 1, argv + 1);
	if (!strcmp(sub, "list"))
		return cmd_model_list(argc - 1, argv + 1);
	if (!strcmp(sub, "import"))
		return cmd_model_import(argc - 1, argv + 1);
	if (!strcmp(sub, "convert"))
		return cmd_model_convert(argc - 1, argv + 1);
	return ea_die("model: '%s' is not a model subcommand (show, check, list, import, convert, fit; try 'eatrace model --help')",
		      sub);
}
