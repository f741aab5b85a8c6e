// SPDX-License-Identifier: GPL-2.0-only
/*
 * The physical constraints a fit keeps (docs/model-fit.md "Constraints"),
 * as linear inequalities on the coefficients, each kept only when the
 * initial model satisfies it (so the initial model is always a feasible
 * point):
 *
 *  - every coefficient >= 0 (the loader refuses negative numbers);
 *  - per cluster, what `model check` calls an error: a deeper idle state
 *    draws no more core power, nor cluster power, than the shallower one;
 *    busy core power at every OPP >= every idle state's core power; busy
 *    core + cluster power > 0 at every OPP (kept as >= a small epsilon);
 *  - what it warns about, where the initial table has it: core and
 *    cluster power not falling as frequency rises; busy cluster power >=
 *    each idle state's cluster power; a core power above 0 stays so.
 *
 * Inefficient OPPs are reported (model check of the fitted model), not
 * constrained: the measurement may well show them.
 */
#include <stdio.h>
#include <stdlib.h>

#include "eatrace/fit.h"

struct list {
	struct ea_fit_constraint *c;
	int n, cap;
	bool oom;
};

static void push(struct list *l, const struct ea_coefs *cs,
		 const struct ea_model *m, int a, double ga, int b, double gb,
		 double h, const char *what)
{
	struct ea_fit_constraint *c;
	double v = ga * ea_coef_get(m, &cs->c[a]) +
		   (b >= 0 ? gb * ea_coef_get(m, &cs->c[b]) : 0);

	if (!(v >= h))
		return; /* the initial table does not have it: not kept */
	if (l->n == l->cap) {
		int n = l->cap ? l->cap * 2 : 64;
		struct ea_fit_constraint *p =
			realloc(l->c, (size_t)n * sizeof(*p));

		if (!p) {
			l->oom = true;
			return;
		}
		l->c = p;
		l->cap = n;
	}
	c = &l->c[l->n++];
	c->idx[0] = a;
	c->g[0] = ga;
	c->idx[1] = b;
	c->g[1] = gb;
	c->nterms = b >= 0 ? 2 : 1;
	c->h = h;
	snprintf(c->what, sizeof(c->what), "%s", what);
}

/* "x >= y" in words, from the keys */
static void words(char *buf, size_t n, const struct ea_coefs *cs, int a,
		  const char *op, int b)
{
	snprintf(buf, n, "%.70s %s %.70s", cs->c[a].key, op, cs->c[b].key);
}

static void cluster_rules(struct list *l, const struct ea_coefs *cs,
			  const struct ea_model *m, int ci, double eps)
{
	const struct ea_cluster *cl = &m->clusters[ci];
	char w[160];

#define IX(kind, k) ea_coef_index(cs, m, ci, kind, k)
	for (int k = 1; k < cl->nidles && !cl->idle_implicit; k++) {
		words(w, sizeof(w), cs, IX(EA_CK_CORE_IDLE, k - 1),
		      ">=", IX(EA_CK_CORE_IDLE, k));
		push(l, cs, m, IX(EA_CK_CORE_IDLE, k - 1), 1,
		     IX(EA_CK_CORE_IDLE, k), -1, 0, w);
		words(w, sizeof(w), cs, IX(EA_CK_CLUSTER_IDLE, k - 1),
		      ">=", IX(EA_CK_CLUSTER_IDLE, k));
		push(l, cs, m, IX(EA_CK_CLUSTER_IDLE, k - 1), 1,
		     IX(EA_CK_CLUSTER_IDLE, k), -1, 0, w);
	}
	for (int i = 0; i < cl->ncaps; i++) {
		int core = IX(EA_CK_CORE_BUSY, i),
		    clu = IX(EA_CK_CLUSTER_BUSY, i);

		for (int k = 0; k < cl->nidles; k++) {
			words(w, sizeof(w), cs, core,
			      ">=", IX(EA_CK_CORE_IDLE, k));
			push(l, cs, m, core, 1, IX(EA_CK_CORE_IDLE, k), -1, 0,
			     w);
			words(w, sizeof(w), cs, clu,
			      ">=", IX(EA_CK_CLUSTER_IDLE, k));
			push(l, cs, m, clu, 1, IX(EA_CK_CLUSTER_IDLE, k), -1, 0,
			     w);
		}
		snprintf(w, sizeof(w), "%.70s + cluster_power > 0",
			 cs->c[core].key);
		push(l, cs, m, core, 1, clu, 1, eps, w);
		snprintf(w, sizeof(w), "%.70s > 0", cs->c[core].key);
		push(l, cs, m, core, 1, -1, 0, eps, w);
		if (!i)
			continue;
		words(w, sizeof(w), cs, core, ">=", IX(EA_CK_CORE_BUSY, i - 1));
		push(l, cs, m, core, 1, IX(EA_CK_CORE_BUSY, i - 1), -1, 0, w);
		words(w, sizeof(w), cs, clu,
		      ">=", IX(EA_CK_CLUSTER_BUSY, i - 1));
		push(l, cs, m, clu, 1, IX(EA_CK_CLUSTER_BUSY, i - 1), -1, 0, w);
	}
#undef IX
}

int ea_fit_constraints(const struct ea_model *m, const struct ea_coefs *cs,
		       struct ea_fit_constraint **out, int *n)
{
	struct list l = {0};
	double top = 0, eps;
	char w[160];

	/* epsilon for "> 0": a millionth of the largest busy power */
	for (int ci = 0; ci < m->nclusters; ci++)
		for (int k = 0; k < m->clusters[ci].ncaps; k++) {
			const struct ea_cap_state *s = &m->clusters[ci].caps[k];

			if (s->core_power > top)
				top = s->core_power;
			if (s->cluster_power > top)
				top = s->cluster_power;
		}
	eps = top > 0 ? top * 1e-6 : 1e-9;
	for (int i = 0; i < cs->n; i++) {
		snprintf(w, sizeof(w), "%.70s >= 0", cs->c[i].key);
		push(&l, cs, m, i, 1, -1, 0, 0, w);
	}
	for (int ci = 0; ci < m->nclusters; ci++)
		cluster_rules(&l, cs, m, ci, eps);
	if (l.oom) {
		free(l.c);
		return -1;
	}
	*out = l.c;
	*n = l.n;
	return 0;
}
