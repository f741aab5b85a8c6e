// SPDX-License-Identifier: GPL-2.0-only
/*
 * ea_diff_json() (include/eatrace/eatrace.h): `eatrace diff -f json` in one
 * call, the path cmd_diff() takes without --html; the CLI's checks and
 * messages for the same mistakes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eatrace/diff.h"
#include "output/api.h"

/* The request's own checks, as cmd-diff.c's parser makes them. */
static int check(const struct ea_diff_request *rq, struct ea_diff *d,
		 struct ea_err *e)
{
	if (!(rq->max_increase_pct >= -100 && rq->max_increase_pct <= 1e6))
		return ea_err_set(
			e, "--max-increase: '%g' is not a number in [%g, %g]",
			rq->max_increase_pct, -100.0, 1e6);
	if (!(rq->confidence >= 0.5 && rq->confidence <= 0.9999))
		return ea_err_set(
			e, "--confidence: '%g' is not a number in [%g, %g]",
			rq->confidence, 0.5, 0.9999);
	if (!rq->normalize || !strcmp(rq->normalize, "none"))
		d->norm = EA_NORM_NONE;
	else if (!strcmp(rq->normalize, "time"))
		d->norm = EA_NORM_TIME;
	else if (!strcmp(rq->normalize, "work"))
		d->norm = EA_NORM_WORK;
	else
		return ea_err_set(e,
				  "--normalize: '%s' is not none, time or work",
				  rq->normalize);
	if (!rq->inconclusive)
		d->inconclusive_as = EA_VERDICT_INCONCLUSIVE;
	else if (!strcmp(rq->inconclusive, "pass"))
		d->inconclusive_as = EA_VERDICT_PASS;
	else if (!strcmp(rq->inconclusive, "fail"))
		d->inconclusive_as = EA_VERDICT_FAIL;
	else
		return ea_err_set(e, "--inconclusive: '%s' is not pass or fail",
				  rq->inconclusive);
	if (rq->opts &&
	    (rq->opts->interval_ns || rq->opts->cpus ||
	     rq->opts->unknown_idle_state || rq->opts->absent_offline))
		return ea_err_set(e, "diff: takes the window, idle state, "
				     "assumed OPP and wakeups "
				     "options only");
	if (!rq->model)
		return ea_err_set(
			e, "diff: no model: give -m MODEL (or --models A B)");
	if (rq->model_b && rq->nnew)
		return ea_err_set(e, "diff: --models takes TRACE... alone (no "
				     "-m, no --base/--new)");
	if (!rq->nbase || (!rq->model_b && !rq->nnew))
		return ea_err_set(e,
				  "diff: the %s side has no traces (usage: "
				  "--base BASE... --new NEW...)",
				  rq->nbase ? "new" : "base");
	return 0;
}

static int diff_json(const struct ea_diff_request *rq, char **json, int *status,
		     struct ea_err *e)
{
	struct ea_state_config scfg = {0};
	struct ea_acct_config acfg = {0};
	struct ea_model *ma = NULL, *mb = NULL;
	const char *const *news = rq->model_b ? rq->base : rq->news;
	int nnew = rq->model_b ? rq->nbase : rq->nnew, rc = -1;
	bool *cpu_only = NULL;
	struct ea_diff d;
	char *buf = NULL;
	size_t len;
	FILE *f;

	memset(&d, 0, sizeof(d));
	if (check(rq, &d, e) ||
	    ea_api_opts(rq->opts, &scfg, &acfg, &cpu_only, e))
		return -1;
	if (ea_model_load(&ma, rq->model, e) ||
	    (rq->model_b && ea_model_load(&mb, rq->model_b, e)))
		goto out;
	d.max_increase_pct = rq->max_increase_pct;
	d.confidence = rq->confidence;
	d.models_mode = rq->model_b != NULL;
	d.side[0] = (struct ea_diff_side){.name = "base",
					  .model = ma,
					  .state_cfg = &scfg,
					  .acct_cfg = &acfg};
	d.side[1] = (struct ea_diff_side){.name = "new",
					  .model = mb ? mb : ma,
					  .state_cfg = &scfg,
					  .acct_cfg = &acfg};
	if (ea_diff_price(&d, (char *const *)rq->base, rq->nbase,
			  (char *const *)news, nnew, d.norm,
			  rq->jobs > 1 ? rq->jobs : 1, e))
		goto out;
	/* work in capacity x s, as the CLI's (src/output/diff-unit.c) */
	ea_diff_in_unit(&d);
	if (ea_diff_compute(&d, e))
		goto out;
	if (!(f = open_memstream(&buf, &len))) {
		ea_err_set(e, "out of memory");
		goto out;
	}
	ea_diff_render_json(f, &d);
	if (fclose(f)) {
		free(buf);
		ea_err_set(e, "out of memory");
		goto out;
	}
	if (json)
		*json = buf;
	else
		free(buf);
	if (status)
		*status = d.fail ? 1
			  : d.verdict == EA_VERDICT_INCONCLUSIVE &&
					  d.inconclusive_as ==
						  EA_VERDICT_INCONCLUSIVE
				  ? 3
				  : 0;
	rc = 0;
out:
	ea_diff_free(&d);
	ea_model_free(ma);
	ea_model_free(mb);
	return rc;
}

int ea_diff_json(const struct ea_diff_request *rq, char **json, int *status,
		 char **err)
{
	struct ea_err e;
	int was = ea_api_quiet_begin(), rc = diff_json(rq, json, status, &e);

	ea_api_quiet_end(was);
	if (rc && err)
		*err = strdup(e.msg);
	return rc;
}
