// SPDX-License-Identifier: GPL-2.0-only
/*
 * The timeline consumer (include/eatrace/html.h): per-bucket energy per CPU
 * and per cluster, read off the accountant's public figures after each
 * change, so that it sums exactly to them.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "eatrace/html.h"
#include "output/timeline-changes.h"
#include "output/timeline-priv.h"
#include "output/timeline-thread.h"

#define AUTO_FIRST_WIDTH 1000 /* ns */

/*
 * Timestamps may be anywhere in [0, 2^64) ns (a valid trace can span
 * 584 years): every sum of a time and a duration saturates instead of
 * wrapping, so that bucket edges never go backwards and loops over them
 * end.
 */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* Start of bucket b, saturated at the largest timestamp. */
static uint64_t bucket_start(const struct ea_timeline *t, uint64_t b)
{
	return sat_add(t->start, sat_mul(b, t->width));
}

int ea_timeline_init(struct ea_timeline *t, const struct ea_acct *acct,
		     uint64_t width_ns, size_t max_buckets, bool record_changes)
{
	const struct ea_model *m = acct->model;
	struct ea_tl_priv *pv;
	int maxcl = 0;

	memset(t, 0, sizeof(*t));
	t->acct = acct;
	t->ncpus = m->ncpus;
	t->nclusters = m->nclusters;
	t->ncols = t->ncpus + t->nclusters;
	/* with record_changes (Perfetto), wakeup energy again in columns of
	 * its own after these, so power can be drawn without it */
	t->stride = record_changes ? 2 * t->ncols : t->ncols;
	t->fixed = width_ns != 0;
	t->width = width_ns ? width_ns : AUTO_FIRST_WIDTH;
	t->max_buckets = max_buckets < 2 ? 2 : max_buckets;
	t->record_changes = record_changes;
	pv = t->priv = calloc(1, sizeof(*t->priv));
	if (!pv)
		return -1;
	pv->seen = calloc((size_t)(t->ncols ? t->ncols : 1) * NPARTS,
			  sizeof(*pv->seen));
	pv->cl_last =
		calloc(t->nclusters ? t->nclusters : 1, sizeof(*pv->cl_last));
	pv->cl_deferred = calloc(t->nclusters ? t->nclusters : 1,
				 sizeof(*pv->cl_deferred));
	pv->cpus = calloc(t->ncpus ? t->ncpus : 1, sizeof(*pv->cpus));
	for (int i = 0; pv->cpus && i < t->ncpus; i++)
		tl_cpu_seen_forget(&pv->cpus[i]);
	for (int i = 0; i < m->nclusters; i++)
		if (m->clusters[i].ncpus > maxcl)
			maxcl = m->clusters[i].ncpus;
	/* a change's n + 5 figures, or a flush's 2 (n + 1) */
	pv->step_bytes = sizeof(struct tl_step) +
			 (size_t)(maxcl + 5 > 2 * maxcl + 2 ? maxcl + 5
							    : 2 * maxcl + 2) *
				 sizeof(ea_energy_t);
	pv->step = aligned_alloc(16, pv->step_bytes);
	/* each cluster's columns for back(): itself, then its CPUs */
	pv->cols_n = maxcl + 1;
	pv->cols = calloc((size_t)(t->nclusters ? t->nclusters : 1) *
				  (size_t)pv->cols_n,
			  sizeof(*pv->cols));
	for (int i = 0; pv->cols && i < m->nclusters; i++) {
		int *c = &pv->cols[i * pv->cols_n];

		c[0] = t->ncpus + i;
		for (int j = 0; j < m->clusters[i].ncpus; j++)
			c[1 + j] = m->clusters[i].cpus[j];
	}
	pv->defer_lo = UINT64_MAX; /* none yet (tl_near_set()) */
	pv->max_rows = SIZE_MAX / ((size_t)(t->stride ? t->stride : 1) *
				   sizeof(*t->e));
	if (!pv->seen || !pv->cl_last || !pv->cl_deferred || !pv->cpus ||
	    !pv->step ||
	    !pv->cols ||
	    (record_changes && tl_changes_init(&pv->changes, t->ncpus))) {
		ea_timeline_free(t);
		return -1;
	}
	return 0;
}

