// SPDX-License-Identifier: GPL-2.0-only
/*
 * Import Perfetto Wattson CPU power curves (docs/model-format.md,
 * "Wattson curves"):
 *
 *	cpu_1d.csv	device,policy,freq_khz,static,active,idle0,idle1
 *	cpu_2d.csv	device,policy,freq_khz,dep_policy,dep_freq,static,
 *			active,idle0,idle1,interconnect
 *
 * in mW, with Wattson's device_infos.sql for the CPU-to-policy map, the
 * deep-idle exit offsets and the cpuidle index map. One cluster per cpufreq
 * policy: active -> core_power, static -> cluster_power (Wattson charges it
 * while any CPU of the policy is active or in idle0: busy, and the idle
 * cluster power of idle0), idle0/idle1 -> idle states, the deep-idle exit
 * offset -> wakeup energy of cpuidle state 1. What eatrace's
 * model cannot say (idle power varying with the OPP, a dependency on another
 * policy's or the DSU's frequency, interconnect) is reduced by the rules
 * of wattson-clusters.c and listed in the model's source text.
 *
 * This file finds the files beside SRC, writes the notes and runs the steps
 * of wattson.h in order: the curves, the device, device_infos.sql, the
 * clusters.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/import.h"
#include "model/wattson.h"

/* ---- which files ---- */

static bool regular(const char *path, struct stat *st)
{
	return !stat(path, st) && S_ISREG(st->st_mode);
}

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/* DIR/NAME, with a leading "../" of NAME taken off DIR when it can be. */
static char *up(const char *dir, const char *name)
{
	const char *slash = strrchr(dir, '/'), *last = slash ? slash + 1 : dir;

	if (strncmp(name, "../", 3) || !*last || !strcmp(last, ".") ||
	    !strcmp(last, ".."))
		return join(dir, name);
	if (!slash)
		return strdup(name + 3);
	if (slash == dir)
		return join("", name + 3);
	{
		char *parent = strndup(dir, (size_t)(slash - dir)), *p;

		if (!parent)
			return NULL;
		p = join(parent, name + 3);
		free(parent);
		return p;
	}
}

static int add_file(struct wctx *w, char *path)
{
	if (!path)
		return ea_imp_fail(&w->b, w->src, "out of memory");
	w->files[w->nfiles++].path = path;
	return 0;
}

/* SRC is DIR or one of its CSV files; the other CSV and device_infos.sql
 * are looked for beside it. */
static int locate(struct wctx *w)
{
	static const char *const infos[] = {
		"device_infos.sql", "sql/device_infos.sql",
		"../sql/device_infos.sql", "../device_infos.sql",
	};
	struct stat st, st2;
	char *dir, *p;
	int rc = 0;

	if (stat(w->src, &st))
		return ea_imp_fail(&w->b, w->src, "%s", strerror(errno));
	if (S_ISDIR(st.st_mode)) {
		size_t n = strlen(w->src);

		while (n > 1 && w->src[n - 1] == '/')
			n--;
		dir = strndup(w->src, n);
		if (!dir)
			return ea_imp_fail(&w->b, w->src, "out of memory");
		for (int i = 0; i < 2 && !rc; i++) {
			p = join(dir, i ? "cpu_2d.csv" : "cpu_1d.csv");
			if (p && !regular(p, &st2)) {
				free(p);
				continue;
			}
			rc = add_file(w, p);
		}
		if (!rc && !w->nfiles)
			rc = ea_imp_fail(&w->b, w->src, "no cpu_1d.csv or cpu_2d.csv in this directory: not a Wattson curve directory");
	} else {
		const char *base = strrchr(w->src, '/'), *other = NULL;

		base = base ? base + 1 : w->src;
		dir = base == w->src ? strdup(".") : strndup(w->src, (size_t)(base - w->src - 1));
		if (!dir)
			return ea_imp_fail(&w->b, w->src, "out of memory");
		if (!*dir) {
			free(dir);
			dir = strdup("/");
			if (!dir)
				return ea_imp_fail(&w->b, w->src, "out of memory");
		}
		rc = add_file(w, strdup(w->src));
		if (!strcmp(base, "cpu_1d.csv"))
			other = "cpu_2d.csv";
		else if (!strcmp(base, "cpu_2d.csv"))
			other = "cpu_1d.csv";
		if (!rc && other) {
			p = join(dir, other);
			if (p && regular(p, &st2) &&
			    (st2.st_ino != st.st_ino || st2.st_dev != st.st_dev))
				rc = add_file(w, p);
			else
				free(p);
		}
	}
	if (!rc && w->o->device_infos) {
		w->infos = strdup(w->o->device_infos);
		if (!w->infos)
			rc = ea_imp_fail(&w->b, w->src, "out of memory");
	}
	for (size_t i = 0; !rc && !w->infos && i < sizeof(infos) / sizeof(infos[0]); i++) {
		p = up(dir, infos[i]);
		if (!p)
			rc = ea_imp_fail(&w->b, w->src, "out of memory");
		else if (regular(p, &st2))
			w->infos = p;
		else
			free(p);
	}
	if (!rc && !w->infos)
		rc = ea_imp_fail(&w->b, w->src, "no Wattson device_infos.sql beside it (nor in sql/, ../sql/ or ..): give --device-infos FILE (its CPU-to-policy map)");
	free(dir);
	return rc;
}

