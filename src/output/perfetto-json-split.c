// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON --perfetto file's changes written at the end of the run by two
 * threads (ea_perfetto_split(), include/eatrace/perfetto.h): the pass over
 * the record (perfetto-json-text.c) is the file's largest work after the
 * run, when the run's second CPU is idle.
 *
 * A thread of its own reads the record from its start, takes in the
 * changes before change `from` without writing them (pj_pass_skip(): each
 * CPU's last OPP and idle state, the count), and writes the text of the
 * changes from there into blocks (perfetto-ahead.h), noting each place
 * the cap is checked (every 256th change: the bytes before it) and
 * holding at most the cap (or EA_PERFETTO_AHEAD_MAX_MB); the task names
 * are the state's at the end, as the caller's. Meanwhile the caller
 * writes the changes before `from` to the file as before. If it gets
 * there (neither the cap nor the record's end stopped it), the file's
 * size then (T) and the checks give where the pass would have stopped:
 * the first check with T + the bytes before it at or past the cap; the
 * caller writes the blocks up to there (or all of them, when the thread
 * read the whole record) and marks the cut as the pass does. Otherwise
 * (the thread failed, or stopped short of both), the caller goes on from
 * `from` by itself: the same bytes either way.
 *
 * Direct (the file a regular one that a failed run removes,
 * ea_perfetto_discardable(); written at an offset: pwrite()), the
 * thread needs no blocks: it measures the text of the changes before
 * `from` instead (pj_pass_measure(): the lengths the caller's pass will
 * write, with its cap checks), so knows where its own text starts in the
 * file (the file's size at the start plus those bytes) and writes it
 * there, through a stream of its own (perfetto-json-direct.c), up to
 * where the cap cuts it (its checks now see the file's true size). Both
 * threads copy their text into the file, not the caller both; nothing is
 * held in fresh memory. Once the caller has written the changes before
 * `from`, its size must be where the thread began (else the thread's
 * text is cut off the file and the caller goes on by itself); it moves
 * its stream past the thread's end. When it stops before `from`, any
 * text of the thread's is cut off the file too.
 */
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/perfetto-json-direct.h"
#include "output/perfetto-json-split.h"
#include "output/perfetto-json-text.h"
#include "output/timeline-changes.h"
#include "output/timeline-priv.h"

struct pj_split {
	const struct ea_timeline *t;
	const struct ea_state *s;
	uint64_t t0;
	size_t from;
	struct ea_perfetto p; /* a stand-in writer: no file, no cap */
	struct pj_pass pass;
	struct pf_ahead held;
	long long cap; /* the file's (0: none) */
	/* the file's size once the caller wrote the changes before from
	 * (-1 until then, or when it cannot tell): where the thread may
	 * stop, the cap's cut known */
	_Atomic long long tell;
	atomic_bool stop; /* not needed any more (pj_split_free()) */
	bool reached; /* the record had change from */
	bool whole; /* every change from there written */
	/* direct: the file's stream for the thread (NULL: blocks), the
	 * file's size before the changes, where the thread's text begins
	 * (once reached) */
	struct pj_direct *dw;
	long long pos0, at;
	bool done; /* direct: the thread's text taken, or cut off */
};

/* Direct: the bytes of the changes before from measured, from their
 * start at pos0, then the text from there written to the file, until
 * the cap cuts it (a->p's full) or the record ends. */
static void work_direct(struct pj_split *a, struct ea_tl_reader *r)
{
	long long pos = a->pos0;
	struct ea_tl_change ch;

	while (a->pass.k < a->from) {
		size_t n;
		bool check;

		if (!tl_reader_next(r, &ch) ||
		    (!(a->pass.k % 4096) &&
		     atomic_load_explicit(&a->stop, memory_order_relaxed)))
			return;
		n = pj_pass_measure(&a->p, &a->pass, &ch, a->s, a->t0, &check);
		if (check && a->cap && pos >= a->cap)
			return; /* the caller's pass stops before from */
		if (n == SIZE_MAX) {
			a->p.failed = true;
			return;
		}
		pos += (long long)n;
	}
	a->at = pos;
	if (pj_direct_seek(a->dw, pos)) {
		a->p.failed = true;
		return;
	}
	a->reached = true;
	while (tl_reader_next(r, &ch)) {
		if (!pj_pass_change(&a->p, &a->pass, &ch, a->s, a->t0))
			return;
		if (!(a->pass.k % 4096) &&
		    atomic_load_explicit(&a->stop, memory_order_relaxed))
			return;
	}
	a->whole = true;
}

static void work(void *arg)
{
	struct pj_split *a = arg;
	struct ea_tl_reader *r = ea_tl_reader_new(a->t);
	struct ea_tl_change ch;
	size_t seen = 0;

	if (!r) {
		a->p.failed = true;
		return;
	}
	if (a->dw) {
		work_direct(a, r);
		goto out;
	}
	while (a->pass.k < a->from) {
		if (!tl_reader_next(r, &ch) ||
		    (!(a->pass.k % 4096) &&
		     atomic_load_explicit(&a->stop, memory_order_relaxed)))
			goto out;
		pj_pass_skip(&a->pass, &ch);
	}
	a->reached = true;
	while (tl_reader_next(r, &ch)) {
		long long tell;

		if (!pj_pass_change(&a->p, &a->pass, &ch, a->s, a->t0))
			goto out;
		if (a->pass.nchecks == seen)
			continue;
		/* a check noted: past the cap there, the rest is not
		 * needed (pj_split_take() cuts at it, or before) */
		seen = a->pass.nchecks;
		tell = atomic_load_explicit(&a->tell, memory_order_relaxed);
		if (atomic_load_explicit(&a->stop, memory_order_relaxed) ||
		    (tell >= 0 &&
		     tell + (long long)a->pass.checks[seen - 1].off >= a->cap))
			goto out;
	}
	a->whole = true;
out:
	pj_flush(&a->p);
	ea_tl_reader_free(r);
}

void ea_perfetto_split(struct ea_perfetto *p, size_t min_changes)
{
	p->split_min = min_changes;
}

void ea_perfetto_discardable(struct ea_perfetto *p)
{
	p->discardable = true;
}

size_t pj_split_from(const struct ea_perfetto *p, const struct ea_timeline *t)
{
	size_t n = ea_timeline_nchanges(t);

	if (!p->split_min || n < p->split_min || n < 2)
		return 0;
	/* a bounded record (perfetto-json-bound.c) ends past the cut, by
	 * about as much as a slice is longer than the least one: the cut
	 * near 4/5 of it on rec.dat */
	return t->priv->changes.bound.closed ? n / 5 * 2 : n / 2;
}

/* Direct, p failed: the file cut where p's writes that reached it end
 * (its descriptor's offset: the thread's pwrite()s do not move it), so
 * that what is left is a prefix of the file, not p's text with the
 * thread's after a hole or in place of p's. */
static void cut_failed(struct pj_split *a, struct ea_perfetto *p)
{
	off_t end = lseek(fileno(p->f), 0, SEEK_CUR);

	/* a write error of p's stream is reported as such (its ferror());
	 * else p failed */
	if (!ferror(p->f))
		p->failed = true;
	if (pj_direct_wrote(a->dw) && end >= 0)
		(void)ftruncate(fileno(p->f), end);
}

/* Direct: the thread's text cut off p's file, which p's stream goes on
 * writing from where it is (false, p failed, when it cannot: a write of
 * p's failed, say the disk full, which the thread's text may have
 * filled; going on once the cut freed room would leave a file with a
 * piece missing). */
static bool cut_off(struct pj_split *a, struct ea_perfetto *p)
{
	long long pos;

	a->done = true;
	if (!pj_direct_wrote(a->dw))
		return true;
	pj_flush(p);
	pos = fflush(p->f) || ferror(p->f) ? -1 : ftell(p->f);
	if (pos < 0 || ftruncate(fileno(p->f), (off_t)pos)) {
		cut_failed(a, p);
		return false;
	}
	return true;
}

void pj_split_free(struct pj_split *a, struct ea_perfetto *p)
{
	if (!a)
		return;
	/* the caller stopped before the thread's changes: so may it */
	atomic_store_explicit(&a->stop, true, memory_order_relaxed);
	pf_ahead_join(&a->held);
	if (a->dw && p && !a->done)
		(void)cut_off(a, p);
	pj_direct_free(a->dw);
	pj_pass_free(&a->pass);
	pj_writer_free(&a->p);
	pf_ahead_free(&a->held);
	free(a);
}

struct pj_split *pj_split_start(const struct ea_perfetto *p,
				const struct ea_timeline *t,
				const struct ea_state *s, int ncpus,
				uint64_t t0, size_t from)
{
	const long long most = EA_PERFETTO_AHEAD_MAX_MB * 1048576ll;
	struct pj_split *a;

	if (!from || !(a = calloc(1, sizeof(*a))))
		return NULL;
	a->t = t;
	a->s = s;
	a->t0 = t0;
	a->from = from;
	a->cap = p->cap;
	atomic_init(&a->tell, -1);
	atomic_init(&a->stop, false);
	/* direct when p's file takes writes at an offset and its size is
	 * known (p's pass past its first event: the thread's text all
	 * after a separator) */
	a->pos0 = p->first || !p->discardable ? -1 : ea_pf_tell(p);
	if (a->pos0 >= 0 && (a->dw = pj_direct_open(p->f))) {
		if (pj_writer_to(&a->p, pj_direct_stream(a->dw)))
			goto fail;
		a->p.cap = p->cap;
	} else if (pj_writer_ahead(&a->p, &a->held)) {
		goto fail;
	}
	/* p's process number (the stand-in's is 1) */
	memcpy(pj_w(&a->p)->pid, pj_w(p)->pid, sizeof(pj_w(p)->pid));
	pj_w(&a->p)->pid_len = pj_w(p)->pid_len;
	a->p.pid = p->pid;
	if (pj_pass_init(&a->pass, &a->p, t->acct, ncpus,
			 a->dw ? NULL : &a->held,
			 (size_t)(p->cap > 0 && p->cap < most ? p->cap : most)))
		goto fail;
	a->pass.name_holes = false; /* the names: s is the end's */
	if (pf_ahead_start(&a->held, work, a))
		goto fail;
	return a;
fail:
	pj_split_free(a, NULL);
	return NULL;
}

/* Direct: p's stream moved past the thread's text, its cut p's, when the
 * thread began where p is; else the thread's text cut off (false). */
static bool take_direct(struct pj_split *a, struct ea_perfetto *p)
{
	long long tell = ea_pf_tell(p);

	pf_ahead_join(&a->held);
	if (ferror(p->f) || (a->reached && tell > a->at)) {
		/* a write of p's failed, or p's text ran past where the
		 * thread's began (the measure wrong: the thread may have
		 * written over p's): taken, p failed */
		a->done = true;
		cut_failed(a, p);
		return true;
	}
	if (!a->reached || a->p.failed || pj_direct_failed(a->dw) ||
	    tell != a->at) {
		/* the thread's text cut off, p goes on by itself (false);
		 * when the cut fails, p failed: taken, p's pass ends */
		return !cut_off(a, p);
	}
	a->done = true;
	pj_flush(p);
	if (fflush(p->f) || ferror(p->f) ||
	    fseeko(p->f, (off_t)pj_direct_end(a->dw), SEEK_SET)) {
		cut_failed(a, p);
		return true;
	}
	if (a->p.full) {
		p->full = true;
		p->full_at = a->p.full_at;
	}
	p->split_taken++;
	return true;
}

bool pj_split_take(struct pj_split *a, struct ea_perfetto *p)
{
	const struct pj_pass *ps = &a->pass;
	long long tell = p->cap ? ea_pf_tell(p) : -1;
	size_t cut = SIZE_MAX, end;

	if (a->dw)
		return take_direct(a, p);
	atomic_store_explicit(&a->tell, tell, memory_order_relaxed);
	pf_ahead_join(&a->held);
	if (!a->reached || a->p.failed || a->held.failed)
		return false;
	for (size_t j = 0; tell >= 0 && j < ps->nchecks; j++)
		if (tell + (long long)ps->checks[j].off >= p->cap) {
			cut = j;
			break;
		}
	if (cut == SIZE_MAX && !a->whole)
		return false; /* stopped short of the cap and of the end */
	end = cut == SIZE_MAX ? a->held.bytes : ps->checks[cut].off;
	for (size_t b = 0, at = 0; b < a->held.nblk && at < end; b++) {
		size_t n = a->held.blk[b].n < end - at ? a->held.blk[b].n
						       : end - at;

		pj_put_bytes(p, (const char *)a->held.blk[b].p, n);
		at += n;
		free(a->held.blk[b].p);
		a->held.blk[b].p = NULL;
	}
	if (cut != SIZE_MAX) {
		p->full = true;
		p->full_at = ps->checks[cut].at;
	}
	p->split_taken++;
	return true;
}
