/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A trace read once for many questions (the Python package's
 * eatrace.Trace): ea_trace_open() reads and checks the file and keeps its
 * events in memory (eatrace/evstore.h); each call then rebuilds the
 * state from them with its own options and prices or summarises it, as
 * the CLI does the file: ea_trace_report_json() gives the bytes of
 * `eatrace report -f json` with the same options, and so on. The file is
 * not read again (it may change or go away); calls on one handle may run
 * at once from several threads (the handle is only read).
 *
 * Conventions of ea_report_json(): 0 with *json (free() it), or -1 with
 * *err the one-line message the CLI would print, without "eatrace: ".
 */
#ifndef EATRACE_TRACE_H
#define EATRACE_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eatrace/event.h"

struct ea_trace;
struct ea_replay_request;

/* Read the trace at path (any format `report` reads, not "-"). */
int ea_trace_open(struct ea_trace **t, const char *path, char **err);
void ea_trace_free(struct ea_trace *t);
const char *ea_trace_path(const struct ea_trace *t);
size_t ea_trace_nevents(const struct ea_trace *t); /* events kept */
size_t ea_trace_bytes(const struct ea_trace *t); /* memory they take */

/* The options of report and stats (zero: the CLI's defaults). */
struct ea_trace_opts {
	/* --start / --end: ns after the first event, or trace timestamps
	 * (@T) with *_absolute; start 0 and has_end false: the whole trace */
	uint64_t start_ns, end_ns;
	bool start_absolute, end_absolute, has_end;
	int idle_state; /* --idle-state (0-63) */
	int unknown_idle_state; /* --unknown-idle-state (0-63) */
	bool absent_offline; /* --absent-offline */
	unsigned long assume_khz; /* --assume-opp; 0: the highest OPP */
	bool no_wakeups; /* --no-wakeups */
	uint64_t interval_ns; /* --interval; 0: no windows */
	/*
	 * Only these CPUs' share of the report ("0,2-3"; NULL: every CPU):
	 * total, clusters, tasks and windows count only their energy, each
	 * their own and their integer shares of cluster and suspend power
	 * (eatrace/energy.h cpu_only), so the total is exactly the sum of
	 * their cpus[] entries in the full report. The JSON lists only
	 * them, and the clusters holding them, with "cpu_filter".
	 * report and intervals only.
	 */
	const char *cpus;
};

/* `eatrace report -f json -m MODEL [options] PATH`. */
int ea_trace_report_json(const struct ea_trace *t, const char *model,
			 const struct ea_trace_opts *o, char **json,
			 char **err);
/* `eatrace stats -f json [-m MODEL] [options] PATH`; model may be NULL. */
int ea_trace_stats_json(const struct ea_trace *t, const char *model,
			const struct ea_trace_opts *o, char **json, char **err);
/* `eatrace replay -f json` with rq's options (as ea_replay_json()). */
int ea_trace_replay_json(const struct ea_trace *t,
			 const struct ea_replay_request *rq, char **json,
			 char **err);

/* What a CPU was doing over an interval. */
enum ea_interval_state {
	EA_IV_BUSY,
	EA_IV_IDLE,
	EA_IV_UNKNOWN, /* the trace does not show it (docs/inference.md) */
	EA_IV_SUSPENDED,
	EA_IV_OFFLINE,
};

/*
 * One stretch of one CPU's state (the state stage's changes, clipped to
 * the window; a change that leaves every field alike does not split it).
 * power: the model's power of the CPU itself in that state, its
 * power_unit (busy: the core's at the OPP charged, the nearest at or
 * above freq_khz, or the assumed one while the frequency is unknown;
 * idle or unknown idle: its idle state's core power; offline: its
 * cluster's offline_power; suspended: the model's suspend_power shared
 * by the trace's CPUs), without the cluster's power it shares nor
 * wakeups; NaN without a model. A fixed layout, for numpy.
 */
struct ea_interval {
	uint64_t start_ns, end_ns; /* trace timestamps */
	double power;
	int32_t cpu;
	int32_t pid; /* running task; 0 idle, -1 unknown */
	uint32_t freq_khz; /* 0: not reported */
	int16_t idle_state; /* idle (or unknown idle): its index; else -1 */
	uint8_t state; /* enum ea_interval_state */
	uint8_t pad;
	char comm[EA_COMM_LEN]; /* the task's, "" for pid <= 0 */
};

/*
 * Every CPU's intervals within the window of o (its window, idle states
 * and assumed OPP; its cpus keeps those CPUs), sorted by start, then
 * CPU: *out (free() it), *n of them. model may be NULL (power NaN, no
 * frequency domains).
 */
int ea_trace_intervals(const struct ea_trace *t, const char *model,
		       const struct ea_trace_opts *o, struct ea_interval **out,
		       size_t *n, char **err);

#endif
