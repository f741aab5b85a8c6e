// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace.dat reader (file versions 6 and 7, compressed or not) on top of
 * libtracecmd and libtraceevent: struct ea_reader_ops, and the open.
 *
 * libtracecmd opens the file and parses its headers and event formats,
 * under a guard against its crashes and loops (dat-guard.c), which also
 * picks the buffer to read. Everything format-dependent is then resolved
 * once (dat-format.c). Records of files in the host's byte order are read
 * by eatrace's own page walker (dat-walk-setup.c, dat-walk.c; compressed
 * ones decompressed by dat-chunks.c), which gives the same records in the
 * same order and checks every length; everything else goes through
 * tracecmd_read_next_data(). EATRACE_DAT_READER=libtracecmd forces the
 * latter. dat-read.c reads and decodes the records; no allocation happens
 * per event beyond what libtracecmd does itself.
 *
 * Quirk handled here: the ftrace print event's `buf` field has size 0:
 * the text runs to the end of the record (dat-format.c, FLD_REST).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <trace-cmd.h>

#include "eatrace/input.h"
#include "input/dat-chunks.h"
#include "input/dat-guard.h"
#include "input/dat-read.h"
#include "input/dat-tracecmd.h"
#include "input/reader-dat.h"
#include "input/reader.h"

static void dat_free(struct dat *r)
{
	if (!r)
		return;
	dat_free(r->ahead);
	if (r->par)
		evr_stop(&r->q); /* before the walker it reads goes */
	else if (r->local)
		free(r->cur);
	if (r->pending)
		tracecmd_free_record(r->pending);
	if (r->h && r->h != r->top)
		tracecmd_close(r->h);
	if (r->top)
		tracecmd_close(r->top);
	if (r->fast) {
		dw_free(&r->w);
		close(r->fd);
	}
	if (r->zfast)
		dz_close(&r->z);
	free(r->cursor0);
	free(r->nrec);
	free(r->span);
	free(r->path);
	free(r);
}

/*
 * Each CPU's data: its size from the header, its start from the read
 * cursor before the first record (page aligned: trace-cmd writes whole
 * ring-buffer pages).
 */
static void init_spans(struct dat *r)
{
	int cpu;

	r->page_size = tep_get_page_size(r->fmt.tep);
	if (!r->page_size || (r->page_size & (r->page_size - 1)))
		return; /* no check: sizes stay 0 */
	for (cpu = 0; cpu < r->ncpus; cpu++) {
		long long size = tracecmd_get_cpu_file_size(r->h, cpu);

		if (size <= 0)
			continue;
		r->span[cpu].size = size;
		r->span[cpu].start =
			(r->cursor_h == r->h && cpu < r->ncursor0
				 ? r->cursor0[cpu]
				 : tracecmd_get_cursor(r->h, cpu)) &
			~(r->page_size - 1);
	}
}

static int dat_probe(const unsigned char *head, size_t n)
{
	return n >= sizeof(dat_magic) &&
	       !memcmp(head, dat_magic, sizeof(dat_magic));
}

/* dat_open(); rehearsed: see ea_dat_open_guarded(). */
static int open_dat(void **priv, const char *path, struct ea_input_info *info,
		    struct ea_err *err, bool rehearsed)
{
	const char *cname = NULL, *cver = NULL, *mode;
	unsigned long version;
	struct dat_open o;
	struct dat *r;
	int t, len;

	*priv = NULL;
	dz_register_zlib(); /* Debian's libtracecmd reads zstd only */
	tep_set_loglevel(TEP_LOG_NONE);
	tracecmd_set_loglevel(TEP_LOG_NONE);
	r = calloc(1, sizeof(*r));
	if (!r || !(r->path = strdup(path))) {
		free(r);
		return ea_err_set(err, "%s: out of memory", path);
	}
	r->last_cpu = -1;
	r->fast_err_cpu = -1;
	if (ea_dat_open_guarded(path, rehearsed, &o, err)) {
		dat_free(r);
		return -1;
	}
	r->top = o.top;
	r->h = o.h;
	r->bufname = o.bufname;
	r->cursor0 = o.cursor0;
	r->ncursor0 = o.ncursor0;
	r->cursor_h = o.cursor_h;
	r->fmt.tep = tracecmd_get_tep(r->h);
	r->ncpus = tracecmd_cpus(r->h);
	if (!r->fmt.tep || r->ncpus <= 0 || r->ncpus > EA_MAX_CPUS) {
		int ncpus = r->ncpus;

		dat_free(r);
		if (ncpus <= 0)
			return ea_err_set(err, "%s: trace.dat has no CPU data",
					  path);
		return ea_err_set(err, "%s: trace.dat claims %d CPUs (max %d)",
				  path, ncpus, EA_MAX_CPUS);
	}
	r->nrec = calloc(r->ncpus, sizeof(*r->nrec));
	r->span = calloc(r->ncpus, sizeof(*r->span));
	if (!r->nrec || !r->span) {
		dat_free(r);
		return ea_err_set(err, "%s: out of memory", path);
	}
	init_spans(r);
	for (t = 0; t < EA_EV_NR; t++)
		info->may_have[t] = false;
	info->may_have[EA_EV_LOST] = true; /* overruns can always happen */
	if (ea_dat_resolve_formats(&r->fmt, path, info, err)) {
		dat_free(r);
		return -1;
	}

