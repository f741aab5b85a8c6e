// SPDX-License-Identifier: GPL-2.0-only
/*
 * Whether two models hold the same tables, text compared as written to JSON
 * and read back ('model import' checks that the model it wrote loads back
 * as it built it).
 */
#include <stdio.h>

#include "eatrace/escape.h"
#include "model/import.h"

#define DIFF(cond, ...)                                \
	do {                                           \
		if (cond) {                            \
			snprintf(why, n, __VA_ARGS__); \
			return false;                  \
		}                                      \
	} while (0)

/* b's text is a's as written to JSON and read back (eatrace/escape.h) */
static bool differ(const char *a, const char *b)
{
	return !ea_utf8_fixed_eq(a ? a : "", b ? b : "");
}

bool ea_model_equal(const struct ea_model *a, const struct ea_model *b,
		    char *why, size_t n)
{
	char dummy[8];

	if (!why) {
		why = dummy;
		n = sizeof(dummy);
	}
	DIFF(differ(a->name, b->name), "name '%s' vs '%s'", a->name, b->name);
	DIFF(differ(a->source, b->source), "source differs");
	DIFF(differ(a->power_unit, b->power_unit), "power_unit '%s' vs '%s'",
	     a->power_unit, b->power_unit);
	DIFF(a->nclusters != b->nclusters, "%d vs %d clusters", a->nclusters,
	     b->nclusters);
	DIFF(a->ncpus != b->ncpus, "ncpus %d vs %d", a->ncpus, b->ncpus);
	for (int c = 0; c < a->ncpus; c++)
		DIFF(a->cpu_cluster[c] != b->cpu_cluster[c],
		     "CPU %d in cluster %d vs %d", c, a->cpu_cluster[c],
		     b->cpu_cluster[c]);
	for (int i = 0; i < a->nclusters; i++) {
		const struct ea_cluster *x = &a->clusters[i],
					*y = &b->clusters[i];

		DIFF(differ(x->name, y->name), "clusters[%d].name '%s' vs '%s'",
		     i, x->name, y->name);
		DIFF(x->ncpus != y->ncpus, "clusters[%d]: %d vs %d CPUs", i,
		     x->ncpus, y->ncpus);
		for (int k = 0; k < x->ncpus; k++)
			DIFF(x->cpus[k] != y->cpus[k],
			     "clusters[%d].cpus[%d]: %d vs %d", i, k,
			     x->cpus[k], y->cpus[k]);
		DIFF(x->freq_domain != y->freq_domain,
		     "clusters[%d].freq_domain", i);
		DIFF(x->idle_implicit != y->idle_implicit,
		     "clusters[%d]: implicit idle state", i);
		DIFF(x->ncaps != y->ncaps, "clusters[%d]: %d vs %d cap states",
		     i, x->ncaps, y->ncaps);
		DIFF(x->nidles != y->nidles,
		     "clusters[%d]: %d vs %d idle states", i, x->nidles,
		     y->nidles);
		for (int k = 0; k < x->ncaps; k++) {
			const struct ea_cap_state *p = &x->caps[k],
						  *q = &y->caps[k];

			DIFF(p->freq_khz != q->freq_khz || p->cap != q->cap ||
				     p->core_power != q->core_power ||
				     p->cluster_power != q->cluster_power ||
				     p->core_power_u != q->core_power_u ||
				     p->cluster_power_u != q->cluster_power_u,
			     "clusters[%d].cap_states[%d] differ", i, k);
		}
		for (int k = 0; k < x->nidles; k++) {
			const struct ea_idle_state *p = &x->idles[k],
						   *q = &y->idles[k];

			DIFF(differ(p->name, q->name) ||
				     p->core_power != q->core_power ||
				     p->cluster_power != q->cluster_power ||
				     p->core_wakeup != q->core_wakeup ||
				     p->cluster_wakeup != q->cluster_wakeup ||
				     p->target_residency_us !=
					     q->target_residency_us ||
				     p->has_exit_latency !=
					     q->has_exit_latency ||
				     p->exit_latency_us != q->exit_latency_us ||
				     p->core_power_u != q->core_power_u ||
				     p->cluster_power_u != q->cluster_power_u ||
				     p->core_wakeup_u != q->core_wakeup_u ||
				     p->cluster_wakeup_u != q->cluster_wakeup_u,
			     "clusters[%d].idle_states[%d] differ", i, k);
		}
	}
	return true;
}

#undef DIFF
