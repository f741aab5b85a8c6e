// SPDX-License-Identifier: GPL-2.0-only
/* eatrace batch: many traces x models -> one table (docs/batch.md). */
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/batch-stop.h"
#include "cli/cmd.h"
#include "cli/options.h"
#include "eatrace/batch.h"
#include "eatrace/input.h"
#include "eatrace/model.h"
#include "eatrace/output.h"
#include "eatrace/pool.h"
#include "eatrace/progress.h"

static const char usage_text[] =
	"usage: eatrace batch [OPTIONS] -m MODEL [-m MODEL ...] TRACE|DIR ...\n"
	"\n"
	"Price many traces with one or more models: one row per trace x model\n"
	"(trace path, model, content hash, duration, total/busy/idle/wakeup\n"
	"energy, mean power, units, model check errors, error), in input\n"
	"order. A directory is walked recursively (sorted) for the files that\n"
	"are traces by their content, as 'report' recognises them, whatever\n"
	"their names; the other files are skipped and named on stderr. A trace\n"
	"that fails is a row with its one-line error.\n"
	"\n"
	"options:\n"
	"  -m, --model MODEL  model file or bundled name; repeat for more\n"
	"      --list FILE    also read trace paths from FILE, one per line\n"
	"                     ('-': stdin; blank lines and # comments skipped)\n"
	"  -f, --format FMT   csv (default) or jsonl (one JSON object a line)\n"
	"      --rows KIND    trace (default): one row per trace x model; cluster,\n"
	"                     cpu or task: one per trace x model x cluster, CPU\n"
	"                     or task, with its key columns after hash\n"
	"  -o, --output FILE  write there instead of stdout (atomically)\n"
	EA_UNIT_HELP
	"  -j, --jobs N       worker processes (default: the CPU count)\n"
	"      --max-inflate R  a compressed trace may expand to R times its\n"
	"                     size on disk, at least 32 MiB (default 32)\n"
	"      --resume       keep the rows already in -o FILE and skip their\n"
	"                     traces (same content hash and model); error rows\n"
	"                     are run again; FILE must be a table of this -f;\n"
	"                     temporaries a killed batch left beside it are\n"
	"                     removed\n"
	"  -q, --quiet        no progress line, model warning, nor the files\n"
	"                     skipped, on stderr\n"
	"  -v, --verbose      name every file found in a directory on stderr:\n"
	"                     each trace with its format, each file skipped\n"
	"  -h, --help         this text\n"
	"\n"
	"SIGINT, SIGTERM or SIGHUP stop the workers and write the rows finished\n"
	"so far (to -o FILE: --resume goes on from them).\n"
	"\n"
	"Columns: docs/batch.md. Exit status: 0 every row ok, 1 some rows are\n"
	"errors, 2 usage error or the output could not be written, 128 + the\n"
	"signal when stopped by one.\n";

enum { OPT_LIST = 2000, OPT_RESUME, OPT_ROWS, OPT_UNIT, OPT_MAX_INFLATE };

static const struct option longopts[] = {
	{ "model", required_argument, NULL, 'm' },
	{ "format", required_argument, NULL, 'f' },
	{ "output", required_argument, NULL, 'o' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "list", required_argument, NULL, OPT_LIST },
	{ "resume", no_argument, NULL, OPT_RESUME },
	{ "rows", required_argument, NULL, OPT_ROWS },
	{ "unit", required_argument, NULL, OPT_UNIT },
	{ "max-inflate", required_argument, NULL, OPT_MAX_INFLATE },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct strv {
	char **v;
	size_t n, cap;
};

static int strv_add(struct strv *s, const char *str)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		char **v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -1;
		s->v = v;
		s->cap = cap;
	}
	if (!(s->v[s->n] = strdup(str)))
		return -1;
	s->n++;
	return 0;
}

