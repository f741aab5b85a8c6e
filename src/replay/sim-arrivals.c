// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulator's arrivals (activations becoming eligible), in (time,
 * recorded order, task) order: a heap of each task's next one when every
 * task's own come in that order, else all of them sorted once.
 */
#include <stdlib.h>

#include "replay/sim.h"

static bool arr_less(const struct sim_arrival *x, const struct sim_arrival *y)
{
	if (x->t != y->t)
		return x->t < y->t;
	if (x->seq != y->seq)
		return x->seq < y->seq;
	return x->task < y->task;
}

static void sift_down(struct sim *s, size_t i)
{
	struct sim_arrival *h = s->heap, x = h[i];
	size_t n = s->nheap;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && arr_less(&h[c + 1], &h[c]))
			c++;
		if (!arr_less(&h[c], &x))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = x;
}

/* Task i's first arrival from acts[k] on into *a; false if none is left. */
static bool next_arrival(const struct sim *s, uint32_t i, size_t k,
			 struct sim_arrival *a)
{
	const struct rp_task *t = &s->w->tasks[i];

	for (; k < t->nacts; k++) {
		const struct rp_act *x = sim_task_act(&s->tasks[i], k);

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

struct sim_arrival sim_arr_pop(struct sim *s)
{
	struct sim_arrival a;

	if (!s->heap)
		return s->arr[s->ai++];
	a = s->heap[0];
	if (!next_arrival(s, a.task, a.act + 1, &s->heap[0]))
		s->heap[0] = s->heap[--s->nheap];
	if (s->nheap)
		sift_down(s, 0);
	return a;
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

/*
 * Whether each task's own arrivals come in (t, seq) order, strictly: then
 * merging the tasks' sequences in a heap yields the order of sorting them
 * all (cmp_arr), without the sort and its array. *n: how many arrivals.
 */
static bool in_order(const struct ea_workload *w, bool keep_gaps, size_t *n)
{
	*n = 0;
	for (size_t i = 0; i < w->ntasks; i++) {
		const struct rp_task *t = &w->tasks[i];
		uint64_t pt = 0, pseq = 0;
		bool first = true;

		for (size_t k = 0; k < t->nacts; k++) {
			const struct rp_act a_ = rp_task_act(t, k), *a = &a_;
			uint64_t at = sim_arrival_time(keep_gaps, a);

			if (!(a->flags & RP_ACT_RAN) || at > w->counts.last_ts)
				continue;
			if (!first &&
			    (at < pt || (at == pt && a->seq_in <= pseq)))
				return false;
			first = false;
			pt = at;
			pseq = a->seq_in;
			(*n)++;
		}
	}
	return true;
}

/* in_order(), once per workload and keep_gaps where w keeps it. */
bool sim_arrivals_in_order(const struct ea_workload *w, bool keep_gaps,
			   size_t *n)
{
	struct rp_arr_order *o = w->arr_order;

	if (!o)
		return in_order(w, keep_gaps, n);
	if (!o->known[keep_gaps]) {
		o->in_order[keep_gaps] = in_order(w, keep_gaps, &o->n[keep_gaps]);
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

/* Back to the first arrival: the heap of each task's first one (with no
 * heap, the sorted array's cursor is the caller's). */
void sim_arrivals_rewind(struct sim *s)
{
	if (s->heap) {
		s->nheap = 0;
		for (size_t i = 0; i < s->ntasks; i++)
			if (next_arrival(s, (uint32_t)i, 0, &s->heap[s->nheap]))
				s->nheap++;
		for (size_t i = s->nheap / 2; i-- > 0;)
			sift_down(s, i);
	}
}