void ea_timeline_free(struct ea_timeline *t)
{
	struct ea_tl_priv *pv = t->priv;

	if (pv)
		tl_thread_finish(pv->thread);
	free(t->e);
	if (pv) {
		free(pv->step);
		free(pv->cols);
		tl_changes_free(&pv->changes);
		free(pv->seen);
		free(pv->cl_last);
		free(pv->cl_deferred);
		free(pv->cpus);
		free(pv);
	}
	memset(t, 0, sizeof(*t));
}

static void oom(struct ea_timeline *t)
{
	snprintf(t->error, sizeof(t->error), "out of memory");
	if (!t->priv->thread) /* the caller's (timeline-near.c) */
		tl_near_set(t);
}

/* Halve the number of buckets: merge pairs, double the width. */
static void merge_pairs(struct ea_timeline *t)
{
	size_t n = (t->nbuckets + 1) / 2;

	for (size_t b = 0; b < n; b++) {
		ea_energy_t *dst = &t->e[b * t->stride];
		const ea_energy_t *a = &t->e[2 * b * t->stride];

		for (int c = 0; c < t->stride; c++) {
			ea_energy_t v = a[c];

			if (2 * b + 1 < t->nbuckets)
				v += a[t->stride + c];
			dst[c] = v;
		}
	}
	/* the rows past n are zeroed again when they are grown */
	t->nbuckets = n;
	t->width *= 2;
}

/*
 * The bucket holding time ts (clamped to >= start), grown as needed, found
 * by division; it becomes the near one. -1: no memory (or more buckets of a
 * fixed width than memory can hold).
 */
static long long bucket_find(struct ea_timeline *t, uint64_t ts)
{
	const struct ea_tl_priv *pv = t->priv;
	size_t row = (size_t)(t->stride ? t->stride : 1) * sizeof(*t->e);
	uint64_t b;

	/* the one after the near one (a change crossing its end), whose
	 * start is the near one's end when that is not saturated: no
	 * division */
	if (pv->near_hi - pv->near_lo == t->width && ts >= pv->near_hi &&
	    ts - pv->near_hi < t->width)
		b = (uint64_t)pv->near_b + 1;
	else
		b = ts > t->start ? (ts - t->start) / t->width : 0;

	while (!t->fixed && b >= t->max_buckets) {
		merge_pairs(t);
		b = (ts - t->start) / t->width;
	}
	if (b >= t->nbuckets) {
		size_t cap;
		ea_energy_t *e;

		/* Room for b + 1 + b / 2 rows must fit in a size_t (and in
		 * a long long index). */
		if (b >= (uint64_t)(pv->max_rows / 2) ||
		    b >= (uint64_t)(LLONG_MAX / 2))
			return -1;
		/* grown by half again when full (a fixed width's rows come
		 * one at a time: a realloc at each was quadratic where
		 * realloc copies, as AddressSanitizer's always does) */
		if (!t->e || b >= pv->cap_rows) {
			cap = t->fixed ? (size_t)(b + 1 + b / 2) : t->max_buckets;
			e = realloc(t->e, cap * row);
			if (!e)
				return -1;
			t->e = e;
			t->priv->cap_rows = cap;
		}
		/* rows past nbuckets hold nothing: zeroed as they come in */
		memset(t->e + t->nbuckets * t->stride, 0,
		       (b + 1 - t->nbuckets) * row);
		t->nbuckets = b + 1;
	}
	t->priv->near_b = (size_t)b;
	t->priv->near_lo = bucket_start(t, b);
	t->priv->near_hi = bucket_start(t, b + 1);
	if (!t->priv->thread) /* the caller's (timeline-near.c) */
		tl_near_set(t);
	return (long long)b;
}

/*
 * bucket_find(t, ts), without the division when ts is in the near bucket
 * (the one found last: most changes are in the bucket of the change
 * before). Only bucket_find() merges or grows buckets, and each call
 * makes the bucket it found the near one, so the near bucket is always
 * what bucket_find() gives for its times.
 */
static inline long long bucket_of(struct ea_timeline *t, uint64_t ts)
{
	const struct ea_tl_priv *pv = t->priv;

	if (ts - pv->near_lo < pv->near_hi - pv->near_lo)
		return (long long)pv->near_b;
	return bucket_find(t, ts);
}

