/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Measured energy beside the estimate (docs/perfetto.md, "Power rails";
 * src/energy/rails.c).
 *
 * A Perfetto trace may carry power_rails packets: rail descriptors (index,
 * rail_name, subsys_name) and samples of each rail's energy counter, the
 * energy accumulated since boot in microwatt-seconds (uWs), at a time in
 * ms. The reader collects them (struct ea_rails, in ea_input_info:
 * eatrace/rail-samples.h); the report compares each rail's energy over the
 * estimate's window with the estimate for the model clusters the rail
 * feeds.
 */
#ifndef EATRACE_RAILS_H
#define EATRACE_RAILS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eatrace/energy.h"
#include "eatrace/error.h"
#include "eatrace/rail-samples.h"

/* --rail CLUSTER=RAIL */
struct ea_rail_map {
	const char *cluster, *rail;
};

struct ea_rail_cmp {
	const struct ea_rail *rail;
	bool *feeds; /* [model nclusters]: the clusters it feeds */
	int nfeeds;
	const char *mapped_by; /* "option", "name" or "none" */
	/* the measurement: over [from, to], the window or the part of it
	 * the samples cover (covers false) */
	bool measured; /* false: no sample in the window, or the
			  counter went back */
	bool covers;
	uint64_t from, to;
	double uws; /* measured energy, uWs */
	bool convertible; /* the model's power_unit is W, mW, uW or nW */
	double energy; /* measured, power_unit x s */
	ea_energy_t estimate; /* the fed clusters' energy in the window */
	bool has_diff; /* measured, covers, convertible, nfeeds */
	double diff_pct; /* (estimate - measured) / measured x 100 */
};

/*
 * One comparison per rail: which clusters it feeds (maps first, then the
 * name rule of docs/perfetto.md), its energy over the accountant's window
 * (linear interpolation between the samples that bracket each end) and
 * the estimate. 0 and *out (free with ea_rails_cmp_free), or -1 with err
 * (a map naming a cluster the model lacks or a rail the trace lacks).
 */
int ea_rails_compare(const struct ea_rails *rs, const struct ea_acct *a,
		     const struct ea_rail_map *maps, int nmaps,
		     struct ea_rail_cmp **out, size_t *n, struct ea_err *err);
void ea_rails_cmp_free(struct ea_rail_cmp *c, size_t n);

/*
 * The clusters a rail feeds by its name or subsys alone (no --rail), the
 * rule of docs/perfetto.md: feeds[i] set for each (nclusters entries,
 * false on entry); returns how many.
 */
int ea_rail_feeds_by_name(const struct ea_model *m, const char *name,
			  const char *subsys, bool *feeds);

/* uWs per power_unit x s of a model's power unit: false when unknown. */
bool ea_rails_unit(const char *power_unit, double *uws_per_unit);

#endif
