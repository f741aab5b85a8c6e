// SPDX-License-Identifier: GPL-2.0-only
/*
 * A stream into a regular file at an offset (perfetto-json-direct.h):
 * fopencookie()'s, unbuffered (its writer has a buffer of its own), each
 * write a pwrite() at the stream's offset, so that the caller's stream on
 * the same file keeps its own. Like ea_pf_gave() for the caller's stream,
 * it starts the writeback of every 4 MiB it wrote (a hint: fsync() does
 * what it does not).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/perfetto-json-direct.h"

#define WRITEBACK_BYTES (4u << 20)

struct pj_direct {
	int fd; /* the file's (not ours) */
	FILE *f;
	off_t at; /* the next write's offset */
	off_t wb_at; /* writeback started up to here */
	bool wrote, failed;
};

static ssize_t dw_write(void *c, const char *buf, size_t n)
{
	struct pj_direct *d = c;
	size_t done = 0;

	d->wrote = true;
	while (done < n) {
		ssize_t w = pwrite(d->fd, buf + done, n - done,
				   d->at + (off_t)done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			d->failed = true;
			d->at += (off_t)done;
			if (!w)
				errno = EIO;
			return -1;
		}
		done += (size_t)w;
	}
	d->at += (off_t)n;
	if (d->at - d->wb_at >= (off_t)WRITEBACK_BYTES) {
		(void)sync_file_range(d->fd, d->wb_at, d->at - d->wb_at,
				      SYNC_FILE_RANGE_WRITE);
		d->wb_at = d->at;
	}
	return (ssize_t)n;
}

static int dw_seek(void *c, off64_t *off, int whence)
{
	struct pj_direct *d = c;

	if (whence == SEEK_SET)
		d->at = (off_t)*off;
	else if (whence == SEEK_CUR)
		d->at += (off_t)*off;
	else
		return -1;
	d->wb_at = d->at < d->wb_at ? d->at : d->wb_at;
	*off = d->at;
	return 0;
}

struct pj_direct *pj_direct_open(FILE *f)
{
	static const cookie_io_functions_t io = {.write = dw_write,
						  .seek = dw_seek};
	int fd = fileno(f), fl;
	struct pj_direct *d;
	struct stat st;

	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    (fl = fcntl(fd, F_GETFL)) < 0 || (fl & O_APPEND))
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->fd = fd;
	d->f = fopencookie(d, "w", io);
	if (!d->f || setvbuf(d->f, NULL, _IONBF, 0)) {
		if (d->f)
			fclose(d->f);
		free(d);
		return NULL;
	}
	return d;
}

FILE *pj_direct_stream(struct pj_direct *d)
{
	return d->f;
}

int pj_direct_seek(struct pj_direct *d, long long pos)
{
	if (fseeko(d->f, (off_t)pos, SEEK_SET))
		return -1;
	d->wb_at = d->at;
	return 0;
}

long long pj_direct_end(const struct pj_direct *d)
{
	return (long long)d->at;
}

bool pj_direct_wrote(const struct pj_direct *d)
{
	return d->wrote;
}

bool pj_direct_failed(const struct pj_direct *d)
{
	return d->failed;
}

void pj_direct_free(struct pj_direct *d)
{
	if (!d)
		return;
	fclose(d->f);
	free(d);
}
