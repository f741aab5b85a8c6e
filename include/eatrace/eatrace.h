/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libeatrace: the one header a program needs (pkg-config --cflags --libs
 * eatrace). One call per job, results as the CLI's JSON (docs/json.md);
 * the structures behind them are in the headers included below.
 */
#ifndef EATRACE_EATRACE_H
#define EATRACE_EATRACE_H

#include "eatrace/batch.h"
#include "eatrace/energy.h"
#include "eatrace/error.h"
#include "eatrace/model.h"
#include "eatrace/output.h"
#include "eatrace/pipeline.h"
#include "eatrace/report.h"
#include "eatrace/stats.h"

#define EA_API_VERSION 1

/*
 * `eatrace report -f json -m MODEL PATH`: the same bytes into *json. model:
 * a model file or a bundled model's name. Returns 0 with *json set (free()
 * it), or -1 with *err set to the one-line message `eatrace` would print
 * (free() it). Either out pointer may be NULL. Writes nothing on stderr.
 */
int ea_report_json(const char *path, const char *model, char **json, char **err);

/* `eatrace stats -f json PATH`, with the same conventions. */
int ea_stats_json(const char *path, char **json, char **err);

/* Free what ea_report_json() and ea_stats_json() return (free()). */
void ea_free(void *p);

#endif
