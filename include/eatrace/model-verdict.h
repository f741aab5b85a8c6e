/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What 'eatrace model check' says of the models a result rests on. Every
 * output carries it (a note, the JSON's "model_check", a batch column), so
 * a script or a CI gate learns when its model is invalid
 * (src/output/model-verdict.c, docs/json.md "model_check").
 */
#ifndef EATRACE_MODEL_VERDICT_H
#define EATRACE_MODEL_VERDICT_H

#include <stddef.h>

struct ea_model;
struct ea_json;

/*
 * For a model that fails 'eatrace model check': "model PATH fails 'eatrace
 * model check' (N error(s), first: MSG): the energies rest on it" into buf
 * (n bytes), PATH its file, else its name. NULL when it passes.
 */
const char *ea_model_verdict_msg(const struct ea_model *m, char *buf, size_t n);

/* fn(arg, "warning", that message) for each of models[0..n) that fails
 * (NULL entries and repeats skipped). */
void ea_model_verdict_notes(const struct ea_model *const *models, int n,
			    void (*fn)(void *arg, const char *kind,
				       const char *msg),
			    void *arg);

/*
 * "model_check": { "ok": no errors, "errors": [ { "model", "message" } ],
 * "warnings": N } over models[0..n) (NULL entries and repeats skipped).
 */
void ea_model_verdict_json(struct ea_json *j,
			   const struct ea_model *const *models, int n);

#endif
