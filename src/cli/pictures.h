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

/* The same with a Perfetto writer begun on out->f (and ended by commit). */
int ea_cli_perfetto_open(struct ea_out *out, const char *path,
			 struct ea_perfetto **pf);
int ea_cli_perfetto_commit(struct ea_out *out, struct ea_perfetto *pf);

#endif
