/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Platform energy cost model (the 2014 RFC's model, with several idle
 * states). See docs/model-format.md for the file format and SPEC.md
 * "Energy model" for the meaning.
 *
 * Powers are kept both as the file's doubles (for display) and quantised to
 * micro-units (int64, "_u" suffix) for the accountant, which sums energies as
 * integers so that every breakdown adds up exactly to the total.
 */
#ifndef EATRACE_MODEL_H
#define EATRACE_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "eatrace/error.h"

#define EA_NAME_LEN 64
#define EA_MICRO 1000000LL	/* power quantum: 1e-6 power_unit */

struct ea_cap_state {
	uint32_t freq_khz;
	uint32_t cap;		/* capacity units, max 1024 on the biggest CPU */
	double core_power;	/* power_unit */
	double cluster_power;
	int64_t core_power_u;	/* micro power_unit */
	int64_t cluster_power_u;
};

struct ea_idle_state {
	char name[EA_NAME_LEN];
	double core_power, cluster_power;	/* power_unit */
	double core_wakeup, cluster_wakeup;	/* power_unit x s per wakeup */
	int64_t core_power_u, cluster_power_u;
	int64_t core_wakeup_u, cluster_wakeup_u;	/* micro power_unit x s */
	uint32_t target_residency_us;
};

struct ea_cluster {
	char name[EA_NAME_LEN];
	int *cpus;
	int ncpus;
	bool freq_domain;	/* CPUs share one frequency */
	struct ea_cap_state *caps;	/* ascending capacity */
	int ncaps;
	struct ea_idle_state *idles;	/* shallowest first; index = cpuidle index */
	int nidles;
};

struct ea_model {
	char name[EA_NAME_LEN];
	char *source;
	char *path;		/* file it was loaded from */
	char power_unit[16];
	struct ea_cluster *clusters;
	int nclusters;
	int ncpus;		/* highest CPU id + 1 */
	int *cpu_cluster;	/* cpu -> cluster index, -1 if absent */
};

/*
 * Load a model from a path, or by name from the bundled models (./models,
 * $EATRACE_MODEL_PATH, then the installed data directory). Validates it
 * fully: returns 0, or -1 with err = "FILE:LINE: cause".
 */
int ea_model_load(struct ea_model **model, const char *path_or_name,
		  struct ea_err *err);
void ea_model_free(struct ea_model *model);

/* Index of the cap state with exactly this frequency, or -1. */
int ea_model_cap_index(const struct ea_cluster *cl, uint32_t freq_khz);

/*
 * Index of the cap state to charge for freq_khz: the exact match, else the
 * lowest state at or above it, else the highest. Returns -1 only for a
 * cluster with no states.
 */
int ea_model_cap_index_nearest(const struct ea_cluster *cl, uint32_t freq_khz);

#endif