/* ---- the model ---- */

static void notes(struct wctx *w)
{
	char files[1300];

	snprintf(files, sizeof(files), "%s%s%s", w->files[0].path,
		 w->nfiles > 1 ? " and " : "", w->nfiles > 1 ? w->files[1].path : "");
	ea_imp_note(&w->b, "Wattson CPU power curves for '%s' (%s; CPU numbering, deep-idle exit offsets and cpuidle state map from %s). Wattson ships with Perfetto (github.com/google/perfetto), Apache License 2.0.",
		    w->dev, files, w->infos);
	ea_imp_note(&w->b, "Units: the curves are in mW, kept as is (power_unit mW); wakeup energies in mW x s (mJ): deep-idle exit offset (ns) x 1e-9 x power (mW).");
	ea_imp_note(&w->b, "Mapping: one cluster per cpufreq policy; core_power = active, cluster_power = static (Wattson pays a policy's static while any of its CPUs is outside the deepest state: active or in idle0); idle state k = cpuidle index k, priced as Wattson's idle0 or idle1 (its device map), cluster idle power static for a state priced as idle0 (the cluster draws it while its shallowest CPU is there), 0 for idle1. cpuidle state 1's wakeup: core = offset x (active - idle) and cluster = offset x static, because Wattson counts a CPU leaving state 1 as active for that long before the event (the cluster part is paid only when no CPU of the cluster was in idle0 or busy, as Wattson pays static once).");
	ea_imp_note(&w->b, "Reductions (the model has one idle power per state, Wattson one per OPP): idle powers, idle0's static and the wakeup energies are Wattson's at the policy's median OPP (the lower one of an even count), exact when the policy runs there (Wattson takes them at the policy's current OPP); Wattson shortens the exit offset when the idle period was shorter, eatrace does not.");
	ea_imp_note(&w->b, "Not expressed: Wattson's L3 hit/miss energy, DSU/devfreq and GPU/TPU curves; suspended and offline time (Wattson: 0 mW); frequencies not in the table (Wattson finds no curve row and counts nothing; eatrace: the nearest OPP at or above); cpuidle states deeper than the model's last (Wattson: no curve row, no exit offset; eatrace prices them as the last state, its wakeup included). Capacities are derived from frequency (no capacities in Wattson): give --capacity for real ones. Target residencies 0.");
}

int ea_import_wattson(struct ea_model **out, const char *src,
		      const struct ea_import_opts *opts, struct ea_err *err)
{
	static const struct ea_import_opts none;
	struct wctx *w = calloc(1, sizeof(*w));
	int rc = -1;

	*out = NULL;
	if (!w) {
		ea_err_set(err, "%s: out of memory", src);
		goto scrub;
	}
	w->src = src;
	w->o = opts ? opts : &none;
	w->err = err;
	if (ea_imp_init(&w->b, src, opts, err))
		goto free_w;
	w->policy = malloc(EA_MODEL_MAX_CPUS * sizeof(int));
	w->pol_line = calloc(EA_MODEL_MAX_CPUS, sizeof(int));
	w->offset = malloc(EA_MODEL_MAX_CPUS * sizeof(int64_t));
	w->dep_used = calloc((size_t)w->o->ndep_freqs_kv + 1, sizeof(bool));
	if (!w->policy || !w->pol_line || !w->offset || !w->dep_used) {
		ea_imp_fail(&w->b, src, "out of memory");
		goto free_all;
	}
	for (int c = 0; c < EA_MODEL_MAX_CPUS; c++) {
		w->policy[c] = -1;
		w->offset[c] = -1;
	}
	for (int k = 0; k < EA_MODEL_MAX_IDLE_STATES; k++)
		w->idle_map[k] = -2;
	if (locate(w))
		goto free_all;
	for (int i = 0; i < w->nfiles; i++)
		if (ea_wattson_read_curves(w, i))
			goto free_all;
	if (ea_wattson_choose_device(w) || ea_wattson_sort_rows(w) ||
	    ea_wattson_read_infos(w))
		goto free_all;
	notes(w);
	if (ea_wattson_build(w))
		goto free_all;
	strcpy(w->b.m->power_unit, "mW");
	snprintf(w->b.m->name, sizeof(w->b.m->name), "%s (Wattson)", w->dev);
	rc = ea_imp_finish(&w->b, "Wattson curve", out);
free_all:
	ea_imp_free(&w->b);
	for (int i = 0; i < w->nfiles; i++)
		free(w->files[i].path);
	free(w->rows);
	free(w->infos);
	free(w->policy);
	free(w->pol_line);
	free(w->offset);
	free(w->dep_used);
free_w:
	free(w);
scrub:
	if (rc)
		ea_import_scrub(err);
	return rc;
}
