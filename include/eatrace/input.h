/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Trace readers behind one event-stream interface.
 *
 * ea_input_open() picks the reader by the file's content (trace.dat magic,
 * HTML with systrace data, ftrace text), never by its name. Events come out in
 * non-decreasing timestamp order; readers whose files may be slightly out of
 * order (hand-written or merged text) sort them in a bounded window and count
 * what they reordered. Memory is bounded: nothing grows with the trace length.
 */
#ifndef EATRACE_INPUT_H
#define EATRACE_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "eatrace/error.h"
#include "eatrace/event.h"

struct ea_input;

struct ea_input_info {
	const char *format;	/* "trace.dat v6", "ftrace text", "systrace html" ... */
	int ncpus;		/* from the file's header, -1 when unknown */
	/*
	 * Whether the trace can contain each event type: from the file's event
	 * formats for trace.dat, true (unknown) for text formats.
	 */
	bool may_have[EA_EV_NR];
	uint64_t reordered;	/* events the reader had to sort back into place */
	uint64_t skipped_lines;	/* text lines that were not events (headers, comments) */
	uint64_t cut_last_line;	/* line number of a malformed last line that
				   was ignored (a capture cut mid-write), 0 */
	/*
	 * A topology the file states (idlestat's "clusterA: / coreN / cpuN"
	 * header): topo_cluster[cpu] = cluster number + 1 in the order the
	 * file lists them, 0 for a CPU it does not list; topo_ncpus = 0 when
	 * the file states none. Reported, and checked against the model.
	 */
#define EA_TOPO_MAX_CPUS 64
	uint8_t topo_cluster[EA_TOPO_MAX_CPUS];
	int topo_ncpus;		/* highest CPU listed + 1 */
	int topo_nclusters;
	bool gzip;		/* set before open: the reader reads a gunzipped
				   copy (src/input/spool.c) of a .gz */
	uint64_t stored_bytes;	/* set before open: the size of the compressed
				   file the reader reads a decompressed copy
				   of, 0: it reads the file itself */
	/*
	 * Measured energy (Perfetto power_rails, eatrace/rail-samples.h), NULL when
	 * the trace has none. Owned by the input (freed by ea_input_close())
	 * until ea_input_take_owned() moves it to a copy of the info.
	 */
	struct ea_rails *rails;
	/* Threads' processes (Perfetto process_tree, eatrace/procs.h), NULL:
	 * none; owned as rails. */
	struct ea_procs *procs;
};

/*
 * Moves what the info owns (rails, procs) from the input into dst, a copy of its
 * info that outlives it: free it then with ea_input_info_free_owned().
 */
void ea_input_take_owned(struct ea_input *in, struct ea_input_info *dst);
void ea_input_info_free_owned(struct ea_input_info *info);

/*
 * Whether path may be read as an input (src/input/file-check.c): a regular
 * file, not a FIFO, device, socket or a procfs/sysfs/debugfs/tracefs
 * pseudo-file (which could block). The file is noted as an input of the
 * run, never to be replaced by one of its outputs. 0, or -1 with err
 * "PATH: not a regular file (...)". A reader of "-" (stdin) skips it.
 */
int ea_input_check(const char *path, struct ea_err *err);
/* The same on an open fd; allow_pseudo: procfs/sysfs/... files pass. */
int ea_input_check_fd(int fd, const char *path, bool allow_pseudo,
		      struct ea_err *err);

/*
 * The inputs of this run (src/input/run-inputs.c), by st_dev and st_ino:
 * ea_input_check() notes each file that passes; an output file of the
 * run is never one of them (src/output/outfile.c asks ea_input_noted()).
 */
void ea_input_note(dev_t dev, ino_t ino);
bool ea_input_noted(dev_t dev, ino_t ino);

/*
 * Open a trace (checked with ea_input_check()). Returns 0, or -1 with err
 * set to "PATH: cause".
 */
int ea_input_open(struct ea_input **in, const char *path, struct ea_err *err);

/*
 * Whether path holds a trace, by the test ea_input_open() makes (its first
 * bytes, decompressed when gzip or zstd, recognised by a reader): 1 with
 * *format (may be NULL) the reader's name ("dat", "perfetto", "systrace",
 * "text"); 0 when it is not a trace (empty, or no reader recognises it),
 * -1 when it cannot be read (missing, not a regular file, corrupt
 * compressed data); err says why for 0 and -1, as ea_input_open() would.
 * Not for "-".
 */
int ea_input_probe(const char *path, const char **format, struct ea_err *err);

/*
 * Next event: 1 and *ev filled, 0 at end of trace, -1 with err set to
 * "PATH:POSITION: cause" on malformed input (after which the input must only
 * be closed).
 */
int ea_input_next(struct ea_input *in, struct ea_event *ev, struct ea_err *err);

