/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Model importers (internal to src/model/ and the 'model import' command):
 * idlestat model files, kernel debugfs energy_model/ trees, the Android
 * sched-energy-costs device-tree binding (dts text or dtb) and Android
 * power_profile.xml, LISA plat_info.yml (libyaml) and Perfetto Wattson
 * CPU curves (cpu_1d.csv, cpu_2d.csv, device_infos.sql), plus the native
 * JSON format for 'model convert'.
 *
 * This header is what the 'model import' command sees: the options, the
 * importer table and format detection (import.c), one entry point per
 * importer (import-*.c), and the comparison by which 'model import' checks
 * that the model it wrote loads back as built (equal.c). What the
 * importers build with is below them, in model/import-priv.h.
 *
 * Each importer reads SRC into a struct ea_model with malloc()ed arrays,
 * applies the generic options below, validates it and calls
 * ea_model_finish(). What the source did not say and had to be assumed is
 * written to model->source. Errors are one line, "FILE:LINE: cause" (or
 * "DIR/entry: cause" for debugfs trees, "FILE: /node/path: cause" for dtb).
 */
#ifndef EATRACE_MODEL_IMPORT_H
#define EATRACE_MODEL_IMPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "eatrace/error.h"
#include "eatrace/model.h"

/* A "CLUSTER=VALUE" option argument. */
struct ea_import_kv {
	const char *key;	/* cluster name, "cluster"+key, or index */
	const char *val;
};

struct ea_import_opts {
	const char *name;	/* --name: the model's name */
	const char *power_unit;	/* --power-unit: relabel, no conversion */
	double voltage;		/* --voltage V: mA x V -> mW (0: unset) */
	const char *trace;	/* --trace T: idlestat topology header */
	const char *ncpus;	/* --ncpus N,N,...: CPUs per cluster, in order */
	struct ea_import_kv *cpus;	/* --cpus CLUSTER=LIST */
	int ncpus_kv;
	struct ea_import_kv *caps;	/* --capacity CLUSTER=CAP */
	int ncaps_kv;
	struct ea_import_kv *freqs;	/* --freqs CLUSTER=KHZ,KHZ,... */
	int nfreqs_kv;
	const char *device;	/* --device NAME: wattson's CSV device */
	const char *device_infos;	/* --device-infos FILE: wattson */
	struct ea_import_kv *dep_freqs;	/* --dep-freq POLICY=[DEP:]FREQ */
	int ndep_freqs_kv;
	const char **incdirs;	/* -I DIR: dts include paths (cpp, dtc) */
	int nincdirs;
};

typedef int (*ea_import_fn)(struct ea_model **out, const char *src,
			    const struct ea_import_opts *opts,
			    struct ea_err *err);

struct ea_importer {
	const char *name;	/* --from value */
	const char *what;	/* one line for --help */
	ea_import_fn import;
};

/* The importers, NULL-terminated; "json" (native) is the last one. */
extern const struct ea_importer ea_importers[];

int ea_import_idlestat(struct ea_model **out, const char *src,
		       const struct ea_import_opts *opts, struct ea_err *err);
int ea_import_debugfs(struct ea_model **out, const char *src,
		      const struct ea_import_opts *opts, struct ea_err *err);
int ea_import_dt(struct ea_model **out, const char *src,
		 const struct ea_import_opts *opts, struct ea_err *err);
int ea_import_power_profile(struct ea_model **out, const char *src,
			    const struct ea_import_opts *opts,
			    struct ea_err *err);
int ea_import_lisa(struct ea_model **out, const char *src,
		   const struct ea_import_opts *opts, struct ea_err *err);
int ea_import_wattson(struct ea_model **out, const char *src,
		      const struct ea_import_opts *opts, struct ea_err *err);
int ea_import_json(struct ea_model **out, const char *src,
		   const struct ea_import_opts *opts, struct ea_err *err);

struct ea_dt_locs;
/* The dtb walk alone, on a blob in memory (named SRC in messages). */
int ea_import_dtb(struct ea_model **out, const char *src, const void *blob,
		  size_t len, const struct ea_dt_locs *where,
		  const struct ea_import_opts *opts, struct ea_err *err);

/* The importer called NAME ("power_profile" and "dtb" are accepted too). */
const struct ea_importer *ea_importer_find(const char *name);

/*
 * Guess SRC's format from its content: a directory is a debugfs tree; a
 * file starting with the FDT magic a dtb; "/dts-v1/" or a sched-energy-costs
 * property dts text; "<?xml" or "<device" power_profile.xml; a JSON object
 * the native format; a "platform-info:" or "nrg-model:" line a LISA
 * plat_info.yml; "clusters N" or "clusterA:" an idlestat model; a
 * directory holding cpu_1d.csv or cpu_2d.csv, or a file whose first line
 * starts "device,policy,freq_khz", Wattson curves. A bare
 * name that is not a file is taken as a bundled model's name (native JSON).
 * Returns the importer, or NULL with err set.
 */
const struct ea_importer *ea_importer_detect(const char *src,
					     struct ea_err *err);

/*
 * Do two models hold the same tables (name, source, power_unit, clusters,
 * CPUs, every state's values and the derived micro-unit integers)? Text
 * compares as written to JSON and read back: U+FFFD where a byte is not
 * UTF-8 (ea_utf8_fixed_eq()). When not, why (at most n bytes) says where
 * they first differ.
 */
bool ea_model_equal(const struct ea_model *a, const struct ea_model *b,
		    char *why, size_t n);

#endif
