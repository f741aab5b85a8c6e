// SPDX-License-Identifier: GPL-2.0-only
/* The --html and --perfetto files of `report` and `replay` (pictures.h). */
#include "cli/cmd.h"
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
			 struct ea_perfetto **pf)
{
	if (ea_cli_pic_open(out, path))
		return EXIT_ERROR;
	if (ea_perfetto_begin(pf, out->f)) {
		ea_out_abort(out);
		return ea_die("out of memory");
	}
	return 0;
}

int ea_cli_perfetto_commit(struct ea_out *out, struct ea_perfetto *pf)
{
	ea_perfetto_end(pf);
	return ea_cli_pic_commit(out);
}
