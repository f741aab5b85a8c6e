// SPDX-License-Identifier: GPL-2.0-only
/*
 * The options the trace-reading commands share (options.h): parsing them,
 * --unit, the --start/--end window check after the run, the notes -q and -v
 * let through to stderr, the model-check warning, and how the trace
 * argument is named.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/msg.h"
#include "cli/options.h"
#include "eatrace/input.h"
#include "eatrace/model-verdict.h"
#include "eatrace/model.h"
#include "eatrace/unit.h"
#include "eatrace/progress.h"
#include "eatrace/report.h"
#include "eatrace/stats.h"

int ea_parse_time(const char *s, uint64_t *ns, bool *absolute)
{
	uint64_t sec = 0, frac = 0;
	int digits = 0, fdigits = 0;

	*absolute = false;
	if (*s == '@') {
		*absolute = true;
		s++;
	}
	for (; *s >= '0' && *s <= '9'; s++, digits++) {
		if (sec > 1000000000ull)
			return -1;
		sec = sec * 10 + (uint64_t)(*s - '0');
	}
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++)
			if (fdigits < 9) {
				frac = frac * 10 + (uint64_t)(*s - '0');
				fdigits++;
			}
	if (*s || (!digits && !fdigits))
		return -1;
	while (fdigits++ < 9)
		frac *= 10;
	*ns = sec * 1000000000ull + frac;
	return 0;
}

enum { OPT_START = 1000, OPT_END, OPT_IDLE_STATE, OPT_UNKNOWN_IDLE_STATE,
       OPT_ABSENT_OFFLINE, OPT_MAX_INFLATE };

int ea_parse_max_inflate(const char *arg)
{
	char *e;
	long n = strtol(arg, &e, 10);

	if (*e || e == arg || n < 1 || n > 1000000)
		return ea_die("--max-inflate: '%s' is not a ratio (1 to 1000000)", arg);
	ea_input_set_max_inflate((unsigned)n);
	return 0;
}

static const struct option common_long[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "output", required_argument, NULL, 'o' },
	{ "model", required_argument, NULL, 'm' },
	{ "start", required_argument, NULL, OPT_START },
	{ "end", required_argument, NULL, OPT_END },
	{ "idle-state", required_argument, NULL, OPT_IDLE_STATE },
	{ "unknown-idle-state", required_argument, NULL, OPT_UNKNOWN_IDLE_STATE },
	{ "absent-offline", no_argument, NULL, OPT_ABSENT_OFFLINE },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "max-inflate", required_argument, NULL, OPT_MAX_INFLATE },
	{ "help", no_argument, NULL, 'h' },
};

#define NCOMMON (sizeof(common_long) / sizeof(common_long[0]))

int ea_parse_common(int argc, char **argv, struct ea_common_opts *o,
		    const struct option *extra, int nextra,
		    int (*cb)(int opt, const char *arg, void *ctx), void *ctx,
		    bool *want_help, char ***args, int *nargs)
{
	struct option *lo = calloc(NCOMMON + nextra + 1, sizeof(*lo));
	bool abs_start = false, abs_end = false, have_end = false;
	uint64_t start = 0, end = 0;
	int c, rc = 0;

	if (!lo)
		return ea_die("out of memory"), -1;
	memcpy(lo, common_long, sizeof(common_long));
	if (nextra)
		memcpy(lo + NCOMMON, extra, nextra * sizeof(*lo));
	*want_help = false;
	optind = 1;
	opterr = 0;
	while (rc == 0 && (c = getopt_long(argc, argv, ":f:o:m:qvj:h", lo, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (!strcmp(optarg, "text"))
				o->format = EA_FMT_TEXT;
			else if (!strcmp(optarg, "json"))
				o->format = EA_FMT_JSON;
			else if (!strcmp(optarg, "csv"))
				o->format = EA_FMT_CSV;
			else
				rc = ea_die("--format: '%s' is not text, json or csv", optarg);
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'm':
			o->model = optarg;
			break;
		case 'q':
			o->verbose = -1;
			ea_progress_enabled = 0;	/* no progress line either */
			break;
		case 'v':
			o->verbose++;
			break;
		case 'h':
			*want_help = true;
			break;
		case 'j': {
			char *e;
			long n = strtol(optarg, &e, 10);

			if (*e || e == optarg || n < 1 || n > 64)
				rc = ea_die("--jobs: '%s' is not a count of threads (1 to 64)", optarg);
			else
				ea_input_set_jobs((int)n);
			break;
		}
		case OPT_MAX_INFLATE:
			rc = ea_parse_max_inflate(optarg);
			break;
		case OPT_START:
			if (ea_parse_time(optarg, &start, &abs_start))
				rc = ea_die("--start: '%s' is not a time in seconds", optarg);
			break;
		case OPT_END:
			if (ea_parse_time(optarg, &end, &abs_end))
				rc = ea_die("--end: '%s' is not a time in seconds", optarg);
			have_end = true;
			break;
		case OPT_IDLE_STATE: {
			char *e;
			long v = strtol(optarg, &e, 10);

			if (*e || v < 0 || v > 63)
				rc = ea_die("--idle-state: '%s' is not an idle state index (0-63)", optarg);
			o->cfg.swapper_idle_state = (int)v;
			break;
		}
		case ':':
			if (optopt && optopt < 256)
				rc = ea_die("%s: option -%c needs a value", argv[0], optopt);
			else
				rc = ea_die("%s: option %s needs a value", argv[0], argv[optind - 1]);
			break;
		case OPT_UNKNOWN_IDLE_STATE: {
			char *e;
			long v = strtol(optarg, &e, 10);

			if (*e || v < 0 || v > 63)
				rc = ea_die("--unknown-idle-state: '%s' is not an idle state index (0-63)", optarg);
			o->cfg.unknown_idle_state = (int)v;
			break;
		}
		case OPT_ABSENT_OFFLINE:
			o->cfg.absent_offline = true;
			break;
		case '?':
			if (optopt && optopt < 256)
				rc = ea_die("%s: unknown option '-%c' (see --help)", argv[0], optopt);
			else
				rc = ea_die("%s: unknown or incomplete option '%s' (see --help)",
					    argv[0], argv[optind - 1]);
			break;
		default:
			if (cb)
				rc = cb(c, optarg, ctx) ? -1 : 0;
			else
				rc = -1;
			break;
		}
	}
	free(lo);
	if (rc)
		return -1;
	if (abs_start != abs_end && have_end && start)
		return ea_die("--start and --end must both be relative or both absolute (@)"), -1;
	o->cfg.win_start = start;
	o->cfg.win_end = have_end ? end : 0;
	o->cfg.win_relative = !(abs_start || abs_end);
	if (have_end && end <= start)
		return ea_die("--end must be after --start"), -1;
	if (have_end && !end)
		return ea_die("--end must be after the trace start"), -1;
	*args = argv + optind;
	*nargs = argc - optind;
	return 0;
}

