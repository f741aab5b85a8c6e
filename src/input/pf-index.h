/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Perfetto trace: the bytes and an index of its ftrace bundles
 * (docs/perfetto.md), built in one pass before any event is decoded.
 *
 * The file is mapped (or, gzip'd, inflated into memory); the payloads of
 * compressed_packets are inflated into buffers owned by the index. Each
 * FtraceEventBundle found is listed with its CPU, in file order, which is
 * each CPU's time order: reader-perfetto.c then merges the CPUs' streams.
 */
#ifndef EATRACE_INPUT_PF_INDEX_H
#define EATRACE_INPUT_PF_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eatrace/error.h"
#include "eatrace/event.h"
#include "eatrace/procs.h"
#include "eatrace/rails.h"

struct pf_bundle {
	const uint8_t *p, *end;	/* the FtraceEventBundle's bytes */
	uint32_t packet;	/* number of the TracePacket holding it, from 1 */
	int32_t cpu;
	bool has_prev_end;
	uint64_t prev_end;	/* previous_bundle_end_timestamp (or the legacy
				   last_read_event_timestamp) */
};

struct pf_index {
	uint8_t *data;		/* the file, mapped or inflated */
	size_t len;
	bool mapped;
	size_t dropped;		/* mapped bytes before it given back (pf_release) */
	bool gzip;
	uint8_t **bufs;		/* inflated compressed_packets */
	size_t nbufs, capbufs;
	uint32_t ncompressed;	/* compressed_packets seen */
	struct pf_bundle *b;
	size_t nb, capb;
	uint32_t npackets;
	int max_cpu;		/* -1 when there is no bundle */
	bool seen[EA_MAX_CPUS];	/* CPUs with a bundle so far */
	struct ea_rails *rails;	/* power_rails, NULL: none (pf_open takes it) */
	struct ea_procs *procs;	/* process_tree, NULL: none (the same) */
	/*
	 * ftrace_stats: per CPU, events the kernel lost (overrun + dropped
	 * events at the end of the trace, less those at its start when the
	 * start is given); lost_known: an END_OF_TRACE phase was read.
	 */
	uint64_t *lost;		/* [nlost], NULL: none */
	size_t nlost;
	bool lost_known;
	/* the first sys_stats with cpufreq_khz: per CPU kHz (0: none) */
	uint32_t *freq0;	/* [nfreq0] */
	size_t nfreq0;
	uint64_t freq0_ts;	/* its packet's timestamp */
};

/* Whether the first n bytes of a file (gzip'd or not) look like a trace. */
int pf_probe(const unsigned char *head, size_t n);

/* 0, or -1 with err "PATH:POSITION: cause". pf_index_free() in both cases. */
int pf_index_open(struct pf_index *ix, const char *path, struct ea_err *err);
void pf_index_free(struct pf_index *ix);

/*
 * The mapped file's bytes before upto will not be read again: give their
 * pages back (in steps of several MB), so that peak memory does not grow
 * with the file's size. Inflated data is kept.
 */
void pf_release(struct pf_index *ix, const uint8_t *upto);

#endif
