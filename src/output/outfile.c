// SPDX-License-Identifier: GPL-2.0-only
/* Atomic output files: temp file beside the target, renamed on commit. */
#include <errno.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "eatrace/output.h"

int ea_out_open(struct ea_out *o, const char *path, struct ea_err *err)
{
	int fd;

	memset(o, 0, sizeof(*o));
	if (!path || !strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	o->path = strdup(path);
	if (!o->path || asprintf(&o->tmp, "%s.tmp.XXXXXX", path) < 0) {
		free(o->path);
		o->path = NULL;
		return ea_err_set(err, "%s: out of memory", path);
	}
	fd = mkstemp(o->tmp);
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		int e = errno;

		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		ea_err_set(err, "%s: cannot write: %s", path, strerror(e));
		free(o->path);
		free(o->tmp);
		memset(o, 0, sizeof(*o));
		return -1;
	}
	return 0;
}

int ea_out_commit(struct ea_out *o, struct ea_err *err)
{
	int rc = 0;

	if (!o->path) {
		if (fflush(o->f) || ferror(o->f))
			rc = ea_err_set(err, "stdout: write error: %s", strerror(errno));
		return rc;
	}
	if (fflush(o->f) || ferror(o->f) || fsync(fileno(o->f))) {
		rc = ea_err_set(err, "%s: write error: %s", o->path, strerror(errno));
		ea_out_abort(o);
		return rc;
	}
	fchmod(fileno(o->f), 0644);
	fclose(o->f);
	o->f = NULL;
	if (rename(o->tmp, o->path)) {
		rc = ea_err_set(err, "%s: cannot replace: %s", o->path, strerror(errno));
		unlink(o->tmp);
	}
	free(o->path);
	free(o->tmp);
	memset(o, 0, sizeof(*o));
	return rc;
}

void ea_out_abort(struct ea_out *o)
{
	if (o->path) {
		if (o->f)
			fclose(o->f);
		unlink(o->tmp);
		free(o->path);
		free(o->tmp);
	}
	memset(o, 0, sizeof(*o));
}
