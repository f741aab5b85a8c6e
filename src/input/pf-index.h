/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Perfetto trace: the bytes and an index of its ftrace bundles
 * (docs/perfetto.md), built in one pass before any event is decoded.
 *
 * The file is read in chunks into buffers that are reused (pread: no
 * mapping, whose page faults cost more than the copy); a gzip'd file is
 * inflated into memory whole, as are the payloads of compressed_packets,
 * into buffers owned by the index (freed at once when they hold no
 * bundle), all within --max-inflate (inflate-limit.h). Each FtraceEventBundle found is listed
 * with its CPU, in file order, which is each CPU's time order, and where
 * it is: a file offset, or a place in memory. reader-perfetto.c then
 * reads each CPU's bundles (pf_bundle_bytes) and merges the CPUs' streams.
 */
#ifndef EATRACE_INPUT_PF_INDEX_H
#define EATRACE_INPUT_PF_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eatrace/error.h"
#include "eatrace/event.h"
#include "eatrace/procs.h"
#include "eatrace/rail-samples.h"

struct pf_bundle {
	const uint8_t *p, *end;	/* the FtraceEventBundle's bytes in memory;
				   p NULL: in the file, at off */
	uint64_t off;
	size_t len;
	uint32_t packet;	/* number of the TracePacket holding it, from 1 */
	int32_t cpu;
	bool has_prev_end;
	uint64_t prev_end;	/* previous_bundle_end_timestamp (or the legacy
				   last_read_event_timestamp) */
};

struct pf_index {
	int fd;			/* the file, read in chunks; -1: gzip'd */
	uint8_t *data;		/* the gzip'd file inflated, or NULL */
	size_t len;		/* the file's (or inflated data's) size */
	bool gzip;
	uint8_t **bufs;		/* inflated compressed_packets */
	size_t nbufs, capbufs;
	uint32_t ncompressed;	/* compressed_packets seen */
	/*
	 * What the file may expand to in memory (inflate-limit.h): gzip'd
	 * data and compressed_packets inflated (all of them, those freed
	 * too), and the index entries of a file that was inflated (a
	 * decompressed copy, gzip'd or from compressed_packets).
	 */
	uint64_t stored;	/* the file's size on disk (compressed) */
	uint64_t budget;	/* ea_inflate_limit(stored) */
	uint64_t spent;
	bool expanded;		/* the file read is a decompressed copy */
	uint64_t decoded;	/* bytes of event buffers the reader holds */
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

/*
 * 0, or -1 with err "PATH:POSITION: cause". pf_index_free() in both cases.
 * stored_bytes: the size of the compressed file path is a decompressed
 * copy of (ea_input_info.stored_bytes), 0: path is the file itself.
 */
int pf_index_open(struct pf_index *ix, const char *path, uint64_t stored_bytes,
		  struct ea_err *err);
void pf_index_free(struct pf_index *ix);

/*
 * The reader's event buffers grow by bytes (pf_index.decoded): a file that
 * was inflated (a decompressed copy, compressed_packets) may hold 4 times
 * its budget in decoded events at once (a bundle of 6-byte events decodes
 * to 88-byte ones). 0, or -1 with err "PATH:cpu C packet P: ...".
 */
int pf_spend_decoded(struct pf_index *ix, size_t bytes, const struct pf_bundle *b,
		     const char *path, struct ea_err *err);

/* A window on the file: its bytes [boff, boff + blen) in buf. */
struct pf_chunk {
	uint8_t *buf;
	size_t cap, blen;
	uint64_t boff;
};

#define PF_CHUNK ((size_t)256 << 10)	/* bytes read at once from the file */

/*
 * Make c hold the file's bytes [off, off + len), reading want bytes from
 * off (at least len, fewer at the end of the file). 0, or -1 with err.
 */
int pf_read(struct pf_index *ix, struct pf_chunk *c, uint64_t off,
	    size_t len, size_t want, const char *path, struct ea_err *err);

/* A bundle's bytes: in memory, or read into c. 0, or -1 with err. */
int pf_bundle_bytes(struct pf_index *ix, const struct pf_bundle *b,
		    struct pf_chunk *c, size_t want, const uint8_t **p,
		    const uint8_t **end, const char *path, struct ea_err *err);

#endif
