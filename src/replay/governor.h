/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The replay's frequency governors (governor.c): a --governor parsed, and
 * the OPP each picks for a frequency domain from its busiest CPU's util.
 * Beside the policies; uses the platform layer only.
 */
#ifndef EATRACE_REPLAY_GOVERNOR_H
#define EATRACE_REPLAY_GOVERNOR_H

#include <stddef.h>

#include "replay/platform.h"

enum rp_gov {
	RP_GOV_RECORDED,
	RP_GOV_SCHEDUTIL,
	RP_GOV_PERFORMANCE,
	RP_GOV_POWERSAVE,
	RP_GOV_FIXED
};

/* A --governor, parsed: "schedutil[:rate_limit_us=N][,all_opps]",
 * "fixed:A15=KHZ,...". */
struct rp_gov_spec {
	enum rp_gov kind;
	uint32_t rate_limit_us; /* schedutil: between frequency changes */
	bool all_opps; /* schedutil: inefficient OPPs too */
	int *fixed_k; /* fixed: OPP index per cluster (malloc) */
};

/* The kind of a --governor text, or -1 (syntax only). */
int rp_gov_parse(const char *name);
/* Parse text; with a model, check cluster names and OPPs too. 0, or -1
 * with a one-line message in err (n bytes; NULL: none). */
int rp_gov_spec_parse(struct rp_gov_spec *g, const char *text,
		      const struct ea_model *m, char *err, size_t n);
void rp_gov_spec_default(struct rp_gov_spec *g, enum rp_gov kind);
void rp_gov_spec_free(struct rp_gov_spec *g);
/* OPP index the governor wants for a domain of cluster ci (cl) whose
 * busiest CPU has util (capacity units); schedutil's rate limit aside.
 * clc: rp_cl_cache_new() of the model (its efficient OPPs), or NULL. */
int rp_gov_cap_idx(const struct rp_gov_spec *g, int ci,
		   const struct ea_cluster *cl, const struct rp_cl_cache *clc,
		   uint32_t util);

#endif
