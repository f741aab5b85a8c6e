// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fitted model (docs/model-fit.md "The fitted model"): the initial
 * model with the fitted coefficients, each rounded to 6 significant
 * digits (the measurement's noise is far above that; a table of
 * 17-digit numbers helps no one), the constraints enforced again after
 * the rounding, " (fitted)" after its name when that fits in the name's
 * 63 characters, and a "source" saying how it was fitted. The copy goes
 * through the model writer and loader (ea_model_write_json(),
 * ea_model_load_buffer()), so it is exactly what FITTED.json will load as.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eatrace/fit.h"

/* The model as its file would load: write, then read back. */
static int reload(struct ea_model **out, const struct ea_model *m,
		  const char *path, struct ea_err *err)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int rc;

	*out = NULL;
	if (!f)
		return ea_err_set(err, "out of memory");
	rc = ea_model_write_json(m, f);
	if (fclose(f) || rc) {
		free(text);
		return ea_err_set(err, "out of memory");
	}
	rc = ea_model_load_buffer(out, text, len, path, err);
	free(text);
	return rc;
}

static double round6(double v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.6g", v);
	return strtod(buf, NULL);
}

int ea_fit_make_model(struct ea_model **out, const struct ea_model *initial,
		      const struct ea_coefs *cs, double *x, const bool *held,
		      const struct ea_fit_constraint *cons, int ncons,
		      const char *source, const char *path, struct ea_err *err)
{
	struct ea_model *m;
	char *src;
	int rc;

	*out = NULL;
	for (int i = 0; i < cs->n; i++)
		if (!held[i])
			x[i] = round6(x[i]);
	ea_fit_enforce(x, held, cons, ncons);
	if (reload(&m, initial, path, err))
		return -1;
	for (int i = 0; i < cs->n; i++)
		ea_coef_set(m, &cs->c[i], x[i]);
	if (!strstr(m->name, " (fitted)") &&
	    strlen(m->name) + strlen(" (fitted)") < sizeof(m->name))
		strcat(m->name, " (fitted)");
	src = strdup(source);
	if (!src) {
		ea_model_free(m);
		return ea_err_set(err, "out of memory");
	}
	free(m->source);
	m->source = src;
	rc = reload(out, m, path, err);
	ea_model_free(m);
	return rc;
}