/*
 * spread() over [t0, t1) when it covers more than one bucket (all of
 * which exist), the first b (ending at bend): the piece in each is v x
 * overlap / len, the remainder in the last.
 */
static void spread_over(struct ea_timeline *t, int col, ea_energy_t v,
			uint64_t t0, uint64_t t1, uint64_t b, uint64_t bend)
{
	ea_energy_t len, q, r, done = 0;

	if (v > 0 && v <= (ea_energy_t)UINT64_MAX && t1 - t0 <= UINT32_MAX) {
		/* The same figures in 64 bits: r < len and ov <= len < 2^32,
		 * q x ov <= v < 2^64. */
		uint64_t len64 = t1 - t0, q64 = (uint64_t)v / len64,
			 r64 = (uint64_t)v % len64, done64 = 0, whole;
		size_t stride = (size_t)t->stride;
		ea_energy_t *cell = &t->e[b * stride + (size_t)col];

		if (bend >= t1) { /* one bucket after all (t0 < start) */
			*cell += v;
			return;
		}
		/* the first bucket, from t0 to its end */
		done64 = q64 * (bend - t0) + r64 * (bend - t0) / len64;
		*cell += done64;
		/* the buckets between, each overlapping by the width (bend <
		 * t1: not saturated), each the same piece (used only when
		 * width < len, where it fits) */
		bend = sat_add(bend, t->width);
		if (bend < t1) {
			whole = q64 * t->width + r64 * t->width / len64;
			for (; bend < t1; bend = sat_add(bend, t->width)) {
				cell += stride;
				*cell += whole;
				done64 += whole;
			}
		}
		/* the last, ending at t1: the rest */
		cell += stride;
		*cell += (uint64_t)v - done64;
		return;
	}
	len = (ea_energy_t)(t1 - t0);
	q = v / len;
	r = v % len;
	for (uint64_t a = t0; a < t1; b++) {
		uint64_t e = bend < t1 ? bend : t1;
		ea_energy_t ov = (ea_energy_t)(e - a);
		ea_energy_t piece = e == t1 ? v - done : q * ov + r * ov / len;

		t->e[b * (uint64_t)t->stride + (uint64_t)col] += piece;
		done += piece;
		a = e;
		bend = sat_add(bend, t->width);
	}
}

/* The CPU's and the cluster's wakeup energy (wc, wcl) at the instant ts:
 * in their columns, and again in those after ncols when the timeline has
 * them; the bucket looked up once. */
static void put_wakeups(struct ea_timeline *t, int cpu, int ccol,
			ea_energy_t wc, ea_energy_t wcl, uint64_t ts)
{
	ea_energy_t *row;
	long long b;

	if (!wc && !wcl)
		return;
	b = bucket_of(t, ts);
	if (b < 0)
		return oom(t);
	row = &t->e[b * t->stride];
	row[cpu] += wc;
	row[ccol] += wcl;
	if (t->stride > t->ncols) {
		row[t->ncols + cpu] += wc;
		row[t->ncols + ccol] += wcl;
	}
}

/*
 * Spread each v[k] (those not 0) uniformly over [t0, t1) in column
 * cols[k]: the piece in each bucket is v x overlap / len, exact when v is
 * power x len, the remainder in the last; as one value after the other
 * would be, the buckets looked up once.
 */