static void strv_free(struct strv *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

struct batch {
	struct strv paths;
	const char *model_names[64];
	struct ea_model *models[64];
	struct ea_energy_unit units[64];	/* --unit, per model */
	const char *unit;
	int nmodels;
	enum ea_batch_fmt fmt;
	enum ea_batch_rows kind;
	bool quiet, verbose;
	/* --resume: "hash\tmodel" of rows kept; kept lines */
	struct strv keys, kept;
	/* per trace: hash computed by the parent (resume), models to run */
	char (*hash)[EA_HASH_LEN];
	unsigned char *need;		/* [trace * nmodels + model] */
	size_t *jobs, njobs;		/* traces with something to run */
	char **res;			/* per job: rows, once done */
	size_t emitted, ndone, nerr;
	FILE *out;
	struct timespec t0;
	bool drawn;
};

static struct strv *walk_into;

/* Every regular file: which are traces is told by content (probe_found). */
static int walk_cb(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	if (type != FTW_F || !S_ISREG(st->st_mode))
		return 0;
	return strv_add(walk_into, path) ? -1 : 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The files found under a directory from paths[first] on: those that are
 * not traces by their content (ea_input_probe(), the test `report` makes)
 * are dropped and named on stderr; those that cannot be read are kept,
 * for their error rows.
 */
static void probe_found(struct batch *b, const char *dir, size_t first)
{
	size_t keep = first, skipped = 0;

	for (size_t i = first; i < b->paths.n; i++) {
		const char *format = NULL;
		struct ea_err err;
		int is = ea_input_probe(b->paths.v[i], &format, &err);

		if (!is) {
			if (!b->quiet || b->verbose)
				ea_msg("batch: skipped %s", err.msg);
			free(b->paths.v[i]);
			skipped++;
			continue;
		}
		if (b->verbose)
			ea_msg("batch: %s: %s", b->paths.v[i], is > 0 ? format : "unreadable");
		b->paths.v[keep++] = b->paths.v[i];
	}
	b->paths.n = keep;
	if (b->verbose)
		ea_msg("batch: %s: %zu trace(s), %zu other file(s) skipped", dir,
		       keep - first, skipped);
}

/* A TRACE argument: a directory is walked (sorted), anything else taken as is. */
static int add_input(struct batch *b, const char *arg)
{
	struct stat st;
	size_t first = b->paths.n;

	if (stat(arg, &st) || !S_ISDIR(st.st_mode))
		return strv_add(&b->paths, arg) ? ea_die("out of memory") : 0;
	walk_into = &b->paths;
	if (nftw(arg, walk_cb, 32, 0))
		return ea_die("%s: cannot walk the directory: %s", arg, strerror(errno));
	qsort(b->paths.v + first, b->paths.n - first, sizeof(char *), cmp_str);
	probe_found(b, arg, first);
	return 0;
}

static int add_list(struct batch *b, const char *file)
{
	FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc = 0;

	if (!f)
		return ea_die("%s: cannot open: %s", file, strerror(errno));
	while (!rc && (n = getline(&line, &cap, f)) >= 0) {
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = 0;
		if (n && line[0] != '#')
			rc = add_input(b, line);
	}
	free(line);
	if (f != stdin)
		fclose(f);
	return rc;
}

/*
 * --resume: the table's first line must be this -f's: a CSV table starts
 * with its header, JSON lines with an object. Anything else is another
 * format's table (resuming it would replace its rows by one of ours) or no
 * table at all: refused, the file left as it is.
 */
static int table_format(const struct batch *b, const char *file, const char *line)
{
	bool csv = !strncmp(line, "path,model,", 11), json = line[0] == '{';

	if (b->fmt == EA_BATCH_CSV ? csv : json)
		return 0;
	if (csv || json)
		return ea_die("%s:1: a %s table; cannot resume it with -f %s (give -f %s)",
			      file, csv ? "CSV" : "JSON-lines",
			      b->fmt == EA_BATCH_CSV ? "csv" : "jsonl", csv ? "csv" : "jsonl");
	return ea_die("%s:1: not a batch table (%s); cannot resume it", file,
		      b->fmt == EA_BATCH_CSV ? "no CSV header" : "not a JSON object");
}

/* A kept row of model whose energies are in another unit than this run's
 * (another --unit): priced again, so one table has one unit per model. */
static bool other_unit(const struct batch *b, const char *model, const char *unit)
{
	for (int m = 0; m < b->nmodels; m++)
		if (!strcmp(b->model_names[m], model))
			return strcmp(b->units[m].energy, unit);
	return false;
}

/* --resume: keep the ok rows of the existing output, note their keys. */
static int read_previous(struct batch *b, const char *file)
{
	FILE *f = fopen(file, "r");
	char *line = NULL, model[EA_ERR_MAX], hash[EA_HASH_LEN], unit[EA_EU_NAME_LEN], *key;
	size_t cap = 0, lineno = 0;
	bool failed;
	int rc = 0, k;

	if (!f)
		return errno == ENOENT ? 0 : ea_die("%s: cannot read: %s", file, strerror(errno));
	while (!rc && getline(&line, &cap, f) >= 0) {
		lineno++;
		if (lineno == 1 && (rc = table_format(b, file, line)))
			break;
		if (b->fmt == EA_BATCH_CSV && !strncmp(line, "path,model,", 11)) {
			/* a table of other columns (another --rows) is not this one */
			char *want = NULL;
			size_t wlen;
			FILE *w = open_memstream(&want, &wlen);

			if (w) {
				ea_batch_header(w, b->fmt, b->kind);
				fclose(w);
			}
			if (want && strcmp(line, want))
				rc = ea_die("%s:1: its columns are not those of this --rows; "
					    "cannot resume it", file);
			free(want);
			continue;
		}
		k = ea_batch_row_key(line, b->fmt, b->kind, hash, model, unit, &failed);
		if (k == -2) {
			rc = ea_die("%s:%zu: its keys are not those of this --rows; "
				    "cannot resume it", file, lineno);
			break;
		}
		if (k || failed || other_unit(b, model, unit))
			continue;
		if (asprintf(&key, "%s\t%s", hash, model) < 0)
			rc = ea_die("out of memory");
		else if (strv_add(&b->keys, key) || strv_add(&b->kept, line))
			rc = ea_die("out of memory");
		free(key);
	}
	free(line);
	fclose(f);
	return rc;
}

static bool have_key(const struct batch *b, const char *hash, const char *model)
{
	size_t hl = strlen(hash);

	for (size_t i = 0; i < b->keys.n; i++)
		if (!strncmp(b->keys.v[i], hash, hl) && b->keys.v[i][hl] == '\t' &&
		    !strcmp(b->keys.v[i] + hl + 1, model))
			return true;
	return false;
}

struct emit_ctx {
	FILE *out;
	enum ea_batch_fmt fmt;
};

static void emit_row(const struct ea_batch_row *row, void *ctx)
{
	const struct emit_ctx *e = ctx;

	fputc(row->failed ? '!' : '+', e->out);
	ea_batch_row_write(e->out, e->fmt, row);
}

/* In a worker: the rows of one trace, each line prefixed '+' (ok) or '!'. */
static void run_trace(size_t job, FILE *out, void *ctx)
{
	struct batch *b = ctx;
	size_t t = b->jobs[job];
	struct ea_batch_row row = { .path = b->paths.v[t], .kind = b->kind };
	struct emit_ctx ec = { out, b->fmt };
	struct ea_err err;
	int rc = 0;

	if (b->hash[t][0])
		memcpy(row.hash, b->hash[t], EA_HASH_LEN);
	else
		rc = ea_hash_file(row.path, row.hash, &err);
	for (int m = 0; m < b->nmodels; m++) {
		if (!b->need[t * (size_t)b->nmodels + (size_t)m])
			continue;
		row.model = b->model_names[m];
		row.unit = &b->units[m];
		row.failed = false;
		if (rc) {
			row.failed = true;
			snprintf(row.error, sizeof(row.error), "%s", err.msg);
			emit_row(&row, &ec);
		} else {
			ea_batch_price_rows(&row, b->models[m], emit_row, &ec);
		}
	}
}

static double elapsed(const struct batch *b)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)(ts.tv_sec - b->t0.tv_sec) + (ts.tv_nsec - b->t0.tv_nsec) / 1e9;
}

