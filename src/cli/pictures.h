/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The --html and --perfetto files of `report` and `replay`, each written
 * atomically (ea_out_open() ... ea_out_commit()). Each returns 0, or says
 * why on stderr ("eatrace: MSG") and returns EXIT_ERROR.
 */
#ifndef EATRACE_CLI_PICTURES_H
#define EATRACE_CLI_PICTURES_H

#include "eatrace/output.h"
#include "eatrace/perfetto.h"

/* Open path; the caller writes out->f, then calls ea_cli_pic_commit(). */
int ea_cli_pic_open(struct ea_out *out, const char *path);
int ea_cli_pic_commit(struct ea_out *out);

/* The same with a Perfetto writer begun on out->f (and ended by commit):
 * protobuf when path ends in .pftrace or .perfetto-trace, else JSON;
 * capped near max_mb MiB (0: no cap; negative: the format's default,
 * EA_PERFETTO_*_DEFAULT_MB; commit warns when it was reached, and leaves
 * a large file's fsync() running: ea_out_commit_later()). */
int ea_cli_perfetto_open(struct ea_out *out, const char *path,
			 struct ea_perfetto **pf, double max_mb);
int ea_cli_perfetto_commit(struct ea_out *out, struct ea_perfetto *pf,
			   double max_mb, const char *path);
/* The changes of a --perfetto path (either format) encoded ahead, on a
 * thread of their own while the run records timeline tl's changes
 * (ea_perfetto_ahead_start_as()), when -j allows two threads (by default
 * on two CPUs or more) for protobuf, three (-j 3 or more) for JSON; NULL
 * otherwise (the file is the same). A capped JSON path that is a regular
 * file (or none yet) also bounds tl's record (ea_perfetto_json_bound()). */
struct ea_perfetto_ahead *ea_cli_perfetto_ahead(struct ea_timeline *tl,
						const char *path, double max_mb);
/* The files --html html and --perfetto perfetto (each NULL: none) will
 * replace once the run is over, their cached pages dropped before it
 * (ea_out_drop_old()), for the run's memory to reuse; ea_out_open()
 * drops again what is cached by then, when the run ends. */
void ea_cli_pic_drop_old(const char *html, const char *perfetto);
/* --perfetto-max-mb MB (0: no cap): 0, or says why and returns EXIT_ERROR. */
int ea_cli_parse_max_mb(const char *arg, double *mb);

/* The help line of --perfetto-max-mb. */
#define EA_PERFETTO_MAX_MB_HELP                                                \
	"      --perfetto-max-mb MB  cap the --perfetto file near MB MiB (default\n" \
	"                     50 for JSON, 256 for protobuf; 0: no cap): task\n" \
	"                     slices and OPP/idle counters stop where it is\n"     \
	"                     reached (a warning says when)\n"

#endif