static inline void spread(struct ea_timeline *t, const int *cols,
			  const ea_energy_t *v, int nv, uint64_t t0, uint64_t t1)
{
	const struct ea_tl_priv *pv = t->priv;
	size_t stride = (size_t)t->stride;
	long long last;
	uint64_t b, bend;
	int k = 0;

	while (k < nv && !v[k])
		k++;
	if (k == nv)
		return;
	/* Make sure the last bucket exists first: merging must not happen
	 * between pieces (an empty stretch: the bucket of t0). */
	last = bucket_of(t, t1 <= t0 ? t0 : t1 - 1);
	if (last < 0)
		return oom(t);
	/* All in one bucket (most changes): the one piece, v (the last bucket
	 * is the near one now: near_lo is its start). */
	if (t1 <= t0 || (t0 >= t->start && t0 >= pv->near_lo)) {
		for (; k < nv; k++)
			t->e[(size_t)last * stride + (size_t)cols[k]] += v[k];
		return;
	}
	/* The first bucket, which exists (t0 < t1): the buckets from there to
	 * the last follow each other, each starting where the one before
	 * ends (bucket_start(b + 1), saturated). The one before the near
	 * one (most stretches over more than one): no division. */
	if (last > 0 && t0 >= t->start && pv->near_hi > pv->near_lo &&
	    pv->near_lo - t0 <= t->width) {
		b = (uint64_t)last - 1;
		bend = pv->near_lo;
	} else {
		b = t0 > t->start ? (t0 - t->start) / t->width : 0;
		bend = bucket_start(t, b + 1);
	}
	/* Over two buckets (a change across one edge: most of those here),
	 * each value's two pieces at once, as spread_over()'s 64-bit path
	 * makes them: v x (bend - t0) / len in the first, the rest in the
	 * second (the last: it holds t1 - 1 < bend + width). */
	if (bend < t1 && t1 - t0 <= UINT32_MAX && sat_add(bend, t->width) >= t1) {
		uint64_t len = t1 - t0, ov = bend - t0;
		ea_energy_t *row = &t->e[b * stride];

		for (; k < nv; k++) {
			ea_energy_t vk = v[k];
			uint64_t u, p;

			if (vk <= 0 || vk > (ea_energy_t)UINT64_MAX) {
				if (vk)
					spread_over(t, cols[k], vk, t0, t1, b,
						    bend);
				continue;
			}
			u = (uint64_t)vk;
			p = u / len * ov + u % len * ov / len;
			row[cols[k]] += p;
			row[stride + (size_t)cols[k]] += u - p;
		}
		return;
	}
	for (; k < nv; k++)
		if (v[k])
			spread_over(t, cols[k], v[k], t0, t1, b, bend);
}

/* Growth of col's part (its figure now) since last seen; updates seen. */
static ea_energy_t grown(struct ea_timeline *t, int col, enum part part,
			 ea_energy_t now)
{
	return seen_grow(&t->priv->seen[col * NPARTS + part], now);
}

/* The CPU's stretch, clipped to the window (not empty). */
static void record(struct ea_timeline *t, const struct tl_step *st)
{
	struct ea_tl_change c = {
		.t0 = st->c0,
		.t1 = st->c1,
		.pid = st->pid,
		.freq_khz = st->freq_khz,
		.idle_state = st->idle_state,
		.mode = st->mode,
		.cpu = st->cpu,
	};

	if (tl_changes_add(&t->priv->changes, &c))
		oom(t);
}

/*
 * One change, in two halves: front() reads the accountant's figures after
 * the change and works out what grew (the caller's thread: the accountant
 * goes on changing them); back() spreads that over the buckets and records
 * the change (the caller's thread too, or the timeline's own thread with
 * ea_timeline_use_thread()). The same steps in the same order either way.
 */
static inline bool front(struct ea_timeline *t, const struct ea_state *s,
			 int cpu, uint64_t since, uint64_t now,
			 const struct ea_cpu_state *old, struct tl_step *st)
{
	struct ea_tl_priv *pv = t->priv;
	const struct ea_acct *a = t->acct;
	const struct ea_model *m = a->model;
	const struct ea_cluster *cl;
	const struct ea_energy *cle, *cpe; /* the cluster's and CPU's figures */
	int ci, ccol, n;

	/* t->error is the back half's: with a thread of its own, it stops
	 * there */
	if ((!pv->thread && t->error[0]) || a->error[0] || cpu >= m->ncpus ||
	    m->cpu_cluster[cpu] < 0)
		return false;
	if (!t->started) {
		ea_state_window(s, &t->start, &t->end);
		ea_state_clip_bounds(s, &pv->clip_start, &pv->clip_end);
		tl_near_set(t);
		t->started = true;
	}
	ci = m->cpu_cluster[cpu];
	cl = &m->clusters[ci];
	cle = &a->clusters[ci].e;
	cpe = &a->cpus[cpu].e;
	ccol = t->ncpus + ci;
	n = cl->ncpus;
	if (!pv->cl_last[ci])
		pv->cl_last[ci] = ea_state_first_ts(s);
	st->kind = TL_STEP_CHANGE;
	st->cpu = (uint16_t)cpu;
	st->ci = (uint16_t)ci;
	st->now = now;

	/* The cluster's own power over [last, now), shared among its CPUs. */
	st->cl_c0 = pv->cl_last[ci];
	st->cl_c1 = now;
	ea_clip_to(pv->clip_start, pv->clip_end, &st->cl_c0, &st->cl_c1);
	st->d[0] = grown(t, ccol, PART_CLUSTER, part_cluster(cle));
	for (int i = 0; i < n; i++)
		st->d[1 + i] = grown(t, cl->cpus[i], PART_CLUSTER,
				     part_cluster(&a->cpus[cl->cpus[i]].e));
	pv->cl_last[ci] = now;

	/* This CPU's core over [since, now). */
	st->c0 = since;
	st->c1 = now;
	st->in_window =
		ea_clip_to(pv->clip_start, pv->clip_end, &st->c0, &st->c1) != 0;
	st->d[n + 1] = grown(t, cpu, PART_CORE, part_core(cpe));
	st->d[n + 2] = grown(t, ccol, PART_CORE, part_core(cle));

	/* Wakeups at now. */
	st->d[n + 3] = grown(t, cpu, PART_WAKE, part_wake(cpe));
	st->d[n + 4] = grown(t, ccol, PART_WAKE, part_wake(cle));
	st->pid = old->pid;
	st->freq_khz = old->freq_khz;
	st->idle_state = old->idle_state;
	st->mode = old->mode;
	return true;
}

