/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The Wattson importer's pieces (internal to src/model/): what it has read
 * so far (struct wctx) and the steps import-wattson.c runs in order:
 *
 *  - wattson-curves.c: cpu_1d.csv / cpu_2d.csv rows, one device chosen,
 *    ordered and checked for repeats;
 *  - wattson-infos.c: device_infos.sql's CPU-to-policy map, deep-idle exit
 *    offsets and cpuidle state map for that device;
 *  - wattson-clusters.c: one cluster per cpufreq policy, 2-D curves
 *    reduced to one OPP table.
 */
#ifndef EATRACE_MODEL_WATTSON_H
#define EATRACE_MODEL_WATTSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model/import-priv.h"

#define W_MAX_FILE (16u << 20)
#define W_DEV_LEN 48 /* device names: leaves room for " (Wattson)" */
#define W_NO_DEP (-1)

struct wrow {
	char dev[W_DEV_LEN];
	int policy;
	uint32_t freq;
	int dep_policy; /* W_NO_DEP in cpu_1d.csv */
	uint64_t dep_freq;
	double stat, active, idle0, idle1, ic;
	int line;
	int file; /* index in w->files */
};

struct wfile {
	char *path;
	bool two_d;
	bool has_ic;
};

struct wctx {
	struct ea_imp b;
	const char *src;
	const struct ea_import_opts *o;
	struct ea_err *err;
	struct wfile files[2];
	int nfiles;
	struct wrow *rows;
	int nrows, arows;
	char dev[W_DEV_LEN]; /* the device imported */
	char *infos; /* device_infos.sql path */
	/* from device_infos.sql, for dev; index = CPU */
	int *policy, *pol_line; /* -1: not mapped */
	int64_t *offset; /* -1: none given */
	int idle_map[EA_MODEL_MAX_IDLE_STATES]; /* -2: none */
	int idle_line[EA_MODEL_MAX_IDLE_STATES];
	bool have_idle_map;
	bool *dep_used; /* per --dep-freq option */
	char loc[600];
};

static inline const char *at(struct wctx *w, int file, int line)
{
	snprintf(w->loc, sizeof(w->loc), "%s:%d",
		 file < 0 ? w->infos : w->files[file].path, line);
	return w->loc;
}

#define FAIL(w, file, line, ...) \
	ea_imp_fail(&(w)->b, at(w, file, line), __VA_ARGS__)

/* Rows of curve file fi (w->files[fi]) appended to w->rows. */
int ea_wattson_read_curves(struct wctx *w, int fi);
/* Keep the rows of one device (--device, or the only one): w->dev. */
int ea_wattson_choose_device(struct wctx *w);
/* Rows by policy, 1-D before 2-D, frequency, dependency; no repeats. */
int ea_wattson_sort_rows(struct wctx *w);
/* w->infos read for w->dev: w->policy, w->offset, w->idle_map. */
int ea_wattson_read_infos(struct wctx *w);
/* The clusters added to w->b, one per policy, in policy order. */
int ea_wattson_build(struct wctx *w);

#endif
