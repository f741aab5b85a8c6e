// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON --perfetto file's changes encoded ahead
 * (ea_perfetto_ahead_start_as(), include/eatrace/perfetto.h): what
 * perfetto-pb.c does for the protobuf, for the JSON. The pass of
 * perfetto-json-text.c runs on a thread of its own while the run records
 * the timeline's changes, into blocks (perfetto-ahead.h), with a hole where
 * each slice's task name goes and a note of each place where the cap
 * would be checked (every 256th change).
 *
 * At the end, pf_json_ahead_take() names the tasks from the state (as the
 * pass at the end would: ea_pf_comm_of()), finds the first check where
 * the file would have reached the cap: its size there is what the file
 * had before the changes (ea_pf_tell()), plus the text before the check,
 * plus the names of the holes before it. It writes the text up to there
 * (or all of it) with the names put in the holes: the bytes the pass at
 * the end writes, given to the file in the same order. The pass ahead
 * stops at the first check past the bytes it may hold (the cap, when
 * that is smaller), so that with a cap it never stops short of where the
 * cap cuts; stopped short of both (no cap, or a file that cannot tell its
 * size), its text is not used and the pass runs at the end.
 */
#include <stdlib.h>
#include <string.h>

#include "output/perfetto-json-text.h"
#include "output/timeline-changes.h"
#include "output/timeline-priv.h"

struct pf_json_ahead {
	const struct ea_timeline *t;
	struct tl_changes *rec;
	struct ea_tl_reader *r;
	struct ea_perfetto p; /* a stand-in writer: no file, no cap */
	struct pj_pass pass;
	struct pf_ahead held;
	bool whole; /* every change of the record given to the pass */
};

static void work(void *arg)
{
	struct pf_json_ahead *a = arg;
	struct ea_tl_change ch;

	do {
		while (tl_reader_next(a->r, &ch))
			if (!pj_pass_change(&a->p, &a->pass, &ch, NULL, 0))
				goto out;
	} while (tl_reader_wait(a->r, a->rec));
	a->whole = true;
out:
	pj_flush(&a->p);
}

struct pf_json_ahead *pf_json_ahead_start(struct ea_timeline *t,
					  long long cap)
{
	const long long most = EA_PERFETTO_AHEAD_MAX_MB * 1048576ll;
	struct pf_json_ahead *a;

	if (!t->record_changes || !t->priv || t->started ||
	    !(a = calloc(1, sizeof(*a))))
		return NULL;
	a->t = t;
	a->rec = &t->priv->changes;
	if (pj_writer_ahead(&a->p, &a->held) ||
	    pj_pass_init(&a->pass, &a->p, t->acct, t->ncpus, &a->held,
			 (size_t)(cap > 0 && cap < most ? cap : most)) ||
	    tl_changes_publish(a->rec) || tl_changes_handoff(a->rec) ||
	    !(a->r = tl_reader_published(a->rec)) ||
	    pf_ahead_start(&a->held, work, a)) {
		pf_json_ahead_free(a);
		return NULL;
	}
	return a;
}

void pf_json_ahead_free(struct pf_json_ahead *a)
{
	if (!a)
		return;
	if (a->held.running) { /* the run failed: the record stays unsealed */
		tl_changes_stop_readers(a->rec);
		pf_ahead_join(&a->held);
	}
	ea_tl_reader_free(a->r);
	pj_pass_free(&a->pass);
	pj_writer_free(&a->p);
	pf_ahead_free(&a->held);
	free(a);
}

/* A task's name as the pass at the end writes it. */
struct name {
	char *q;
	size_t n;
};

/* The index of the first check where the file (tell0 bytes before the
 * changes) would have reached the cap: SIZE_MAX for none. */
static size_t cut_at(const struct ea_perfetto *p, const struct pj_pass *ps,
		     const struct name *names, long long tell0)
{
	long long named = 0;
	size_t h = 0;

	if (!p->cap || tell0 < 0)
		return SIZE_MAX;
	for (size_t j = 0; j < ps->nchecks; j++) {
		const struct pj_check *c = &ps->checks[j];

		for (; h < c->holes; h++)
			named += (long long)names[ps->holes[h].task].n;
		if (tell0 + (long long)c->off + named >= p->cap)
			return j;
	}
	return SIZE_MAX;
}

/* The text held up to end bytes, with the names of the holes before
 * it, to p; each block freed once written. */
static void write_out(struct ea_perfetto *p, struct pf_json_ahead *a,
		      const struct name *names, size_t end)
{
	const struct pj_pass *ps = &a->pass;
	struct pf_ahead *h = &a->held;
	size_t at = 0, hi = 0;

	for (size_t b = 0; b < h->nblk && at < end; b++) {
		const char *q = (const char *)h->blk[b].p;
		size_t n = h->blk[b].n < end - at ? h->blk[b].n : end - at;

		for (; hi < ps->nholes && ps->holes[hi].off < at + n; hi++) {
			const struct name *nm = &names[ps->holes[hi].task];
			size_t piece = ps->holes[hi].off - at;

			pj_put_bytes(p, q, piece);
			q += piece;
			n -= piece;
			at += piece;
			pj_put_bytes(p, nm->q, nm->n);
		}
		pj_put_bytes(p, q, n);
		at += n;
		free(h->blk[b].p);
		h->blk[b].p = NULL;
	}
}

bool pf_json_ahead_take(struct ea_perfetto *p, const struct ea_timeline *t,
			const struct ea_state *s, uint64_t t0, int ncpus)
{
	struct pf_json_ahead *a = p->ahead;
	const struct pj_pass *ps = &a->pass;
	struct name *names;
	size_t cut;
	bool ok = false;

	p->ahead = NULL;
	pf_ahead_join(&a->held);
	if (a->t != t || t0 || p->pid != 1 || p->first || a->p.failed ||
	    a->held.failed || ps->max_cpu >= ncpus ||
	    !(names = calloc(ps->tasks.n + 1, sizeof(*names))))
		return false;
	for (size_t i = 0; i < ps->tasks.n; i++) {
		char cb[32];

		names[i].q = pj_esc_dup(ea_pf_comm_of(s, ps->tasks.e[i].pid, cb),
					&names[i].n);
		/* the pass at the end fails on these: let it */
		if (!names[i].q || names[i].n > 128)
			goto out;
	}
	cut = cut_at(p, ps, names, ea_pf_tell(p));
	if (cut == SIZE_MAX && !a->whole)
		goto out; /* stopped short of the cap and of the end */
	write_out(p, a, names,
		  cut == SIZE_MAX ? a->held.bytes : ps->checks[cut].off);
	if (cut != SIZE_MAX) {
		p->full = true;
		p->full_at = ps->checks[cut].at;
	}
	ok = true;
	if (p->ahead_taken)
		*p->ahead_taken = true;
out:
	for (size_t i = 0; i < ps->tasks.n; i++)
		free(names[i].q);
	free(names);
	return ok;
}
