/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The protobuf --perfetto file's tracks of one process and its CPUs'
 * sequences, as the encoder (src/output/perfetto-pb.c) numbers and writes
 * them (src/output/perfetto-pb-tracks.c: their memory).
 */
#ifndef EATRACE_OUTPUT_PERFETTO_PB_TRACKS_H
#define EATRACE_OUTPUT_PERFETTO_PB_TRACKS_H

#include <stdbool.h>
#include <stdint.h>

#include "output/perfetto-priv.h"

/* One CPU's sequence. */
struct cpu_seq {
	uint32_t seq;
	bool started;
	uint64_t last_ts; /* of its last packet (incremental clock) */
	uint64_t slices, opp, idle; /* track uuids */
	long long f, i; /* the OPP and idle state last written */
	uint32_t assumed_khz; /* a busy stretch's at an unknown OPP */
	bool pending; /* a slice whose END is not written yet ... */
	uint64_t pending_end; /* ... ending then */
	struct ea_pf_pid_map names; /* pid -> interned name id */
};

/* The uuids of one process's tracks, its CPUs' sequences. */
struct tracks {
	uint32_t seq;
	uint64_t proc;
	uint64_t *cl_power, *cl_wake, *power, *wake;
	struct cpu_seq *cpu;
	int ncpus;
};

/* k's arrays for ncl clusters and ncpus CPUs (zeroed): 0 or -1 (out of
 * memory: none held). */
int pf_tracks_alloc(struct tracks *k, int ncl, int ncpus);
/* Whether a's CPU sequences are numbered as k's (a's CPUs past k's
 * aside: the encoder ahead's, perfetto-pb.c, with the model's CPUs). */
bool pf_tracks_fit(const struct tracks *a, const struct tracks *k);
/* Frees what k holds. */
void pf_tracks_free(struct tracks *k);

#endif
