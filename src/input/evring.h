/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A single-producer single-consumer ring of event blocks, for a reader
 * that decodes on a thread of its own (dat-read.c): the producer fills a
 * whole block of decoded events and hands it over, the consumer takes
 * whole blocks; the lock is taken once per block (EVR_BLK events), never
 * per event. On these 2-vCPU machines crossing cores per event cost about
 * what decoding does (bench/README.md): blocks amortise it. A side that
 * had to sleep on a full ring is woken only once half the ring is free
 * for it, so that it then runs for several blocks: under load, each
 * wake-up waits for a CPU. The consumer asleep on an empty ring is woken
 * by the first block put: it is the side that bounds the run (the state
 * and its consumers), and every block it could read while it waits for
 * more is time lost at the end (bench/README.md, state10: a consumer that
 * waited for half the ring lost about a fifth of report's wall time on
 * rec.dat). The ring is deep enough to ride out the producer's bursts
 * (an mmap window mapped and one unmapped: up to about a millisecond of
 * its CPU time in one block, where a block takes the consumer some
 * 60 us): 32 blocks (6.3 MB) hold about 2 ms of the consumer's work;
 * with 8 the consumer ran dry about 190 times on rec.dat.
 *
 * The last block the producer hands over says how the stream ended
 * (status 1: end, -1: error in err), and where the reader then stands.
 */
#ifndef EATRACE_INPUT_EVRING_H
#define EATRACE_INPUT_EVRING_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "eatrace/error.h"
#include "eatrace/event.h"

#define EVR_BLK 2048	/* events per block */
#define EVR_NBLK 32	/* blocks in the ring (see above) */

struct evr_blk {
	uint32_t n;			/* events in ev[] */
	int status;			/* 0: more follow, 1: end, -1: err */
	int end_cpu;			/* with status: the reader's position */
	uint64_t end_nrec;
	struct ea_err err;
	uint64_t nrec[EVR_BLK];		/* each event's record number on its CPU */
	struct ea_event ev[EVR_BLK];
};

struct evring {
	struct evr_blk *blk[EVR_NBLK];
	int head, count;		/* oldest full block, full blocks */
	bool stop;			/* stop asked */
	bool prod_waits, cons_waits;	/* asleep on empty / full */
	bool drain_waits;		/* producer asleep in evr_drain() */
	pthread_mutex_t mu;
	pthread_cond_t full, empty;
	pthread_t th;
	bool started;
};

/*
 * Allocate the blocks and run fn(arg) on a new thread (all signals
 * blocked in it). 0, or -1 (nothing left running or allocated).
 */
int evr_start(struct evring *q, void *(*fn)(void *), void *arg);

/* evr_start() with the signals of *mask blocked in the new thread (NULL:
 * all). */
int evr_start_mask(struct evring *q, void *(*fn)(void *), void *arg,
		   const sigset_t *mask);

/* Producer: a free block to fill (waits for one); NULL once stopped. */
struct evr_blk *evr_take_free(struct evring *q);

/* Producer: hand the block from evr_take_free() over (waking the
 * consumer if it waits). */
void evr_put(struct evring *q, struct evr_blk *b);

/*
 * Producer: wait until the consumer has released every block handed over
 * (it is then between blocks: waiting in evr_take_full()). 0, or -1 once
 * stopped.
 */
int evr_drain(struct evring *q);

/* Consumer: the oldest full block (waits for one). */
struct evr_blk *evr_take_full(struct evring *q);

/* Consumer: give back the block evr_take_full() returned. */
void evr_release(struct evring *q, struct evr_blk *b);

/* Stop the producer (it sees NULL at its next evr_take_free()), join it, free. */
void evr_stop(struct evring *q);

#endif
