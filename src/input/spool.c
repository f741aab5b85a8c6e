// SPDX-License-Identifier: GPL-2.0-only
/*
 * Inputs the readers cannot open by name: "-" (standard input, e.g.
 * `trace-cmd report | eatrace stats -`) and gzip-compressed files (.gz,
 * recognised by content). Both are copied, decompressed, to a temporary
 * file that the readers then open like any other; input.c removes it when
 * the input is closed, and names the original in every error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "input/spool.h"

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

bool ea_spool_is_gzip(const unsigned char *head, size_t n)
{
	return n >= 2 && head[0] == 0x1f && head[1] == 0x8b;
}

/* Read up to size bytes of fd; 0 at its end, -1 (errno) on error. */
static ssize_t read_some(int fd, unsigned char *buf, size_t size)
{
	ssize_t got;

	do
		got = read(fd, buf, size);
	while (got < 0 && errno == EINTR);
	return got;
}

/*
 * Inflated by hand rather than with gzread() so that an error names the
 * compressed offset where it was found: the bytes of the file inflate()
 * had consumed then (for a file cut short: its end). Members are
 * inflated one after the other (gzip -c a >f; gzip -c b >>f); anything
 * after the last member that is not a gzip header is ignored, as gzip(1)
 * and gzread() do.
 */
int ea_spool_gunzip(const char *path, char **tmp, struct ea_err *err)
{
	unsigned char in[65536], out[65536];
	unsigned long long read_total = 0;
	bool in_member = true;
	z_stream z;
	int src, fd, zrc = Z_OK;
	ssize_t got;

	src = open(path, O_RDONLY | O_CLOEXEC);
	if (src < 0)
		return ea_err_set(err, "%s: %s", path, strerror(errno));
	fd = tmp_open(tmp, path, err);
	if (fd < 0) {
		close(src);
		return -1;
	}
	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
		close(src);
		drop(fd, tmp);
		return ea_err_set(err, "%s: out of memory inflating gzip data", path);
	}
	for (;;) {
		if (!z.avail_in) {
			got = read_some(src, in, sizeof(in));
			if (got < 0) {
				ea_err_set(err, "%s: %s", path, strerror(errno));
				goto fail;
			}
			if (!got)
				break;
			read_total += (unsigned long long)got;
			z.next_in = in;
			z.avail_in = (uInt)got;
		}
		if (!in_member) {
			/* after a member: another one, or trailing bytes */
			if (z.next_in[0] != 0x1f)
				break;
			inflateReset(&z);
			in_member = true;
		}
		for (;;) {
			size_t n;

			z.next_out = out;
			z.avail_out = sizeof(out);
			zrc = inflate(&z, Z_NO_FLUSH);
			if (zrc != Z_OK && zrc != Z_STREAM_END && zrc != Z_BUF_ERROR) {
				ea_err_set(err, "%s:offset %llu: corrupt gzip data: %s", path,
					   read_total - z.avail_in,
					   zrc == Z_MEM_ERROR ? "out of memory" :
					   z.msg ? z.msg : "invalid data");
				goto fail;
			}
			n = sizeof(out) - z.avail_out;
			if (n && write_all(fd, (const char *)out, n)) {
				ea_err_set(err, "%s: writing a decompressed copy: %s", path,
					   strerror(errno));
				goto fail;
			}
			if (zrc == Z_STREAM_END) {
				in_member = false;
				break;
			}
			/* all input taken and no output pending: read more */
			if ((z.avail_out && !z.avail_in) || zrc == Z_BUF_ERROR)
				break;
		}
	}
	if (in_member) {
		ea_err_set(err, "%s:offset %llu: corrupt gzip data: unexpected end of file",
			   path, read_total);
		goto fail;
	}
	inflateEnd(&z);
	close(src);
	if (close(fd)) {
		ea_err_set(err, "%s: writing a decompressed copy: %s", path, strerror(errno));
		unlink(*tmp);
		free(*tmp);
		*tmp = NULL;
		return -1;
	}
	return 0;
fail:
	inflateEnd(&z);
	close(src);
	drop(fd, tmp);
	return -1;
}
