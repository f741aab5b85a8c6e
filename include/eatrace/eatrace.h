/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libeatrace: the one header a program needs (pkg-config --cflags --libs
 * eatrace). One call per job, results as the CLI's JSON (docs/json.md);
 * the structures behind them are in the headers included below.
 */
#ifndef EATRACE_EATRACE_H
#define EATRACE_EATRACE_H

#include "eatrace/batch.h"
#include "eatrace/energy.h"
#include "eatrace/error.h"
#include "eatrace/model.h"
#include "eatrace/output.h"
#include "eatrace/pipeline.h"
#include "eatrace/replay.h"
#include "eatrace/report.h"
#include "eatrace/stats.h"
#include "eatrace/trace.h"

#define EA_API_VERSION 2

/*
 * `eatrace report -f json -m MODEL PATH`: the same bytes into *json. model:
 * a model file or a bundled model's name. Returns 0 with *json set (free()
 * it), or -1 with *err set to the one-line message `eatrace` would print
 * (free() it). Either out pointer may be NULL. Writes nothing on stderr
 * (no progress line; the caller's ea_progress_enabled is left as found).
 */
int ea_report_json(const char *path, const char *model, char **json, char **err);

/* `eatrace stats -f json PATH`, with the same conventions. */
int ea_stats_json(const char *path, char **json, char **err);

/*
 * ea_report_json() with --interval: interval_ns > 0 adds the "windows"
 * array (`eatrace report -f json --interval N ns`); 0 is ea_report_json().
 */
int ea_report_json_interval(const char *path, const char *model, uint64_t interval_ns,
			    char **json, char **err);

/* What `eatrace replay` is asked (NULL / 0: the CLI's default). */
struct ea_replay_request {
	const char *model;		/* -m: the recorded platform */
	const char *target_model;	/* --target-model */
	const char *policies;		/* --policy: "all" or "a,b,..." */
	const char *governor;		/* --governor */
	const char *idle;		/* --idle */
	const char *work;		/* --work: auto, demand, fixed */
	unsigned long source_capacity;	/* --source-capacity */
	int auto_pin;			/* --auto-pin */
};

/*
 * `eatrace replay -f json PATH` with rq's options: the same bytes into
 * *json, with the conventions of ea_report_json(), the default --ensemble
 * and sensitivity included. Not covered: --pin, --start/--end, --shadow,
 * --ensemble, --baseline, --seed, --no-sensitivity and the picture and
 * trace outputs.
 */
int ea_replay_json(const char *path, const struct ea_replay_request *rq, char **json,
		   char **err);

/*
 * What `eatrace diff` is asked. Every field is the caller's: a zero is
 * zero (the CLI's defaults are --max-increase 1, --confidence 0.95).
 */
struct ea_diff_request {
	const char *model;		/* -m MODEL; with model_b: --models model model_b */
	const char *model_b;
	const char *const *base;	/* --base BASE... (with model_b: the traces) */
	int nbase;
	const char *const *news;	/* --new NEW... (none with model_b) */
	int nnew;
	double max_increase_pct;	/* --max-increase */
	double confidence;		/* --confidence */
	const char *normalize;		/* --normalize none (NULL), time, work */
	const char *inconclusive;	/* --inconclusive pass|fail; NULL: its own verdict */
	int jobs;			/* -j: processes pricing at once; 0, 1: this one */
	/* --start, --end, --idle-state, --assume-opp, --no-wakeups (the
	 * other fields of eatrace/trace.h's options refused); NULL: none */
	const struct ea_trace_opts *opts;
};

/*
 * `eatrace diff -f json` with rq's options: the same bytes into *json and
 * the CLI's exit status for the verdict into *status (0 pass, 1 fail, 3
 * inconclusive); the conventions of ea_report_json() otherwise (-1 and
 * *err for what the CLI exits 2 on). No warning on stderr.
 */
int ea_diff_json(const struct ea_diff_request *rq, char **json, int *status, char **err);

/* Free what ea_report_json() and ea_stats_json() return (free()). */
void ea_free(void *p);

#endif
