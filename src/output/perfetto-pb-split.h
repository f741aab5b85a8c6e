/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The protobuf --perfetto file's changes encoded at the end of the run by
 * two threads (src/output/perfetto-pb-split.c): a thread encodes the
 * changes from one on into blocks while the caller encodes those before
 * it into the file; the caller then takes the blocks (perfetto-pb.c) and
 * goes on from where the thread stopped.
 */
#ifndef EATRACE_OUTPUT_PERFETTO_PB_SPLIT_H
#define EATRACE_OUTPUT_PERFETTO_PB_SPLIT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eatrace/html.h"
#include "output/perfetto-pb-tracks.h"

/*
 * k's CPU sequences (their state, their pid maps) after the encoder wrote
 * change ch (times relative to t0), without writing it: what the packets
 * it would write leave behind (perfetto-pb.c's change(), no cap). False
 * when out of memory (a pid map).
 */
bool pf_pb_skip(struct tracks *k, const struct ea_tl_change *ch, uint64_t t0);

/* The change from which the thread encodes t's (0: no thread: not asked
 * by ea_perfetto_split(), or too few changes). */
size_t pf_pb_split_from(size_t split_min, size_t nchanges);

/* The bytes the thread may hold with the file's cap (0: none): the cap,
 * at most EA_PERFETTO_AHEAD_MAX_MB MiB, or pf_pb_split_hold_max when not
 * 0 (the tests' stand-in for a file past that). */
extern size_t pf_pb_split_hold_max;
size_t pf_pb_split_hold(long long cap);

struct pb_split;

/* What encodes r's changes from the n-th on into blocks (perfetto-pb.c's
 * encoder holding its bytes), on the thread; r is its own from then on.
 * It stops early (at a change, whole packets written) once *stop. */
typedef void pf_pb_encode_fn(void *ctx, struct ea_tl_reader *r, size_t n,
			     const atomic_bool *stop);

/*
 * The thread: it reads t's record from its start, takes in the changes
 * before from into k (pf_pb_skip(): k is the encoder's tracks, as the
 * caller's before its first change), then has encode(ctx, ...) encode
 * the rest. NULL when it cannot start (the caller encodes them all).
 */
struct pb_split *pf_pb_split_start(const struct ea_timeline *t,
				   struct tracks *k, uint64_t t0, size_t from,
				   pf_pb_encode_fn *encode, void *ctx);
/* Waits for the thread: whether it got to change from (and encoded from
 * there). */
bool pf_pb_split_join(struct pb_split *sp);
/* Stops the thread, waits for it and frees sp (NULL: nothing); ctx is the
 * caller's to free after. */
void pf_pb_split_free(struct pb_split *sp);

#endif
