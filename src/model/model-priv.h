/* SPDX-License-Identifier: GPL-2.0-only */
/* Helpers shared by the files of src/model/ only. */
#ifndef EATRACE_MODEL_PRIV_H
#define EATRACE_MODEL_PRIV_H

#include <stddef.h>

#include "eatrace/model.h"

/*
 * Reports the first problem found by ea_model_validate(): path is the JSON
 * path of the offending member ("clusters[1].cap_states[2].cap", or "" for
 * the whole model), msg the cause. Returns -1.
 */
typedef int (*ea_model_fail_fn)(void *ctx, const char *path, const char *msg);

/* Semantic validation shared by the loader and ea_model_finish(). */
int ea_model_validate(const struct ea_model *m, ea_model_fail_fn fail,
		      void *ctx);

/*
 * Fill the derived fields: implicit idle state, "_u" integers, ncpus and
 * cpu_cluster. The model must have passed ea_model_validate(). Returns 0,
 * or -1 when out of memory.
 */
int ea_model_derive(struct ea_model *m);

/*
 * Byte offset in text (a JSON document that parsed, comments blanked) of
 * the member named by a path like "clusters[1].cap_states[2].cap": of its
 * key for an object member, of the value for an array element. When the
 * path does not resolve fully, the offset of the deepest part that does.
 */
size_t ea_json_locate(const char *text, size_t len, const char *path);

/* 1-based line number of a byte offset. */
int ea_json_line(const char *text, size_t len, size_t off);

#endif
