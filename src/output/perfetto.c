// SPDX-License-Identifier: GPL-2.0-only
/*
 * The --perfetto file (include/eatrace/perfetto.h): Chrome trace-event
 * JSON (src/output/perfetto-json.c) or Perfetto's own protobuf
 * (src/output/perfetto-pb.c), chosen by the caller, by default from the
 * file's name; and the encoder ahead of either (ea_perfetto_ahead_start_as()).
 */
#include <stdlib.h>
#include <string.h>

#include "output/perfetto-priv.h"

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

enum ea_perfetto_format ea_perfetto_format_of(const char *path)
{
	return path && (ends_with(path, ".pftrace") ||
			ends_with(path, ".perfetto-trace"))
		       ? EA_PERFETTO_PROTOBUF
		       : EA_PERFETTO_JSON;
}

long long ea_perfetto_default_cap(enum ea_perfetto_format fmt)
{
	return (fmt == EA_PERFETTO_PROTOBUF ? EA_PERFETTO_PB_DEFAULT_MB
					    : EA_PERFETTO_JSON_DEFAULT_MB) *
	       1048576ll;
}

int ea_perfetto_begin_as(struct ea_perfetto **pp, FILE *f,
			 enum ea_perfetto_format fmt)
{
	struct ea_perfetto *p = calloc(1, sizeof(*p));
	int rc;

	*pp = p;
	if (!p)
		return -1;
	p->f = f;
	p->fmt = fmt;
	rc = fmt == EA_PERFETTO_PROTOBUF ? ea_pf_pb_begin(p)
					 : ea_pf_json_begin(p);
	if (rc) {
		free(p);
		*pp = NULL;
	}
	return rc;
}

int ea_perfetto_begin(struct ea_perfetto **pp, FILE *f)
{
	return ea_perfetto_begin_as(pp, f, EA_PERFETTO_JSON);
}

void ea_perfetto_cap(struct ea_perfetto *p, long long bytes)
{
	p->cap = bytes;
}

bool ea_perfetto_truncated(const struct ea_perfetto *p, uint64_t *at)
{
	*at = p->full_at;
	return p->full;
}

void ea_perfetto_process(struct ea_perfetto *p, const char *name,
			 const struct ea_timeline *t, const struct ea_state *s,
			 uint64_t t0)
{
	p->ops->process(p, name, t, s, t0);
}

int ea_perfetto_end(struct ea_perfetto *p)
{
	bool failed;

	if (!p)
		return 0;
	p->ops->end(p);
	failed = p->failed;
	free(p);
	return failed ? -1 : 0;
}

/* An encoder ahead of either format. */
struct ea_perfetto_ahead {
	enum ea_perfetto_format fmt;
	bool taken;
	void *impl; /* struct pf_pb_ahead or pf_json_ahead */
};

struct ea_perfetto_ahead *ea_perfetto_ahead_start_as(struct ea_timeline *t,
						     enum ea_perfetto_format fmt,
						     long long cap)
{
	struct ea_perfetto_ahead *a = malloc(sizeof(*a));

	if (!a)
		return NULL;
	a->fmt = fmt;
	a->taken = false;
	a->impl = fmt == EA_PERFETTO_PROTOBUF
			  ? (void *)pf_pb_ahead_start(t, cap)
			  : (void *)pf_json_ahead_start(t, cap);
	if (!a->impl) {
		free(a);
		return NULL;
	}
	return a;
}

struct ea_perfetto_ahead *ea_perfetto_ahead_start(struct ea_timeline *t,
						  long long cap)
{
	return ea_perfetto_ahead_start_as(t, EA_PERFETTO_PROTOBUF, cap);
}

void ea_perfetto_use_ahead(struct ea_perfetto *p, struct ea_perfetto_ahead *a)
{
	if (a && a->fmt == p->fmt) {
		p->ahead = a->impl;
		p->ahead_taken = &a->taken;
	}
}

bool ea_perfetto_ahead_taken(const struct ea_perfetto_ahead *a)
{
	return a && a->taken;
}

void ea_perfetto_ahead_free(struct ea_perfetto_ahead *a)
{
	if (!a)
		return;
	if (a->fmt == EA_PERFETTO_PROTOBUF)
		pf_pb_ahead_free(a->impl);
	else
		pf_json_ahead_free(a->impl);
	free(a);
}