/* A flush's growth (struct tl_step's d[]) into the near bucket's row. */
static void flush_row(struct ea_timeline *t, const struct tl_step *st)
{
	const struct ea_cluster *cl = &t->acct->model->clusters[st->ci];
	ea_energy_t *row = &t->e[t->priv->near_b * (size_t)t->stride];
	int wcol = t->stride > t->ncols ? t->ncols : -1;

	for (int i = 0; i <= cl->ncpus; i++) {
		int col = i < cl->ncpus ? cl->cpus[i] : t->ncpus + st->ci;

		row[col] += st->d[2 * i];
		if (wcol >= 0)
			row[wcol + col] += st->d[2 * i + 1];
	}
}

static inline void back(struct ea_timeline *t, const struct tl_step *st)
{
	const struct ea_cluster *cl = &t->acct->model->clusters[st->ci];
	int cpu = st->cpu, ccol = t->ncpus + st->ci, n = cl->ncpus;
	const int *ccols = &t->priv->cols[st->ci * t->priv->cols_n];
	int cols[2] = {cpu, ccol};

	if (t->error[0])
		return;
	if (st->kind == TL_STEP_FLUSH)
		return flush_row(t, st);
	/* the cluster's stretch: its column, then its CPUs' (d[0 .. n]) */
	spread(t, ccols, st->d, n + 1, st->cl_c0, st->cl_c1);
	/* the CPU's: its core, then the cluster's core part */
	spread(t, cols, st->d + n + 1, 2, st->c0, st->c1);
	put_wakeups(t, cpu, ccol, st->d[n + 3], st->d[n + 4], st->now);
	/* with a thread, the caller records (in order with the changes
	 * timeline-acct.c defers) */
	if (t->record_changes && st->in_window && !t->priv->thread)
		record(t, st);
}

/*
 * front() and back() at once for a change whose cluster and core stretches
 * and instant all lie in the near bucket, inside the clip bounds (most
 * changes): each part's growth is added to the near bucket's row, as
 * back()'s spreads and put_wakeups() would (all in one bucket, adding
 * nothing where nothing grew), without the step. false: not such a change
 * (nothing done).
 */
