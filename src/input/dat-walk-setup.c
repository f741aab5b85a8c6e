// SPDX-License-Identifier: GPL-2.0-only
/*
 * Records of uncompressed or compressed trace.dat files in the host's byte
 * order are read by eatrace's own page walker (dat-walk.c; dat-chunks.c
 * decompresses), which gives the same records in the same order as
 * libtracecmd and checks every length: ea_dat_walk_setup() (dat-read.h)
 * decides whether it can, and sets it up.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event-parse.h>

#include "input/dat-read.h"
#include "input/dat-tracecmd.h"
#include "input/reader-dat.h"

/*
 * The page walker (dat-walk.c) reads a CPU's pages the way libtracecmd
 * does only when libtracecmd itself reads the file's bytes as they are:
 * not compressed, host byte order, no old (2.6.30) page format. It cannot
 * see libtracecmd's timestamp corrections (--ts-offset, --date, TSC to ns,
 * guest time shift): instead, each CPU's first record must come out of
 * both with the same timestamp, offset, size, missed-events count and
 * bytes, or libtracecmd stays in charge. EATRACE_DAT_READER=libtracecmd
 * forces libtracecmd.
 */
static bool same_first(const struct dw_rec *a, const struct tep_record *b)
{
	return b->size >= 0 && a->ts == b->ts && a->offset == b->offset &&
	       a->size == (uint32_t)b->size && a->missed == b->missed_events &&
	       !memcmp(a->data, b->data, a->size);
}

/*
 * The file header: magic, version string, endianness byte, long size
 * byte, u32 page size (libtraceevent's tep_get_page_size() stays 0 when
 * libtracecmd 3.1 opens a file). 0 when unreadable.
 */
static unsigned long long header_page_size(int fd, int *long_size)
{
	unsigned char head[32];
	const unsigned char *v, *nul;
	uint32_t ps;
	ssize_t n = pread(fd, head, sizeof(head), 0);

	if (n < (ssize_t)sizeof(dat_magic) + 2)
		return 0;
	v = head + sizeof(dat_magic);
	nul = memchr(v, '\0', head + n - v);
	if (!nul || nul + 7 > head + n)
		return 0;
	*long_size = nul[2];
	memcpy(&ps, nul + 3, 4);
	return ps;
}

const char *ea_dat_walk_setup(struct dat *r, bool compressed)
{
	unsigned long long ps, busy, *start = NULL, *size = NULL;
	const char *why = NULL;
	int cpu, ls, fls = 0, fd = -1;
	struct stat st;

	if (!r->fmt.native)
		return "byte order not the host's";
	if (tep_is_local_bigendian(r->fmt.tep))
		return "big-endian host (dat-walk.c decodes the event header "
		       "little-endian)";
	if (!r->cursor0 || r->cursor_h != r->h || r->ncursor0 != r->ncpus)
		return "no start cursors";
	ls = tep_get_long_size(r->fmt.tep);
	if ((ls != 4 && ls != 8) || tep_get_header_page_size(r->fmt.tep) != ls)
		return "unexpected long size";
	if (tep_get_header_timestamp_size(r->fmt.tep) != 8 ||
	    tep_is_old_format(r->fmt.tep))
		return "old page format";
	fd = open(r->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return "cannot reopen the file";
	ps = header_page_size(fd, &fls);
	if (ps < 64 || ps > (1u << 20) || (ps & (ps - 1)) || fls != ls) {
		why = "unexpected page or long size in the file header";
		goto out;
	}
	start = calloc(r->ncpus, sizeof(*start));
	size = calloc(r->ncpus, sizeof(*size));
	if (!start || !size) {
		why = "out of memory";
		goto out;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		why = "not a regular file";
		goto out;
	}
	for (cpu = 0, busy = 0; cpu < r->ncpus; cpu++) {
		long long n = tracecmd_get_cpu_file_size(r->h, cpu);

		if (n <= 0)
			continue;
		/* a page per CPU in memory at least: bound it */
		if (++busy * ps > (64u << 20)) {
			why = "pages too large for this many CPUs";
			goto out;
		}
		start[cpu] = r->cursor0[cpu] & ~(ps - 1);
		/*
		 * The cursor is past the CPU's first page when that page's
		 * items run past it: libtracecmd accepts an offset a page
		 * lower only if start is not the CPU's first page.
		 */
		if (start[cpu] >= ps &&
		    tracecmd_set_cursor(r->h, cpu, start[cpu] - ps) == 0) {
			/* that moved libtracecmd's cursor: put it back */
			if (tracecmd_set_cursor(r->h, cpu, r->cursor0[cpu])) {
				r->fast_err_cpu = cpu;
				snprintf(r->fast_err, sizeof(r->fast_err),
					 "corrupt trace.dat: first page's "
					 "items run past it (cursor at %llu)",
					 (unsigned long long)r->cursor0[cpu]);
				why = r->fast_err;
			} else {
				why = "read cursor past the CPU's first page";
			}
			goto out;
		}
		size[cpu] = (unsigned long long)n;
		if (compressed && size[cpu] % ps) {
			/* the sum of its chunks' sizes: one is not whole pages
			 */
			r->fast_err_cpu = cpu;
			snprintf(r->fast_err, sizeof(r->fast_err),
				 "corrupt trace.dat: compressed chunks hold "
				 "%llu bytes, not whole pages",
				 size[cpu]);
			why = r->fast_err;
			goto out;
		}
		/* compressed: offsets in the decompressed data (dat-chunks.h)
		 */
		if (size[cpu] % ps ||
		    (!compressed &&
		     (start[cpu] > (unsigned long long)st.st_size ||
		      size[cpu] >
			      (unsigned long long)st.st_size - start[cpu]))) {
			why = "CPU data not whole pages inside the file";
			goto out;
		}
	}
	if (dw_init(&r->w, fd, (uint32_t)ps, ls, r->ncpus, start, size)) {
		why = "out of memory";
		goto out_w;
	}
	if (compressed) {
		int rc = dz_open(&r->z, fd, r->bufname ? r->bufname : "",
				 r->ncpus, start, r->fast_err,
				 sizeof(r->fast_err));

		if (rc) {
			r->fast_fatal = rc == -2;
			why = r->fast_err;
			goto out_w;
		}
		r->zfast = true;
		r->w.fill = dz_fill;
		r->w.fill_priv = &r->z;
	}
	for (cpu = 0; cpu < r->ncpus; cpu++) {
		struct tep_record *rec = tracecmd_peek_data(r->h, cpu);
		int rc = size[cpu] ? dw_advance(&r->w, cpu) : 0;

		if (rc < 0) {
			/*
			 * A length that does not fit: corrupt, whoever reads
			 * it (libtracecmd would read past the page or loop).
			 */
			r->fast_err_cpu = cpu;
			dw_cut(&r->w); /* cut under a mapped window: its err */
			snprintf(r->fast_err, sizeof(r->fast_err), "%s",
				 r->w.err);
			why = r->fast_err;
			goto out_w;
		}
		if ((rc == 0) != !rec ||
		    (rec && !same_first(&r->w.cpu[cpu].rec, rec))) {
			why = "first records differ from libtracecmd's";
			goto out_w;
		}
	}
	r->fast = true;
	r->fd = fd;
	r->adv = -1;
	free(start);
	free(size);
	return NULL;
out_w:
	dw_free(&r->w);
	if (r->zfast)
		dz_close(&r->z);
	r->zfast = false;
out:
	close(fd);
	free(start);
	free(size);
	return why;
}