	version = tracecmd_get_in_file_version(r->top);
	if (version >= 7 && ea_dat_check_sections(path, err)) {
		dat_free(r);
		return -1;
	}
	len = snprintf(r->format, sizeof(r->format), "trace.dat v%lu", version);
	if (tracecmd_get_file_compress_proto(r->top, &cname, &cver) == 0 &&
	    cname)
		len += snprintf(r->format + len, sizeof(r->format) - len,
				" (compressed, %s)", cname);
	else
		cname = NULL;
	mode = getenv("EATRACE_DAT_READER");
	if (mode && !*mode)
		mode = NULL; /* set but empty: the default */
	if (mode && strcmp(mode, "libtracecmd") && strcmp(mode, "pages")) {
		dat_free(r);
		return ea_err_set(err,
				  "%s: EATRACE_DAT_READER=%s: expected "
				  "libtracecmd or pages",
				  path, mode);
	}
	if (!mode || strcmp(mode, "libtracecmd")) {
		const char *why = ea_dat_walk_setup(r, cname != NULL);

		if (why && r->fast_err_cpu >= 0) {
			int c = r->fast_err_cpu;

			ea_err_set(err, "%s:cpu %d record 1: %s", path, c,
				   r->fast_err);
			dat_free(r);
			return -1;
		}
		if (why && r->fast_fatal) {
			ea_err_set(err, "%s: truncated trace.dat: %s", path,
				   r->fast_err);
			dat_free(r);
			return -1;
		}

		if (why && mode && !strcmp(mode, "pages")) {
			dat_free(r);
			return ea_err_set(err,
					  "%s: EATRACE_DAT_READER=pages: "
					  "cannot read the pages directly: %s",
					  path, why);
		}
	}
	if (r->bufname && len < (int)sizeof(r->format))
		snprintf(r->format + len, sizeof(r->format) - len,
			 ", buffer %s", r->bufname);
	info->format = r->format;
	info->ncpus = r->ncpus;
	*priv = r;
	return 0;
}

static int dat_open(void **priv, const char *path, struct ea_input_info *info,
		    struct ea_err *err)
{
	return open_dat(priv, path, info, err, false);
}

static void dat_close(void *priv)
{
	dat_free(priv);
}

/*
 * A CPU's first event from its own stream (ea_input_first_event()): a
 * second reader of the file, whose page walker (or libtracecmd's per-CPU
 * cursor) reads that CPU alone, so the cost is that CPU's records up to
 * its first one eatrace uses.
 */
static int dat_first_event(void *priv, int cpu, struct ea_event *ev,
			   bool *lost_before, struct ea_err *err)
{
	struct dat *r = priv, *a;
	struct ea_input_info info;
	struct tep_record *rec;
	int rc;

	if (cpu >= r->ncpus)
		return 0;
	if (!r->ahead) {
		void *p;

		memset(&info, 0, sizeof(info));
		/* rehearsed with the first open: no second child (the
		 * sanitizer builds rehearse every open in one) */
		rc = open_dat(&p, r->path, &info, err, true);
		if (rc)
			return -1;
		r->ahead = p;
	}
	a = r->ahead;
	/*
	 * Through the second reader's own page walker when it has one: the
	 * same records as libtracecmd's (checked at its open), and a
	 * compressed file's chunks decompressed once each, by dat-chunks.c,
	 * rather than again by libtracecmd (whose 3.1.6 keeps every chunk
	 * it decompresses: bench/README.md).
	 */
	if (a->fast)
		return ea_dat_cpu_next(a, cpu, ev, lost_before, err);
	for (;;) {
		rec = tracecmd_read_data(a->h, cpu);
		if (!rec)
			return 0;
		if (rec->missed_events)
			*lost_before = true;
		rc = ea_dat_decode_rec(a, rec, cpu, ev, err);
		tracecmd_free_record(rec);
		if (rc)
			return rc;
	}
}

const struct ea_reader_ops ea_reader_dat = {
	.first_event = dat_first_event,
	.name = "dat",
	.probe = dat_probe,
	.open = dat_open,
	.next = ea_dat_next,
	.where = ea_dat_where,
	.close = dat_close,
	.checked = ea_dat_checked,
	.next_block = ea_dat_next_block,
	.block_at = ea_dat_block_at,
	.threads = ea_dat_threads,
};