static inline bool near_change(struct ea_timeline *t, int cpu, uint64_t since,
			       uint64_t now, const struct ea_cpu_state *old)
{
	struct ea_tl_priv *pv = t->priv;
	const struct ea_acct *a = t->acct;
	const struct ea_model *m = a->model;
	const struct ea_cluster *cl;
	const struct ea_energy *cle, *cpe;
	ea_energy_t *row, *seen, *sc, *sp, dcl, dco, dclco, wc, wcl;
	const int *cpus;
	uint64_t cl0;
	int ci, ccol, wcol, n;

	if (t->error[0] || a->error[0] || !t->started || cpu >= m->ncpus ||
	    (ci = m->cpu_cluster[cpu]) < 0)
		return false;
	cl0 = pv->cl_last[ci];
	/* the cluster's last change known (front() sets it first), both
	 * stretches' starts in [near_lo, now], now in the near bucket (none
	 * yet: near_hi == near_lo), all inside the clip bounds, so that front()
	 * clips nothing and back() finds the near bucket only */
	if (!cl0 || cl0 < pv->near_lo || since < pv->near_lo || cl0 > now ||
	    since > now || now >= pv->near_hi || cl0 < pv->clip_start ||
	    since < pv->clip_start || now > pv->clip_end)
		return false;
	cl = &m->clusters[ci];
	n = cl->ncpus;
	cpus = cl->cpus;
	cle = &a->clusters[ci].e;
	cpe = &a->cpus[cpu].e;
	ccol = t->ncpus + ci;
	wcol = t->stride > t->ncols ? t->ncols : -1;
	row = &t->e[pv->near_b * (size_t)t->stride];
	seen = pv->seen;
	sc = &seen[ccol * NPARTS]; /* the cluster's parts seen */
	sp = &seen[cpu * NPARTS]; /* the CPU's */
	pv->cl_last[ci] = now;
	for (int i = 0; i < n; i++) {
		int c = cpus[i];

		row[c] += seen_grow(&seen[c * NPARTS + PART_CLUSTER],
				    part_cluster(&a->cpus[c].e));
	}
	dcl = seen_grow(&sc[PART_CLUSTER], part_cluster(cle));
	dclco = seen_grow(&sc[PART_CORE], part_core(cle));
	wcl = seen_grow(&sc[PART_WAKE], part_wake(cle));
	dco = seen_grow(&sp[PART_CORE], part_core(cpe));
	wc = seen_grow(&sp[PART_WAKE], part_wake(cpe));
	row[cpu] += dco + wc;
	row[ccol] += dcl + dclco + wcl;
	if (wcol >= 0) {
		row[wcol + cpu] += wc;
		row[wcol + ccol] += wcl;
	}
	if (t->record_changes && now > since &&
	    tl_changes_add_old(&pv->changes, cpu, since, now, old))
		oom(t);
	return true;
}

void tl_change(struct ea_timeline *t, const struct ea_state *s, int cpu,
	       uint64_t since, uint64_t now, const struct ea_cpu_state *old)
{
	struct ea_tl_priv *pv = t->priv;
	struct tl_step *st = pv->thread ? tl_thread_slot(pv->thread) : pv->step;

	/* one call of each half (inlined here) */
	if (!front(t, s, cpu, since, now, old, st))
		return;
	if (!pv->thread)
		return back(t, st);
	if (t->record_changes && st->in_window)
		record(t, st);
	tl_near_back(t, st);
	tl_thread_put(pv->thread);
}

static void on_change(void *ctx, const struct ea_state *s, int cpu,
		      uint64_t since, uint64_t now,
		      const struct ea_cpu_state *old,
		      const struct ea_cpu_state *new)
{
	struct ea_timeline *t = ctx;

	if (!t->priv->thread && near_change(t, cpu, since, now, old))
		return;
	tl_change(t, s, cpu, since, now, old);
}

int ea_timeline_use_thread(struct ea_timeline *t)
{
	struct ea_tl_priv *pv = t->priv;

	if (pv->thread || t->started)
		return pv->thread ? 0 : -1;
	/* the caller's view of the buckets (timeline-near.c): none yet */
	pv->sh_width = t->width;
	pv->sh_lo = pv->sh_hi = 0;
	return tl_thread_start(&pv->thread, t, pv->step_bytes, back);
}

const struct ea_state_ops ea_timeline_ops = {
	.cpu_change = on_change,
};

int ea_timeline_done(struct ea_timeline *t, const struct ea_state *s,
		     struct ea_err *err)
{
	size_t need;

