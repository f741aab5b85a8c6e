/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Model importers (internal to src/model/ and the 'model import' command):
 * idlestat model files, kernel debugfs energy_model/ trees, the Android
 * sched-energy-costs device-tree binding (dts text or dtb) and Android
 * power_profile.xml, LISA plat_info.yml (libyaml) and Perfetto Wattson
 * CPU curves (cpu_1d.csv, cpu_2d.csv, device_infos.sql), plus the native
 * JSON format for 'model convert'.
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

/*
 * dts text (TEXT, read from SRC) through cpp and dtc (dt-compile.c): the
 * dtb blob (malloc()ed) and where each node and property was set (from
 * dtc -O dts -T -T; ea_dt_where(), ea_dt_locs_free()). Errors from cpp
 * or dtc: their first error line, prefixed with the program's name.
 */
struct ea_dt_locs;
int ea_dt_compile(const char *src, const char *text,
		  const struct ea_import_opts *opts, char **dtb, size_t *len,
		  struct ea_dt_locs **where, struct ea_err *err);
struct ea_dt_locs *ea_dt_locs(const char *annotated_dts);
void ea_dt_locs_free(struct ea_dt_locs *w);
/* A dtb blob's header and structure (libfdt): 0, or -1 with err set. */
int ea_dt_check(const char *src, const void *blob, size_t len,
		struct ea_err *err);
/* "FILE:LINE" where node PATH (or its property PROP) was set. */
bool ea_dt_where(const struct ea_dt_locs *w, const char *path,
		 const char *prop, char *buf, size_t size);
/* The dtb walk alone, on a blob in memory (named SRC in messages). */
int ea_import_dtb(struct ea_model **out, const char *src, const void *blob,
		  size_t len, const struct ea_dt_locs *where,
		  const struct ea_import_opts *opts, struct ea_err *err);

/*
 * XML TEXT (len bytes, read from SRC, a WHAT for messages) parsed by
 * libxml2 with its limits set for hostile files (xml-read.c): the
 * document (xmlFreeDoc() it), or NULL with err "SRC:LINE: cause".
 */
struct _xmlDoc *ea_xml_read(const char *src, const char *text, size_t len,
			    const char *what, struct ea_err *err);

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

/* ---- helpers shared by the importers (import-common.c) ---- */

/* A growable string. */
struct ea_strbuf {
	char *s;
	size_t len, cap;
	bool oom;
};

void ea_sb_add(struct ea_strbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * A model under construction, with where each part came from in the
 * source (for error messages) and notes for model->source.
 */
struct ea_imp {
	struct ea_model *m;
	const char *src;	/* SRC as given */
	const struct ea_import_opts *opts;
	struct ea_err *err;
	struct ea_strbuf notes;
	char **cl_loc;		/* per cluster */
	char ***cap_loc;	/* per cluster, per cap state */
	char ***idle_loc;	/* per cluster, per idle state */
	int cl_alloc;
	int *cap_alloc, *idle_alloc, *cpu_alloc;
	bool *cap_given;	/* per cluster: capacities came from SRC */
};

/* Starts an empty model; power_unit and name may be changed later. */
int ea_imp_init(struct ea_imp *b, const char *src,
		const struct ea_import_opts *opts, struct ea_err *err);
void ea_imp_free(struct ea_imp *b);

/* "LOC: message"; returns -1. */
int ea_imp_fail(struct ea_imp *b, const char *loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Appends a sentence to the notes that become model->source. */
void ea_imp_note(struct ea_imp *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Returns the new cluster's index, or -1 (err set). */
int ea_imp_cluster(struct ea_imp *b, const char *name, const char *loc);
int ea_imp_cpu(struct ea_imp *b, int ci, int cpu, const char *loc);
/*
 * freq_khz 0: not known yet (--freqs must say); cap 0: derive from the
 * frequency (or --capacity).
 */
int ea_imp_cap(struct ea_imp *b, int ci, uint32_t freq_khz, uint32_t cap,
	       double core_power, double cluster_power, const char *loc);
int ea_imp_idle(struct ea_imp *b, int ci, const char *name, double core_power,
		double cluster_power, double core_wakeup,
		double cluster_wakeup, uint32_t residency_us,
		const char *loc);

/*
 * Apply the generic options (--trace, --ncpus, --cpus, --freqs,
 * --capacity, --voltage, --power-unit, --name), derive what is still
 * missing, order the states, validate (errors name the source location)
 * and ea_model_finish(). On success the model moves to *out and b is
 * emptied; ea_imp_free() is still to be called either way.
 */
int ea_imp_finish(struct ea_imp *b, const char *what, struct ea_model **out);

/*
 * Do two models hold the same tables (name, source, power_unit, clusters,
 * CPUs, every state's values and the derived micro-unit integers)? Text
 * compares as written to JSON and read back: U+FFFD where a byte is not
 * UTF-8 (ea_utf8_fixed_eq()). When not, why (at most n bytes) says where
 * they first differ.
 */
bool ea_model_equal(const struct ea_model *a, const struct ea_model *b,
		    char *why, size_t n);

/*
 * Make err one printable line: control characters (newlines from file
 * names or from the source's own text) become '?'. Every importer calls it
 * before returning an error.
 */
void ea_import_scrub(struct ea_err *err);

/* RFC wakeup energy (x1024 per PELT window) -> energy per wakeup. */
double ea_rfc_wakeup(double w);

/*
 * Read a whole file (at most max bytes; NUL-terminated copy), checked with
 * ea_input_check() (a regular file that cannot block). Returns 0, or -1
 * with err = "PATH: cause".
 */
int ea_read_file(const char *path, size_t max, char **buf, size_t *len,
		 struct ea_err *err);
/* The same for procfs/sysfs/debugfs files (model import --from debugfs). */
int ea_read_sysfile(const char *path, size_t max, char **buf, size_t *len,
		    struct ea_err *err);

/*
 * A plain decimal number ("12", "-3.5", "1e3"; no hex, inf or nan) filling
 * all of [s, s+n). Returns 0 or -1.
 */
int ea_parse_num(const char *s, size_t n, double *v);

/*
 * Parse a CPU list "0-3,6" into a malloc()ed array. Returns the count, or
 * -1 (malformed, or an id beyond EA_MODEL_MAX_CPUS - 1).
 */
int ea_parse_cpulist(const char *s, int **cpus);

/* Does key (as in --cpus KEY=...) name cluster ci of m? */
bool ea_import_key_matches(const struct ea_model *m, int ci, const char *key);

/*
 * Read the idlestat-style topology header of a text trace: "# clusterA:",
 * "#  core0", "#   cpu1" lines. Returns 0 and calls fn(ctx, cluster, cpu)
 * for each CPU, or -1 with err set when there is no such header.
 */
int ea_idlestat_topology(const char *trace,
			 int (*fn)(void *ctx, const char *cluster, int cpu),
			 void *ctx, struct ea_err *err);

#endif
