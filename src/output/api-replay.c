// SPDX-License-Identifier: GPL-2.0-only
/*
 * ea_replay_json() (include/eatrace/eatrace.h) and ea_trace_replay_json()
 * (eatrace/trace.h): `eatrace replay -f json` in one call, the path
 * cmd_replay() takes without pins, window, shadow or pictures, with its
 * default ensemble and sensitivity; the CLI's messages for the same
 * mistakes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eatrace/eatrace.h"
#include "eatrace/input.h"
#include "output/api.h"

#define MAX_POLICIES 16

struct replay_call {
	struct ea_model *model, *target;
	struct ea_acct acct;
	bool have_acct;
	struct ea_workload *wl;
	struct ea_run run;
	bool have_run;
	struct ea_replay_result res[MAX_POLICIES];
	int nres;
	struct ea_ensemble ens;
	struct ea_sensitivity sens;
	bool have_ens, have_sens;
};

static void call_free(struct replay_call *c)
{
	for (int i = 0; i < c->nres; i++)
		ea_replay_result_free(&c->res[i]);
	if (c->have_ens)
		ea_ensemble_free(&c->ens);
	if (c->have_sens)
		ea_sensitivity_free(&c->sens);
	if (c->have_run)
		ea_run_free(&c->run);
	ea_workload_free(c->wl);
	if (c->have_acct)
		ea_acct_free(&c->acct);
	if (c->target != c->model)
		ea_model_free(c->target);
	ea_model_free(c->model);
}

static int fail(char **err, const struct ea_err *e)
{
	if (err)
		*err = strdup(e->msg);
	return -1;
}

/* The --policy list into names; how many, or -1 with e. */
static int policies(const char *list, const char **names, char *buf, size_t n,
		    struct ea_err *e)
{
	int count = 0;
	char *tok, *save;

	if (!list || !strcmp(list, "all")) {
		for (int i = 0; i < ea_replay_policy_count() && i < MAX_POLICIES; i++)
			names[count++] = ea_replay_policy_name(i);
		return count;
	}
	if (strlen(list) >= n)
		return ea_err_set(e, "--policy: list longer than %zu characters", n - 1);
	snprintf(buf, n, "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (ea_replay_policy_find(tok) < 0)
			return ea_err_set(e, "--policy: '%s' is not a policy (recorded, eas-rfc, "
					  "feec, cfs, pack, spread, all)", tok);
		if (count == MAX_POLICIES)
			return ea_err_set(e, "--policy: too many");
		names[count++] = ea_replay_policy_name(ea_replay_policy_find(tok));
	}
	if (!count)
		return ea_err_set(e, "--policy: empty list");
	return count;
}

/* The request's own checks, as the CLI's option parser makes them. */
static int check_request(const struct ea_replay_request *rq, struct ea_err *e)
{
	if (rq->governor && !ea_replay_governor_valid(rq->governor)) {
		ea_replay_governor_check(rq->governor, NULL, e);
		return -1;
	}
	if (rq->idle && !ea_replay_idle_valid(rq->idle))
		return ea_err_set(e, "--idle: '%s' is not one of recorded, menu, oracle",
				  rq->idle);
	if (rq->work && ea_replay_work_parse(rq->work) < 0)
		return ea_err_set(e, "--work: '%s' is not one of demand, fixed, auto", rq->work);
	if (rq->source_capacity > EA_MODEL_MAX_CAP)
		return ea_err_set(e, "--source-capacity: '%lu' is not a capacity (1..%u)",
				  rq->source_capacity, EA_MODEL_MAX_CAP);
	if (!rq->model && !(rq->target_model && rq->source_capacity))
		return ea_err_set(e, "replay: no model: give -m MODEL (or --target-model M "
				  "with --source-capacity N)");
	return 0;
}

/* The CLI's defaults: --ensemble 10, --seed 1, --baseline cfs when among
 * the policies, the sensitivity to wakeup energy. 0, or -1 + e. */
static int extras(struct replay_call *c, const struct ea_replay_config *cfgs,
		  const char *const *names, int npol, struct ea_err *e)
{
	int baseline = -1;
	struct ea_ensemble_config ec = {
		.n = EA_REPLAY_ENSEMBLE_N, .seed = EA_REPLAY_SEED,
		.cut_max_ns = EA_REPLAY_CUT_MAX_NS,
		.jitter_ns = EA_REPLAY_JITTER_NS,
		.confidence = EA_REPLAY_CONFIDENCE, .threads = ea_input_jobs(),
	};

	for (int i = 0; i < npol; i++)
		if (!strcmp(names[i], "cfs"))
			baseline = i;
	ec.baseline = baseline;
	c->have_ens = true;
	if (ea_replay_ensemble(c->wl, cfgs, npol, &ec, &c->ens, e))
		return -1;
	c->have_sens = true;
	return ea_replay_sensitivity(c->wl, cfgs, npol, c->res, baseline,
				     ea_input_jobs(), &c->sens, e);
}

static void render_fn(FILE *f, const struct ea_replay_report *rep)
{
	ea_replay_render_json(f, rep);
}

