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

/* Semantic validation shared by the loader and ea_model_finish()
 * (validate.c). */
int ea_model_validate(const struct ea_model *m, ea_model_fail_fn fail,
		      void *ctx);

/*
 * Fill the derived fields: implicit idle state, "_u" integers, ncpus and
 * cpu_cluster. The model must have passed ea_model_validate(). Returns 0,
 * or -1 when out of memory.
 */
int ea_model_derive(struct ea_model *m);

/* ---- a model file's JSON as text (json-text.c) ---- */

/*
 * Replace comments by spaces (newlines kept) so that offsets still match the
 * file. Returns 0, or -1 with *bad at the start of an unterminated comment.
 */
int ea_json_blank_comments(char *text, size_t len, size_t *bad);

/*
 * Byte offset in text (a JSON document that parsed, comments blanked) of
 * the member named by a path like "clusters[1].cap_states[2].cap": of its
 * key for an object member, of the value for an array element. When the
 * path does not resolve fully, the offset of the deepest part that does.
 */
size_t ea_json_locate(const char *text, size_t len, const char *path);

/* 1-based line number of a byte offset. */
int ea_json_line(const char *text, size_t len, size_t off);

/* The offset of the first byte at or after off that is not white space. */
size_t ea_json_skip_ws(const char *text, size_t len, size_t off);

/* At a key's opening quote (off): its raw text, between the quotes. */
void ea_json_key_at(const char *text, size_t len, size_t off,
		    const char **key, size_t *keylen);

/*
 * Find a key given twice in one object (json-c would silently keep the last
 * one) in text that parsed. Objects with more than 64 members are not
 * checked: they fail the unknown-member check anyway. Returns the offset of
 * the second occurrence, or (size_t)-1.
 */
size_t ea_json_find_duplicate_key(const char *text, size_t len);

/*
 * What json-c lets through but JSON (RFC 8259) does not, and would be
 * misread: a number with a leading zero ("0100": octal to some readers,
 * 100 to json-c) and a \u0000 escape (a NUL that would cut a name short).
 * Returns the offset of the first, or (size_t)-1; *what says which.
 */
size_t ea_json_find_bad_token(const char *text, size_t len, const char **what);

/*
 * A member's path: base.key, or base[i] (EA_JSON_PATH_LEN bytes at out).
 * Paths are short; a truncated one only makes a message less precise.
 */
#define EA_JSON_PATH_LEN 128
void ea_json_path_key(char *out, const char *base, const char *key);
void ea_json_path_idx(char *out, const char *base, int i);

#endif
