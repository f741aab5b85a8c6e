// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulator's arrivals (activations becoming eligible), in (time,
 * recorded order, task) order: a heap of each task's next one when every
 * task's own come in that order, else all of them sorted once.
 */
#include <stdlib.h>

#include "replay/sim.h"

/*
 * When each task's own arrivals come in order, they are merged by a
 * tournament of losers: tour.heap[task] holds each task's next one (past
 * the tasks, and once a task has none left, a key after every arrival),
 * tour.lt the tournament: lt[0] the task whose arrival is next, lt[n] for n
 * in [1, L) the loser at node n, task i the leaf L + i (L = lt_n, a power
 * of two, at least ntasks). Taking the next arrival and putting that
 * task's following one in its place plays one path again, leaf to root:
 * one comparison per level, where a binary heap's sift makes two. The
 * keys (time, recorded order, task) all differ: the order taken is the
 * same whatever merges them.
 */
static bool arr_less(const struct sim_arrival *x, const struct sim_arrival *y)
{
	if (x->t != y->t)
		return x->t < y->t;
	if (x->seq != y->seq)
		return x->seq < y->seq;
	return x->task < y->task;
}

/* After every arrival (their t is at most the trace's last instant). */
static void arr_none(struct sim_arrival *a, uint32_t task)
{
	*a = (struct sim_arrival){UINT64_MAX, UINT64_MAX, task, 0};
}

/* The key of leaf task changed: its path to the root played again. */
static void replay_path(struct sim_tour *tr, uint32_t task)
{
	const struct sim_arrival *h = tr->heap;
	uint32_t *lt = tr->lt, win = task;
	/* the winner's key at hand: arr_less(&h[o], &h[win]) */
	uint64_t wt = h[win].t, wseq = h[win].seq;

	for (size_t n = (tr->lt_n + task) >> 1; n; n >>= 1) {
		uint32_t o = lt[n];
		uint64_t ot = h[o].t;

		if (ot > wt)
			continue;
		if (ot == wt && (h[o].seq > wseq || (h[o].seq == wseq &&
						     o > win)))
			continue;
		lt[n] = win;
		win = o;
		wt = ot;
		wseq = h[o].seq;
	}
	lt[0] = win;
}

/* Every node from the leaves' keys (lt[L, 2L): the nodes' winners). */
static void build_tree(struct sim_tour *tr)
{
	const struct sim_arrival *h = tr->heap;
	size_t L = tr->lt_n;
	uint32_t *lt = tr->lt, *win = tr->lt + L;

	for (size_t n = L; n-- > 1;) {
		/* a child at L or past it is a leaf: its task */
		uint32_t a = 2 * n >= L ? (uint32_t)(2 * n - L) : win[2 * n];
		uint32_t b = 2 * n + 1 >= L ? (uint32_t)(2 * n + 1 - L)
					    : win[2 * n + 1];

		if (arr_less(&h[b], &h[a])) {
			uint32_t x = a;

			a = b;
			b = x;
		}
		win[n] = a;
		lt[n] = b;
	}
	lt[0] = L > 1 ? win[1] : 0;
}

/*
 * Task i's first arrival from acts[k] on into *a; false if none is left.
 * apart: read from the workload, not through s's task (another thread's).
 */
static inline __attribute__((always_inline)) bool
next_arrival(const struct sim *s, bool apart, uint32_t i, size_t k,
	     struct sim_arrival *a)
{
	const struct rp_task *t = &s->w->tasks[i];

	for (; k < t->nacts; k++) {
		struct rp_act d;
		const struct rp_act *x;

		if (apart) {
			d = rp_task_act(t, k);
			x = &d;
		} else {
			x = sim_task_act(&s->tasks[i], k);
		}

		/* the task's next activation, for when it arrives */
		__builtin_prefetch(t->packs + t->k0 + k + 1);
		uint64_t at = sim_arrival_time(s->keep_gaps, x);

		if (!(x->flags & RP_ACT_RAN) || at > s->w->counts.last_ts)
			continue;
		*a = (struct sim_arrival){at, x->seq_in, i, (uint32_t)k};
		return true;
	}
	return false;
}

