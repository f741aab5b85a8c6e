/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The files cpp and dtc may read for a dts (src/model/dt-confine.c):
 * regular files in the source's directory tree or an -I directory, never
 * the private directory they run in. Used by dt-compile.c only.
 */
#ifndef EATRACE_MODEL_DT_CONFINE_H
#define EATRACE_MODEL_DT_CONFINE_H

#include "eatrace/error.h"
#include "model/import.h"

struct ea_dt_confine;

/* For SRC with o's -I directories; NULL when out of memory. */
struct ea_dt_confine *ea_dt_confine_new(const char *src,
					const struct ea_import_opts *o);
void ea_dt_confine_free(struct ea_dt_confine *c);
/* The private directory cpp and dtc run in: never readable to them. */
void ea_dt_confine_private(struct ea_dt_confine *c, const char *dir);

/*
 * NULL when cpp or dtc may read path; else why not ("outside ...", "not a
 * regular file (...)"), in why.
 */
const char *ea_dt_refusal(const struct ea_dt_confine *c, const char *path,
			  char *why, size_t size);

/*
 * After cpp ran with -H: every file its stderr (log) says it read must be
 * allowed, whether cpp succeeded or not. out: its output ("" if none),
 * whose line markers tell where a refused file was included.
 */
int ea_dt_check_cpp(const struct ea_dt_confine *c, const char *src,
		    const char *log, const char *out, struct ea_err *err);

/*
 * Before dtc reads in (its input, cpp's output, text): every /include/
 * and /incbin/ it would follow, resolved as dtc does (in's directory,
 * then search[0..nsearch), its -i), must be allowed; /include/d files
 * are checked in turn. The files are remembered for ea_dt_check_deps().
 */
int ea_dt_check_dtc(struct ea_dt_confine *c, const char *in, const char *text,
		    const char *const *search, int nsearch, struct ea_err *err);

/*
 * After dtc ran with -d DEPS -o OUT: the files it names in deps (its
 * contents) must be those ea_dt_check_dtc() checked (its input included).
 */
int ea_dt_check_deps(const struct ea_dt_confine *c, const char *src,
		     const char *out, const char *deps, struct ea_err *err);

#endif