static void progress(struct batch *b)
{
	double t = elapsed(b), eta;

	if (b->quiet || !isatty(STDERR_FILENO))
		return;
	eta = b->ndone ? t / (double)b->ndone * (double)(b->njobs - b->ndone) : 0;
	fprintf(stderr, "\rbatch: %zu/%zu traces, %zu error rows, %.0fs elapsed, ETA %.0fs\033[K",
		b->ndone, b->njobs, b->nerr, t, eta);
	b->drawn = true;
}

/* In the parent: job's rows arrive; write every finished job in order. */
static void trace_done(size_t job, const char *buf, size_t len, int wstatus, void *ctx)
{
	struct batch *b = ctx;
	size_t t = b->jobs[job], k = 0;
	char *text = malloc(len + 1), *p;

	if (!text) {
		ea_die("out of memory");
		exit(EXIT_ERROR);
	}
	if (WIFEXITED(wstatus) && !WEXITSTATUS(wstatus)) {
		/* strip the '+'/'!' marks, count errors */
		for (const char *s = buf; s < buf + len; s++) {
			if (s == buf || s[-1] == '\n') {
				b->nerr += *s == '!';
				continue;
			}
			text[k++] = *s;
		}
		text[k] = 0;
	} else {
		/* the worker died: every row it owed is an error row */
		struct ea_batch_row row = { .path = b->paths.v[t], .kind = b->kind,
					    .failed = true };
		FILE *f;

		memcpy(row.hash, b->hash[t], EA_HASH_LEN);
		if (WIFSIGNALED(wstatus))
			snprintf(row.error, sizeof(row.error), "%s: worker died (signal %d)",
				 row.path, WTERMSIG(wstatus));
		else
			snprintf(row.error, sizeof(row.error), "%s: worker failed (exit %d)",
				 row.path, WEXITSTATUS(wstatus));
		free(text);
		text = NULL;
		f = open_memstream(&text, &k);
		for (int m = 0; f && m < b->nmodels; m++) {
			if (!b->need[t * (size_t)b->nmodels + (size_t)m])
				continue;
			row.model = b->model_names[m];
			ea_batch_row_write(f, b->fmt, &row);
			b->nerr++;
		}
		if (!f || fclose(f)) {
			ea_die("out of memory");
			exit(EXIT_ERROR);
		}
	}
	b->res[job] = text;
	b->ndone++;
	while (b->emitted < b->njobs && (p = b->res[b->emitted])) {
		fputs(p, b->out);
		free(p);
		b->res[b->emitted++] = NULL;
	}
	progress(b);
}

