// SPDX-License-Identifier: GPL-2.0-only
/*
 * The --perfetto file (include/eatrace/perfetto.h): Chrome trace-event
 * JSON (src/output/perfetto-json.c) or Perfetto's own protobuf
 * (src/output/perfetto-pb.c), chosen by the caller, by default from the
 * file's name.
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
