// SPDX-License-Identifier: GPL-2.0-only
/*
 * An ensemble member's workload (docs/replay.md "Ensemble"): a copy of the
 * recording's workload that starts a little later and whose activations
 * are released a little later, perturbations that should not change what
 * a policy costs.
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

/* splitmix64: a small, fast, well-mixed generator; one per member. */
static uint64_t next_u64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n]. */
static uint64_t draw(uint64_t *x, uint64_t n)
{
	if (!n)
		return 0;
	if (n == UINT64_MAX)
		return next_u64(x);
	/* the modulo's bias is below n / 2^64: nothing at these scales */
	return next_u64(x) % (n + 1);
}

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
 * segment (seg_before[g - seg0]); the CPU it runs on first from C.
 */
static struct before work_before(const struct rp_early_run *e, size_t n,
				 uint32_t task, uint32_t act, uint64_t C,
				 uint32_t seg0, uint32_t nseg,
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
		if (r->seg != UINT32_MAX && r->seg >= seg0 &&
		    r->seg - seg0 < nseg && seg_work) {
			seg_work[r->seg - seg0] += w;
			if (r->overlap)
				seg_stretch[r->seg - seg0] += w;
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
	uint64_t C, jitter_ns, rng;
	struct rp_early_run *early; /* sorted by (task, act, since) */
	uint64_t *seg_work, *seg_stretch; /* scratch, per segment of an act */
	size_t seg_scratch;
};

/* Jitter a (a copy): released up to jitter_ns later, within its life. */
static void jitter(struct member *mb, struct rp_act *a)
{
	uint64_t d = draw(&mb->rng, mb->jitter_ns),
		 end = a->end ? a->end : mb->b->counts.last_ts;

	d = end > a->eligible ? umin(d, end - a->eligible) : 0;
	a->release += d;
	a->eligible += d;
}

/* The segments of base act k of task bt, from C on, appended to t's. */
static int copy_segs(struct member *mb, const struct rp_task *bt,
		     struct rp_task *t, size_t k, size_t kout, bool cut)
{
	struct rp_act_segs as = bt->act_segs[k];
	struct rp_act_segs *out = &t->act_segs[kout];

	out->seg0 = (uint32_t)t->nsegs;
	out->nseg = 0;
	for (uint32_t g = 0; g < as.nseg; g++) {
		struct rp_seg s = bt->segs[as.seg0 + g];

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
		t->segs[t->nsegs++] = s;
		out->nseg++;
	}
	return 0;
}

/* Task i's activations from C on, jittered. */
static int member_task(struct member *mb, size_t i)
{
	const struct rp_task *bt = &mb->b->tasks[i];
	struct rp_task *t = &mb->m->tasks[i];
	size_t n = 0;

	*t = *bt;
	t->acts = NULL;
	t->act_segs = NULL;
	t->segs = NULL;
	t->wakers = NULL;	/* the member's own, kept beside its acts */
	t->nacts = t->cap = t->nsegs = t->seg_cap = 0;
	t->open = false;
	if (!bt->nacts)
		return 0;
	t->acts = malloc(bt->nacts * sizeof(*t->acts));
	if (!t->acts)
		return -1;
	if (bt->wakers) {
		t->wakers = malloc(bt->nacts * sizeof(*t->wakers));
		if (!t->wakers)
			return -1;
	}
	t->cap = bt->nacts;
	if (bt->act_segs) {
		t->act_segs = malloc(bt->nacts * sizeof(*t->act_segs));
		t->segs =
			malloc((bt->nsegs ? bt->nsegs : 1) * sizeof(*t->segs));
		if (!t->act_segs || !t->segs)
			return -1;
		t->seg_cap = bt->nsegs ? bt->nsegs : 1;
	}
	for (size_t k = 0; k < bt->nacts; k++) {
		struct rp_act a = bt->acts[k];
		bool cut = a.release < mb->C;

		if (cut) {
			uint32_t seg0 = 0, nseg = 0;
			struct before b;

			/* ended by C, or never ran: not in the member */
			if ((a.end && a.end <= mb->C) ||
			    !(a.flags & RP_ACT_RAN))
				continue;
			if (bt->act_segs) {
				seg0 = bt->act_segs[k].seg0;
				nseg = bt->act_segs[k].nseg;
				if (nseg > mb->seg_scratch) {
					free(mb->seg_work);
					free(mb->seg_stretch);
					mb->seg_work =
						malloc(nseg * sizeof(uint64_t));
					mb->seg_stretch =
						malloc(nseg * sizeof(uint64_t));
					mb->seg_scratch = nseg;
					if (!mb->seg_work || !mb->seg_stretch) {
						mb->seg_scratch = 0;
						return -1;
					}
				}
				memset(mb->seg_work, 0,
				       nseg * sizeof(uint64_t));
				memset(mb->seg_stretch, 0,
				       nseg * sizeof(uint64_t));
			}
			b = work_before(mb->early, mb->b->nearly, (uint32_t)i,
					(uint32_t)k, mb->C, seg0, nseg,
					bt->act_segs ? mb->seg_work : NULL,
					mb->seg_stretch);
			a.work -= umin(a.work, b.work);
			/* it blocked after C without running after C: only
			 * a resynchronised recording does that; nothing left */
			if (!a.work && a.end)
				continue;
			a.release = mb->C;
			a.eligible = umax(a.eligible, mb->C);
			a.flags |= RP_ACT_START;
			if (b.cpu >= 0)
				a.cpu = b.cpu;
		}
		jitter(mb, &a);
		t->acts[n] = a;
		if (bt->wakers)
			t->wakers[n] = bt->wakers[k];
		if (bt->act_segs && copy_segs(mb, bt, t, k, n, cut))
			return -1;
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

struct ea_workload *rp_workload_perturb(const struct ea_workload *b,
					uint64_t cut_ns, uint64_t jitter_ns,
					uint64_t seed)
{
	struct member mb = {.b = b, .jitter_ns = jitter_ns, .rng = seed};
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
