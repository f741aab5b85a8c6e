// SPDX-License-Identifier: GPL-2.0-only
/*
 * The model under construction (struct ea_imp): clusters, CPUs, cap and
 * idle states added one by one, each remembering where in the source it
 * came from, and the notes that become model->source.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/import-priv.h"

int ea_imp_init(struct ea_imp *b, const char *src,
		const struct ea_import_opts *opts, struct ea_err *err)
{
	static const struct ea_import_opts none;

	memset(b, 0, sizeof(*b));
	b->src = src;
	b->opts = opts ? opts : &none;
	b->err = err;
	b->m = calloc(1, sizeof(*b->m));
	if (!b->m)
		return ea_err_set(err, "%s: out of memory", src);
	strcpy(b->m->power_unit, "bogo");
	snprintf(b->m->name, sizeof(b->m->name), "imported");
	return 0;
}

void ea_imp_free(struct ea_imp *b)
{
	/* location arrays are zeroed as they grow: free every slot */
	for (int i = 0; i < b->cl_alloc; i++) {
		for (int k = 0; b->cap_loc[i] && k < b->cap_alloc[i]; k++)
			free(b->cap_loc[i][k]);
		for (int k = 0; b->idle_loc[i] && k < b->idle_alloc[i]; k++)
			free(b->idle_loc[i][k]);
	}
	for (int i = 0; i < b->cl_alloc; i++) {
		free(b->cl_loc[i]);
		free(b->cap_loc[i]);
		free(b->idle_loc[i]);
	}
	free(b->cl_loc);
	free(b->cap_loc);
	free(b->idle_loc);
	free(b->cap_alloc);
	free(b->idle_alloc);
	free(b->cpu_alloc);
	free(b->cap_given);
	free(b->notes.s);
	ea_model_free(b->m);
	memset(b, 0, sizeof(*b));
}