static int parse_args(struct batch *b, int argc, char **argv, const char **output,
		      const char **list, int *jobs, bool *resume, bool *help)
{
	char *end;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":m:f:o:j:qvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			if (b->nmodels == 64)
				return ea_die("batch: at most 64 models");
			b->model_names[b->nmodels++] = optarg;
			break;
		case 'f':
			if (!strcmp(optarg, "csv"))
				b->fmt = EA_BATCH_CSV;
			else if (!strcmp(optarg, "jsonl"))
				b->fmt = EA_BATCH_JSONL;
			else
				return ea_die("batch: -f: '%s' is not csv or jsonl", optarg);
			break;
		case 'o':
			*output = optarg;
			break;
		case 'j':
			*jobs = (int)strtol(optarg, &end, 10);
			if (*end || *jobs < 1 || *jobs > 1024)
				return ea_die("batch: -j: '%s' is not a worker count (1-1024)", optarg);
			break;
		case OPT_LIST:
			*list = optarg;
			break;
		case OPT_RESUME:
			*resume = true;
			break;
		case OPT_MAX_INFLATE:
			if (ea_parse_max_inflate(optarg))
				return -1;
			break;
		case OPT_UNIT:
			b->unit = optarg;
			break;
		case OPT_ROWS:
			if (ea_batch_rows_parse(optarg) < 0)
				return ea_die("batch: --rows: '%s' is not trace, cluster, cpu or task",
					      optarg);
			b->kind = (enum ea_batch_rows)ea_batch_rows_parse(optarg);
			break;
		case 'q':
			b->quiet = true;
			break;
		case 'v':
			b->verbose = true;
			break;
		case 'h':
			*help = true;
			return 0;
		case ':':
			return ea_die("batch: %s needs a value", argv[optind - 1]);
		default:
			return ea_die("batch: unknown option '%s' (see 'eatrace batch --help')",
				      argv[optind - 1]);
		}
	}
	return 0;
}

static void batch_free(struct batch *b)
{
	for (int m = 0; m < b->nmodels; m++)
		ea_model_free(b->models[m]);
	if (b->res)
		for (size_t i = 0; i < b->njobs; i++)
			free(b->res[i]);
	free(b->res);
	free(b->jobs);
	free(b->need);
	free(b->hash);
	strv_free(&b->paths);
	strv_free(&b->keys);
	strv_free(&b->kept);
}

/*
 * Stopped by a signal: the rows finished but not written yet (traces done
 * after one still running) go out too, in input order, so the table holds
 * every row finished and --resume prices only the rest. Returns the exit
 * status, 128 + the signal.
 */
