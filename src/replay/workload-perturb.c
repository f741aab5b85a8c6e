// SPDX-License-Identifier: GPL-2.0-only
/*
 * An ensemble member's workload (docs/replay.md "Ensemble"): the
 * recording's workload as if it started a little later and its
 * activations were released a little later, perturbations that should not
 * change what a policy costs. Each task is a view of the recording's
 * (rp_task.view: its arrays shared, the activation the cut shortened
 * apart, the jitter drawn when the simulator reads an activation), or
 * where its activations do not allow one a copy.
 *
 *  - Start cut at C = first_ts + cut_ns: as if the recording began at C.
 *    Activations that ended by C are gone; one released before C and not
 *    ended by it is there from C (released at C, RP_ACT_START: its wakeup
 *    is not in the recording any more, so it has no latency), with the
 *    work it had left at C: its recorded work less what its runs before C
 *    did (the runs of the first cfg.early_ns, kept by workload.c; the same
 *    for its segments). The per-CPU timelines (idle-task stretches,
 *    frequencies, idle states, offline stretches) start at C as well: what
 *    ended before C is gone, what spans C starts at C, the frequency in
 *    force at C is set at C. The metrics' window starts at C at the
 *    earliest.
 *  - Jitter: every activation is released (and may run) d ns later, d
 *    drawn uniformly in [0, jitter_ns] per activation, never past its
 *    recorded end nor the recording's last instant. Activations of one
 *    instant (the tasks running at the start) thus come in another order:
 *    the simulator's ties between them are broken anew.
 */
#include <stdlib.h>
#include <string.h>

#include "replay/workload.h"

