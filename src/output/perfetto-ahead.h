/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The protobuf --perfetto file's change packets encoded ahead, while the
 * run records the changes (src/output/perfetto-ahead.c): what is held for
 * the file until the run ends: the bytes, in blocks, and the places where
 * a packet naming a task goes (written at the end, when the task's name is
 * known: the state's at the end of the run); and a thread to encode on
 * (pf_ahead_start(): the JSON's encoder ahead and split, whose work() it
 * runs; perfetto-pb.c encodes on the record's hand-over thread instead,
 * timeline-handoff.h's tap, and writes them out).
 */
#ifndef EATRACE_OUTPUT_PERFETTO_AHEAD_H
#define EATRACE_OUTPUT_PERFETTO_AHEAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A task's first slice on a CPU's sequence: the packet that interns its
 * name, its fields as the encoder had them. */
struct pf_hole {
	size_t off; /* bytes of the stream before it */
	uint64_t dts; /* its timestamp, on the sequence's incremental clock */
	uint64_t iid;
	long long f, i; /* the extra counter values (when extra) */
	int32_t pid;
	uint32_t seq;
	bool extra;
};

struct pf_thread;

struct pf_block {
	uint8_t *p;
	size_t n;
};

struct pf_ahead {
	struct pf_block *blk;
	size_t nblk, blk_cap;
	size_t bytes; /* in the blocks */
	struct pf_hole *holes;
	size_t nholes, holes_cap;
	bool failed; /* out of memory: what is held is incomplete */
	struct pf_thread *running; /* started and not joined (perfetto-pb.c
				      has no <pthread.h>: its enums are
				      named like <time.h>'s clocks) */
};

/* Runs work(ctx) on a new thread (every signal blocked in it): 0 or -1
 * (none started). */
int pf_ahead_start(struct pf_ahead *a, void (*work)(void *), void *ctx);
/* Waits for the thread (when one runs). */
void pf_ahead_join(struct pf_ahead *a);
/* Holds block p (malloc'd) of n bytes at the stream's end: false (p
 * freed, a->failed set) when out of memory. */
bool pf_ahead_add_block(struct pf_ahead *a, uint8_t *p, size_t n);
/* Holds hole h: false (a->failed set) when out of memory. */
bool pf_ahead_add_hole(struct pf_ahead *a, const struct pf_hole *h);
/* Frees what a holds (its thread joined). */
void pf_ahead_free(struct pf_ahead *a);

#endif
