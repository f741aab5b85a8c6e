// SPDX-License-Identifier: GPL-2.0-only
/*
 * A trace read once, asked many times (eatrace/trace.h): the handle over
 * an event store, and its calls.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/api.h"

struct ea_trace {
	char *path;
	struct ea_evstore *store;
};

static int fail(char **err, const char *msg)
{
	if (err)
		*err = strdup(msg);
	return -1;
}

int ea_trace_open(struct ea_trace **tp, const char *path, char **err)
{
	struct ea_trace *t;
	struct ea_err e;
	int was, rc;

	*tp = NULL;
	if (!strcmp(path, "-"))
		return fail(
			err,
			"-: standard input cannot be kept open: give a file");
	if (!(t = calloc(1, sizeof(*t))) || !(t->path = strdup(path))) {
		free(t);
		return fail(err, "out of memory");
	}
	was = ea_api_quiet_begin();
	rc = ea_evstore_load(&t->store, path, &e);
	ea_api_quiet_end(was);
	if (rc) {
		ea_trace_free(t);
		return fail(err, e.msg);
	}
	*tp = t;
	return 0;
}

void ea_trace_free(struct ea_trace *t)
{
	if (!t)
		return;
	ea_evstore_free(t->store);
	free(t->path);
	free(t);
}

const char *ea_trace_path(const struct ea_trace *t)
{
	return t->path;
}

const struct ea_evstore *ea_trace_store(const struct ea_trace *t)
{
	return t->store;
}

size_t ea_trace_nevents(const struct ea_trace *t)
{
	return ea_evstore_count(t->store);
}

size_t ea_trace_bytes(const struct ea_trace *t)
{
	return ea_evstore_bytes(t->store);
}

int ea_trace_report_json(const struct ea_trace *t, const char *model,
			 const struct ea_trace_opts *o, char **json, char **err)
{
	struct ea_api_src s = {t->path, t->store};
	int was = ea_api_quiet_begin(),
	    rc = ea_api_report(&s, model, o, json, err);

	ea_api_quiet_end(was);
	return rc;
}

int ea_trace_stats_json(const struct ea_trace *t, const char *model,
			const struct ea_trace_opts *o, char **json, char **err)
{
	struct ea_api_src s = {t->path, t->store};
	int was = ea_api_quiet_begin(),
	    rc = ea_api_stats(&s, model, o, json, err);

	ea_api_quiet_end(was);
	return rc;
}

int ea_trace_replay_json(const struct ea_trace *t,
			 const struct ea_replay_request *rq, char **json,
			 char **err)
{
	struct ea_api_src s = {t->path, t->store};
	int was = ea_api_quiet_begin(), rc = ea_api_replay(&s, rq, json, err);

	ea_api_quiet_end(was);
	return rc;
}