static uint64_t umax(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static uint64_t umin(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* What the runs of the first early_ns did before C, for one activation. */
struct before {
	uint64_t work, stretch;
	int32_t cpu; /* the CPU of its first run after C (or across it), -1 */
	uint64_t cpu_since;
};

static int cmp_early(const void *a, const void *b)
{
	const struct rp_early_run *x = a, *y = b;

	if (x->task != y->task)
		return x->task < y->task ? -1 : 1;
	if (x->act != y->act)
		return x->act < y->act ? -1 : 1;
	return x->since < y->since ? -1 : x->since > y->since;
}

/* The runs of (task, act) among the sorted runs e[0, n): first index. */
static size_t runs_of(const struct rp_early_run *e, size_t n, uint32_t task,
		      uint32_t act)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (e[mid].task < task ||
		    (e[mid].task == task && e[mid].act < act))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Work the activation's runs did before C, in all and (segs non-NULL) per
 * segment (seg_before[g - seg0]; one: all in its one segment, whose index
 * is not kept: RP_ACT_SEG1); the CPU it runs on first from C.
 */
static struct before work_before(const struct rp_early_run *e, size_t n,
				 uint32_t task, uint32_t act, uint64_t C,
				 uint32_t seg0, uint32_t nseg, bool one,
				 uint64_t *seg_work, uint64_t *seg_stretch)
{
	struct before b = {0, 0, -1, UINT64_MAX};

	for (size_t i = runs_of(e, n, task, act);
	     i < n && e[i].task == task && e[i].act == act; i++) {
		const struct rp_early_run *r = &e[i];
		uint64_t w = r->since < C
				     ? (umin(r->now, C) - r->since) * r->cap
				     : 0;

		b.work += w;
		if (r->overlap)
			b.stretch += w;
		if (r->seg != UINT32_MAX && seg_work &&
		    (one || (r->seg >= seg0 && r->seg - seg0 < nseg))) {
			uint32_t g = one ? 0 : r->seg - seg0;

			seg_work[g] += w;
			if (r->overlap)
				seg_stretch[g] += w;
		}
		/* runs are in time order: the first that goes on after C */
		if (r->now > C && b.cpu < 0) {
			b.cpu = r->cpu;
			b.cpu_since = r->since;
		}
	}
	return b;
}

struct member {
	const struct ea_workload *b;
	struct ea_workload *m;
	uint64_t C, jitter_ns, seed;
	uint64_t ndraws; /* jitter draws made (one per activation kept) */
	bool copy; /* every task copied, none a view */
	struct rp_early_run *early; /* sorted by (task, act, since) */
	uint64_t *seg_work, *seg_stretch; /* scratch, per segment of an act */
	size_t seg_scratch;
};

/* Jitter a (a copy): released up to jitter_ns later, within its life. */
static void jitter(struct member *mb, struct rp_act *a)
{
	if (!mb->jitter_ns)
		return;
	rp_jitter_apply(a,
			rp_jitter_draw(mb->seed, mb->ndraws++, mb->jitter_ns),
			mb->b->counts.last_ts);
}

/*
 * The segments of base act k of task bt from C on (cut: less the work
 * its runs did before C, in mb's scratch), into out[]; how many.
 */
static uint32_t segs_from_c(const struct member *mb, const struct rp_task *bt,
			    size_t k, bool cut, struct rp_seg *out)
{
	struct rp_seg one;
	uint32_t n = 0, nseg;
	const struct rp_seg *segs = rp_task_segs(bt, k, &nseg, &one);

	for (uint32_t g = 0; g < nseg; g++) {
		struct rp_seg s = segs[g];

		if (cut) {
			s.work -= umin(s.work, mb->seg_work[g]);
			s.stretch -= umin(s.stretch, mb->seg_stretch[g]);
			if (s.stretch > s.work)
				s.stretch = s.work;
			if (s.start < mb->C) {
				if (!s.work)
					continue; /* all of it before C */
				s.start = mb->C;
			}
		}
		out[n++] = s;
	}
	return n;
}

/*
 * Base act k of task i (*a, released before C) from C on: 1 kept (*a
 * cut: the work it had left, released at C; the work its segments' runs
 * did before C in mb's scratch), 0 gone, -1 out of memory.
 */
static int cut_act(struct member *mb, size_t i, size_t k, struct rp_act *a)
{
	const struct rp_task *bt = &mb->b->tasks[i];
	uint32_t seg0 = 0, nseg = 0;
	struct rp_seg one;
	struct before b;

	/* ended by C, or never ran: not in the member */
	if ((a->end && a->end <= mb->C) || !(a->flags & RP_ACT_RAN))
		return 0;
	if (bt->segs_kept) {
		const struct rp_seg *segs = rp_task_segs(bt, k, &nseg, &one);

		seg0 = nseg && segs != &one ? (uint32_t)(segs - bt->segs) : 0;
		if (nseg > mb->seg_scratch) {
			free(mb->seg_work);
			free(mb->seg_stretch);
			mb->seg_work = malloc(nseg * sizeof(uint64_t));
			mb->seg_stretch = malloc(nseg * sizeof(uint64_t));
			mb->seg_scratch = nseg;
			if (!mb->seg_work || !mb->seg_stretch) {
				mb->seg_scratch = 0;
				return -1;
			}
		}
		memset(mb->seg_work, 0, nseg * sizeof(uint64_t));
		memset(mb->seg_stretch, 0, nseg * sizeof(uint64_t));
	}
	b = work_before(mb->early, mb->b->nearly, (uint32_t)i, (uint32_t)k,
			mb->C, seg0, nseg, a->flags & RP_ACT_SEG1,
			bt->segs_kept ? mb->seg_work : NULL, mb->seg_stretch);
	a->work -= umin(a->work, b.work);
	/* it blocked after C without running after C: only a
	 * resynchronised recording does that; nothing left */
	if (!a->work && a->end)
		return 0;
	a->release = mb->C;
	a->eligible = umax(a->eligible, mb->C);
	a->flags |= RP_ACT_START;
	if (b.cpu >= 0)
		a->cpu = b.cpu;
	return 1;
}

/*
 * Task i of the member as a view of the base task (rp_task.view): when
 * the activations released before C are some gone, then at most one
 * kept (cut), and none after, the member's are the base's from there on,
 * that one apart. 0 done, 1 not so (copy it), -1 out of memory.
 */
static int member_view(struct member *mb, size_t i)
{
	const struct rp_task *bt = &mb->b->tasks[i];
	struct rp_task *t = &mb->m->tasks[i];
	struct rp_act a0;
	struct rp_seg *segs0 = NULL;
	uint32_t nsegs0 = 0;
	bool cut = false;
	size_t k = 0, first;

	for (; k < bt->nacts && rp_task_stored(bt, k).release < mb->C; k++) {
		struct rp_act a = rp_task_stored(bt, k);
		int r;

		if (cut)
			goto copy; /* another before C after the kept one */
		r = cut_act(mb, i, k, &a);
		if (r < 0)
			return -1;
		if (!r)
			continue;
		cut = true;
		a0 = a;
		if (bt->segs_kept) {
			uint32_t nseg = rp_task_nseg(bt, k);

			segs0 = malloc((nseg ? nseg : 1) * sizeof(*segs0));
			if (!segs0)
				return -1;
			nsegs0 = segs_from_c(mb, bt, k, true, segs0);
		}
	}
	first = cut ? k - 1 : k;
	for (size_t j = k; j < bt->nacts; j++)
		if (rp_task_stored(bt, j).release < mb->C)
			goto copy;
	if (cut) {
		t->act0 = malloc(sizeof(*t->act0));
		if (!t->act0) {
			free(segs0);
			return -1;
		}
		*t->act0 = a0;
		t->segs0 = segs0;
		t->nsegs0 = nsegs0;
	}
	t->view = true;
	/* const: a view never writes through them (ea_workload_free()
	 * frees only act0 and segs0) */
	t->packs = bt->packs;
	t->bases = bt->bases;
	t->wides = bt->wides;
	t->nwides = bt->nwides;
	t->k0 = bt->k0 + first;
	t->nacts = bt->nacts - first;
	t->xsegs = bt->xsegs;
	t->nxsegs = bt->nxsegs;
	t->xseg_off = bt->xseg_off + first;
	t->segs = bt->segs;
	t->nsegs = bt->nsegs;
	if (mb->jitter_ns) {
		t->jit_ns = mb->jitter_ns;
		t->jit_seed = mb->seed;
		t->jit_n0 = mb->ndraws;
		t->jit_last_ts = mb->b->counts.last_ts;
		mb->ndraws += t->nacts; /* one draw per activation */
	}
	return 0;
copy:
	free(segs0);
	return 1;
}

/* Task i's activations from C on, jittered: a view of the base task's,
 * else a copy. */
static int member_task(struct member *mb, size_t i)
{
	const struct rp_task *bt = &mb->b->tasks[i];
	struct rp_task *t = &mb->m->tasks[i];
	size_t n = 0;
	int r;

	*t = *bt;
	t->packs = NULL;
	t->bases = NULL;
	t->wides = NULL;
	t->nwides = t->wide_cap = t->k0 = 0;
	t->staged = false;
	t->xsegs = NULL;
	t->segs = NULL;
	t->nacts = t->cap = t->nsegs = t->seg_cap = 0;
	t->nxsegs = t->xseg_cap = t->xseg_off = 0;
	t->open = false;
	if (!bt->nacts)
		return 0;
	if (!mb->copy) {
		r = member_view(mb, i);
		if (r <= 0)
			return r;
	}
	if (rp_store_reserve(t, bt->nacts))
		return -1;
	if (bt->segs_kept) {
		/* every segment kept apart, RP_ACT_SEG1's too */
		size_t nsegs = 0;

		for (size_t k = 0; k < bt->nacts; k++)
			nsegs += rp_task_nseg(bt, k);
		t->xsegs = malloc(bt->nacts * sizeof(*t->xsegs));
		t->segs = malloc((nsegs ? nsegs : 1) * sizeof(*t->segs));
		if (!t->xsegs || !t->segs)
			return -1;
		t->seg_cap = nsegs ? nsegs : 1;
		t->xseg_cap = bt->nacts;
	}
	for (size_t k = 0; k < bt->nacts; k++) {
		struct rp_act a = rp_task_stored(bt, k);
		struct rp_waker wk = rp_task_waker(bt, k);
		bool cut = a.release < mb->C;

		if (cut) {
			r = cut_act(mb, i, k, &a);
			if (r < 0)
				return -1;
			if (!r)
				continue;
		}
		jitter(mb, &a);
		a.flags &= ~(RP_ACT_SEG1 | RP_ACT_SEG1_IDLE);
		if (rp_store_push(t, n, &a, &wk))
			return -1;
		if (bt->segs_kept) {
			uint32_t g =
				segs_from_c(mb, bt, k, cut, t->segs + t->nsegs);

			if (g)
				t->xsegs[t->nxsegs++] = (struct rp_xseg){
					(uint32_t)n, (uint32_t)t->nsegs, g};
			t->nsegs += g;
		}
		n++;
	}
	t->nacts = n;
	return 0;
}

/* Idle-task stretches, frequencies, offline stretches and idle states
 * from C on. */
static int member_timelines(struct member *mb)
{
	const struct ea_workload *b = mb->b;
	struct ea_workload *m = mb->m;
	uint64_t C = mb->C;
	int nc = b->ncpus;
	bool *seen;

	m->busy0 = malloc((b->nbusy0 ? b->nbusy0 : 1) * sizeof(*m->busy0));
	m->freqs = malloc((b->nfreqs ? b->nfreqs : 1) * sizeof(*m->freqs));
	m->offs = malloc((b->noffs ? b->noffs : 1) * sizeof(*m->offs));
	m->cpus = calloc(nc ? nc : 1, sizeof(*m->cpus));
	seen = calloc(nc ? nc : 1, sizeof(*seen));
	if (!m->busy0 || !m->freqs || !m->offs || !m->cpus || !seen) {
		free(seen);
		return -1;
	}
	m->busy0_cap = b->nbusy0 ? b->nbusy0 : 1;
	m->freq_cap = b->nfreqs ? b->nfreqs : 1;
	m->off_cap = b->noffs ? b->noffs : 1;
	/* sorted by (start, seq_start): those clipped to C began earlier,
	 * with smaller seqs, so the order holds */
	for (size_t i = 0; i < b->nbusy0; i++) {
		struct rp_idle_busy x = b->busy0[i];

		if (x.start < C) {
			if (x.end <= C)
				continue;
			x.start = C;
		}
		m->busy0[m->nbusy0++] = x;
	}
	/* the frequency in force at C: each CPU's last change before C, at C
	 * (in their recorded order, before the changes at C itself) */
	for (size_t i = b->nfreqs; i-- > 0;) {
		const struct rp_freq *f = &b->freqs[i];

		if (f->ts < C && f->cpu >= 0 && f->cpu < nc && !seen[f->cpu])
			seen[f->cpu] = true;
		else if (f->ts < C)
			continue;
		m->nfreqs++;
	}
	memset(seen, 0, (nc ? nc : 1) * sizeof(*seen));
	{
		size_t j = m->nfreqs;

		for (size_t i = b->nfreqs; i-- > 0;) {
			struct rp_freq f = b->freqs[i];

			if (f.ts < C) {
				if (f.cpu < 0 || f.cpu >= nc || seen[f.cpu])
					continue;
				seen[f.cpu] = true;
				f.ts = C;
			}
			m->freqs[--j] = f;
		}
	}
	free(seen);
	for (size_t i = 0; i < b->noffs; i++) {
		struct rp_off o = b->offs[i];

		if (o.end <= C)
			continue;
		o.start = umax(o.start, C);
		m->offs[m->noffs++] = o;
	}
	m->ncpus = nc;
	for (int c = 0; c < nc; c++) {
		const struct rp_cpu_timeline *bt = &b->cpus[c];
		struct rp_cpu_timeline *t = &m->cpus[c];

		*t = *bt;
		t->idles = malloc((bt->nidles ? bt->nidles : 1) *
				  sizeof(*t->idles));
		if (!t->idles)
			return -1;
		t->nidles = 0;
		t->cap = bt->nidles ? bt->nidles : 1;
		/* idle at C: in an idle period across it (or from it) */
		t->init_idle = false;
		for (size_t k = 0; k < bt->nidles; k++) {
			struct rp_idle x = bt->idles[k];

			if (x.until <= C && x.since < C)
				continue;
			if (x.since <= C && !t->nidles) {
				t->init_idle = true;
				t->init_state = x.state;
			}
			x.since = umax(x.since, C);
			t->idles[t->nidles++] = x;
		}
	}
	return 0;
}

struct ea_workload *rp_workload_perturb_as(const struct ea_workload *b,
					   uint64_t cut_ns, uint64_t jitter_ns,
					   uint64_t seed, bool copy)
{
	struct member mb = {
		.b = b, .jitter_ns = jitter_ns, .seed = seed, .copy = copy};
	struct ea_workload *m = calloc(1, sizeof(*m));
	int rc = -1;

	if (!m)
		return NULL;
	if (cut_ns > b->cfg.early_ns)
		cut_ns = b->cfg.early_ns;
	mb.m = m;
	mb.C = b->counts.first_ts + cut_ns;
	if (mb.C > b->counts.last_ts)
		mb.C = b->counts.last_ts;
	m->cfg = b->cfg;
	m->cfg.early_ns = 0;
	m->counts = b->counts;
	m->counts.first_ts = mb.C;
	m->counts.win_start = umax(b->counts.win_start, mb.C);
	if (m->counts.win_start > m->counts.win_end)
		m->counts.win_start = m->counts.win_end;
	m->seq = b->seq;
	if (b->nearly) {
		mb.early = malloc(b->nearly * sizeof(*mb.early));
		if (!mb.early)
			goto out;
		memcpy(mb.early, b->early, b->nearly * sizeof(*mb.early));
		qsort(mb.early, b->nearly, sizeof(*mb.early), cmp_early);
	}
	m->tasks = calloc(b->ntasks ? b->ntasks : 1, sizeof(*m->tasks));
	if (!m->tasks)
		goto out;
	m->task_cap = b->ntasks ? b->ntasks : 1;
	for (size_t i = 0; i < b->ntasks; i++) {
		m->ntasks = i + 1; /* freed by ea_workload_free() if it fails */
		if (member_task(&mb, i))
			goto out;
	}
	if (member_timelines(&mb))
		goto out;
	/* replayed by one thread (runs.c): its order checked once; without
	 * the memory, at each run */
	m->arr_order = calloc(1, sizeof(*m->arr_order));
	rc = 0;
out:
	free(mb.early);
	free(mb.seg_work);
	free(mb.seg_stretch);
	if (rc) {
		ea_workload_free(m);
		return NULL;
	}
	return m;
}

struct ea_workload *rp_workload_perturb(const struct ea_workload *b,
					uint64_t cut_ns, uint64_t jitter_ns,
					uint64_t seed)
{
	return rp_workload_perturb_as(b, cut_ns, jitter_ns, seed, false);
}