const struct ea_input_info *ea_input_info(const struct ea_input *in);
const char *ea_input_path(const struct ea_input *in);
/* Position of the last event returned ("line 12"), for later stages' errors. */
void ea_input_where(const struct ea_input *in, char *buf, size_t n);
void ea_input_close(struct ea_input *in);

/*
 * Where the pipeline (ea_run_source(), eatrace/pipeline.h) takes a trace's
 * events from: an open input (ea_run()), or events kept in memory
 * (eatrace/evstore.h). The callbacks have the contracts of the ea_input_*
 * functions of the same names.
 */
struct ea_event_source {
	int (*next)(void *ctx, struct ea_event *ev, struct ea_err *err);
	void (*where)(void *ctx, char *buf, size_t n);
	/* ea_input_first_event() without its err (an error counts as no
	 * event), as ea_state_config.first_event wants it */
	int (*first_event)(void *ctx, int cpu, struct ea_event *ev, bool *lost_before);
	/* The info as it stands: at the start (ncpus, may_have), then
	 * copied once next() has returned 0 or -1. */
	const struct ea_input_info *(*info)(void *ctx);
	/* Moves what the info owns (rails, procs) into dst, as
	 * ea_input_take_owned(); NULL: they stay the source's, and the run
	 * only borrows them (ea_run.info_borrowed). */
	void (*take_owned)(void *ctx, struct ea_input_info *dst);
	void *ctx;
};

/*
 * Threads an input may use (-j): 1 reads on the calling thread only; 2 or
 * more lets an uncompressed trace.dat file's pages be walked and decoded
 * on a thread of their own, ahead of the caller (the events, their order
 * and every error are the same), and a Perfetto trace's bundles (one
 * neither gzip'd nor with compressed_packets: next-blocks.c) and an
 * ftrace text trace's lines (plain or compressed: next-blocks.c too);
 * with a job more than the reader takes, ea_run() also reads the input
 * and runs the look-ahead on a thread of their own, beside the one
 * applying the events (state/handoff.c): from 3 for an uncompressed
 * trace.dat, such a Perfetto trace and ftrace text, from 2 for the other
 * readers. A
 * compressed trace.dat's reader takes three of them: its chunks are
 * inflated on a helper thread from 2, its pages decoded on a thread of
 * their own from 3, and ea_run() splits from 4. Unset: the environment's
 * EATRACE_JOBS (1 to 64) if set, else 2 on a machine with two CPUs or
 * more, else 1 (ea_input_jobs_for(): an uncompressed file's thread only
 * from EA_APART_MIN_BYTES of data, a Perfetto trace's and a plain text
 * file's from as many bytes of file, a compressed text file's always;
 * the split only when asked).
 */
void ea_input_set_jobs(int n);
/*
 * How far a compressed input may expand (--max-inflate): a gzip'd or
 * zstd'd trace.dat or Perfetto file (decompressed to TMPDIR) and a
 * Perfetto trace's compressed_packets (inflated in memory, with the index
 * of what they hold) reach at most ratio times the size of the file on
 * disk, or 32 MiB if that is more; a file that would pass it is refused
 * ("PATH:POSITION: ... inflates past N bytes ..."). 0: the default, 32.
 */
void ea_input_set_max_inflate(unsigned ratio);
unsigned ea_input_max_inflate(void);
/* Whether -j or EATRACE_JOBS set the count (not the CPU-count default). */
bool ea_input_jobs_explicit(void);
int ea_input_jobs(void);
/*
 * The threads a reader of one file uses: ea_input_jobs() for a compressed
 * file (decompressing on a thread of its own pays) and for an uncompressed
 * one of bytes of event data, but 1 for an uncompressed one of less than
 * EA_APART_MIN_BYTES unless -j or EATRACE_JOBS asked
 * (ea_input_jobs_explicit()): there the thread costs more than it saves.
 * Readers ask this, not ea_input_jobs(), so that they all follow the one
 * rule.
 */
#define EA_APART_MIN_BYTES (4u << 20)
int ea_input_jobs_for(bool compressed, uint64_t bytes);

/*
 * The first event the trace holds for CPU cpu (the first whose ev->cpu is
 * cpu), wherever it is in the file, without disturbing ea_input_next():
 * what the state before that CPU's first record was (docs/inference.md,
 * "Start and end"). Returns 1 with *ev set and *lost_before telling
 * whether a lost-events marker on that CPU came first; 0 when the trace
 * has no event for cpu; -1 with err set.
 *
 * A reader that knows each CPU's first record cheaply (a trace.dat's
 * per-CPU streams, a skim of a text trace's CPU columns) provides it
 * (ea_reader_ops.first_event); for the others
 * a second reader of the same file reads ahead, once, as far as needed,
 * remembering each CPU's first event: memory stays flat (one event per
 * CPU), and nothing is read unless asked.
 */
int ea_input_first_event(struct ea_input *in, int cpu, struct ea_event *ev,
			 bool *lost_before, struct ea_err *err);

#endif
