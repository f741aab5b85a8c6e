/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the two --perfetto writers share (src/output/perfetto-common.c):
 * the writer handle behind include/eatrace/perfetto.h, dispatched by
 * src/output/perfetto.c to Chrome JSON (perfetto-json.c) or Perfetto's
 * protobuf (perfetto-pb.c), and the figures both write: the power of a
 * timeline bucket, the OPP busy time is priced at, a task's label, the
 * size cap.
 */
#ifndef EATRACE_OUTPUT_PERFETTO_PRIV_H
#define EATRACE_OUTPUT_PERFETTO_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "eatrace/perfetto.h"

struct ea_perfetto;

struct ea_pf_ops {
	void (*process)(struct ea_perfetto *p, const char *name,
			const struct ea_timeline *t, const struct ea_state *s,
			uint64_t t0);
	/* Finishes the file and frees what the format allocated in p->impl
	 * (not p itself). */
	void (*end)(struct ea_perfetto *p);
};

struct ea_perfetto {
	const struct ea_pf_ops *ops;
	FILE *f;
	int pid; /* processes written so far */
	bool first; /* JSON: no event written yet */
	long long cap; /* bytes, 0: none */
	bool full; /* the cap was reached ... */
	uint64_t full_at; /* ... at this trace time (ns) */
	bool failed; /* out of memory: the file is incomplete */
	size_t held; /* bytes the format holds, not yet given to f */
	void *impl; /* the format's own state */
};

/* The writers' own starts (called by ea_perfetto_begin_as()). */
int ea_pf_json_begin(struct ea_perfetto *p);
int ea_pf_pb_begin(struct ea_perfetto *p);

/* The label of pid's slices: "[idle task]" (0), "[unknown]" (< 0), its
 * comm from s, else "pid N" (buf: 32 bytes). */
const char *ea_pf_comm_of(const struct ea_state *s, int32_t pid, char *buf);
/* The frequency CPU c is priced at while busy at freq_khz (0: unknown,
 * priced at the assumed OPP: --assume-opp's, else the cluster's highest). */
uint32_t ea_pf_priced_khz(const struct ea_acct *a, int c, uint32_t freq_khz);
/*
 * Buckets per power counter step: 1, or more when the power and wakeup
 * energy counters of this process (the columns of its ncpus CPUs and of
 * its clusters, about bytes_per_counter each, counted as they would be
 * written at full resolution) would take more than half of what the cap
 * leaves (at least a tenth of the cap).
 */
size_t ea_pf_power_step(const struct ea_perfetto *p,
			const struct ea_timeline *t, int ncpus,
			long long bytes_per_counter);
/*
 * The power counter of column col over buckets [b, b + step): its start
 * *at (absolute ns), its value: the mean busy + idle power (wake false)
 * or the wakeup energy (wake true). false when the step has no length.
 */
bool ea_pf_power_at(const struct ea_timeline *t, int col, size_t b, size_t step,
		    bool wake, uint64_t *at, double *value);
/*
 * Whether a power counter's value w, after last (any: one was written),
 * goes unwritten: power is written on each change, wakeup energy on each
 * change and every nonzero step (so that the values add up to it). The
 * writers and ea_pf_power_step()'s count follow this one rule.
 */
static inline bool ea_pf_counter_repeats(bool any, bool same, bool wake,
					 double w)
{
	return any && same && (!wake || !w);
}

/* The file's size so far: what f has and what the format holds. -1 when
 * f cannot tell. */
long long ea_pf_tell(const struct ea_perfetto *p);
/* Whether the file has reached the cap (checked every 256th change k;
 * sets full and full_at = at). */
bool ea_pf_check_cap(struct ea_perfetto *p, size_t k, uint64_t at);

#endif
