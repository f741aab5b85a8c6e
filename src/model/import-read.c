// SPDX-License-Identifier: GPL-2.0-only
/*
 * A model source read whole, checked first (ea_input_check_fd(): a regular
 * file, or a procfs/sysfs/debugfs one, that cannot block), with a size cap.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "eatrace/input.h"
#include "model/import-priv.h"

static int read_file(const char *path, size_t max, bool sys, char **buf,
		     size_t *len, struct ea_err *err)
{
	size_t n = 0, cap = 4096;
	char *b;
	FILE *f;
	int fd;

	*buf = NULL;
	*len = 0;
	/* Not a pipe, terminal, device or trace_pipe: reading one could block
	 * for ever (a dts can name any path in /include/). */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return ea_err_set(err, "%s: %s", path, strerror(errno));
	if (ea_input_check_fd(fd, path, sys, err)) {
		close(fd);
		return -1;
	}
	fcntl(fd, F_SETFL, 0);
	f = fdopen(fd, "rb");
	if (!f) {
		close(fd);
		return ea_err_set(err, "%s: %s", path, strerror(errno));
	}
	b = malloc(cap);
	if (!b) {
		fclose(f);
		return ea_err_set(err, "%s: out of memory", path);
	}
	for (;;) {
		size_t got;

		if (n + 1 >= cap) {
			char *nb;

			if (cap > max) {
				free(b);
				fclose(f);
				return ea_err_set(err,
						  "%s: larger than %zu bytes: "
						  "not a model source",
						  path, max);
			}
			cap *= 2;
			nb = realloc(b, cap);
			if (!nb) {
				free(b);
				fclose(f);
				return ea_err_set(err, "%s: out of memory",
						  path);
			}
			b = nb;
		}
		got = fread(b + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		int e = errno;

		free(b);
		fclose(f);
		return ea_err_set(err, "%s: %s", path,
				  e == EISDIR ? "is a directory"
					      : strerror(e ? e : EIO));
	}
	fclose(f);
	if (n > max) {
		free(b);
		return ea_err_set(
			err, "%s: larger than %zu bytes: not a model source",
			path, max);
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

int ea_read_file(const char *path, size_t max, char **buf, size_t *len,
		 struct ea_err *err)
{
	return read_file(path, max, false, buf, len, err);
}

int ea_read_sysfile(const char *path, size_t max, char **buf, size_t *len,
		    struct ea_err *err)
{
	return read_file(path, max, true, buf, len, err);
}
