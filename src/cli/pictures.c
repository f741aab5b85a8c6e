// SPDX-License-Identifier: GPL-2.0-only
/* The --html and --perfetto files of `report` and `replay` (pictures.h). */
#include <stdio.h>
#include <stdlib.h>

#include "cli/msg.h"
#include "cli/pictures.h"
#include "eatrace/error.h"

int ea_cli_pic_open(struct ea_out *out, const char *path)
{
	struct ea_err err;

	if (ea_out_open(out, path, &err))
		return ea_die("%s", err.msg);
	return 0;
}

int ea_cli_pic_commit(struct ea_out *out)
{
	struct ea_err err;

	if (ea_out_commit(out, &err))
		return ea_die("%s", err.msg);
	return 0;
}

int ea_cli_perfetto_open(struct ea_out *out, const char *path,
			 struct ea_perfetto **pf, double max_mb)
{
	if (ea_cli_pic_open(out, path))
		return EXIT_ERROR;
	if (ea_perfetto_begin(pf, out->f)) {
		ea_out_abort(out);
		return ea_die("out of memory");
	}
	ea_perfetto_cap(*pf, (long long)(max_mb * 1048576));
	return 0;
}

int ea_cli_perfetto_commit(struct ea_out *out, struct ea_perfetto *pf,
			   double max_mb, const char *path)
{
	uint64_t at;

	if (ea_perfetto_truncated(pf, &at))
		ea_msg("warning: %s reached --perfetto-max-mb %g at %.6f s: task slices and OPP and idle-state counters stop there (power counters cover the window; --start/--end show another part)",
			path, max_mb, at / 1e9);
	ea_perfetto_end(pf);
	return ea_cli_pic_commit(out);
}

int ea_cli_parse_max_mb(const char *arg, double *mb)
{
	char *end;
	double v = strtod(arg, &end);

	if (*end || !(v >= 0.01) || v > 1e6)
		return ea_die("--perfetto-max-mb: '%s' is not a size in MB (0.01 to 1000000)", arg);
	*mb = v;
	return 0;
}
