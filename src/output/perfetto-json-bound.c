// SPDX-License-Identifier: GPL-2.0-only
/*
 * A capped JSON --perfetto file needs only the start of the timeline's
 * record of changes (ea_perfetto_json_bound(), include/eatrace/perfetto.h):
 * the pass over the changes (perfetto-json-text.c) checks the file's size
 * against the cap before every TL_BOUND_EVERY-th change and stops at the
 * first check that finds it reached; each busy change it is given writes a
 * task slice of at least PJ_SLICE_MIN_BYTES, so once ceil(cap /
 * PJ_SLICE_MIN_BYTES) busy changes are written, the file has reached the
 * cap whatever else it holds, and the next check stops the pass. The
 * record keeps the changes up to that check (timeline-bound.h) and drops
 * the rest, which no pass would read: on rec.dat (1.63 M changes, a 50 MiB
 * file cut after 413 k of them) about two thirds of the record's work.
 *
 * Every change recorded is given to the pass on a CPU it writes
 * (recorded changes are on CPUs below the state's count, which never
 * shrinks: the pass's ncpus) and is not empty (t1 > t0): so each busy one
 * is a slice. The file must tell its size (ea_pf_tell() >= 0), or the pass
 * never checks: the caller knows the file (a regular file).
 */
#include "eatrace/perfetto.h"
#include "output/perfetto-json-text.h"
#include "output/timeline-changes.h"
#include "output/timeline-priv.h"

int ea_perfetto_json_bound(struct ea_timeline *t, long long cap)
{
	if (cap <= 0 || !t->record_changes || !t->priv || t->started)
		return -1;
	return tl_changes_bound(&t->priv->changes,
				((size_t)cap + PJ_SLICE_MIN_BYTES - 1) /
					PJ_SLICE_MIN_BYTES);
}
