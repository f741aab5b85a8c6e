/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `eatrace diff` attribution rows when the two sides' models differ
 * (--models A B): clusters are paired by index; within a pair, P-states are
 * matched by frequency and C-states by name. A row stands for one P-state
 * (or C-state) of either model; k[s] is its index in side s's cluster, -1
 * where side s's model has no such state (its share is then absent: NaN
 * from ea_diff_pstate_mean(), null in JSON, "-" in text). With one model
 * on both sides the rows are that model's table, in its order.
 */
#ifndef EATRACE_DIFF_ROWS_H
#define EATRACE_DIFF_ROWS_H

#include "eatrace/diff.h"

struct ea_diff_row {
	int k[2]; /* index in base's / new's cluster, or -1 */
};

/* Cluster pairs: the larger of the two models' cluster counts (capped at
 * EA_DIFF_MAX_CLUSTERS). */
int ea_diff_nclusters(const struct ea_diff *d);
/* Side s's cluster c, or NULL when its model has fewer clusters. */
const struct ea_cluster *ea_diff_side_cluster(const struct ea_diff *d, int s,
					      int c);
/* The pair's name: the base's cluster name, the new side's when only it
 * has cluster c; *other is the new side's name when both have the cluster
 * and the names differ, else NULL. */
const char *ea_diff_cluster_name(const struct ea_diff *d, int c,
				 const char **other);
/* P-state rows of cluster pair c, matched by frequency, ascending when a
 * state is on one side only; C-state rows matched by name, the base's
 * order then the new side's own. *out is malloc'd (caller frees); returns
 * the row count, -1 when out of memory. */
int ea_diff_pstate_rows(const struct ea_diff *d, int c,
			struct ea_diff_row **out);
int ea_diff_cstate_rows(const struct ea_diff *d, int c,
			struct ea_diff_row **out);
/* The frequency / C-state name of a row (from whichever side has it). */
unsigned ea_diff_row_freq(const struct ea_diff *d, int c,
			  const struct ea_diff_row *r);
const char *ea_diff_row_cstate(const struct ea_diff *d, int c,
			       const struct ea_diff_row *r);

#endif
