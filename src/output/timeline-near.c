// SPDX-License-Identifier: GPL-2.0-only
/*
 * The near bucket as the caller's thread sees it while the timeline's back
 * half runs on a thread of its own (tl_near_back(), timeline-priv.h), so
 * that timeline-acct.c defers changes with the thread as it does without.
 *
 * The buckets' width and the near bucket are a function of the times
 * looked up, in order: timeline.c's bucket_of() keeps the near bucket
 * when the time lies in it, else bucket_find() takes the time's bucket
 * (ts - start) / width (its step to the next bucket gives the same one),
 * doubling the width (pairs merged) while that is max_buckets or more
 * (automatic width). The caller makes the same lookups on the same times as back() will
 * on the thread, from the step it hands over: a spread's last bucket when
 * one of its values is not 0, the wakeups' instant when one is not 0. So
 * the near bucket here is the thread's at the same point of the steps,
 * and a flush_near() handed over between two steps goes to the row the
 * changes it holds lie in. (A view left behind, a bucket the changes have
 * passed, defers nothing: the changes come in time order.) Where
 * bucket_find() would fail (more buckets of a fixed width than memory
 * can hold), nothing is deferred from then on: the thread's error fails
 * the run anyway.
 */
#include <limits.h>

#include "eatrace/html.h"
#include "output/timeline-priv.h"

/* bucket_of() and bucket_find() on the caller's view. */
static void near_of(struct ea_timeline *t, uint64_t ts)
{
	struct ea_tl_priv *pv = t->priv;
	uint64_t b;

	if (ts - pv->sh_lo < pv->sh_hi - pv->sh_lo)
		return;
	if (!pv->sh_width) /* failed before: none from then on */
		return;
	b = ts > t->start ? (ts - t->start) / pv->sh_width : 0;
	while (!t->fixed && b >= t->max_buckets) {
		pv->sh_width *= 2;
		b = (ts - t->start) / pv->sh_width;
	}
	if (b >= (uint64_t)(pv->max_rows / 2) || b >= (uint64_t)(LLONG_MAX / 2)) {
		pv->sh_width = 0;
		pv->sh_lo = pv->sh_hi = 0;
		return;
	}
	pv->sh_lo = tl_bucket_start(t->start, pv->sh_width, b);
	pv->sh_hi = tl_bucket_start(t->start, pv->sh_width, b + 1);
}

/* Whether any of v[0 .. n) is not 0. */
static bool any(const ea_energy_t *v, int n)
{
	for (int k = 0; k < n; k++)
		if (v[k])
			return true;
	return false;
}

void tl_near_back(struct ea_timeline *t, const struct tl_step *st)
{
	int n = t->acct->model->clusters[st->ci].ncpus;

	/* back()'s two spreads (their last bucket), then put_wakeups() */
	if (any(st->d, n + 1))
		near_of(t, st->cl_c1 <= st->cl_c0 ? st->cl_c0 : st->cl_c1 - 1);
	if (any(st->d + n + 1, 2))
		near_of(t, st->c1 <= st->c0 ? st->c0 : st->c1 - 1);
	if (any(st->d + n + 3, 2))
		near_of(t, st->now);
	tl_near_set(t);
}
