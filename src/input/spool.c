// SPDX-License-Identifier: GPL-2.0-only
/*
 * Inputs the readers cannot open by name: "-" (standard input, e.g.
 * `trace-cmd report | eatrace stats -`) and gzip- or zstd-compressed
 * trace.dat and Perfetto files (recognised by content; compressed text
 * traces are not spooled but decompressed as they are read, text-stream.c).
 * Both are copied, decompressed, to a temporary file that the readers then
 * open like any other; input.c removes it when the input is closed, and
 * names the original in every error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input/spool.h"
#include "input/text-stream.h"

static int tmp_open(char **tmp, const char *name, struct ea_err *err)
{
	const char *dir = getenv("TMPDIR");
	char buf[4096];
	int fd;

	snprintf(buf, sizeof(buf), "%s/eatrace-XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(buf);
	if (fd < 0)
		return ea_err_set(err, "%s: cannot make a temporary file in %s: %s", name,
				  dir && *dir ? dir : "/tmp", strerror(errno));
	*tmp = strdup(buf);
	if (!*tmp) {
		close(fd);
		unlink(buf);
		return ea_err_set(err, "%s: out of memory", name);
	}
	return fd;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Drop the temporary file after an error; the caller sets err. */
static void drop(int fd, char **tmp)
{
	int e = errno;

	close(fd);
	unlink(*tmp);
	free(*tmp);
	*tmp = NULL;
	errno = e;
}

int ea_spool_stdin(char **tmp, struct ea_err *err)
{
	char buf[65536];
	ssize_t got;
	int fd = tmp_open(tmp, EA_STDIN_NAME, err);

	if (fd < 0)
		return -1;
	while ((got = read(STDIN_FILENO, buf, sizeof(buf))) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 || write_all(fd, buf, (size_t)got)) {
			drop(fd, tmp);
			return ea_err_set(err, "%s: %s%s", EA_STDIN_NAME,
					  got < 0 ? "" : "writing a temporary copy: ",
					  strerror(errno));
		}
	}
	close(fd);
	return 0;
}

/*
 * Decompressed through text-stream.c, whose errors name the compressed
 * offset where they were found: "PATH:offset N: corrupt gzip data: WHY".
 */
int ea_spool_decompress(const char *path, char **tmp, struct ea_err *err)
{
	struct ea_tstream *ts = ea_ts_open(path, err);
	char *out = malloc(65536);
	ssize_t got;
	int fd;

	if (!ts || !out) {
		if (ts)
			ea_err_set(err, "%s: out of memory", path);
		ea_ts_close(ts);
		free(out);
		return -1;
	}
	fd = tmp_open(tmp, path, err);
	if (fd < 0) {
		ea_ts_close(ts);
		free(out);
		return -1;
	}
	while ((got = ea_ts_read(ts, out, 65536)) > 0)
		if (write_all(fd, out, (size_t)got)) {
			ea_err_set(err, "%s: writing a decompressed copy: %s", path,
				   strerror(errno));
			goto fail;
		}
	if (got < 0) {
		ea_err_set(err, strncmp(ea_ts_error(ts), "offset ", 7) ? "%s: %s" : "%s:%s",
				   path, ea_ts_error(ts));
		goto fail;
	}
	ea_ts_close(ts);
	free(out);
	if (close(fd)) {
		ea_err_set(err, "%s: writing a decompressed copy: %s", path, strerror(errno));
		unlink(*tmp);
		free(*tmp);
		*tmp = NULL;
		return -1;
	}
	return 0;
fail:
	ea_ts_close(ts);
	free(out);
	drop(fd, tmp);
	return -1;
}