int ea_check_window(const struct ea_common_opts *o, const struct ea_state *s,
		    const char *path)
{
	uint64_t first = ea_state_first_ts(s), last = ea_state_last_ts(s), ws, we;

	if (!o->cfg.win_start && !o->cfg.win_end)
		return 0;
	ea_state_window(s, &ws, &we);
	if (we > ws)
		return 0;
	return ea_die("%s: the window (--start/--end) is outside the trace, which spans %.6f s (@%.6f .. @%.6f): nothing to analyse",
		      path, (last - first) / 1e9, first / 1e9, last / 1e9), -1;
}

struct note_filter {
	int verbose;
	const char *path;
	int skip;	/* notes not to repeat */
};

static void note_err(void *arg, const char *kind, const char *msg)
{
	struct note_filter *nf = arg;

	if (nf->skip > 0) {	/* said before the run (ea_cli_model_warnings) */
		nf->skip--;
		return;
	}
	if (nf->verbose > 0 || !strcmp(kind, "warning"))
		ea_msg("%s: %s: %s", nf->path, kind, msg);
}

static void count_note(void *arg, const char *kind, const char *msg)
{
	(*(int *)arg)++;
}

void ea_notes_to_stderr(const struct ea_common_opts *o, const struct ea_stats *st,
			const struct ea_input_info *info, const struct ea_report *rep,
			const char *path)
{
	struct note_filter nf = { o->verbose, path, 0 };

	if (o->verbose < 0)
		return;
	if (o->verbose > 0)
		ea_msg("%s: %s, %d CPU(s), %llu events used", path,
			info->format ? info->format : "?", st->ncpus,
			(unsigned long long)st->counts.events);
	if (o->format == EA_FMT_TEXT && !o->output)
		return;		/* the report on the terminal has them */
	if (rep) {
		/* a report's notes open with the model-check verdict, which
		 * stderr had before the run: not twice */
		ea_model_verdict_notes(&rep->acct->model, 1, count_note, &nf.skip);
		ea_report_foreach_note(rep, note_err, &nf);
	}
	else
		ea_stats_foreach_note(st, info, note_err, &nf);
}

int ea_cli_unit(struct ea_energy_unit *u, const char *name, const struct ea_model *m)
{
	struct ea_err err;

	if (ea_energy_unit_parse(u, name, m->power_unit, m->name, &err))
		return ea_die("%s", err.msg), -1;
	return 0;
}

static void model_warning(void *arg, const char *kind, const char *msg)
{
	ea_msg("%s: %s", kind, msg);
}

void ea_cli_model_warnings(int verbose, const struct ea_model *const *models, int n)
{
	if (verbose >= 0)
		ea_model_verdict_notes(models, n, model_warning, NULL);
}

const char *ea_trace_label(const char *arg)
{
	return strcmp(arg, "-") ? arg : EA_STDIN_LABEL;
}
