/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A trace for ui.perfetto.dev of what was priced: per-CPU and per-cluster
 * power counters, OPP and idle state counters, running tasks as slices on
 * one track per CPU. Each priced timeline (the actual run, each replayed
 * policy) is one process. Two formats: Chrome trace-event JSON
 * ("traceEvents" array, also for chrome://tracing) and Perfetto's own
 * protobuf (TracePackets with track descriptors and track events, several
 * times smaller). Format notes and how they were checked: docs/html.md.
 */
#ifndef EATRACE_PERFETTO_H
#define EATRACE_PERFETTO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "eatrace/html.h"

struct ea_perfetto;

enum ea_perfetto_format {
	EA_PERFETTO_JSON,	/* Chrome trace-event JSON */
	EA_PERFETTO_PROTOBUF,	/* perfetto.protos.Trace */
};

/* The default caps, MiB (--perfetto-max-mb): JSON is bounded so that the
 * UI's JSON importer copes; protobuf costs the UI far less per event. */
#define EA_PERFETTO_JSON_DEFAULT_MB 50
#define EA_PERFETTO_PB_DEFAULT_MB 256

/* PROTOBUF when path ends in .pftrace or .perfetto-trace, else JSON. */
enum ea_perfetto_format ea_perfetto_format_of(const char *path);
/* The default cap of a format, bytes. */
long long ea_perfetto_default_cap(enum ea_perfetto_format fmt);

/* Starts the file; 0 or -1 (out of memory). begin: JSON. */
int ea_perfetto_begin_as(struct ea_perfetto **p, FILE *f,
			 enum ea_perfetto_format fmt);
int ea_perfetto_begin(struct ea_perfetto **p, FILE *f);
/* Cap the file near bytes (0: none): task slices and OPP/idle counters
 * stop at the time it is reached. */
void ea_perfetto_cap(struct ea_perfetto *p, long long bytes);
/* Whether the cap was reached, and at which trace time (ns). */
bool ea_perfetto_truncated(const struct ea_perfetto *p, uint64_t *at);
/* One process: timeline t (recorded with record_changes) named name; comm
 * of pids from s (may be NULL). t0: the time origin subtracted from every
 * timestamp, absolute ns (0: the trace's own times). */
void ea_perfetto_process(struct ea_perfetto *p, const char *name,
			 const struct ea_timeline *t, const struct ea_state *s,
			 uint64_t t0);
/* Finishes the file and frees p: 0, or -1 when the writer ran out of
 * memory on the way (the file is incomplete: discard it). */
int ea_perfetto_end(struct ea_perfetto *p);

/*
 * Each process's changes with at least min_changes recorded (0: never)
 * and not encoded ahead written by two threads, the caller and one of its
 * own (src/output/perfetto-json-split.c, perfetto-pb-split.c): the same
 * bytes.
 */
void ea_perfetto_split(struct ea_perfetto *p, size_t min_changes);

/*
 * p's file is a temporary that a failed run removes (ea_out_pending_path()
 * non-NULL): the JSON's split thread may write its part into it at its
 * offset (src/output/perfetto-json-direct.c). Not for stdout or a file
 * written in place, which a failed run leaves as it stands: on a write
 * error there the thread's text could not be taken back cleanly (a full
 * disk that the cut frees again), so those keep the blocks.
 */
void ea_perfetto_discardable(struct ea_perfetto *p);

/*
 * A JSON --perfetto file of timeline t capped at cap bytes (> 0), written
 * to a file that tells its size (a regular file), stops its task slices
 * where the cap is reached: t records only the changes it can need then
 * (src/output/perfetto-json-bound.c); the file is the same. Before t's
 * first change. 0, or -1 (t records every change).
 */
int ea_perfetto_json_bound(struct ea_timeline *t, long long cap);

/*
 * A --perfetto file's task slices and OPP and idle-state counters encoded
 * ahead, on a thread of their own, while the run records timeline t's
 * changes (t recorded with record_changes; started before its first
 * change), so that the file's writer has only to write them out at the
 * end: the same bytes. In the protobuf, a task's name packet is written
 * at the end; in the JSON, each slice's task name (the state's at the
 * end of the run). It holds at most the file's cap (cap bytes; 0: none)
 * or EA_PERFETTO_AHEAD_MAX_MB MiB of them, the rest is encoded at the end
 * (the JSON's whole, when the cap is not reached within them). NULL when
 * it cannot start (nothing changes then). ea_perfetto_ahead_start(): the
 * protobuf's.
 */
#define EA_PERFETTO_AHEAD_MAX_MB 64
struct ea_perfetto_ahead;
struct ea_perfetto_ahead *ea_perfetto_ahead_start_as(struct ea_timeline *t,
						     enum ea_perfetto_format fmt,
						     long long cap);
struct ea_perfetto_ahead *ea_perfetto_ahead_start(struct ea_timeline *t,
						  long long cap);
/* The next ea_perfetto_process() of p (a file of a's format; another's
 * ignores a), with t and a time origin of 0, takes what a encoded
 * (waiting for its thread): a process whose changes a cannot stand for
 * is encoded whole, as without. */
void ea_perfetto_use_ahead(struct ea_perfetto *p, struct ea_perfetto_ahead *a);
/* Whether a process took what a encoded (its file's changes written from
 * it, not encoded again). */
bool ea_perfetto_ahead_taken(const struct ea_perfetto_ahead *a);
/* Stops a's thread (when it runs: a failed run) and frees a; before its
 * timeline is freed. NULL: nothing. */
void ea_perfetto_ahead_free(struct ea_perfetto_ahead *a);

#endif