static int stopped(struct batch *b, struct ea_out *out, const char *output, int sig)
{
	struct ea_err err;

	for (size_t i = b->emitted; i < b->njobs; i++)
		if (b->res[i]) {
			fputs(b->res[i], b->out);
			free(b->res[i]);
			b->res[i] = NULL;
		}
	if (ea_out_commit(out, &err))
		return ea_die("%s", err.msg);
	if (output && strcmp(output, "-"))
		ea_msg("batch: stopped by %s: the rows of %zu of %zu traces priced are in %s "
		       "(--resume goes on from them)", batch_signal_name(sig), b->ndone,
		       b->njobs, output);
	else
		ea_msg("batch: stopped by %s: the rows of %zu of %zu traces priced were written",
		       batch_signal_name(sig), b->ndone, b->njobs);
	return 128 + sig;
}

/* Which trace x model rows to run; with --resume, the parent hashes. */
static int plan(struct batch *b, bool resume)
{
	size_t nm = (size_t)b->nmodels, n = b->paths.n;
	struct ea_err err;

	b->hash = calloc(n ? n : 1, sizeof(*b->hash));
	b->need = calloc(n * nm + 1, 1);
	b->jobs = calloc(n + 1, sizeof(*b->jobs));
	b->res = calloc(n + 1, sizeof(*b->res));
	if (!b->hash || !b->need || !b->jobs || !b->res)
		return ea_die("out of memory");
	for (size_t t = 0; t < n; t++) {
		bool any = false;

		if (resume)
			ea_hash_file(b->paths.v[t], b->hash[t], &err);
		for (size_t m = 0; m < nm; m++) {
			b->need[t * nm + m] = !b->hash[t][0] ||
				!have_key(b, b->hash[t], b->model_names[m]);
			any |= b->need[t * nm + m];
		}
		if (any)
			b->jobs[b->njobs++] = t;
	}
	return 0;
}

int cmd_batch(int argc, char **argv)
{
	struct batch b = { .fmt = EA_BATCH_CSV };
	const char *output = NULL, *list = NULL;
	int jobs = 0, rc = EXIT_ERROR;
	bool resume = false, help = false;
	struct ea_err err;
	struct ea_out out;

	if (parse_args(&b, argc, argv, &output, &list, &jobs, &resume, &help))
		return EXIT_ERROR;
	if (help) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (!b.nmodels)
		return ea_die("batch: no model: give -m MODEL (bundled: tc2, juno-r0)");
	if (resume && (!output || !strcmp(output, "-")))
		return ea_die("batch: --resume needs -o FILE (the table to resume)");
	for (int i = optind; i < argc; i++)
		if (add_input(&b, argv[i]))
			goto out;
	if (list && add_list(&b, list))
		goto out;
	if (!b.paths.n) {
		ea_die("batch: no traces: give TRACE or DIR arguments or --list FILE");
		goto out;
	}
	for (int m = 0; m < b.nmodels; m++) {
		if (ea_model_load(&b.models[m], b.model_names[m], &err)) {
			ea_die("%s", err.msg);
			goto out;
		}
		if (ea_cli_unit(&b.units[m], b.unit, b.models[m]))
			goto out;
	}
	ea_cli_model_warnings(b.quiet ? -1 : 0, (const struct ea_model *const *)b.models,
			      b.nmodels);
	if ((resume && read_previous(&b, output)) || plan(&b, resume))
		goto out;
	if (resume)
		batch_remove_stale(output, b.quiet);
	/* from the temporary on: a signal commits the rows finished */
	batch_catch_stop();
	if (ea_out_open(&out, output, &err)) {
		ea_die("%s", err.msg);
		goto out;
	}
	b.out = out.f;
	ea_batch_header(b.out, b.fmt, b.kind);
	for (size_t i = 0; i < b.kept.n; i++)
		fputs(b.kept.v[i], b.out);
	ea_progress_enabled = 0;	/* the workers' own per-file progress */
	clock_gettime(CLOCK_MONOTONIC, &b.t0);
	if (ea_pool_run(b.njobs, jobs, run_trace, trace_done, &b)) {
		int sig = errno == EINTR ? batch_stopped_by() : 0;

		if (b.drawn)
			fputs("\r\033[K", stderr);
		if (sig) {
			rc = stopped(&b, &out, output, sig);
			goto out;
		}
		ea_die("batch: cannot start workers: %s", strerror(errno));
		ea_out_abort(&out);
		goto out;
	}
	if (b.drawn)
		fputs("\r\033[K", stderr);
	if (ea_out_commit(&out, &err)) {
		ea_die("%s", err.msg);
		goto out;
	}
	rc = b.nerr ? 1 : 0;
out:
	batch_free(&b);
	return rc;
}
