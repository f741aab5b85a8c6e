// SPDX-License-Identifier: GPL-2.0-only
/*
 * The coefficient table of a model (include/eatrace/fit.h): one entry per
 * number the accountant multiplies by a feature, with the key the user
 * names it by (--hold) and the reports print.
 *
 * Keys: CLUSTER.FREQ_KHZ.core_power, CLUSTER.FREQ_KHZ.cluster_power,
 * CLUSTER.STATE.core_power (STATE an idle state's name), ...cluster_power,
 * ...core_wakeup, ...cluster_wakeup, CLUSTER.offline_power, suspend_power.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eatrace/fit.h"

const char *ea_coef_member(enum ea_coef_kind kind)
{
	switch (kind) {
	case EA_CK_CORE_BUSY:
	case EA_CK_CORE_IDLE:
		return "core_power";
	case EA_CK_CLUSTER_BUSY:
	case EA_CK_CLUSTER_IDLE:
		return "cluster_power";
	case EA_CK_CORE_WAKEUP:
		return "core_wakeup";
	case EA_CK_CLUSTER_WAKEUP:
		return "cluster_wakeup";
	case EA_CK_OFFLINE:
		return "offline_power";
	case EA_CK_SUSPEND:
		return "suspend_power";
	}
	return "?";
}

/* Coefficients of one cluster: 2 per cap state, 4 per idle state, 1. */
static int per_cluster(const struct ea_cluster *cl)
{
	return 2 * cl->ncaps + 4 * cl->nidles + 1;
}

int ea_coef_index(const struct ea_coefs *cs, const struct ea_model *m,
		  int cluster, enum ea_coef_kind kind, int state)
{
	const struct ea_cluster *cl;
	int b;

	if (kind == EA_CK_SUSPEND)
		return cs->base[cs->nclusters];
	cl = &m->clusters[cluster];
	b = cs->base[cluster];
	switch (kind) {
	case EA_CK_CORE_BUSY:
		return b + state;
	case EA_CK_CLUSTER_BUSY:
		return b + cl->ncaps + state;
	case EA_CK_CORE_IDLE:
		return b + 2 * cl->ncaps + state;
	case EA_CK_CLUSTER_IDLE:
		return b + 2 * cl->ncaps + cl->nidles + state;
	case EA_CK_CORE_WAKEUP:
		return b + 2 * cl->ncaps + 2 * cl->nidles + state;
	case EA_CK_CLUSTER_WAKEUP:
		return b + 2 * cl->ncaps + 3 * cl->nidles + state;
	default:
		return b + 2 * cl->ncaps + 4 * cl->nidles;
	}
}

/* The address of the coefficient's number in model m. */
static double *slot(struct ea_model *m, const struct ea_coef *c)
{
	struct ea_cluster *cl;

	if (c->kind == EA_CK_SUSPEND)
		return &m->suspend_power;
	cl = &m->clusters[c->cluster];
	switch (c->kind) {
	case EA_CK_CORE_BUSY:
		return &cl->caps[c->state].core_power;
	case EA_CK_CLUSTER_BUSY:
		return &cl->caps[c->state].cluster_power;
	case EA_CK_CORE_IDLE:
		return &cl->idles[c->state].core_power;
	case EA_CK_CLUSTER_IDLE:
		return &cl->idles[c->state].cluster_power;
	case EA_CK_CORE_WAKEUP:
		return &cl->idles[c->state].core_wakeup;
	case EA_CK_CLUSTER_WAKEUP:
		return &cl->idles[c->state].cluster_wakeup;
	default:
		return &cl->offline_power;
	}
}

double ea_coef_get(const struct ea_model *m, const struct ea_coef *c)
{
	return *slot((struct ea_model *)m, c);
}

void ea_coef_set(struct ea_model *m, const struct ea_coef *c, double v)
{
	*slot(m, c) = v;
}

static void add(struct ea_coefs *cs, const struct ea_model *m, int ci,
		enum ea_coef_kind kind, int state)
{
	struct ea_coef *c = &cs->c[cs->n++];
	const struct ea_cluster *cl = ci >= 0 ? &m->clusters[ci] : NULL;

	c->cluster = ci;
	c->kind = kind;
	c->state = state;
	if (!cl)
		snprintf(c->key, sizeof(c->key), "suspend_power");
	else if (kind == EA_CK_OFFLINE)
		snprintf(c->key, sizeof(c->key), "%s.offline_power", cl->name);
	else if (kind == EA_CK_CORE_BUSY || kind == EA_CK_CLUSTER_BUSY)
		snprintf(c->key, sizeof(c->key), "%s.%u.%s", cl->name,
			 cl->caps[state].freq_khz, ea_coef_member(kind));
	else
		snprintf(c->key, sizeof(c->key), "%s.%s.%s", cl->name,
			 cl->idles[state].name, ea_coef_member(kind));
	c->initial = ea_coef_get(m, c);
}

int ea_coefs_build(struct ea_coefs *cs, const struct ea_model *m,
		   struct ea_err *err)
{
	int n = 1;

	memset(cs, 0, sizeof(*cs));
	for (int i = 0; i < m->nclusters; i++)
		n += per_cluster(&m->clusters[i]);
	cs->c = calloc((size_t)n, sizeof(*cs->c));
	cs->base = calloc((size_t)m->nclusters + 1, sizeof(*cs->base));
	if (!cs->c || !cs->base) {
		ea_coefs_free(cs);
		return ea_err_set(err, "out of memory");
	}
	cs->nclusters = m->nclusters;
	for (int i = 0; i < m->nclusters; i++) {
		const struct ea_cluster *cl = &m->clusters[i];

		cs->base[i] = cs->n;
		for (int k = 0; k < cl->ncaps; k++)
			add(cs, m, i, EA_CK_CORE_BUSY, k);
		for (int k = 0; k < cl->ncaps; k++)
			add(cs, m, i, EA_CK_CLUSTER_BUSY, k);
		for (enum ea_coef_kind kind = EA_CK_CORE_IDLE;
		     kind <= EA_CK_CLUSTER_WAKEUP; kind++)
			for (int k = 0; k < cl->nidles; k++)
				add(cs, m, i, kind, k);
		add(cs, m, i, EA_CK_OFFLINE, 0);
	}
	cs->base[m->nclusters] = cs->n;
	add(cs, m, -1, EA_CK_SUSPEND, 0);
	return 0;
}

void ea_coefs_free(struct ea_coefs *cs)
{
	free(cs->c);
	free(cs->base);
	memset(cs, 0, sizeof(*cs));
}

int ea_coefs_match(const struct ea_coefs *cs, const char *pattern, bool *mark)
{
	int n = 0;

	for (int i = 0; i < cs->n; i++)
		if (!fnmatch(pattern, cs->c[i].key, 0)) {
			mark[i] = true;
			n++;
		}
	return n;
}
