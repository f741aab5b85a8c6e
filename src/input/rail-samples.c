// SPDX-License-Identifier: GPL-2.0-only
/*
 * The store of the power-rail samples a trace carries, filled by the
 * Perfetto reader (include/eatrace/rail-samples.h); src/energy/rails.c
 * compares them with the estimate.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eatrace/rail-samples.h"

struct ea_rail *ea_rails_get(struct ea_rails *rs, uint32_t index)
{
	struct ea_rail *r;

	for (size_t i = 0; i < rs->n; i++)
		if (rs->r[i].index == index)
			return &rs->r[i];
	if (rs->n == rs->cap) {
		size_t n = rs->cap ? rs->cap * 2 : 8;
		struct ea_rail *q = realloc(rs->r, n * sizeof(*q));

		if (!q)
			return NULL;
		rs->r = q;
		rs->cap = n;
	}
	r = &rs->r[rs->n++];
	memset(r, 0, sizeof(*r));
	r->index = index;
	return r;
}

int ea_rail_add_sample(struct ea_rail *r, uint64_t ts, uint64_t uws)
{
	if (r->n == r->cap) {
		size_t n = r->cap ? r->cap * 2 : 64;
		struct ea_rail_sample *q = realloc(r->s, n * sizeof(*q));

		if (!q)
			return -1;
		r->s = q;
		r->cap = n;
	}
	r->s[r->n++] = (struct ea_rail_sample){ts, uws};
	return 0;
}

static int by_ts(const void *a, const void *b)
{
	const struct ea_rail_sample *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

void ea_rails_finish(struct ea_rails *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		struct ea_rail *r = &rs->r[i];
		bool sorted = true;

		for (size_t k = 1; k < r->n && sorted; k++)
			sorted = r->s[k - 1].ts <= r->s[k].ts;
		if (!sorted)
			qsort(r->s, r->n, sizeof(*r->s), by_ts);
		if (!r->name[0])
			snprintf(r->name, sizeof(r->name), "rail%u", r->index);
	}
}

void ea_rails_free(struct ea_rails *rs)
{
	if (!rs)
		return;
	for (size_t i = 0; i < rs->n; i++)
		free(rs->r[i].s);
	free(rs->r);
	free(rs);
}