int ea_api_replay(const struct ea_api_src *s, const struct ea_replay_request *rq,
		  char **json, char **err)
{
	const char *path = s->path;
	static const struct ea_replay_request none;
	struct ea_state_config scfg = { .ncpus = -1 };
	struct ea_workload_config wcfg = { 0 };
	struct replay_call c = { 0 };
	struct ea_consumer cons[2];
	struct ea_replay_report rep;
	const char *names[MAX_POLICIES], *gov, *idle;
	struct ea_replay_config cfgs[MAX_POLICIES];
	enum ea_replay_work work;
	char polbuf[256];
	int npol, ncons = 0, rc = -1;
	struct ea_err e;
	bool same;
	char *buf = NULL;
	size_t len;
	FILE *f;

	if (!rq)
		rq = &none;
	if (check_request(rq, &e))
		return fail(err, &e);
	npol = policies(rq->policies, names, polbuf, sizeof(polbuf), &e);
	if (npol < 0)
		return fail(err, &e);
	work = rq->work ? (enum ea_replay_work)ea_replay_work_parse(rq->work) : EA_WORK_AUTO;
	same = !rq->target_model;
	gov = rq->governor ? rq->governor : same ? "recorded" : "schedutil";
	idle = rq->idle ? rq->idle : same ? "recorded" : "menu";
	if (!same && !strcmp(gov, "recorded"))
		return ea_err_set(&e, "replay: --governor recorded needs the recorded "
				  "platform (no --target-model)"), fail(err, &e);
	if (!same && !strcmp(idle, "recorded"))
		return ea_err_set(&e, "replay: --idle recorded needs the recorded "
				  "platform (no --target-model)"), fail(err, &e);
	if (rq->model && ea_model_load(&c.model, rq->model, &e))
		goto out;
	if (rq->target_model && ea_model_load(&c.target, rq->target_model, &e))
		goto out;
	if (!c.target)
		c.target = c.model;
	if (ea_replay_governor_check(gov, c.target, &e))
		goto out;
	if (c.model) {
		struct ea_acct_config acfg = { .no_tasks = true };

		if (ea_acct_init(&c.acct, c.model, &acfg, &e))
			goto out;
		c.have_acct = true;
		ea_acct_state_config(&c.acct, &scfg);
		cons[ncons++] = (struct ea_consumer){ &ea_acct_ops, &c.acct };
	}
	wcfg.model = c.model;
	wcfg.source_capacity = (uint32_t)rq->source_capacity;
	wcfg.auto_pin = rq->auto_pin != 0;
	wcfg.early_ns = EA_REPLAY_CUT_MAX_NS;	/* the ensemble's start cuts */
	wcfg.no_segments = true;
	for (int i = 0; i < npol; i++)
		if (ea_replay_policy_follows(names[i]))
			wcfg.no_segments = false;
	if (ea_workload_new(&c.wl, &wcfg)) {
		ea_err_set(&e, "out of memory");
		goto out;
	}
	cons[ncons++] = (struct ea_consumer){ &ea_workload_ops, c.wl };
	scfg.ncpus = -1;
	scfg.no_util = true;
	scfg.no_tasks = true;
	if (ea_api_run(s, &c.run, &scfg, cons, ncons, &e))
		goto out;
	c.have_run = true;
	if ((c.have_acct && ea_acct_done(&c.acct, c.run.state, &e)) ||
	    ea_workload_done(c.wl, c.run.state, &e)) {
		char msg[EA_ERR_MAX];

		snprintf(msg, sizeof(msg), "%s", e.msg);
		ea_err_set(&e, "%s: %s", path, msg);
		goto out;
	}
	for (int i = 0; i < npol; i++) {
		struct ea_replay_config cfg = {
			.model = c.target, .policy = names[i], .governor = gov,
			.idle = idle, .same_platform = same, .work = work,
			.keep_open = true, /* closed together below */
		};

		if (ea_replay_run(c.wl, &cfg, &c.res[i], &e)) {
			char msg[EA_ERR_MAX];

			snprintf(msg, sizeof(msg), "%s", e.msg);
			ea_err_set(&e, "%s: %s", path, msg);
			goto out;
		}
		c.nres++;
		cfgs[i] = cfg;
	}
	if (ea_replay_close(c.res, c.nres, &e)) {
		char msg[EA_ERR_MAX];

		snprintf(msg, sizeof(msg), "%s", e.msg);
		ea_err_set(&e, "%s: %s", path, msg);
		goto out;
	}
	if (extras(&c, cfgs, names, npol, &e)) {
		char msg[EA_ERR_MAX];

		snprintf(msg, sizeof(msg), "%s", e.msg);
		ea_err_set(&e, "%s: %s", path, msg);
		goto out;
	}
	rep = (struct ea_replay_report){
		.path = path, .model = c.model, .target = c.target,
		.governor = gov, .idle = idle,
		.work = work == EA_WORK_DEMAND ? "demand" :
			work == EA_WORK_FIXED ? "fixed" : "auto",
		.actual = c.have_acct ? &c.acct : NULL,
		.wl = ea_workload_counts(c.wl), .results = c.res, .nresults = c.nres,
		.ensemble = &c.ens, .sensitivity = &c.sens,
		.baseline = c.ens.cfg.baseline >= 0 ? names[c.ens.cfg.baseline] : NULL,
	};
	if (!(f = open_memstream(&buf, &len))) {
		ea_err_set(&e, "out of memory");
		goto out;
	}
	render_fn(f, &rep);
	if (fclose(f)) {
		free(buf);
		ea_err_set(&e, "out of memory");
		goto out;
	}
	if (json)
		*json = buf;
	else
		free(buf);
	rc = 0;
out:
	call_free(&c);
	return rc ? fail(err, &e) : 0;
}

/* No progress line from a library call; the caller's setting restored. */
int ea_replay_json(const char *path, const struct ea_replay_request *rq, char **json,
		   char **err)
{
	struct ea_api_src s = { .path = path };
	int was = ea_api_quiet_begin(), rc = ea_api_replay(&s, rq, json, err);

	ea_api_quiet_end(was);
	return rc;
}
