// SPDX-License-Identifier: GPL-2.0-only
/*
 * Inputs the readers cannot open by name: "-" (standard input, e.g.
 * `trace-cmd report | eatrace stats -`) and gzip- or zstd-compressed
 * trace.dat and Perfetto files (recognised by content; compressed text
 * traces are not spooled but decompressed as they are read, text-stream.c).
 * Both are copied, decompressed, to a temporary file in TMPDIR that has
 * no name: made with O_TMPFILE (or unlinked as soon as mkstemp() made it,
 * signals held meanwhile), so that nothing is left behind whatever ends
 * the process, SIGINT, SIGTERM or SIGKILL. The readers open it as
 * /proc/self/fd/N while input.c holds the descriptor, and input.c names
 * the original in every error. A decompressed copy stops at
 * ea_inflate_limit() of the compressed file's size (--max-inflate).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input/inflate-limit.h"
#include "input/spool.h"
#include "input/text-stream.h"

/* A file in dir that has no name: O_TMPFILE, else mkstemp() and unlink(). */
static int nameless(const char *dir)
{
	sigset_t all, old;
	char buf[4096];
	int fd, e;

	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0 ||
	    (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
		return fd;
	if (snprintf(buf, sizeof(buf), "%s/eatrace-XXXXXX", dir) >=
	    (int)sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	/* no signal between the name made and the name gone */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	fd = mkostemp(buf, O_CLOEXEC);
	e = errno;
	if (fd >= 0)
		unlink(buf);
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return fd;
}

static int tmp_open(char **tmp, const char *name, struct ea_err *err)
{
	const char *dir = getenv("TMPDIR");
	char buf[64];
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	fd = nameless(dir);
	if (fd < 0)
		return ea_err_set(err,
				  "%s: cannot make a temporary file in %s: %s",
				  name, dir, strerror(errno));
	snprintf(buf, sizeof(buf), "/proc/self/fd/%d", fd);
	*tmp = strdup(buf);
	if (!*tmp) {
		close(fd);
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
static int drop(int fd, char **tmp)
{
	int e = errno;

	close(fd);
	free(*tmp);
	*tmp = NULL;
	errno = e;
	return -1;
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
			ea_err_set(err, "%s: %s%s", EA_STDIN_NAME,
				   got < 0 ? "" : "writing a temporary copy: ",
				   strerror(errno));
			return drop(fd, tmp);
		}
	}
	return fd;
}

/*
 * Decompressed through text-stream.c, whose errors name the compressed
 * offset where they were found: "PATH:offset N: corrupt gzip data: WHY".
 */
int ea_spool_decompress(const char *path, const char *name, char **tmp,
			uint64_t *stored_bytes, struct ea_err *err)
{
	struct ea_tstream *ts = ea_ts_open(path, err);
	char *out = malloc(65536);
	uint64_t limit, total = 0;
	struct stat st;
	ssize_t got;
	int fd = -1;

	if (!ts || !out) {
		if (ts)
			ea_err_set(err, "%s: out of memory", name);
		ea_ts_close(ts);
		free(out);
		return -1;
	}
	if (stat(path, &st)) {
		ea_err_set(err, "%s: %s", name, strerror(errno));
		goto fail;
	}
	*stored_bytes = (uint64_t)st.st_size;
	limit = ea_inflate_limit(*stored_bytes);
	fd = tmp_open(tmp, name, err);
	if (fd < 0)
		goto fail;
	while ((got = ea_ts_read(ts, out, 65536)) > 0) {
		if ((uint64_t)got > limit - total) {
			char m[256];

			ea_inflate_refusal(m, sizeof(m),
					   ea_z_name(ea_ts_kind(ts)),
					   *stored_bytes);
			ea_err_set(err, "%s:offset %" PRIu64 ": %s", name,
				   ea_ts_in_offset(ts), m);
			goto fail;
		}
		total += (uint64_t)got;
		if (write_all(fd, out, (size_t)got)) {
			ea_err_set(err, "%s: writing a decompressed copy: %s",
				   name, strerror(errno));
			goto fail;
		}
	}
	if (got < 0) {
		ea_err_set(err,
			   strncmp(ea_ts_error(ts), "offset ", 7) ? "%s: %s"
								  : "%s:%s",
			   name, ea_ts_error(ts));
		goto fail;
	}
	ea_ts_close(ts);
	free(out);
	return fd;
fail:
	ea_ts_close(ts);
	free(out);
	if (fd >= 0)
		drop(fd, tmp);
	return -1;
}
