/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Chrome trace-event JSON ("traceEvents" array) for ui.perfetto.dev and
 * chrome://tracing: per-CPU and per-cluster power counters, OPP and idle
 * state counters, running tasks as slices on one thread per CPU. Each
 * priced timeline (the actual run, each replayed policy) is one process.
 * Format notes and how it was checked: docs/html.md.
 */
#ifndef EATRACE_PERFETTO_H
#define EATRACE_PERFETTO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "eatrace/html.h"

struct ea_perfetto;

/* Starts the file; 0 or -1 (out of memory). */
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
/* Closes the JSON and frees p. */
void ea_perfetto_end(struct ea_perfetto *p);

#endif