	tl_thread_finish(t->priv->thread);
	t->priv->thread = NULL;
	/* the record complete (the changes handed over recorded: the
	 * thread that did ended): a reader ahead (tl_changes_publish())
	 * reads the rest */
	tl_changes_seal(&t->priv->changes);
	if (t->priv->changes.failed && !t->error[0])
		snprintf(t->error, sizeof(t->error), "out of memory");
	if (t->error[0])
		return ea_err_set(err, "%s", t->error);
	/* timeline-acct.c defers no change after the trace's end (the state's
	 * last changes): none left to read (the accountant, done, has added
	 * to its figures since) */
	if (t->priv->deferred)
		return ea_err_set(err, "timeline: changes left unread at the end");
	ea_state_window(s, &t->start, &t->end);
	t->priv->near_lo = t->priv->near_hi = 0; /* the buckets change here */
	tl_near_set(t);
	if (!t->e) {
		t->e = calloc(t->stride ? t->stride : 1, sizeof(*t->e));
		if (!t->e)
			return ea_err_set(err, "out of memory");
		t->nbuckets = 1;
		t->priv->cap_rows = 1;
	}
	/* ceil(span / width) without overflow, at least one bucket. */
	if (t->end > t->start) {
		uint64_t span = t->end - t->start;

		need = span / t->width + (span % t->width != 0);
	} else {
		need = 1;
	}
	/* Energy at the very end (a wakeup at the last instant) goes into
	 * the last bucket, as the accountant's windows do. */
	while (t->nbuckets > need) {
		size_t b = t->nbuckets - 1;

		for (int c = 0; c < t->stride; c++) {
			t->e[(b - 1) * t->stride + c] +=
				t->e[b * t->stride + c];
			t->e[b * t->stride + c] = 0;
		}
		t->nbuckets--;
	}
	return 0;
}

void ea_timeline_bucket(const struct ea_timeline *t, size_t b, uint64_t *t0,
			uint64_t *t1)
{
	*t0 = bucket_start(t, b);
	*t1 = sat_add(*t0, t->width);
	if (*t1 > t->end)
		*t1 = t->end;
	if (*t0 > *t1)
		*t0 = *t1;
}

/* ---- shadow pricing of a replayed timeline ---- */

static void shadow_change(void *ctx, const struct ea_state *s, int cpu,
			  uint64_t since, uint64_t now,
			  const struct ea_cpu_state *old,
			  const struct ea_cpu_state *new)
{
	struct ea_tl_shadow *sh = ctx;

	ea_acct_ops.cpu_change(&sh->acct, s, cpu, since, now, old, new);
	ea_timeline_ops.cpu_change(&sh->tl, s, cpu, since, now, old, new);
}

static const struct ea_state_ops shadow_ops = {
	.cpu_change = shadow_change,
};

int ea_tl_shadow_init(struct ea_tl_shadow *sh, const struct ea_model *model,
		      const struct ea_state_config *scfg,
		      const struct ea_acct_config *acfg, int ncpus,
		      uint64_t width_ns, size_t max_buckets,
		      bool record_changes, const struct ea_replay_sink *next,
		      struct ea_err *err)
{
	struct ea_state_config cfg = *scfg;

	memset(sh, 0, sizeof(*sh));
	sh->next = next;
	if (ea_acct_init(&sh->acct, model, acfg, err))
		return -1;
	if (ea_timeline_init(&sh->tl, &sh->acct, width_ns, max_buckets,
			     record_changes)) {
		ea_acct_free(&sh->acct);
		return ea_err_set(err, "out of memory");
	}
	ea_acct_state_config(&sh->acct, &cfg);
	cfg.ncpus = ncpus;
	if (ea_state_new(&sh->st, &cfg, &shadow_ops, sh)) {
		ea_tl_shadow_free(sh);
		return ea_err_set(err, "out of memory");
	}
	return 0;
}

int ea_tl_shadow_event(void *ctx, const struct ea_event *ev, const char *comm)
{
	struct ea_tl_shadow *sh = ctx;

	if (sh->failed)
		return -1;
	if (ea_state_feed(sh->st, ev, &sh->err)) {
		sh->failed = true;
		return -1;
	}
	if (sh->next && sh->next->event(sh->next->ctx, ev, comm))
		return -1;
	return 0;
}

int ea_tl_shadow_done(struct ea_tl_shadow *sh, struct ea_err *err)
{
	if (sh->failed)
		return ea_err_set(err, "%s", sh->err.msg);
	if (ea_state_finish(sh->st, err) ||
	    ea_acct_done(&sh->acct, sh->st, err) ||
	    ea_timeline_done(&sh->tl, sh->st, err))
		return -1;
	return 0;
}

void ea_tl_shadow_free(struct ea_tl_shadow *sh)
{
	ea_state_free(sh->st);
	ea_timeline_free(&sh->tl);
	ea_acct_free(&sh->acct);
	memset(sh, 0, sizeof(*sh));
}
