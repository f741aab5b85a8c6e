/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the model importers (import-*.c) build with, below them and below
 * the dispatcher (import.c): nothing here calls an importer.
 *
 *  - import-text.c: a growable string, plain numbers, CPU lists, cluster
 *    keys, the RFC wakeup unit, one-line errors;
 *  - import-read.c: a whole source file, checked before it is opened;
 *  - import-build.c: the model under construction, with where each part
 *    came from in the source;
 *  - import-finish.c: the generic options, derived capacities, ordering
 *    and validation with errors naming the source line;
 *  - import-topology.c: the idlestat topology header of a text trace;
 *  - dt-compile.c, xml-read.c: dts text through cpp and dtc, and XML
 *    through libxml2.
 */
#ifndef EATRACE_MODEL_IMPORT_PRIV_H
#define EATRACE_MODEL_IMPORT_PRIV_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eatrace/error.h"
#include "eatrace/model.h"
#include "model/import.h"

/* A growable string. */
struct ea_strbuf {
	char *s;
	size_t len, cap;
	bool oom;
};

void ea_sb_add(struct ea_strbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void ea_sb_vadd(struct ea_strbuf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/*
 * A model under construction, with where each part came from in the
 * source (for error messages) and notes for model->source.
 */
struct ea_imp {
	struct ea_model *m;
	const char *src; /* SRC as given */
	const struct ea_import_opts *opts;
	struct ea_err *err;
	struct ea_strbuf notes;
	char **cl_loc; /* per cluster */
	char ***cap_loc; /* per cluster, per cap state */
	char ***idle_loc; /* per cluster, per idle state */
	int cl_alloc;
	int *cap_alloc, *idle_alloc, *cpu_alloc;
	bool *cap_given; /* per cluster: capacities came from SRC */
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
		double cluster_power, double core_wakeup, double cluster_wakeup,
		uint32_t residency_us, const char *loc);

/*
 * Apply the generic options (--trace, --ncpus, --cpus, --freqs,
 * --capacity, --voltage, --power-unit, --name), derive what is still
 * missing, order the states, validate (errors name the source location)
 * and ea_model_finish(). On success the model moves to *out and b is
 * emptied; ea_imp_free() is still to be called either way.
 */
int ea_imp_finish(struct ea_imp *b, const char *what, struct ea_model **out);

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
bool ea_dt_where(const struct ea_dt_locs *w, const char *path, const char *prop,
		 char *buf, size_t size);
/*
 * XML TEXT (len bytes, read from SRC, a WHAT for messages) parsed by
 * libxml2 with its limits set for hostile files (xml-read.c): the
 * document (xmlFreeDoc() it), or NULL with err "SRC:LINE: cause".
 */
struct _xmlDoc *ea_xml_read(const char *src, const char *text, size_t len,
			    const char *what, struct ea_err *err);

#endif
