// SPDX-License-Identifier: GPL-2.0-only
/*
 * The section chain of a trace.dat v7 file, checked against the file's
 * size (docs/robustness.md). libtracecmd reads some sections only when
 * asked (the STRINGS section, written last, never by eatrace), so a file
 * cut inside its last section opened and read without complaint.
 *
 * After the initial header come sections, each with a 16-byte header (id,
 * flags, string id, size; trace-cmd.dat.v7.5). trace-cmd writes them one
 * after the other, so they are walked in order from the end of the initial
 * header; each must end inside the file. Options sections, never
 * compressed, are read to their DONE option, whose next-section offset
 * must lie inside the file too. The STRINGS section (id 15), last, holds
 * the other sections' names: one too short for the names used means the
 * file was cut. (A file cut exactly before it cannot be told from one
 * written without it: some writers, traces/diff/'s, have none.) The walk stops quietly at anything that
 * does not look like a section header (another writer's layout): it only
 * finds cuts, never refuses a layout it does not know.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input/reader.h"

#define SECTION_HDR 16
#define MAX_SECTION_ID 32	/* v7.5 defines ids up to 21 */
#define MAX_SECTIONS 100000

struct dfile {
	int fd;
	uint64_t size;
	bool big;
};

static bool get(const struct dfile *f, uint64_t off, void *buf, size_t n)
{
	return off <= f->size && n <= f->size - off &&
	       pread(f->fd, buf, n, (off_t)off) == (ssize_t)n;
}

static uint64_t num(const struct dfile *f, const unsigned char *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v |= (uint64_t)p[f->big ? n - 1 - i : i] << (8 * i);
	return v;
}

/* The DONE option's next-options offset of an uncompressed options section. */
static bool options_next(const struct dfile *f, uint64_t off, uint64_t size,
			 uint64_t *next)
{
	uint64_t end = off + size;
	unsigned char h[6], d[8];

	while (off + 6 <= end && get(f, off, h, 6)) {
		uint64_t id = num(f, h, 2), len = num(f, h + 2, 4);

		off += 6;
		if (len > end - off)
			return false;
		if (id == 0) {
			if (len != 8 || !get(f, off, d, 8))
				return false;
			*next = num(f, d, 8);
			return true;
		}
		off += len;
	}
	return false;
}

/* Bytes the strings section holds (a compressed one says in its header). */
static uint64_t strings_size(const struct dfile *f, uint64_t off, uint64_t size,
			     uint64_t flags)
{
	unsigned char h[8];

	if (!flags)
		return size;
	return size >= 8 && get(f, off, h, 8) ? num(f, h + 4, 4) : 0;
}

int ea_dat_check_sections(const char *path, struct ea_err *err)
{
	unsigned char head[256], h[SECTION_HDR];
	struct dfile f = { -1, 0, false };
	uint64_t off, max_name = 0, strings = 0;
	struct stat st;
	ssize_t n;
	size_t i;
	int rc = 0;

	f.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f.fd < 0)
		return 0;	/* the reader says why */
	if (fstat(f.fd, &st) || (n = pread(f.fd, head, sizeof(head), 0)) < 0)
		goto out;
	f.size = (uint64_t)st.st_size;
	/* magic (10), "7\0", endianness, long size, page size (4) */
	if (n < 18 || memcmp(head + 10, "7", 2))
		goto out;
	f.big = head[12] == 1;
	i = 18;
	for (int s = 0; s < 2; i++)	/* compression "name\0version\0" */
		if (i >= (size_t)n)
			goto out;
		else if (!head[i])
			s++;
	off = i + 8;			/* then the first options offset */
	for (int k = 0; k < MAX_SECTIONS; k++) {
		uint64_t id, flags, size, next, name;

		if (off == f.size) {	/* walked to the end: names resolved? */
			if (strings && max_name > strings)
				rc = ea_err_set(err, "%s: truncated trace.dat: its strings section "
						"holds %" PRIu64 " bytes, the section names need %"
						PRIu64, path, strings, max_name);
			break;
		}
		if (off > f.size)
			break;

		if (f.size - off < SECTION_HDR) {
			rc = ea_err_set(err, "%s: truncated trace.dat: file ends at offset %" PRIu64
					" inside a section header (%" PRIu64 " of %d bytes)",
					path, f.size, f.size - off, SECTION_HDR);
			break;
		}
		if (!get(&f, off, h, SECTION_HDR))
			break;
		id = num(&f, h, 2);
		flags = num(&f, h + 2, 2);
		name = num(&f, h + 4, 4);
		size = num(&f, h + 8, 8);
		if (id > MAX_SECTION_ID || flags > 1)
			break;	/* not a section header: a layout we do not know */
		if (size > f.size - off - SECTION_HDR) {
			rc = ea_err_set(err, "%s: truncated trace.dat: section %" PRIu64 " at offset %"
					PRIu64 " ends at %" PRIu64 ", the file at %" PRIu64,
					path, id, off, off + SECTION_HDR + size, f.size);
			break;
		}
		if (id == 0 && !flags &&
		    options_next(&f, off + SECTION_HDR, size, &next) && next &&
		    (next > f.size || f.size - next < SECTION_HDR)) {
			rc = ea_err_set(err, "%s: truncated trace.dat: options at offset %" PRIu64
					" name a next section at %" PRIu64 ", the file ends at %"
					PRIu64, path, off, next, f.size);
			break;
		}
		if (id == 15 && !strings)
			strings = strings_size(&f, off + SECTION_HDR, size, flags);
		else if (name + 1 > max_name)
			max_name = name + 1;	/* its name's NUL at least */
		off += SECTION_HDR + size;
	}
out:
	close(f.fd);
	return rc;
}
