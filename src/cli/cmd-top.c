// SPDX-License-Identifier: GPL-2.0-only
/*
 * eatrace top: power per CPU and cluster, live, priced with a model.
 *
 * Events are read from our own tracefs instance (trace clock "mono", so
 * trace time is CLOCK_MONOTONIC) every interval and priced by the same
 * pipeline objects as 'eatrace report': a struct ea_state feeding an
 * ea_acct. The state stage holds events back for look-ahead inference and
 * only delivers them when the trace ends, so each interval is priced by a
 * fresh state and accountant over an absolute window [start, end): first
 * the context (each CPU's latest sched_switch, cpu_idle and cpu_frequency
 * before the window, so the state at `start` is known), then the
 * interval's events, then a marker at `end` that carries every CPU to it.
 * See docs/record.md.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "eatrace/energy.h"
#include "eatrace/escape.h"
#include "eatrace/model.h"
#include "eatrace/record.h"

static const char usage_text[] =
	"usage: eatrace top -m MODEL [--interval S] [--count N] [--format text|csv|json]\n"
	"\n"
	"Trace this machine live (a tracefs instance of its own) and show, for\n"
	"every interval, the power of each CPU and cluster (the energy the\n"
	"model prices for the interval divided by its length), the time at each\n"
	"OPP and in each idle state. On a terminal the display refreshes in\n"
	"place; piped, one block of lines is printed per interval. To log power\n"
	"over time, -f csv prints one row per cluster, CPU and total per interval\n"
	"(t_s,interval_s,scope,id,name,power,busy_pct; t_s from the start), -f json\n"
	"one JSON object per interval per line.\n"
	"\n"
	"options:\n"
	"  -m, --model MODEL  model file or bundled name; it must describe every\n"
	"                     CPU of this machine (0 .. N-1), extra CPUs are ignored\n"
	"  -i, --interval S   seconds per refresh (default 1, at least 0.05)\n"
	"  -n, --count N      stop after N intervals (default: until Ctrl-C)\n"
	"  -b, --buffer-kb N  per-CPU ring buffer in KB (default 4096)\n"
	"  -f, --format FMT   text (default), csv or json (one object per line)\n"
	"      --idle-state N idle state index assumed for CPUs without\n"
	"                     cpu_idle events, while they run pid 0 (default 0)\n"
	"  -h, --help         this text\n"
	"\n"
	"Needs root. Ctrl-C (SIGINT) or SIGTERM stops it and removes the\n"
	"instance. Exit status: 0 ok, 2 usage or tracing error.\n";

static const struct option longopts[] = {
	{ "model", required_argument, NULL, 'm' },
	{ "interval", required_argument, NULL, 'i' },
	{ "count", required_argument, NULL, 'n' },
	{ "buffer-kb", required_argument, NULL, 'b' },
	{ "format", required_argument, NULL, 'f' },
	{ "idle-state", required_argument, NULL, 's' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct item {
	uint64_t seq;		/* arrival order: keeps each CPU's order on ties */
	struct ea_event ev;
};

struct top {
	const struct ea_model *m;
	int ncpus;
	int idle_state;		/* for pid-0 time without cpu_idle */
	struct item *it;	/* events read, not yet priced */
	size_t n, cap;
	uint64_t seq;
	bool oom;
	/* context: each CPU's latest state-setting events */
	struct ea_event *last_sw, *last_idle, *last_freq;
	bool *seen;
	uint64_t late, lost, events;
};

static void collect(void *ctx, const struct ea_event *ev)
{
	struct top *t = ctx;

	if (ev->cpu < 0 || ev->cpu >= t->ncpus)
		return;	/* a CPU the model lacks: refused at start */
	if (t->n == t->cap) {
		size_t n = t->cap ? t->cap * 2 : 4096;
		struct item *p = realloc(t->it, n * sizeof(*p));

		if (!p) {
			t->oom = true;
			return;
		}
		t->it = p;
		t->cap = n;
	}
	t->it[t->n].seq = t->seq++;
	t->it[t->n++].ev = *ev;
}

