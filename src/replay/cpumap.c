// SPDX-License-Identifier: GPL-2.0-only
/*
 * Recorded CPUs onto the CPUs of the platform replayed on, by capacity,
 * whatever either platform's numbering: the recorded CPUs are ranked by
 * capacity (their top capacity in the source model; all equal with
 * --source-capacity or no model), then id; the target's CPUs likewise by
 * their top capacity, then id; the recorded CPU of rank r (of n) goes to
 * the target CPU of rank floor(r x m / n) (of m). Smallest to smallest,
 * biggest towards the biggest, spread in proportion. On the recorded
 * platform itself the map is the identity.
 */
#include <stdlib.h>

#include "replay/platform.h"

struct ranked {
	uint32_t cap;
	int cpu;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->cap != y->cap)
		return x->cap < y->cap ? -1 : 1;
	return x->cpu - y->cpu;
}

static uint32_t top_cap(const struct ea_model *m, int cpu)
{
	const struct ea_cluster *cl;

	if (!m || cpu >= m->ncpus || m->cpu_cluster[cpu] < 0)
		return 0;
	cl = &m->clusters[m->cpu_cluster[cpu]];
	return cl->caps[cl->ncaps - 1].cap;
}

int *rp_cpu_map_new(const struct ea_model *src, int nsrc,
		    const struct ea_model *dst, int ndst, bool same)
{
	struct ranked *s, *d;
	int *map;

	if (nsrc < 1)
		nsrc = 1;
	map = malloc(nsrc * sizeof(*map));
	s = malloc(nsrc * sizeof(*s));
	d = malloc((ndst ? ndst : 1) * sizeof(*d));
	if (!map || !s || !d) {
		free(map);
		map = NULL;
		goto out;
	}
	for (int i = 0; i < nsrc; i++)
		s[i] = (struct ranked){ same ? 0 : top_cap(src, i), i };
	for (int i = 0; i < ndst; i++)
		d[i] = (struct ranked){ same ? 0 : top_cap(dst, i), i };
	qsort(s, nsrc, sizeof(*s), cmp_ranked);
	qsort(d, ndst, sizeof(*d), cmp_ranked);
	for (int r = 0; r < nsrc; r++)
		map[s[r].cpu] = ndst ? d[(int)((int64_t)r * ndst / nsrc)].cpu : 0;
	if (same)
		for (int i = 0; i < nsrc; i++)
			map[i] = i < ndst ? i : i % ndst;
out:
	free(s);
	free(d);
	return map;
}
