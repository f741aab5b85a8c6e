/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The JSON --perfetto file's changes written at the end of the run by two
 * threads (src/output/perfetto-json-split.c): a thread writes the text of
 * the changes from one on into blocks while the caller writes those
 * before it; the caller then takes the blocks up to where the cap cuts.
 */
#ifndef EATRACE_OUTPUT_PERFETTO_JSON_SPLIT_H
#define EATRACE_OUTPUT_PERFETTO_JSON_SPLIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eatrace/html.h"
#include "eatrace/state.h"
#include "output/perfetto-priv.h"

struct pj_split;

/* The change from which the thread writes t's (0: no thread: not asked
 * by ea_perfetto_split(), or too few changes). */
size_t pj_split_from(const struct ea_perfetto *p, const struct ea_timeline *t);
/* The thread writing the text of t's changes from change from on (names
 * from s, time origin t0, ncpus CPUs, p's cap) for p; NULL when it cannot
 * start (the caller writes them all). */
struct pj_split *pj_split_start(const struct ea_perfetto *p,
				const struct ea_timeline *t,
				const struct ea_state *s, int ncpus,
				uint64_t t0, size_t from);
/* Once p's pass has written every change before from (not stopped): the
 * thread's text to p up to where the cap cuts (p->full set there) or all
 * of it; false, nothing written, when it cannot stand for the rest (the
 * caller goes on writing from there). */
bool pj_split_take(struct pj_split *a, struct ea_perfetto *p);
/* Waits for the thread and frees a (NULL: nothing); p (when not NULL)
 * the file the thread may have written to directly: what it wrote cut off
 * unless pj_split_take() took it. */
void pj_split_free(struct pj_split *a, struct ea_perfetto *p);

#endif
