// SPDX-License-Identifier: GPL-2.0-only
/* The verdict of 'eatrace model check' on the models of a result, as a
 * warning and as JSON (include/eatrace/model-verdict.h). */
#include <stdio.h>

#include "eatrace/model-verdict.h"
#include "eatrace/model.h"
#include "eatrace/output.h"

struct first_error {
	int errors;
	char msg[256];
};

static void on_first(void *arg, enum ea_severity sev, const char *msg)
{
	struct first_error *f = arg;

	if (sev == EA_SEV_ERROR && !f->errors++)
		snprintf(f->msg, sizeof(f->msg), "%s", msg);
}

const char *ea_model_verdict_msg(const struct ea_model *m, char *buf, size_t n)
{
	struct first_error f = {0};

	ea_model_check_cb(m, on_first, &f);
	if (!f.errors)
		return NULL;
	snprintf(buf, n,
		 "model %s fails 'eatrace model check' (%d error%s, first: "
		 "%s): the energies rest on it",
		 m->path ? m->path : m->name, f.errors,
		 f.errors == 1 ? "" : "s", f.msg);
	return buf;
}

/* Whether models[i] is NULL or one of models[0..i). */
static bool skip(const struct ea_model *const *models, int i)
{
	for (int k = 0; k < i; k++)
		if (models[k] == models[i])
			return true;
	return !models[i];
}

void ea_model_verdict_notes(const struct ea_model *const *models, int n,
			    void (*fn)(void *arg, const char *kind,
				       const char *msg),
			    void *arg)
{
	char msg[512];

	for (int i = 0; i < n; i++)
		if (!skip(models, i) &&
		    ea_model_verdict_msg(models[i], msg, sizeof(msg)))
			fn(arg, "warning", msg);
}

struct findings {
	struct ea_json *j;
	const struct ea_model *m;
	int warnings;
};

static void on_error(void *arg, enum ea_severity sev, const char *msg)
{
	struct findings *f = arg;

	if (sev != EA_SEV_ERROR) {
		f->warnings++;
		return;
	}
	ea_json_obj(f->j, NULL);
	ea_json_str(f->j, "model", f->m->name);
	ea_json_str(f->j, "message", msg);
	ea_json_obj_end(f->j);
}

void ea_model_verdict_json(struct ea_json *j,
			   const struct ea_model *const *models, int n)
{
	struct findings f = {j, NULL, 0};
	int errors = 0;

	for (int i = 0; i < n; i++)
		if (!skip(models, i))
			errors += ea_model_check_cb(models[i], NULL, NULL);
	ea_json_obj(j, "model_check");
	ea_json_bool(j, "ok", !errors);
	ea_json_arr(j, "errors");
	for (int i = 0; i < n; i++)
		if (!skip(models, i)) {
			f.m = models[i];
			ea_model_check_cb(models[i], on_error, &f);
		}
	ea_json_arr_end(j);
	ea_json_int(j, "warnings", f.warnings);
	ea_json_obj_end(j);
}
