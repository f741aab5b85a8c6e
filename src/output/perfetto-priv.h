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
	size_t unflushed; /* bytes given to f since writeback was started */
	long wb_at; /* ... up to this offset in f */
	bool no_writeback; /* f is no regular file */
	enum ea_perfetto_format fmt;
	/* the format's encoder ahead, given by ea_perfetto_use_ahead() to
	 * the next process: a struct pf_pb_ahead or pf_json_ahead */
	void *ahead;
	bool *ahead_taken; /* set when the process took it */
	size_t split_min; /* ea_perfetto_split() (0: none) */
	size_t split_taken; /* processes whose changes two threads wrote */
	bool discardable; /* ea_perfetto_discardable() */
};

/* The formats' encoders ahead (ea_perfetto_ahead_start_as()): the
 * protobuf's (perfetto-pb.c) and the JSON's (perfetto-json-ahead.c); NULL
 * when one cannot start. */
struct pf_pb_ahead;
struct pf_json_ahead;
struct pf_pb_ahead *pf_pb_ahead_start(struct ea_timeline *t, long long cap);
void pf_pb_ahead_free(struct pf_pb_ahead *a);
struct pf_json_ahead *pf_json_ahead_start(struct ea_timeline *t,
					  long long cap);
void pf_json_ahead_free(struct pf_json_ahead *a);
/*
 * The JSON file's changes (timeline t's, pids named from s, time origin
 * t0, its ncpus CPUs) from what p->ahead encoded, p->ahead taken (NULL
 * after): false, nothing written, when it cannot stand for them (another
 * timeline or process, an origin, a CPU past ncpus, a failure, or it
 * stopped short of both the cap and the record's end).
 */
bool pf_json_ahead_take(struct ea_perfetto *p, const struct ea_timeline *t,
			const struct ea_state *s, uint64_t t0, int ncpus);

/* The writers' own starts (called by ea_perfetto_begin_as()). */
int ea_pf_json_begin(struct ea_perfetto *p);
int ea_pf_pb_begin(struct ea_perfetto *p);

/* The label of pid's slices: "[idle task]" (0), "[unknown]" (< 0), its
 * comm from s, else "pid N" (buf: 32 bytes). */
const char *ea_pf_comm_of(const struct ea_state *s, int32_t pid, char *buf);
/* The frequency CPU c is priced at while busy at an unknown one: the
 * assumed OPP's (--assume-opp's, else the cluster's highest; 0 for a CPU
 * the model does not have). */
uint32_t ea_pf_assumed_khz(const struct ea_acct *a, int c);

/* The frequency CPU c is priced at while busy at freq_khz (0: unknown). */
static inline uint32_t ea_pf_priced_khz(const struct ea_acct *a, int c,
					uint32_t freq_khz)
{
	return freq_khz ? freq_khz : ea_pf_assumed_khz(a, c);
}

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

/*
 * The power (wake false) or wakeup energy (wake true) counters of column
 * col at a step of step buckets, in order, as the protobuf writer writes
 * them and ea_pf_power_step() counts them (ea_pf_counter_repeats() on the
 * values' bits): ea_pf_power_next() gives the next one's time and value,
 * false after the last (the closing 0 at the end is not one of them).
 */
struct ea_pf_power_iter {
	const struct ea_timeline *t;
	int col;
	bool wake, any;
	size_t b, step;
	double last;
};

void ea_pf_power_iter_init(struct ea_pf_power_iter *it,
			   const struct ea_timeline *t, int col, bool wake,
			   size_t step);
bool ea_pf_power_next(struct ea_pf_power_iter *it, uint64_t *at, double *w);

/* pid -> a nonzero number (an index + 1, an interned name's id): the
 * writers' per-task maps, open addressing. */
struct ea_pf_pid_map {
	int32_t *pid;
	uint64_t *val; /* 0: a free slot */
	size_t cap, n;
};

void ea_pf_pid_map_free(struct ea_pf_pid_map *m);
/* Twice the slots, the entries moved; false when out of memory. */
bool ea_pf_pid_map_grow(struct ea_pf_pid_map *m);

/* Room for one more entry (the slots of those there may move); false
 * when out of memory. */
static inline bool ea_pf_pid_map_room(struct ea_pf_pid_map *m)
{
	return m->n + 1 <= m->cap / 2 || ea_pf_pid_map_grow(m);
}

/* pid's slot: its entry, or the free slot where it goes (cap > 0). */
static inline size_t ea_pf_pid_slot(const struct ea_pf_pid_map *m, int32_t pid)
{
	size_t i = ((uint32_t)pid * 2654435761u) & (m->cap - 1);

	while (m->val[i] && m->pid[i] != pid)
		i = (i + 1) & (m->cap - 1);
	return i;
}

/*
 * The writers gave n more bytes to f: every 4 MiB, the kernel is asked to
 * start writing what f has to disk (sync_file_range(), not waiting), so
 * that the fsync() of the file's commit does not wait for all of it at
 * the end. Nothing for a pipe or a device.
 */
void ea_pf_gave(struct ea_perfetto *p, size_t n);

/* The file's size so far: what f has and what the format holds. -1 when
 * f cannot tell. */
long long ea_pf_tell(const struct ea_perfetto *p);
/* Whether the file has reached the cap (sets full and full_at = at). */
bool ea_pf_check_cap_now(struct ea_perfetto *p, uint64_t at);

/* ea_pf_check_cap_now(), every 256th change k (when there is a cap). */
static inline bool ea_pf_check_cap(struct ea_perfetto *p, size_t k,
				   uint64_t at)
{
	return p->cap && !(k % 256) && ea_pf_check_cap_now(p, at);
}

#endif
