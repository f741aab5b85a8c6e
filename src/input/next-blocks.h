/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A reader's events one at a time (its next()), taken a block at a time
 * and checked (next-blocks.c): on a thread of its own when there are jobs
 * for it (ea_input_jobs_for()), the blocks handed over through an evring
 * (evring.h) as the trace.dat reader's decoding thread hands its own;
 * else decoded on the caller's thread, a small block at a time, as
 * they are asked for. Either way the caller gets what input.c would give
 * from next() one at a time: the same events, in the same order, put
 * through event-check.h's checks with input.c's messages, the position
 * where() names after each event, and the reader's error after the
 * events before it. For a reader whose next() does not wait on anything
 * and whose other entries (its first_event(), say) may run beside it
 * under nb_lock().
 *
 * The reader gives next() n events at a time (next_n(), with each
 * event's position: a number that stands for where() right after next()
 * returned it), pos() (that number now) and where_at() (it as text).
 */
#ifndef EATRACE_INPUT_NEXT_BLOCKS_H
#define EATRACE_INPUT_NEXT_BLOCKS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eatrace/error.h"
#include "eatrace/event.h"
#include "input/evring.h"

struct nb_src {
	void *priv;
	/*
	 * next() up to n times (ea_reader_ops.next's contract, unchecked):
	 * *got events into ev[], each one's position (pos() right after
	 * next() returned it) into pos[]; 1 when next() gave n, else what
	 * next() returned last: 0 at the end, -1 with err (after *got).
	 */
	int (*next_n)(void *priv, struct ea_event *ev, uint64_t *pos,
		      uint32_t n, uint32_t *got, struct ea_err *err);
	/* where() after the event last returned (before any: at the
	 * start; after the end or an error: there), as a number */
	uint64_t (*pos)(void *priv);
	/* that number as where() names it */
	void (*where_at)(void *priv, uint64_t pos, char *buf, size_t n);
	const char *path;	/* the reader's, for the checks' messages */
	int ncpus;		/* ea_input_info.ncpus, for the checks */
};

struct nb {
	struct nb_src src;
	bool reads;		/* the reader reads through b (nb_reader_init()) */
	bool compressed;	/* nb_reader_init()'s, for nb_begin() */
	uint64_t bytes;
	bool begun;		/* nb_begin() done */
	bool par;		/* a decoding thread runs (q) */
	bool done;		/* the stream's end or error given */
	uint32_t blk_n;		/* events per block */
	uint64_t last_ts;	/* the decoding side's last event's */
	struct evring q;
	/* held by the decoding thread while it fills a block: nb_lock() */
	pthread_mutex_t mu;
	/* read by this thread only, on cache lines of their own (the
	 * decoding thread writes the blocks, not these) */
	char pad0[64];
	struct evr_blk *cur;	/* block being read, NULL before */
	uint32_t ci;		/* next event in cur */
	uint32_t bi0;		/* cur's first event in the last block given */
	uint64_t pos;		/* where() of the events given */
	char pad1[64];
};

/* Events per block on the caller's thread (they stay in its cache). */
#define NB_LOCAL_BLK 256

/*
 * Set b up for src (nothing runs yet). blk_n: events per block of the
 * decoding thread (0: EVR_BLK; tests ask for a few, to exercise the
 * hand-over).
 */
void nb_init(struct nb *b, const struct nb_src *src, uint32_t blk_n);

/*
 * The first call of nb_next() or nb_next_block() begins: a decoding
 * thread when ea_input_jobs_for(compressed, bytes) gives two jobs or more
 * (and it starts), else blocks decoded on the caller's thread. bytes: the
 * file's; compressed: the reader decompresses it as it decodes.
 */
void nb_begin(struct nb *b, bool compressed, uint64_t bytes);

/* Whether a decoding thread runs (after nb_begin()). */
bool nb_threaded(const struct nb *b);

/*
 * input-block.h's ea_input_next_block() for the reader: the next events,
 * checked, valid until the next call: 1 with *evs at *n >= 1 events, 0 at
 * the end, -1 with err. nb_pos() then names the last of them.
 */
int nb_next_block(struct nb *b, const struct ea_event **evs, size_t *n,
		  struct ea_err *err);

/* The same one event at a time (ea_input_next()'s contract). */
int nb_next(struct nb *b, struct ea_event *ev, struct ea_err *err);

/* Make event i of the last block the one nb_pos() names. */
void nb_block_at(struct nb *b, size_t i);

/* The position of the event last given (src.pos() as it was then). */
uint64_t nb_pos(const struct nb *b);

/*
 * Keep the decoding thread out of the reader while the caller uses it
 * otherwise (it waits for the block being filled); nothing without the
 * thread.
 */
void nb_lock(struct nb *b);
void nb_unlock(struct nb *b);

/* Stop and join the decoding thread, free the blocks. */
void nb_free(struct nb *b);

/*
 * For a reader that reads through b when it can: the reader's entries
 * (reader.h) call these with its b (the text and Perfetto readers).
 *
 * nb_reader_init(): nb_init() with the events per block of the decoding
 * thread the environment variable env names (tests: a few exercise the
 * hand-over), and b read through (can, unless env is "0": the reader's
 * own next() one at a time, the tests' reference). nb_begin() comes at
 * the first read, with compressed and bytes (the file's).
 */
void nb_reader_init(struct nb *b, const struct nb_src *src, const char *env,
		    bool can, bool compressed, uint64_t bytes);

/* Whether the reader reads through b; the first time it does, begin. */
bool nb_reader_reads(struct nb *b);

/* reader.h's next_block: 2 when the reader does not read through b. */
int nb_reader_next_block(struct nb *b, const struct ea_event **evs,
			 size_t *n, struct ea_err *err);

/* reader.h's block_at: nothing before b has begun. */
void nb_reader_block_at(struct nb *b, size_t i);

/* reader.h's checked: b has begun (its events are checked). */
bool nb_reader_checked(const struct nb *b);

/* reader.h's threads: 2 when the reader reads through b (it may run a
 * decoding thread), else 1. */
int nb_reader_threads(const struct nb *b);

#endif