int ea_imp_fail(struct ea_imp *b, const char *loc, const char *fmt, ...)
{
	char msg[EA_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return ea_err_set(b->err, "%s: %s", loc ? loc : b->src, msg);
}

void ea_imp_note(struct ea_imp *b, const char *fmt, ...)
{
	va_list ap;

	if (b->notes.len)
		ea_sb_add(&b->notes, " ");
	va_start(ap, fmt);
	ea_sb_vadd(&b->notes, fmt, ap);
	va_end(ap);
}

static void *grow(void *p, int *alloc, int need, size_t size)
{
	int n;
	void *np;

	if (need <= *alloc)
		return p;
	n = *alloc ? *alloc * 2 : 8;
	while (n < need)
		n *= 2;
	np = realloc(p, (size_t)n * size);
	if (!np)
		return NULL;
	memset((char *)np + (size_t)*alloc * size, 0,
	       (size_t)(n - *alloc) * size);
	*alloc = n;
	return np;
}

int ea_imp_cluster(struct ea_imp *b, const char *name, const char *loc)
{
	struct ea_model *m = b->m;
	int i = m->nclusters, alloc;
	struct ea_cluster *cl;

	if (i >= EA_MODEL_MAX_CPUS)
		return ea_imp_fail(b, loc, "more than %d clusters",
				   EA_MODEL_MAX_CPUS);
	if (strlen(name) >= EA_NAME_LEN)
		return ea_imp_fail(
			b, loc,
			"cluster name '%.40s...' is longer than %d characters",
			name, EA_NAME_LEN - 1);
	if (i >= b->cl_alloc) {
		void *p;

		alloc = b->cl_alloc;
		p = grow(m->clusters, &alloc, i + 1, sizeof(*m->clusters));
		if (!p)
			goto oom;
		m->clusters = p;
#define GROW_PARALLEL(field)                                              \
	do {                                                              \
		int a_ = b->cl_alloc;                                     \
		void *q_ = grow(b->field, &a_, i + 1, sizeof(*b->field)); \
		if (!q_)                                                  \
			goto oom;                                         \
		b->field = q_;                                            \
	} while (0)
		GROW_PARALLEL(cl_loc);
		GROW_PARALLEL(cap_loc);
		GROW_PARALLEL(idle_loc);
		GROW_PARALLEL(cap_alloc);
		GROW_PARALLEL(idle_alloc);
		GROW_PARALLEL(cpu_alloc);
		GROW_PARALLEL(cap_given);
#undef GROW_PARALLEL
		b->cl_alloc = alloc;
	}
	cl = &m->clusters[i];
	memset(cl, 0, sizeof(*cl));
	strcpy(cl->name, name);
	cl->freq_domain = true;
	b->cl_loc[i] = strdup(loc ? loc : b->src);
	if (!b->cl_loc[i])
		goto oom;
	b->cap_given[i] = true;
	m->nclusters++;
	return i;
oom:
	return ea_imp_fail(b, loc, "out of memory");
}

int ea_imp_cpu(struct ea_imp *b, int ci, int cpu, const char *loc)
{
	struct ea_cluster *cl = &b->m->clusters[ci];
	int *p;

	if (cpu < 0 || cpu >= EA_MODEL_MAX_CPUS)
		return ea_imp_fail(b, loc, "CPU id %d is out of range (0..%d)",
				   cpu, EA_MODEL_MAX_CPUS - 1);
	if (cl->ncpus >= EA_MODEL_MAX_CPUS)
		return ea_imp_fail(b, loc, "more than %d CPUs",
				   EA_MODEL_MAX_CPUS);
	p = grow(cl->cpus, &b->cpu_alloc[ci], cl->ncpus + 1, sizeof(*p));
	if (!p)
		return ea_imp_fail(b, loc, "out of memory");
	cl->cpus = p;
	cl->cpus[cl->ncpus++] = cpu;
	return 0;
}

int ea_imp_cap(struct ea_imp *b, int ci, uint32_t freq_khz, uint32_t cap,
	       double core_power, double cluster_power, const char *loc)
{
	struct ea_cluster *cl = &b->m->clusters[ci];
	int alloc = b->cap_alloc[ci];
	struct ea_cap_state *p;
	char **lp;

	if (cl->ncaps >= EA_MODEL_MAX_CAP_STATES)
		return ea_imp_fail(b, loc,
				   "cluster '%s': more than %d cap states",
				   cl->name, EA_MODEL_MAX_CAP_STATES);
	p = grow(cl->caps, &alloc, cl->ncaps + 1, sizeof(*p));
	if (!p)
		return ea_imp_fail(b, loc, "out of memory");
	cl->caps = p;
	alloc = b->cap_alloc[ci];
	lp = grow(b->cap_loc[ci], &alloc, cl->ncaps + 1, sizeof(*lp));
	if (!lp)
		return ea_imp_fail(b, loc, "out of memory");
	b->cap_loc[ci] = lp;
	b->cap_alloc[ci] = alloc;
	lp[cl->ncaps] = strdup(loc ? loc : b->src);
	if (!lp[cl->ncaps])
		return ea_imp_fail(b, loc, "out of memory");
	p = &cl->caps[cl->ncaps++];
	memset(p, 0, sizeof(*p));
	p->freq_khz = freq_khz;
	p->cap = cap;
	p->core_power = core_power;
	p->cluster_power = cluster_power;
	if (!cap)
		b->cap_given[ci] = false;
	return 0;
}

int ea_imp_idle(struct ea_imp *b, int ci, const char *name, double core_power,
		double cluster_power, double core_wakeup, double cluster_wakeup,
		uint32_t residency_us, const char *loc)
{
	struct ea_cluster *cl = &b->m->clusters[ci];
	int alloc = b->idle_alloc[ci];
	struct ea_idle_state *p;
	char **lp;

	if (cl->nidles >= EA_MODEL_MAX_IDLE_STATES)
		return ea_imp_fail(b, loc,
				   "cluster '%s': more than %d idle states",
				   cl->name, EA_MODEL_MAX_IDLE_STATES);
	if (strlen(name) >= EA_NAME_LEN)
		return ea_imp_fail(b, loc,
				   "idle state name '%.40s...' is longer than "
				   "%d characters",
				   name, EA_NAME_LEN - 1);
	p = grow(cl->idles, &alloc, cl->nidles + 1, sizeof(*p));
	if (!p)
		return ea_imp_fail(b, loc, "out of memory");
	cl->idles = p;
	alloc = b->idle_alloc[ci];
	lp = grow(b->idle_loc[ci], &alloc, cl->nidles + 1, sizeof(*lp));
	if (!lp)
		return ea_imp_fail(b, loc, "out of memory");
	b->idle_loc[ci] = lp;
	b->idle_alloc[ci] = alloc;
	lp[cl->nidles] = strdup(loc ? loc : b->src);
	if (!lp[cl->nidles])
		return ea_imp_fail(b, loc, "out of memory");
	p = &cl->idles[cl->nidles++];
	memset(p, 0, sizeof(*p));
	strcpy(p->name, name);
	p->core_power = core_power;
	p->cluster_power = cluster_power;
	p->core_wakeup = core_wakeup;
	p->cluster_wakeup = cluster_wakeup;
	p->target_residency_us = residency_us;
	return 0;
}