static inline __attribute__((always_inline)) struct sim_arrival
tour_pop(const struct sim *s, bool apart, struct sim_tour *tr)
{
	struct sim_arrival a = tr->heap[tr->lt[0]];

	if (!next_arrival(s, apart, a.task, a.act + 1, &tr->heap[a.task])) {
		arr_none(&tr->heap[a.task], a.task);
		tr->nheap--;
	}
	replay_path(tr, a.task);
	return a;
}

struct sim_arrival sim_arr_pop(struct sim *s)
{
	if (!s->tour.heap)
		return s->arr[s->ai++];
	return tour_pop(s, false, &s->tour);
}

struct sim_arrival sim_tour_pop_apart(const struct sim *s, struct sim_tour *tr)
{
	return tour_pop(s, true, tr);
}

static int cmp_arr(const void *a, const void *b)
{
	const struct sim_arrival *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->task < y->task ? -1 : x->task > y->task;
}

/* rp_arrivals_in_order(), once per workload and keep_gaps where w keeps
 * it. */
bool sim_arrivals_in_order(const struct ea_workload *w, bool keep_gaps,
			   size_t *n)
{
	struct rp_arr_order *o = w->arr_order;

	if (!o)
		return rp_arrivals_in_order(w, keep_gaps, n);
	if (!o->known[keep_gaps]) {
		o->in_order[keep_gaps] =
			rp_arrivals_in_order(w, keep_gaps, &o->n[keep_gaps]);
		o->known[keep_gaps] = true;
	}
	*n = o->n[keep_gaps];
	return o->in_order[keep_gaps];
}

/* All arrivals in one array, sorted: when some task's are out of order. */
int sim_arrivals_sort(struct sim *s)
{
	const struct ea_workload *w = s->w;
	size_t n = 0;

	for (size_t i = 0; i < w->ntasks; i++)
		n += w->tasks[i].nacts;
	s->arr = calloc(n ? n : 1, sizeof(*s->arr));
	if (!s->arr) {
		sim_fail(s, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < w->ntasks; i++) {
		const struct rp_task *t = &w->tasks[i];

		for (size_t k = 0; k < t->nacts; k++) {
			const struct rp_act a_ = rp_task_act(t, k), *a = &a_;
			uint64_t at = sim_arrival_time(s->keep_gaps, a);

			if (!(a->flags & RP_ACT_RAN) || at > w->counts.last_ts)
				continue;
			s->arr[s->narr++] = (struct sim_arrival){
				at, a->seq_in, (uint32_t)i, (uint32_t)k};
		}
	}
	if (s->narr)
		qsort(s->arr, s->narr, sizeof(*s->arr), cmp_arr);
	return 0;
}

/* The tournament's arrays for ntasks tasks: 0 or -1 (memory). */
int sim_arrivals_alloc(struct sim *s)
{
	struct sim_tour *tr = &s->tour;
	size_t L = 1;

	while (L < s->ntasks)
		L *= 2;
	tr->heap = calloc(L, sizeof(*tr->heap));
	tr->lt = calloc(2 * L, sizeof(*tr->lt));
	tr->lt_n = L;
	if (!tr->heap || !tr->lt) {
		sim_fail(s, "out of memory");
		return -1;
	}
	return 0;
}

void sim_arrivals_free(struct sim *s)
{
	free(s->tour.heap);
	free(s->tour.lt);
	s->tour = (struct sim_tour){0};
}

/* Back to the first arrival: the tournament of each task's first one (with
 * none, the sorted array's cursor is the caller's). */
void sim_arrivals_rewind(struct sim *s)
{
	struct sim_tour *tr = &s->tour;

	if (tr->heap) {
		tr->nheap = 0;
		for (size_t i = 0; i < tr->lt_n; i++) {
			if (i < s->ntasks && next_arrival(s, false, (uint32_t)i,
							  0, &tr->heap[i]))
				tr->nheap++;
			else
				arr_none(&tr->heap[i], (uint32_t)i);
		}
		build_tree(tr);
	}
}
