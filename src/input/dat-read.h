/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The trace.dat reader's state (struct dat), shared by its files:
 * reader-dat.c opens the file (through dat-guard.c and dat-format.c) and
 * implements struct ea_reader_ops, dat-walk-setup.c switches it to
 * eatrace's own page walker when it can, and dat-read.c reads its records
 * into events.
 */
#ifndef EATRACE_INPUT_DAT_READ_H
#define EATRACE_INPUT_DAT_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eatrace/error.h"
#include "eatrace/event.h"
#include "input/dat-chunks.h"
#include "input/dat-format.h"
#include "input/dat-walk.h"
#include "input/evring.h"

struct tep_record;
struct tracecmd_input;

/* Where one CPU's data lies (in the decompressed stream for v7). */
struct cpu_span {
	unsigned long long start, size;
	unsigned long long last; /* offset of the last record read */
};

struct dat {
	struct tracecmd_input *top; /* the file */
	struct tracecmd_input *h; /* the buffer read: top or an instance */
	char *path;
	char format[96];
	int ncpus;
	struct dat_fmt fmt; /* its event formats (fmt.tep: libtraceevent's) */
	struct tep_record *pending; /* held back behind its LOST event */
	int pending_cpu;
	uint64_t *nrec; /* records read per CPU */
	struct cpu_span *span;
	unsigned long long page_size;
	int last_cpu;
	bool ended;
	/* read cursor of each CPU of h before the first peek (dat-guard.c) */
	unsigned long long *cursor0;
	int ncursor0;
	struct tracecmd_input *cursor_h; /* the handle they are of */
	/* pages read directly (dat-walk.c) instead of through libtracecmd */
	bool fast;
	int fd;
	struct dw w;
	bool zfast; /* ... decompressed by dat-chunks.c */
	struct dz z;
	const char *bufname; /* instance read, NULL the top level */
	int adv; /* CPU to advance before the next merge */
	bool fast_pending; /* its record follows the LOST just sent */
	int fast_err_cpu; /* >= 0: the walker found CPU data corrupt */
	bool fast_fatal; /* the file is cut short (fast_err) */
	char fast_err[200];
	/* second reader for dat_first_event() (reader-dat.c) */
	struct dat *ahead;
	/*
	 * Decoding on a thread of its own (dat-read.c, par_main()): it runs
	 * fast_next() and owns everything fast_next() touches; this thread
	 * reads the events from q and keeps its own position for
	 * ea_dat_where().
	 */
	bool par_tried, par, par_done;
	/* ... or, without that thread, blocks decoded on this one as they
	 * are asked for (ea_dat_next_block(): one block, cur, reused) */
	bool local;
	uint32_t blk_n; /* events per block (EATRACE_DAT_BLOCK) */
	uint64_t par_last_ts; /* the decoding thread's last event's */
	struct evring q;
	/*
	 * Written by this thread as it reads, so on cache lines of their
	 * own: a line both threads write (or one writes what the other
	 * reads per event) crosses between the cores at every write.
	 */
	char pad0[64];
	struct evr_blk *cur; /* block being read, NULL before */
	uint32_t ci; /* next event in cur */
	uint32_t bi0; /* cur's first event in the last next_block() */
	int pcpu; /* ea_dat_where() of the events read */
	uint64_t pnrec;
	char pad1[64];
};

/*
 * dat-walk-setup.c: switch r to the page walker (r->fast); NULL, or why
 * libtracecmd stays in charge (r->fast_err_cpu >= 0 or r->fast_fatal:
 * the file is corrupt, the reason in r->fast_err).
 */
const char *ea_dat_walk_setup(struct dat *r, bool compressed);

/* dat-read.c: ea_reader_ops.next and .where. */
int ea_dat_next(void *priv, struct ea_event *ev, struct ea_err *err);
void ea_dat_where(void *priv, char *buf, size_t n);
/* dat-read.c: ea_reader_ops.checked: the decoding thread checks the
 * events (event-check.h) when there is one. */
bool ea_dat_checked(void *priv);
/* dat-read.c: ea_reader_ops.threads: a file walked by eatrace's own page
 * walker decodes on a thread of its own (2), a compressed v7 one also
 * inflates its chunks on another (dat-chunks.c: 3); else 1. */
int ea_dat_threads(void *priv);
/* dat-read.c: ea_reader_ops.next_block and .block_at (input-block.h): the
 * decoding thread's blocks; 2 without one. */
int ea_dat_next_block(void *priv, const struct ea_event **evs, size_t *n,
		      struct ea_err *err);
void ea_dat_block_at(void *priv, size_t i);
/* dat-read.c: one record of libtracecmd's into *ev: 1, 0 not used, -1
 * corrupt (named in err). */
int ea_dat_decode_rec(struct dat *r, const struct tep_record *rec, int cpu,
		      struct ea_event *ev, struct ea_err *err);

/* dat-read.c: CPU cpu's next event through the page walker only (r->fast),
 * for dat_first_event(): 1, 0 at the CPU's end, -1 with err. */
int ea_dat_cpu_next(struct dat *r, int cpu, struct ea_event *ev,
		    bool *lost_before, struct ea_err *err);

#endif