static int by_time(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->ev.ts != y->ev.ts)
		return x->ev.ts < y->ev.ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int by_ts(const void *a, const void *b)
{
	const struct ea_event *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static void remember(struct top *t, const struct ea_event *ev)
{
	int c;

	t->seen[ev->cpu] = true;
	switch (ev->type) {
	case EA_EV_SWITCH:
		t->last_sw[ev->cpu] = *ev;
		break;
	case EA_EV_IDLE:
		c = ev->idle.cpu;
		if (c >= 0 && c < t->ncpus)
			t->last_idle[c] = *ev;
		break;
	case EA_EV_FREQ:
		c = ev->freq.cpu;
		if (c >= 0 && c < t->ncpus)
			t->last_freq[c] = *ev;
		break;
	default:
		break;
	}
}

/* ---- pricing one interval ---- */

static int price(struct top *t, uint64_t start, uint64_t end, size_t n,
		 struct ea_acct *acct, struct ea_state **sp, struct ea_err *err)
{
	struct ea_state_config cfg = { 0 };
	struct ea_event *ctx, mark;
	struct ea_state *s;
	size_t nctx = 0;
	int mcpu = -1;

	if (ea_acct_init(acct, t->m, NULL, err))
		return -1;
	ea_acct_state_config(acct, &cfg);
	cfg.ncpus = t->ncpus;
	cfg.swapper_idle_state = t->idle_state;
	cfg.win_start = start;
	cfg.win_end = end;
	cfg.win_relative = false;
	if (ea_state_new(&s, &cfg, &ea_acct_ops, acct))
		return ea_err_set(err, "out of memory");
	*sp = s;
	ctx = calloc(3 * (size_t)t->ncpus + 1, sizeof(*ctx));
	if (!ctx)
		return ea_err_set(err, "out of memory");
	for (int c = 0; c < t->ncpus; c++) {
		if (t->last_sw[c].ts)
			ctx[nctx++] = t->last_sw[c];
		if (t->last_idle[c].ts)
			ctx[nctx++] = t->last_idle[c];
		if (t->last_freq[c].ts)
			ctx[nctx++] = t->last_freq[c];
	}
	qsort(ctx, nctx, sizeof(*ctx), by_ts);
	for (size_t i = 0; i < nctx; i++)
		if (ea_state_feed(s, &ctx[i], err))
			goto fail;
	for (size_t i = 0; i < n; i++) {
		if (ea_state_feed(s, &t->it[i].ev, err))
			goto fail;
		remember(t, &t->it[i].ev);
	}
	/* carry every CPU to `end`, on a CPU whose task is known */
	for (int c = 0; c < t->ncpus && mcpu < 0; c++)
		if (t->seen[c])
			mcpu = c;
	if (mcpu >= 0) {
		memset(&mark, 0, sizeof(mark));
		mark.ts = end;
		mark.cpu = mcpu;
		mark.cur_pid = -1;
		mark.type = EA_EV_MARKER;
		snprintf(mark.marker.text, sizeof(mark.marker.text), "eatrace: top");
		if (ea_state_feed(s, &mark, err))
			goto fail;
	}
	free(ctx);
	if (ea_state_finish(s, err) || ea_acct_done(acct, s, err))
		return -1;
	return 0;
fail:
	free(ctx);
	return -1;
}

/* ---- display ---- */

static double pct(uint64_t ns, uint64_t dt)
{
	return dt ? 100.0 * (double)ns / (double)dt : 0;
}

static void residency(FILE *f, const struct ea_cluster *cl,
		      const struct ea_pstate_acct *ps,
		      const struct ea_cstate_acct *cs, uint64_t dt)
{
	bool any = false;

	fputs("  opp", f);
	for (int k = 0; k < cl->ncaps; k++)
		if (ps[k].ns) {
			fprintf(f, " %uMHz:%.1f%%", cl->caps[k].freq_khz / 1000,
				pct(ps[k].ns, dt));
			any = true;
		}
	if (!any)
		fputs(" -", f);
	any = false;
	fputs("  idle", f);
	for (int k = 0; k < cl->nidles; k++)
		if (cs[k].ns) {
			fputc(' ', f);
			ea_esc_term(f, cl->idles[k].name);
			fprintf(f, ":%.1f%%", pct(cs[k].ns, dt));
			any = true;
		}
	if (!any)
		fputs(" -", f);
}

static double watts(ea_energy_t e, uint64_t dt)
{
	return dt ? ea_energy_to_double(e) / ((double)dt / 1e9) : 0;
}

static int by_energy(const void *a, const void *b)
{
	ea_energy_t x = ea_energy_total(&((const struct ea_task_acct *)a)->e);
	ea_energy_t y = ea_energy_total(&((const struct ea_task_acct *)b)->e);

	return x > y ? -1 : x < y;
}

static void show(FILE *f, const struct top *t, struct ea_acct *a,
		 uint64_t t0, uint64_t start, uint64_t end, int nth, bool tty)
{
	const struct ea_model *m = t->m;
	const char *u = m->power_unit;
	uint64_t dt = end - start, assumed = 0;
	int shown = 0;
	char mn[4 * EA_NAME_LEN + 1], cn[4 * EA_NAME_LEN + 1];

	if (tty)
		fputs("\033[H\033[J", f);
	fprintf(f, "eatrace top  #%d  %.3f s at +%.3f s  model %s  %d CPUs  total %.3f %s\n",
		nth, (double)dt / 1e9, (double)(end - t0) / 1e9,
		ea_esc_term_buf(mn, sizeof(mn), m->name), t->ncpus,
		watts(ea_energy_total(&a->total), dt), u);
	for (int ci = 0; ci < m->nclusters; ci++) {
		const struct ea_cluster *cl = &m->clusters[ci];
		const struct ea_cluster_acct *ca = &a->clusters[ci];
		bool present = false;

		for (int i = 0; i < cl->ncpus; i++)
			present |= cl->cpus[i] < t->ncpus;
		if (!present)
			continue;
		fprintf(f, "cluster %-8s power %10.3f %s  busy %5.1f%%",
			ea_esc_term_buf(cn, sizeof(cn), cl->name),
			watts(ea_energy_total(&ca->e), dt), u, pct(ca->busy_ns, dt));
		residency(f, cl, ca->pstates, ca->cstates, dt);
		fputc('\n', f);
	}
	for (int c = 0; c < t->ncpus; c++) {
		const struct ea_cluster *cl = &m->clusters[m->cpu_cluster[c]];
		const struct ea_cpu_acct *ca = &a->cpus[c];

		assumed += ca->assumed_freq_ns;
		fprintf(f, "cpu %-3d %-8s power %10.3f %s  busy %5.1f%%", c,
			ea_esc_term_buf(cn, sizeof(cn), cl->name),
			watts(ea_energy_total(&ca->e), dt), u, pct(ca->busy_ns, dt));
		residency(f, cl, ca->pstates, ca->cstates, dt);
		fputc('\n', f);
	}
	qsort(a->tasks, a->ntasks, sizeof(*a->tasks), by_energy);
	fputs("tasks  ", f);
	for (size_t i = 0; i < a->ntasks && shown < 4; i++) {
		const struct ea_task_acct *tk = &a->tasks[i];

		if (tk->pid <= 0)
			continue;
		fputc(' ', f);
		ea_esc_term(f, tk->comm);
		fprintf(f, "/%d %.3f", tk->pid,
			watts(ea_energy_total(&tk->e), dt));
		shown++;
	}
	fputs(shown ? "\n" : " -\n", f);
	if (assumed)
		fputs("note: no cpu_frequency events: busy time is priced at each "
		      "cluster's highest OPP\n", f);
	if (t->lost || t->late)
		fprintf(f, "note: %llu lost-event gaps, %llu late events dropped so far\n",
			(unsigned long long)t->lost, (unsigned long long)t->late);
	if (!tty)
		fputc('\n', f);
	fflush(f);
}

enum top_fmt { TOP_TEXT, TOP_CSV, TOP_JSON };

/* A CSV field, quoted (RFC 4180) */
static void csv_name(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* -f csv|json: the same figures as show(), one line per row or interval,
 * for logging power over time. */
static void show_log(FILE *f, const struct top *t, const struct ea_acct *a,
		     uint64_t t0, uint64_t start, uint64_t end, int nth,
		     enum top_fmt fmt)
{
	const struct ea_model *m = t->m;
	uint64_t dt = end - start;
	double ts = (double)(end - t0) / 1e9, len = (double)dt / 1e9;
	uint64_t busy = 0;

	for (int c = 0; c < t->ncpus; c++)
		busy += a->cpus[c].busy_ns;
	if (fmt == TOP_CSV) {
		if (nth == 1)
			fputs("t_s,interval_s,scope,id,name,power,busy_pct\n", f);
		fprintf(f, "%.6f,%.6f,total,,,%.6f,%.2f\n", ts, len,
			watts(ea_energy_total(&a->total), dt),
			t->ncpus ? pct(busy, dt) / t->ncpus : 0);
		for (int ci = 0; ci < m->nclusters; ci++) {
			fprintf(f, "%.6f,%.6f,cluster,%d,", ts, len, ci);
			csv_name(f, m->clusters[ci].name);
			fprintf(f, ",%.6f,%.2f\n", watts(ea_energy_total(&a->clusters[ci].e), dt),
				pct(a->clusters[ci].busy_ns, dt));
		}
		for (int c = 0; c < t->ncpus; c++) {
			fprintf(f, "%.6f,%.6f,cpu,%d,", ts, len, c);
			csv_name(f, m->clusters[m->cpu_cluster[c]].name);
			fprintf(f, ",%.6f,%.2f\n", watts(ea_energy_total(&a->cpus[c].e), dt),
				pct(a->cpus[c].busy_ns, dt));
		}
	} else {
		fprintf(f, "{\"interval\": %d, \"t_s\": %.6f, \"interval_s\": %.6f, \"power_unit\": \"%s\", \"power\": %.6f, \"clusters\": [",
			nth, ts, len, m->power_unit, watts(ea_energy_total(&a->total), dt));
		for (int ci = 0; ci < m->nclusters; ci++)
			fprintf(f, "%s{\"cluster\": %d, \"power\": %.6f, \"busy_pct\": %.2f}",
				ci ? ", " : "", ci,
				watts(ea_energy_total(&a->clusters[ci].e), dt),
				pct(a->clusters[ci].busy_ns, dt));
		fputs("], \"cpus\": [", f);
		for (int c = 0; c < t->ncpus; c++)
			fprintf(f, "%s{\"cpu\": %d, \"power\": %.6f, \"busy_pct\": %.2f}",
				c ? ", " : "", c, watts(ea_energy_total(&a->cpus[c].e), dt),
				pct(a->cpus[c].busy_ns, dt));
		fputs("]}\n", f);
	}
	fflush(f);
}

/* ---- the command ---- */

static int check_model(const struct ea_model *m, int ncpus)
{
	for (int c = 0; c < ncpus; c++)
		if (c >= m->ncpus || m->cpu_cluster[c] < 0)
			return ea_die("top: model '%s' describes %d CPUs but this machine has %d "
				      "(CPU %d is missing): give a model with every CPU 0-%d",
				      m->name, m->ncpus, ncpus, c, ncpus - 1);
	return 0;
}

int cmd_top(int argc, char **argv)
{
	struct ea_session_opts so = { .clock = "mono" };
	struct ea_model *model = NULL;
	struct ea_live *live = NULL;
	struct top t = { 0 };
	struct ea_session s;
	struct ea_sysinfo si;
	struct ea_err err;
	const char *mpath = NULL;
	uint64_t interval = 1000000000ull, t0, start;
	long count = 0;
	int c, nth = 0, rc = EXIT_ERROR;
	bool tty = isatty(STDOUT_FILENO);
	enum top_fmt fmt = TOP_TEXT;
	char *end;
	double v;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "m:i:n:b:s:f:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			mpath = optarg;
			break;
		case 'i':
			v = strtod(optarg, &end);
			if (*end || !(v >= 0.05) || v > 3600)
				return ea_die("--interval: '%s' is not a duration in seconds (0.05 to 3600)",
					      optarg);
			interval = (uint64_t)(v * 1e9 + 0.5);
			break;
		case 'n':
			count = strtol(optarg, &end, 10);
			if (*end || count <= 0)
				return ea_die("--count: '%s' is not a positive number", optarg);
			break;
		case 'b':
			so.buffer_kb = strtoul(optarg, &end, 10);
			if (*end || so.buffer_kb < 4 || so.buffer_kb > (1ul << 22))
				return ea_die("--buffer-kb: '%s' is not a size in KB (4 to 4194304)",
					      optarg);
			break;
		case 's':
			t.idle_state = (int)strtol(optarg, &end, 10);
			if (*end || !*optarg || t.idle_state < 0 || t.idle_state > 63)
				return ea_die("--idle-state: '%s' is not an idle state index (0-63)",
					      optarg);
			break;
		case 'f':
			if (!strcmp(optarg, "text"))
				fmt = TOP_TEXT;
			else if (!strcmp(optarg, "csv"))
				fmt = TOP_CSV;
			else if (!strcmp(optarg, "json"))
				fmt = TOP_JSON;
			else
				return ea_die("--format: '%s' is not text, csv or json", optarg);
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			if (optopt && optopt < 256)
				return ea_die("top: unknown option or missing value '-%c' (see --help)",
					      optopt);
			return ea_die("top: unknown or incomplete option '%s' (see --help)",
				      argv[optind - 1]);
		}
	}
	if (optind < argc)
		return ea_die("top: unexpected argument '%s' (see --help)", argv[optind]);
	if (!mpath)
		return ea_die_no_model("top", NULL);
	if (ea_model_load(&model, mpath, &err))
		return ea_die("%s", err.msg);
	if (ea_sysinfo_read(&si, NULL, &err)) {
		ea_model_free(model);
		return ea_die("%s", err.msg);
	}
	t.m = model;
	t.ncpus = si.ncpus;
	ea_sysinfo_free(&si);
	if (check_model(model, t.ncpus)) {
		ea_model_free(model);
		return EXIT_ERROR;
	}
	t.last_sw = calloc(t.ncpus, sizeof(*t.last_sw));
	t.last_idle = calloc(t.ncpus, sizeof(*t.last_idle));
	t.last_freq = calloc(t.ncpus, sizeof(*t.last_freq));
	t.seen = calloc(t.ncpus, sizeof(*t.seen));
	if (!t.last_sw || !t.last_idle || !t.last_freq || !t.seen) {
		ea_die("out of memory");
		goto out_mem;
	}
	ea_signals_install();
	if (ea_session_open(&s, "eatrace-top", &so, &err)) {
		ea_die("top: %s", err.msg);
		goto out_mem;
	}
	if (ea_live_open(&live, &s, &err) || ea_session_start(&s, &err)) {
		ea_die("top: %s", err.msg);
		goto out;
	}
	t0 = start = ea_mono_ns();
	while (!ea_signal_pending()) {
		struct ea_state *st = NULL;
		struct ea_acct acct;
		uint64_t stop = start + interval, now;
		size_t n = 0, keep = 0;

		while (!ea_signal_pending() && (now = ea_mono_ns()) < stop)
			ea_sleep_ns(stop - now);
		if (ea_signal_pending())
			break;
		stop = ea_mono_ns();
		if (ea_live_read(live, collect, &t, &err) < 0) {
			ea_die("top: %s", err.msg);
			goto out;
		}
		if (t.oom) {
			ea_die("out of memory");
			goto out;
		}
		qsort(t.it, t.n, sizeof(*t.it), by_time);
		/* drop what is older than the interval, keep what is newer */
		for (size_t i = 0; i < t.n; i++) {
			const struct ea_event *ev = &t.it[i].ev;

			t.events++;
			if (ev->type == EA_EV_LOST)
				t.lost++;
			if (ev->ts < start && nth) {
				t.late++;
				continue;
			}
			if (ev->ts < stop)
				t.it[n++] = t.it[i];
		}
		for (size_t i = 0; i < t.n; i++)
			if (t.it[i].ev.ts >= stop)
				t.it[n + keep++] = t.it[i];
		memset(&acct, 0, sizeof(acct));
		if (price(&t, start, stop, n, &acct, &st, &err)) {
			ea_state_free(st);
			ea_acct_free(&acct);
			ea_die("top: %s", err.msg);
			goto out;
		}
		memmove(t.it, t.it + n, keep * sizeof(*t.it));
		t.n = keep;
		{
			/* the time the state covers: from the first event on
			 * the first interval, else [start, stop) */
			uint64_t ws, we;

			ea_state_window(st, &ws, &we);
			if (fmt == TOP_TEXT)
				show(stdout, &t, &acct, t0, ws, we > ws ? we : stop, ++nth, tty);
			else
				show_log(stdout, &t, &acct, t0, ws, we > ws ? we : stop, ++nth, fmt);
		}
		ea_state_free(st);
		ea_acct_free(&acct);
		if (ferror(stdout))
			break;	/* the reader went away (EPIPE): stop quietly */
		start = stop;
		if (count && nth >= count)
			break;
	}
	rc = 0;
out:
	ea_live_close(live);
	ea_session_close(&s);
out_mem:
	free(t.it);
	free(t.last_sw);
	free(t.last_idle);
	free(t.last_freq);
	free(t.seen);
	ea_model_free(model);
	return rc;
}
