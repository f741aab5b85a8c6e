// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace.dat reader (file versions 6 and 7, compressed or not) on top of
 * libtracecmd and libtraceevent.
 *
 * libtracecmd opens the file and parses its headers and event formats.
 * Records of uncompressed files in the host's byte order are then read by
 * eatrace's own page walker (dat-walk.c, fast_setup(), fast_next()), which
 * gives the same records in the same order and checks every length;
 * everything else goes through tracecmd_read_next_data() (tc_next()).
 * EATRACE_DAT_READER=libtracecmd forces the latter.
 *
 * Everything format-dependent is resolved once at open: the ids of the
 * events eatrace uses, the offset, size and signedness of each field, and
 * how this kernel encodes sched_switch prev_state. Per record, the reader
 * reads common_type, looks it up in a table of at most a dozen ids and
 * either skips the record or reads its fields at the known offsets. No
 * allocation happens per event beyond what libtracecmd does itself.
 *
 * libtracecmd 3.1 exports tracecmd_read_next_data(), tracecmd_cpus() and a
 * few more without declaring them in its public header (they live in
 * trace-cmd-private.h, which Debian does not ship); they are declared
 * below with the signatures of trace-cmd 3.1.
 *
 * Quirks of libtracecmd 3.1.6 / libtraceevent 1.7 handled here:
 *  - they crash on some cut or corrupt files, and some of their error
 *    paths crash too: every open runs under a crash guard
 *    (guarded_open(); rehearse_open() lists the cases);
 *  - they print to stdout and stderr whatever the log level: silenced
 *    while a file is opened (quiet_begin());
 *  - tracecmd_read_next_data() returns NULL both at the end of the data
 *    and when a page cannot be loaded: check_end() compares where each
 *    CPU's records stopped with where its data ends;
 *  - `trace-cmd extract -B NAME` (and `record -B`) write an empty
 *    top-level buffer and the data as an instance buffer: when the top
 *    level has no record, the first instance buffer with records is read;
 *  - the ftrace print event's `buf` field has size 0: the text runs to the
 *    end of the record.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <event-parse.h>
#include <trace-cmd.h>

#include "eatrace/input.h"
#include "eatrace/pool.h"
#include "input/dat-chunks.h"
#include "input/dat-kallsyms.h"
#include "input/dat-walk.h"
#include "input/evring.h"
#include "input/reader-dat.h"
#include "input/reader.h"

/* Exported by libtracecmd 3.1 but only declared in trace-cmd-private.h. */
int tracecmd_cpus(struct tracecmd_input *handle);
unsigned long tracecmd_get_in_file_version(struct tracecmd_input *handle);
int tracecmd_get_file_compress_proto(struct tracecmd_input *handle,
				     const char **name, const char **version);
struct tep_record *tracecmd_read_next_data(struct tracecmd_input *handle,
					   int *rec_cpu);
struct tep_record *tracecmd_peek_next_data(struct tracecmd_input *handle,
					   int *rec_cpu);
unsigned long long tracecmd_get_cursor(struct tracecmd_input *handle, int cpu);
struct tep_record *tracecmd_peek_data(struct tracecmd_input *handle, int cpu);
long long tracecmd_get_cpu_file_size(struct tracecmd_input *handle, int cpu);
int tracecmd_set_cursor(struct tracecmd_input *handle, int cpu, size_t offset);
struct tracecmd_input *tracecmd_alloc_fd(int fd, int flags);
int tracecmd_read_headers(struct tracecmd_input *handle, int state);

static const unsigned char dat_magic[10] = "\x17\x08\x44tracing";

/* ------------------------------------------------------------------ */
/* Event table                                                          */
/* ------------------------------------------------------------------ */

#define MAX_FIELDS 7

/*
 * Field names: a leading '$' marks a string field, '?' an optional one
 * (absent in some kernels; read as -1).
 */
struct spec {
	const char *system, *name;
	uint8_t type;		/* enum ea_event_type */
	bool core;		/* unusable format is an error, not a skip */
	const char *fields[MAX_FIELDS];
};

enum { SW_PREV_COMM, SW_PREV_PID, SW_PREV_PRIO, SW_PREV_STATE, SW_NEXT_COMM,
	SW_NEXT_PID, SW_NEXT_PRIO };
enum { WK_COMM, WK_PID, WK_PRIO, WK_TARGET };
enum { MG_COMM, MG_PID, MG_ORIG, MG_DEST };
enum { PW_STATE, PW_CPU };
enum { UT_CPU, UT_UTIL, UT_PATH_OR_PID };
enum { MK_BUF };
enum { SR_ACTION, SR_VAL, SR_START };
enum { HP_CPU, HP_TARGET_OR_STATE, HP_IDX };

#define WAKE_FIELDS { "$comm", "pid", "?prio", "?target_cpu" }

static const struct spec specs[] = {
	{ "sched", "sched_switch", EA_EV_SWITCH, true,
	  { "$prev_comm", "prev_pid", "prev_prio", "prev_state", "$next_comm",
	    "next_pid", "next_prio" } },
	{ "sched", "sched_wakeup", EA_EV_WAKEUP, true, WAKE_FIELDS },
	{ "sched", "sched_waking", EA_EV_WAKING, true, WAKE_FIELDS },
	{ "sched", "sched_wakeup_new", EA_EV_WAKEUP_NEW, true, WAKE_FIELDS },
	{ "sched", "sched_migrate_task", EA_EV_MIGRATE, true,
	  { "$comm", "pid", "orig_cpu", "dest_cpu" } },
	{ "power", "cpu_frequency", EA_EV_FREQ, true, { "state", "cpu_id" } },
	{ "power", "cpu_idle", EA_EV_IDLE, true, { "state", "cpu_id" } },
	{ "sched", "sched_load_cfs_rq", EA_EV_UTIL_CFS, false,
	  { "cpu", "util", "$path" } },
	{ "sched", "sched_load_se", EA_EV_UTIL_SE, false,
	  { "cpu", "util", "pid" } },
	{ "ftrace", "print", EA_EV_MARKER, false, { "$buf" } },
	/* action is a const char * to a tracepoint string: its text comes
	 * from the file's printk formats (decode_suspend()) */
	{ "power", "suspend_resume", EA_EV_SUSPEND, false,
	  { "action", "val", "start" } },
	{ "cpuhp", "cpuhp_enter", EA_EV_HOTPLUG, false,
	  { "cpu", "target", "idx" } },
	{ "cpuhp", "cpuhp_multi_enter", EA_EV_HOTPLUG, false,
	  { "cpu", "target", "idx" } },
	{ "cpuhp", "cpuhp_exit", EA_EV_HOTPLUG, false,
	  { "cpu", "state", "idx" } },
};

#define NSPECS (sizeof(specs) / sizeof(specs[0]))

enum fld_kind {
	FLD_NONE,	/* optional field absent */
	FLD_NUM,	/* integer of 1, 2, 4 or 8 bytes */
	FLD_ARRAY,	/* char[N] */
	FLD_DYN,	/* __data_loc: u32 (len << 16 | offset) */
	FLD_REL,	/* __rel_loc: offset from the end of the field */
	FLD_REST,	/* char buf[] of size 0: to the end of the record */
};

struct fld {
	int off, size;
	uint8_t kind;
	bool sign;
};

#define DESC_IDS 4096	/* event ids with a direct lookup; others scan */

struct desc {
	int id;
	uint8_t type;
	bool fixed;		/* the usual layout (fixed_layout()): plain loads */
	const char *name;
	int min_size;		/* bytes the fixed part of the record needs */
	struct fld f[MAX_FIELDS];
};

/* Where one CPU's data lies (in the decompressed stream for v7). */
struct cpu_span {
	unsigned long long start, size;
	unsigned long long last;	/* offset of the last record read */
};

struct dat {
	struct tracecmd_input *top;	/* the file */
	int top_fd;			/* its descriptor (open_head()), or -1 */
	struct stat top_st;
	struct tracecmd_input *h;	/* the buffer read: top or an instance */
	struct tep_handle *tep;
	char *path;
	char format[96];
	int ncpus;
	struct fld f_type, f_pid;	/* common_type, common_pid */
	int common_min;
	int ndesc;
	struct desc desc[NSPECS];
	bool native;			/* file byte order is the host's */
	bool fixed_common;		/* u16 common_type, 4-byte common_pid */
	uint8_t desc_of[DESC_IDS];	/* event id -> desc index + 1 (0 none) */
	struct ea_prev_state_fmt ps;
	struct tep_record *pending;	/* held back behind its LOST event */
	int pending_cpu;
	uint64_t *nrec;			/* records read per CPU */
	struct cpu_span *span;
	unsigned long long page_size;
	int last_cpu;
	bool ended;
	/* read cursor of each CPU of h before the first peek (open_buffers) */
	unsigned long long *cursor0;
	int ncursor0;
	struct tracecmd_input *cursor_h;	/* the handle they are of */
	/* pages read directly (dat-walk.c) instead of through libtracecmd */
	bool fast;
	int fd;
	struct dw w;
	bool zfast;			/* ... decompressed by dat-chunks.c */
	struct dz z;
	const char *bufname;		/* instance read, NULL the top level */
	int adv;			/* CPU to advance before the next merge */
	bool fast_pending;		/* its record follows the LOST just sent */
	int fast_err_cpu;		/* >= 0: the walker found CPU data corrupt */
	bool fast_fatal;		/* the file is cut short (fast_err) */
	char fast_err[200];
	struct dat *ahead;		/* second reader for dat_first_event() */
	/*
	 * Decoding on a thread of its own (par_main()): it runs fast_next()
	 * and owns everything fast_next() touches; this thread reads the
	 * events from q and keeps its own position for dat_where().
	 */
	bool par_tried, par, par_done;
	struct evring q;
	struct evr_blk *cur;		/* block being read, NULL before */
	uint32_t ci;			/* next event in cur */
	uint32_t blk_n;			/* events per block (EATRACE_DAT_BLOCK) */
	int pcpu;			/* dat_where() of the events read */
	uint64_t pnrec;
};

/* ------------------------------------------------------------------ */
/* Field access                                                         */
/* ------------------------------------------------------------------ */

/* One record, from libtracecmd or from the page walker (dat-walk.c). */
struct raw {
	const unsigned char *data;
	uint32_t size;
	uint64_t ts;
	unsigned long long offset;	/* file offset (for messages) */
};

static inline uint64_t rd_u(const struct dat *r, const struct raw *rec,
			    const struct fld *f)
{
	const char *p = (const char *)rec->data + f->off;

	if (r->native) {	/* as tep_read_number(), without the call */
		uint16_t v2;
		uint32_t v4;
		uint64_t v8;

		switch (f->size) {
		case 1:
			return *(const uint8_t *)p;
		case 2:
			memcpy(&v2, p, 2);
			return v2;
		case 4:
			memcpy(&v4, p, 4);
			return v4;
		case 8:
			memcpy(&v8, p, 8);
			return v8;
		default:
			return 0;
		}
	}
	return tep_read_number(r->tep, p, f->size);
}

static inline int64_t rd_s(const struct dat *r, const struct raw *rec,
			   const struct fld *f)
{
	uint64_t v;
	unsigned sh;

	if (f->kind != FLD_NUM)
		return -1;
	v = rd_u(r, rec, f);
	if (f->sign && f->size < 8) {
		sh = 64 - 8 * f->size;
		return (int64_t)(v << sh) >> sh;
	}
	return (int64_t)v;
}

static inline int32_t rd_i32(const struct dat *r, const struct raw *rec,
			     const struct fld *f)
{
	return (int32_t)rd_s(r, rec, f);
}

/*
 * Copy a string field into dst (n bytes, always NUL-terminated, cut at
 * the first NUL). Returns -1 when a dynamic field points outside the
 * record.
 */
static int rd_str(const struct dat *r, const struct raw *rec,
		  const struct fld *f, char *dst, size_t n)
{
	const char *data = (const char *)rec->data;
	size_t start, len, i;

	switch (f->kind) {
	case FLD_ARRAY:
		start = f->off;
		len = f->size;
		break;
	case FLD_REST:
		start = f->off;
		len = rec->size - f->off;
		break;
	case FLD_DYN:
	case FLD_REL: {
		uint32_t loc = tep_read_number(r->tep, data + f->off, 4);

		start = loc & 0xffff;
		len = loc >> 16;
		if (f->kind == FLD_REL)
			start += f->off + f->size;
		if (start + len > (size_t)rec->size)
			return -1;
		break;
	}
	default:
		memset(dst, 0, n);
		return 0;
	}
	/*
	 * Up to the first NUL, at most len bytes and n - 1; the rest of dst
	 * is zeroed (consumers may copy the whole array).
	 */
	i = len < n - 1 ? len : n - 1;
	i = strnlen(data + start, i);
	memcpy(dst, data + start, i);
	memset(dst + i, 0, n - i);
	return 0;
}

/*
 * The usual layout, checked once per event type at open (fixed_layout()):
 * host byte order, 4-byte integers, char[16] or longer comms. Fields are
 * then plain loads at their offsets, with no switch on size, kind or
 * byte order per field.
 */
static inline uint32_t ld32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static inline int32_t ldi32(const unsigned char *data, const struct fld *f)
{
	return (int32_t)ld32(data + f->off);
}

static inline uint64_t ld_num(const unsigned char *data, const struct fld *f)
{
	uint64_t v8;

	if (f->size == 8) {
		memcpy(&v8, data + f->off, 8);
		return v8;
	}
	return ld32(data + f->off);
}

/*
 * A comm of a char[N >= 16] field: the first 15 bytes up to the first
 * NUL, zero-padded to 16, as rd_str() gives, with two 8-byte loads.
 */
static inline void ld_comm(char *dst, const unsigned char *src)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint64_t ones = 0x0101010101010101ull, highs = ones << 7;
	uint64_t a, b, z;

	memcpy(&a, src, 8);
	memcpy(&b, src + 8, 8);
	b &= ~(0xffull << 56);	/* byte 15: always the NUL */
	z = (a - ones) & ~a & highs;	/* lowest set bit: first NUL byte */
	if (z) {
		a &= (z ^ (z - 1)) >> 8;	/* keep the bytes before it */
		b = 0;
	} else {
		z = (b - ones) & ~b & highs;
		b &= (z ^ (z - 1)) >> 8;
	}
	memcpy(dst, &a, 8);
	memcpy(dst + 8, &b, 8);
#else
	size_t i = strnlen((const char *)src, EA_COMM_LEN - 1);

	memcpy(dst, src, i);
	memset(dst + i, 0, EA_COMM_LEN - i);
#endif
}

static bool fld_is(const struct fld *f, int kind, int size)
{
	return f->kind == kind && (kind == FLD_ARRAY ? f->size >= size :
				   f->size == size);
}

static bool fixed_layout(const struct dat *r, const struct desc *d)
{
	const struct fld *f = d->f;

	if (!r->native || !r->fixed_common)
		return false;
	switch (d->type) {
	case EA_EV_SWITCH:
		return fld_is(&f[SW_PREV_PID], FLD_NUM, 4) &&
		       fld_is(&f[SW_NEXT_PID], FLD_NUM, 4) &&
		       fld_is(&f[SW_PREV_PRIO], FLD_NUM, 4) &&
		       fld_is(&f[SW_NEXT_PRIO], FLD_NUM, 4) &&
		       (fld_is(&f[SW_PREV_STATE], FLD_NUM, 4) ||
			fld_is(&f[SW_PREV_STATE], FLD_NUM, 8)) &&
		       fld_is(&f[SW_PREV_COMM], FLD_ARRAY, EA_COMM_LEN) &&
		       fld_is(&f[SW_NEXT_COMM], FLD_ARRAY, EA_COMM_LEN);
	case EA_EV_WAKEUP:
	case EA_EV_WAKING:
	case EA_EV_WAKEUP_NEW:
		return fld_is(&f[WK_PID], FLD_NUM, 4) &&
		       fld_is(&f[WK_PRIO], FLD_NUM, 4) &&
		       fld_is(&f[WK_TARGET], FLD_NUM, 4) &&
		       fld_is(&f[WK_COMM], FLD_ARRAY, EA_COMM_LEN);
	default:
		return false;
	}
}

/* ------------------------------------------------------------------ */
/* Open                                                                 */
/* ------------------------------------------------------------------ */

static int resolve_field(const struct tep_format_field *tf, bool want_str,
			 struct fld *f)
{
	f->off = tf->offset;
	f->size = tf->size;
	f->sign = tf->flags & TEP_FIELD_IS_SIGNED;
	if (tf->offset < 0 || tf->size < 0 || tf->offset > 0xffff ||
	    tf->size > 0xffff)
		return -1;
	if (tf->flags & TEP_FIELD_IS_DYNAMIC) {
		f->kind = tf->flags & TEP_FIELD_IS_RELATIVE ? FLD_REL : FLD_DYN;
		if (f->size != 4)
			return -1;
		return want_str ? 0 : -1;
	}
	if (want_str) {
		if (tf->size == 0)
			f->kind = FLD_REST;
		else if (tf->flags & TEP_FIELD_IS_ARRAY)
			f->kind = FLD_ARRAY;
		else
			return -1;
		return 0;
	}
	if (tf->flags & TEP_FIELD_IS_ARRAY)
		return -1;
	if (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8)
		return -1;
	f->kind = FLD_NUM;
	return 0;
}

static int resolve_common(struct dat *r, struct tep_event *ev,
			  struct ea_err *err)
{
	struct tep_format_field *t = tep_find_common_field(ev, "common_type");
	struct tep_format_field *p = tep_find_common_field(ev, "common_pid");

	if (!t || !p || resolve_field(t, false, &r->f_type) ||
	    resolve_field(p, false, &r->f_pid))
		return ea_err_set(err, "%s: event %s has no usable common_type/common_pid fields",
				  r->path, ev->name);
	r->common_min = t->offset + t->size;
	if (p->offset + p->size > r->common_min)
		r->common_min = p->offset + p->size;
	return 0;
}

static int resolve_events(struct dat *r, struct ea_input_info *info,
			  struct ea_err *err)
{
	bool have_common = false;
	size_t i;
	int k, end;

	for (i = 0; i < NSPECS; i++) {
		const struct spec *s = &specs[i];
		struct tep_event *ev;
		struct desc *d;
		bool ok = true;

		ev = tep_find_event_by_name(r->tep, s->system, s->name);
		if (!ev)
			continue;
		d = &r->desc[r->ndesc];
		memset(d, 0, sizeof(*d));
		d->id = ev->id;
		d->type = s->type;
		d->name = s->name;
		for (k = 0; k < MAX_FIELDS && s->fields[k]; k++) {
			const char *name = s->fields[k];
			bool want_str = false, optional = false;
			struct tep_format_field *tf;

			for (;; name++) {
				if (*name == '$')
					want_str = true;
				else if (*name == '?')
					optional = true;
				else
					break;
			}
			tf = tep_find_field(ev, name);
			if (!tf && optional)
				continue;	/* FLD_NONE */
			if (!tf || resolve_field(tf, want_str, &d->f[k])) {
				if (s->core)
					return ea_err_set(err, "%s: %s format has no usable field %s",
							  r->path, s->name, name);
				ok = false;
				break;
			}
			/* a size-0 text field only needs its start */
			end = d->f[k].off +
			      (d->f[k].kind == FLD_REST ? 0 : d->f[k].size);
			if (end > d->min_size)
				d->min_size = end;
		}
		if (!ok)
			continue;
		if (!have_common) {
			if (resolve_common(r, ev, err))
				return -1;
			have_common = true;
		}
		if (d->min_size < r->common_min)
			d->min_size = r->common_min;
		if (s->type == EA_EV_SWITCH)
			ea_dat_prev_state_from_event(ev, &r->ps);
		info->may_have[s->type] = true;
		r->ndesc++;
	}
	/* the first desc of an id wins, as find_desc()'s scan had it */
	for (k = r->ndesc - 1; k >= 0; k--)
		if (r->desc[k].id >= 0 && r->desc[k].id < DESC_IDS)
			r->desc_of[r->desc[k].id] = (uint8_t)(k + 1);
	r->native = tep_is_file_bigendian(r->tep) ==
		    tep_is_local_bigendian(r->tep);
	r->fixed_common = fld_is(&r->f_type, FLD_NUM, 2) &&
			  fld_is(&r->f_pid, FLD_NUM, 4);
	for (k = 0; k < r->ndesc; k++)
		r->desc[k].fixed = fixed_layout(r, &r->desc[k]);
	return 0;
}

/* A readable cause for a file libtracecmd refused to open. */
static int open_failure(const char *path, int saved_errno, struct ea_err *err)
{
	unsigned char head[32];
	struct stat st;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ea_err_set(err, "%s: %s", path, strerror(errno));
	n = read(fd, head, sizeof(head));
	if (fstat(fd, &st))
		st.st_size = 0;
	close(fd);
	if (n < (ssize_t)sizeof(dat_magic) ||
	    memcmp(head, dat_magic, sizeof(dat_magic)))
		return ea_err_set(err, "%s: not a trace.dat file", path);
	if (!memchr(head + sizeof(dat_magic), '\0', n - sizeof(dat_magic)))
		return ea_err_set(err, "%s: corrupt trace.dat header (no version)",
				  path);
	if (strcmp((char *)head + sizeof(dat_magic), "6") &&
	    strcmp((char *)head + sizeof(dat_magic), "7")) {
		const char *v = (char *)head + sizeof(dat_magic);

		/* the version is shown only when printable: one line */
		for (int i = 0; i < 8 && v[i]; i++)
			if (v[i] < 0x20 || v[i] > 0x7e)
				v = "(unprintable)";
		return ea_err_set(err, "%s: trace.dat version %.16s not supported (6 and 7 are)",
				  path, v);
	}
	if (saved_errno == ENOMEM)
		return ea_err_set(err, "%s: out of memory", path);
	return ea_err_set(err, "%s: truncated or corrupt trace.dat headers (%lld bytes)",
			  path, (long long)st.st_size);
}

static void dat_free(struct dat *r)
{
	if (!r)
		return;
	dat_free(r->ahead);
	if (r->par)
		evr_stop(&r->q);	/* before the walker it reads goes */
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
 * libtracecmd prints to stdout and stderr whatever its log level: e.g.
 * init_cpu_data() printf()s "File possibly truncated. Need at least N, but
 * file size is M." on stdout, where it would land in the middle of a dump.
 * While it opens a file, both go to /dev/null. Records are read without
 * this (it would cost syscalls per record). Threads opening files at once
 * (a Dask worker's) share one redirection: the first in saves stdout and
 * stderr, the last out puts them back (each thread restoring its own
 * saved copy left the process's stdout on /dev/null, or let a message
 * through, when two opens overlapped).
 */
static pthread_mutex_t quiet_lock = PTHREAD_MUTEX_INITIALIZER;
static int quiet_users, quiet_out = -1, quiet_err = -1;

static void quiet_begin(void)
{
	int null;

	pthread_mutex_lock(&quiet_lock);
	if (quiet_users++ == 0) {
		fflush(stdout);
		fflush(stderr);
		null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (null >= 0) {
			quiet_out = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
			quiet_err = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
			if (quiet_out >= 0)
				dup2(null, STDOUT_FILENO);
			if (quiet_err >= 0)
				dup2(null, STDERR_FILENO);
			close(null);
		}
	}
	pthread_mutex_unlock(&quiet_lock);
}

static void quiet_end(void)
{
	pthread_mutex_lock(&quiet_lock);
	if (--quiet_users == 0) {
		fflush(stdout);
		fflush(stderr);
		if (quiet_out >= 0) {
			dup2(quiet_out, STDOUT_FILENO);
			close(quiet_out);
		}
		if (quiet_err >= 0) {
			dup2(quiet_err, STDERR_FILENO);
			close(quiet_err);
		}
		quiet_out = quiet_err = -1;
	}
	pthread_mutex_unlock(&quiet_lock);
}

#define OPEN_FLAGS (TRACECMD_FL_LOAD_NO_PLUGINS | TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS)

enum open_result {
	OPEN_OK = 10,		/* also the exit codes of the rehearsal child */
	OPEN_HEAD,		/* tracecmd_open_head() failed */
	OPEN_DATA,		/* tracecmd_init_data() failed */
	OPEN_BUFFER,		/* an instance buffer could not be opened */
};

/* The rehearsal child reports each step it starts on this pipe. */
static int stage_fd = -1;
/* The step open_buffers() is at, for the in-process guard. */
static volatile sig_atomic_t stage_now = OPEN_HEAD;

static void stage(enum open_result step)
{
	unsigned char c = step;

	stage_now = step;
	if (stage_fd >= 0 && write(stage_fd, &c, 1) != 1)
		stage_fd = -1;
}

/*
 * Open path's headers and data and pick the buffer to read:
 * `trace-cmd extract -B` and `record -B` leave the top-level buffer empty
 * and store the data as an instance, so when the top level has no record
 * the first instance buffer with records is read.
 */
/*
 * Where each CPU's reading starts, before anything is read: the page of
 * this cursor is the CPU's first page (when it holds a record) -- after a
 * peek, the cursor has moved past empty pages.
 */
static void save_cursors(struct dat *r, struct tracecmd_input *h)
{
	int cpu, n = tracecmd_cpus(h);

	free(r->cursor0);
	r->cursor0 = NULL;
	r->ncursor0 = 0;
	if (n <= 0 || n > EA_MAX_CPUS)
		return;
	r->cursor0 = calloc(n, sizeof(*r->cursor0));
	if (!r->cursor0)
		return;
	for (cpu = 0; cpu < n; cpu++)
		r->cursor0[cpu] = tracecmd_get_cursor(h, cpu);
	r->ncursor0 = n;
	r->cursor_h = h;
}

/*
 * tracecmd_open_head() keeping the descriptor: libtracecmd 3.1 leaks it
 * when the magic or version is bad, and a handle abandoned after a failed
 * open keeps it open; ea_dat_open() closes it then (a batch of corrupt
 * files, or a Python process, ran out of descriptors).
 */
static struct tracecmd_input *open_head(const char *path, struct dat *r)
{
	struct tracecmd_input *h;

	r->top_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->top_fd < 0 || fstat(r->top_fd, &r->top_st))
		return NULL;
	h = tracecmd_alloc_fd(r->top_fd, OPEN_FLAGS);
	if (h && tracecmd_read_headers(h, 0) < 0) {
		tracecmd_close(h);	/* closes top_fd */
		r->top_fd = -1;
		return NULL;
	}
	return h;
}

static enum open_result open_buffers(const char *path, struct dat *r,
				     const char **bufname)
{
	int i, n, cpu;

	*bufname = NULL;
	stage(OPEN_HEAD);
	r->top = open_head(path, r);
	if (!r->top)
		return OPEN_HEAD;
	stage(OPEN_DATA);
	if (tracecmd_init_data(r->top) < 0)
		return OPEN_DATA;
	r->h = r->top;
	save_cursors(r, r->top);
	if (tracecmd_peek_next_data(r->top, &cpu))
		return OPEN_OK;
	n = tracecmd_buffer_instances(r->top);
	for (i = 0; i < n; i++) {
		struct tracecmd_input *ih;

		stage(OPEN_BUFFER);
		ih = tracecmd_buffer_instance_handle(r->top, i);
		if (!ih)
			return OPEN_BUFFER;
		save_cursors(r, ih);
		if (tracecmd_peek_next_data(ih, &cpu)) {
			*bufname = tracecmd_buffer_instance_name(r->top, i);
			r->h = ih;
			return OPEN_OK;
		}
		tracecmd_close(ih);
	}
	return OPEN_OK;
}

/*
 * libtracecmd 3.1.6 and libtraceevent 1.7 crash on some corrupt files, and
 * some of their error paths crash too:
 *  - tracecmd_close() after a failed tracecmd_init_data() (SIGSEGV in
 *    tracecmd_close): tracecmd_open() does exactly that on any v6 file
 *    whose CPU data is cut short. Smallest input: trappy/
 *    tests__trace_idle.dat (or any v6 file) minus its last byte.
 *  - tracecmd_buffer_instance_handle() on a cut or corrupt instance
 *    buffer calls tracecmd_close() on a shallow copy of the parent handle
 *    and crashes. Smallest input: traces/vm/vm-v6.dat minus its last byte.
 *  - corrupt event formats or printk formats in the headers: NULL
 *    dereferences and heap overreads inside tep_parse_event() and
 *    tep_parse_printk_formats(), and a strdup() overread in
 *    tracecmd_open_head(). Found by overwriting random header bytes of
 *    traces/vm/vm-v6.dat (one to sixteen bytes are enough).
 * So every open is first rehearsed in a child process, and repeated here
 * only when the child got through; otherwise the child's outcome becomes
 * a one-line error without libtracecmd being called in this process. The
 * cost is parsing the headers twice. Reading records was not seen to
 * crash (random page corruption gives garbage records or an early end).
 */
/* A rehearsal child taking longer than this is taken to loop (opening
 * reads headers and first pages only: well under a second). */
#define REHEARSE_S 10
#define REHEARSE_S_STR "10"

/*
 * The child's limit is CPU time (RLIMIT_CPU: SIGXCPU), not wall-clock
 * time: a loop burns CPU, while a loaded machine only makes the child
 * wait for it. An alarm 10 s was seen to fire under parallel ASan tests
 * on a 2-CPU machine (test-first-event: a good trace.dat rejected as
 * "looped"). The wall-clock alarm stays, far longer, for a child that
 * makes no progress at all, reported as such (REHEARSE_STALLED).
 * EATRACE_REHEARSE=CPU_S:WALL_S:SLEEP_MS (tests only) sets both limits
 * and makes the child sleep before it opens (a stand-in for a loaded
 * machine).
 */
#define REHEARSE_WALL_S 300
#define REHEARSE_STALLED "stalled"
/* What the child's or the guard's end adds to the error message. */
#define REHEARSE_LOOPED \
	" (libtracecmd looped on it: stopped after " REHEARSE_S_STR " s of CPU time)"
#define REHEARSE_CRASHED " (libtracecmd crashed on it)"
/* Set around dat_first_event()'s second open of a file this process has
 * just rehearsed and opened: it is not rehearsed again. */
static _Thread_local bool open_rehearsed;

/* AddressSanitizer builds keep the child (see guarded_open()). */
#if defined(__SANITIZE_ADDRESS__)
#define GUARD_CHILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GUARD_CHILD 1
#endif
#endif

#ifdef GUARD_CHILD
/* The child's limits: CPU s, wall-clock s, and a sleep (ms) first. */
static void rehearse_limits(unsigned long *cpu_s, unsigned long *wall_s,
			    unsigned long *sleep_ms)
{
	const char *env = getenv("EATRACE_REHEARSE");

	*cpu_s = REHEARSE_S;
	*wall_s = REHEARSE_WALL_S;
	*sleep_ms = 0;
	if (env)
		sscanf(env, "%lu:%lu:%lu", cpu_s, wall_s, sleep_ms);
}

static enum open_result rehearse_open(const char *path, const char **crashed)
{
	enum open_result last = OPEN_HEAD;
	struct dat scratch;
	const char *name;
	unsigned char c;
	int status, fd[2];
	pid_t pid;

	*crashed = NULL;
	if (pipe2(fd, O_CLOEXEC))
		return OPEN_OK;		/* cannot rehearse: just try */
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return OPEN_OK;
	}
	if (pid == 0) {
		/* die plainly: no crash handler of the parent's runs here */
		static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };

		unsigned long cpu_s, wall_s, sleep_ms;
		struct rlimit rl;
		unsigned int k;

		for (k = 0; k < sizeof(sigs) / sizeof(sigs[0]); k++)
			signal(sigs[k], SIG_DFL);
		signal(SIGXCPU, SIG_DFL);
		close(fd[0]);
		rehearse_limits(&cpu_s, &wall_s, &sleep_ms);
		/* kbuffer can loop forever on a corrupt page; within an
		 * inherited hard limit (ulimit -t), else the alarm is the limit */
		if (getrlimit(RLIMIT_CPU, &rl) == 0 && rl.rlim_max != RLIM_INFINITY &&
		    rl.rlim_max < cpu_s + 1) {
			rl.rlim_cur = rl.rlim_max > 0 ? rl.rlim_max - 1 : 0;
		} else {
			rl.rlim_cur = cpu_s;
			rl.rlim_max = cpu_s + 1;
		}
		if (setrlimit(RLIMIT_CPU, &rl))
			wall_s = cpu_s;
		rl.rlim_cur = rl.rlim_max = 0;	/* no core dump of the child */
		setrlimit(RLIMIT_CORE, &rl);
		alarm((unsigned int)wall_s);
		if (sleep_ms) {
			struct timespec ts = { (time_t)(sleep_ms / 1000),
					       (long)(sleep_ms % 1000) * 1000000 };

			while (nanosleep(&ts, &ts) && errno == EINTR)
				;
		}
		stage_fd = fd[1];
		memset(&scratch, 0, sizeof(scratch));
		_exit(open_buffers(path, &scratch, &name));	/* no free: exits */
	}
	close(fd[1]);
	while (read(fd[0], &c, 1) == 1 || errno == EINTR)
		last = c;
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return OPEN_OK;
	if (WIFEXITED(status) && WEXITSTATUS(status) >= OPEN_OK &&
	    WEXITSTATUS(status) <= OPEN_BUFFER)
		return WEXITSTATUS(status);
	*crashed = !WIFSIGNALED(status) ? REHEARSE_CRASHED :
		   WTERMSIG(status) == SIGXCPU ?
		   REHEARSE_LOOPED :
		   WTERMSIG(status) == SIGALRM ? REHEARSE_STALLED :
		   REHEARSE_CRASHED;
	return last;
}
#endif

/*
 * The same guard without a child (issue 19: the rehearsal parsed every
 * file's headers and formats twice): open_buffers() runs here under
 * handlers of the signals the known crashes raise and under the same
 * alarm, on an alternate stack (a runaway recursion is a crash too). A
 * crash or the alarm jumps back out, the handles are abandoned (never
 * closed, as after a failed open) and the file rejected with the same
 * message as the child's. Builds with AddressSanitizer keep the child:
 * ASan ends the process on the heap overreads the child absorbs (and
 * libFuzzer has its own handlers).
 */
#ifndef GUARD_CHILD
/*
 * Signal handlers are the process's: one thread at a time opens under
 * the guard (guard_lock; a Dask worker or any host may open traces from
 * several threads), both timers signal that thread only (SIGEV_THREAD_ID)
 * and a signal another thread takes meanwhile is not ours: it gets its
 * default action, as it would have without the guard.
 */
static pthread_mutex_t guard_lock = PTHREAD_MUTEX_INITIALIZER;
static sigjmp_buf guard_jmp;
static volatile sig_atomic_t guard_sig;
static volatile pid_t guard_tid;

static void guard_handler(int sig)
{
	if (gettid() != guard_tid) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	guard_sig = sig;
	siglongjmp(guard_jmp, 1);
}

/* A timer on clock that sends signo to this thread; false if none. */
static bool thread_timer(clockid_t clock, int signo, timer_t *t)
{
	struct sigevent sev;

	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = signo;
	sev._sigev_un._tid = gettid();
	return timer_create(clock, &sev, t) == 0;
}

static enum open_result guarded_open(const char *path, struct dat *r,
				     const char **bufname, const char **crashed)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT,
				    SIGALRM, SIGVTALRM };
#define NSIGS (sizeof(sigs) / sizeof(sigs[0]))
	static char altstack[1 << 16];
	struct sigaction sa, old[NSIGS];
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	stack_t old_ss;
	volatile enum open_result res;
	timer_t cpu_timer, wall_timer;
	volatile bool have_timer, have_wall;
	unsigned int k;
	bool have_ss;

	*crashed = NULL;
	pthread_mutex_lock(&guard_lock);
	guard_tid = gettid();
	have_ss = sigaltstack(&ss, &old_ss) == 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = guard_handler;
	sa.sa_flags = SA_ONSTACK | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	for (k = 0; k < NSIGS; k++)
		sigaction(sigs[k], &sa, &old[k]);
	stage_now = OPEN_HEAD;
	/*
	 * The limit is this thread's CPU time (SIGVTALRM), as the child's
	 * (see rehearse_open()): a loaded machine does not turn a slow open
	 * into a loop. The wall-clock timer (SIGALRM) is the backstop; it is
	 * the limit itself, of REHEARSE_S, if the CPU-time timer is missing.
	 */
	have_timer = thread_timer(CLOCK_THREAD_CPUTIME_ID, SIGVTALRM, &cpu_timer);
	have_wall = thread_timer(CLOCK_MONOTONIC, SIGALRM, &wall_timer);
	if (sigsetjmp(guard_jmp, 1)) {
		*crashed = guard_sig == SIGVTALRM || (guard_sig == SIGALRM && !have_timer) ?
			   REHEARSE_LOOPED :
			   guard_sig == SIGALRM ? REHEARSE_STALLED :
			   REHEARSE_CRASHED;
		res = (enum open_result)stage_now;
		/* the heap may be corrupt, a lock held: a batch worker
		 * reports this file and is replaced */
		ea_pool_taint();
	} else {
		/* kbuffer can loop forever on a corrupt page */
		struct itimerspec its = { .it_value = { REHEARSE_S, 0 } };
		struct itimerspec wall = {
			.it_value = { have_timer ? REHEARSE_WALL_S : REHEARSE_S, 0 }
		};

		if (have_timer)
			timer_settime(cpu_timer, 0, &its, NULL);
		if (have_wall)
			timer_settime(wall_timer, 0, &wall, NULL);
		res = open_buffers(path, r, bufname);
	}
	if (have_timer)
		timer_delete(cpu_timer);
	if (have_wall)
		timer_delete(wall_timer);
	for (k = 0; k < NSIGS; k++)
		sigaction(sigs[k], &old[k], NULL);
	if (have_ss)
		sigaltstack(&old_ss, NULL);
	guard_tid = 0;
	pthread_mutex_unlock(&guard_lock);
	return res;
#undef NSIGS
}
#endif

/*
 * Each CPU's data: its size from the header, its start from the read
 * cursor before the first record (page aligned: trace-cmd writes whole
 * ring-buffer pages).
 */
static void init_spans(struct dat *r)
{
	int cpu;

	r->page_size = tep_get_page_size(r->tep);
	if (!r->page_size || (r->page_size & (r->page_size - 1)))
		return;		/* no check: sizes stay 0 */
	for (cpu = 0; cpu < r->ncpus; cpu++) {
		long long size = tracecmd_get_cpu_file_size(r->h, cpu);

		if (size <= 0)
			continue;
		r->span[cpu].size = size;
		r->span[cpu].start = (r->cursor_h == r->h && cpu < r->ncursor0 ?
				      r->cursor0[cpu] :
				      tracecmd_get_cursor(r->h, cpu)) &
				     ~(r->page_size - 1);
	}
}

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

/* Switch r to the page walker; NULL, or why libtracecmd stays in charge. */
static const char *fast_setup(struct dat *r, bool compressed)
{
	unsigned long long ps, busy, *start = NULL, *size = NULL;
	const char *why = NULL;
	int cpu, ls, fls = 0, fd = -1;
	struct stat st;

	if (!r->native)
		return "byte order not the host's";
	if (tep_is_local_bigendian(r->tep))
		return "big-endian host (dat-walk.c decodes the event header little-endian)";
	if (!r->cursor0 || r->cursor_h != r->h || r->ncursor0 != r->ncpus)
		return "no start cursors";
	ls = tep_get_long_size(r->tep);
	if ((ls != 4 && ls != 8) || tep_get_header_page_size(r->tep) != ls)
		return "unexpected long size";
	if (tep_get_header_timestamp_size(r->tep) != 8 || tep_is_old_format(r->tep))
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
					 "corrupt trace.dat: first page's items run past it (cursor at %llu)",
					 (unsigned long long)r->cursor0[cpu]);
				why = r->fast_err;
			} else {
				why = "read cursor past the CPU's first page";
			}
			goto out;
		}
		size[cpu] = (unsigned long long)n;
		if (compressed && size[cpu] % ps) {
			/* the sum of its chunks' sizes: one is not whole pages */
			r->fast_err_cpu = cpu;
			snprintf(r->fast_err, sizeof(r->fast_err),
				 "corrupt trace.dat: compressed chunks hold %llu bytes, not whole pages",
				 size[cpu]);
			why = r->fast_err;
			goto out;
		}
		/* compressed: offsets in the decompressed data (dat-chunks.h) */
		if (size[cpu] % ps || (!compressed &&
		    (start[cpu] > (unsigned long long)st.st_size ||
		     size[cpu] > (unsigned long long)st.st_size - start[cpu]))) {
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
				 r->ncpus, start, r->fast_err, sizeof(r->fast_err));

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
			snprintf(r->fast_err, sizeof(r->fast_err), "%s", r->w.err);
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

static int dat_probe(const unsigned char *head, size_t n)
{
	return n >= sizeof(dat_magic) && !memcmp(head, dat_magic, sizeof(dat_magic));
}

static int dat_open(void **priv, const char *path, struct ea_input_info *info,
		    struct ea_err *err)
{
	const char *cname = NULL, *cver = NULL, *bufname = NULL, *mode;
	enum open_result res;
	const char *crashed;
	unsigned long version;
	struct dat *r;
	int t, len, e;

	*priv = NULL;
	dz_register_zlib();	/* Debian's libtracecmd reads zstd only */
	tep_set_loglevel(TEP_LOG_NONE);
	tracecmd_set_loglevel(TEP_LOG_NONE);
	r = calloc(1, sizeof(*r));
	if (!r || !(r->path = strdup(path))) {
		free(r);
		return ea_err_set(err, "%s: out of memory", path);
	}
	r->last_cpu = -1;
	r->fast_err_cpu = -1;
	r->top_fd = -1;
	quiet_begin();
	ea_dat_kallsyms_skip(true);	/* eatrace resolves no address nor pid */
#ifdef GUARD_CHILD
	crashed = NULL;
	res = open_rehearsed ? OPEN_OK : rehearse_open(path, &crashed);
	errno = 0;
	if (res == OPEN_OK)
		res = open_buffers(path, r, &bufname);
	e = errno;
#else
	/*
	 * errno as the child's path had it: a failed open's errno stayed in
	 * the child (a corrupt header's huge sizes give ENOMEM: not "out of
	 * memory" but a corrupt header, open_failure() says)
	 */
	res = guarded_open(path, r, &bufname, &crashed);
	e = 0;
#endif
	ea_dat_kallsyms_skip(false);
	quiet_end();
	if (res != OPEN_OK) {
		const char *why = crashed ? crashed : "";

		/* Failed handles are not closed (see rehearse_open()), but
		 * their descriptor is: still the file's, it is ours */
		struct stat st;

		if (r->top_fd >= 0 && !fstat(r->top_fd, &st) &&
		    st.st_dev == r->top_st.st_dev && st.st_ino == r->top_st.st_ino)
			close(r->top_fd);
		r->top = r->h = NULL;
		dat_free(r);
		if (crashed && !strcmp(crashed, REHEARSE_STALLED)) {
			unsigned long wall_s = REHEARSE_WALL_S;
#ifdef GUARD_CHILD
			unsigned long cpu_s, sleep_ms;

			rehearse_limits(&cpu_s, &wall_s, &sleep_ms);
#endif
			return ea_err_set(err, "%s: opening the trace.dat did not finish in %lu s, with little CPU time used (a stalled read, or a machine far too loaded): not read",
					  path, wall_s);
		}
		if (res == OPEN_HEAD && !crashed)
			return open_failure(path, e, err);
		return ea_err_set(err, "%s: truncated or corrupt trace.dat: %s unreadable%s",
				  path, res == OPEN_HEAD ? "headers" :
				  res == OPEN_DATA ? "CPU data" :
				  "instance buffer", why);
	}
	r->bufname = bufname;
	r->tep = tracecmd_get_tep(r->h);
	r->ncpus = tracecmd_cpus(r->h);
	if (!r->tep || r->ncpus <= 0 || r->ncpus > EA_MAX_CPUS) {
		int ncpus = r->ncpus;

		dat_free(r);
		if (ncpus <= 0)
			return ea_err_set(err, "%s: trace.dat has no CPU data", path);
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
	info->may_have[EA_EV_LOST] = true;	/* overruns can always happen */
	if (resolve_events(r, info, err)) {
		dat_free(r);
		return -1;
	}

	version = tracecmd_get_in_file_version(r->top);
	if (version >= 7 && ea_dat_check_sections(path, err)) {
		dat_free(r);
		return -1;
	}
	len = snprintf(r->format, sizeof(r->format), "trace.dat v%lu", version);
	if (tracecmd_get_file_compress_proto(r->top, &cname, &cver) == 0 && cname)
		len += snprintf(r->format + len, sizeof(r->format) - len,
				" (compressed, %s)", cname);
	else
		cname = NULL;
	mode = getenv("EATRACE_DAT_READER");
	if (mode && !*mode)
		mode = NULL;	/* set but empty: the default */
	if (mode && strcmp(mode, "libtracecmd") && strcmp(mode, "pages")) {
		dat_free(r);
		return ea_err_set(err, "%s: EATRACE_DAT_READER=%s: expected libtracecmd or pages",
				  path, mode);
	}
	if (!mode || strcmp(mode, "libtracecmd")) {
		const char *why = fast_setup(r, cname != NULL);

		if (why && r->fast_err_cpu >= 0) {
			int c = r->fast_err_cpu;

			ea_err_set(err, "%s:cpu %d record 1: %s", path, c, r->fast_err);
			dat_free(r);
			return -1;
		}
		if (why && r->fast_fatal) {
			ea_err_set(err, "%s: truncated trace.dat: %s", path, r->fast_err);
			dat_free(r);
			return -1;
		}

		if (why && mode && !strcmp(mode, "pages")) {
			dat_free(r);
			return ea_err_set(err, "%s: EATRACE_DAT_READER=pages: cannot read the pages directly: %s",
					  path, why);
		}
	}
	if (bufname && len < (int)sizeof(r->format))
		snprintf(r->format + len, sizeof(r->format) - len,
			 ", buffer %s", bufname);
	info->format = r->format;
	info->ncpus = r->ncpus;
	*priv = r;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Records                                                              */
/* ------------------------------------------------------------------ */

static const struct desc *find_desc(const struct dat *r, int id)
{
	int i;

	if (id >= 0 && id < DESC_IDS)
		return r->desc_of[id] ? &r->desc[r->desc_of[id] - 1] : NULL;
	for (i = 0; i < r->ndesc; i++)
		if (r->desc[i].id == id)
			return &r->desc[i];
	return NULL;
}

static int bad_record(const struct dat *r, struct ea_err *err,
		      const char *what, const struct raw *rec)
{
	return ea_err_set(err, "%s:cpu %d record %" PRIu64 ": %s (%" PRIu32 " bytes at offset %llu)",
			  r->path, r->last_cpu,
			  r->last_cpu >= 0 ? r->nrec[r->last_cpu] : 0, what,
			  rec->size, rec->offset);
}

static uint32_t clamp_u32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/*
 * suspend_resume: its action is a pointer to a tracepoint string, which
 * only libtraceevent's printing resolves (from the file's printk formats):
 * the event's text, "machine_suspend[3] begin", gives it. 1 kept, 0 not.
 */
static int decode_suspend(struct dat *r, const struct raw *rec, int cpu,
			  const struct fld *f, struct ea_event *ev)
{
	struct tep_record tr;
	struct trace_seq s;
	const char *b;
	bool keep;

	memset(&tr, 0, sizeof(tr));
	tr.ts = rec->ts;
	tr.cpu = cpu;
	tr.size = (int)rec->size;
	tr.data = (void *)rec->data;
	trace_seq_init(&s);
	tep_print_event(r->tep, &s, &tr, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	b = s.buffer ? strchr(s.buffer, '[') : NULL;
	keep = b && ea_suspend_action_keep(s.buffer, (size_t)(b - s.buffer));
	trace_seq_destroy(&s);
	if (!keep)
		return 0;
	ev->suspend.val = rd_i32(r, rec, &f[SR_VAL]);
	ev->suspend.begin = rd_u(r, rec, &f[SR_START]) != 0;
	return 1;
}

/*
 * 1: ev filled, 0: record not used, -1: corrupt record.
 * ev is not cleared first: the header and every field of the union member
 * of its type are set (strings NUL-padded to their array's end); the rest
 * of the union is left as it was.
 */
static int decode(struct dat *r, const struct raw *rec, int cpu,
		  struct ea_event *ev, struct ea_err *err)
{
	const struct desc *d;
	const struct fld *f;
	char tmp[4];

	if (!r->ndesc)
		return 0;
	if (rec->size < (uint32_t)r->common_min)
		return bad_record(r, err, "record shorter than the common fields", rec);
	if (r->fixed_common) {
		uint16_t id;

		memcpy(&id, rec->data + r->f_type.off, 2);
		d = find_desc(r, id);
	} else {
		d = find_desc(r, (int)rd_u(r, rec, &r->f_type));
	}
	if (!d)
		return 0;
	if (rec->size < (uint32_t)d->min_size)
		return bad_record(r, err, "record shorter than its event format", rec);
	f = d->f;
	if (d->fixed) {
		const unsigned char *p = rec->data;

		ev->ts = rec->ts;
		ev->cpu = cpu;
		ev->cur_pid = ldi32(p, &r->f_pid);
		ev->type = d->type;
		ev->flags = 0;
		if (d->type == EA_EV_SWITCH) {
			ev->sw.prev_pid = ldi32(p, &f[SW_PREV_PID]);
			ev->sw.next_pid = ldi32(p, &f[SW_NEXT_PID]);
			ev->sw.prev_prio = ldi32(p, &f[SW_PREV_PRIO]);
			ev->sw.next_prio = ldi32(p, &f[SW_NEXT_PRIO]);
			ev->sw.prev_state = ea_dat_prev_state_decode(&r->ps,
					ld_num(p, &f[SW_PREV_STATE]));
			ld_comm(ev->sw.prev_comm, p + f[SW_PREV_COMM].off);
			ld_comm(ev->sw.next_comm, p + f[SW_NEXT_COMM].off);
		} else {
			ev->wake.pid = ldi32(p, &f[WK_PID]);
			ev->wake.prio = ldi32(p, &f[WK_PRIO]);
			ev->wake.target_cpu = ldi32(p, &f[WK_TARGET]);
			ld_comm(ev->wake.comm, p + f[WK_COMM].off);
		}
		return 1;
	}
	ev->ts = rec->ts;
	ev->cpu = cpu;
	ev->cur_pid = rd_i32(r, rec, &r->f_pid);
	ev->type = d->type;
	ev->flags = 0;
	switch (d->type) {
	case EA_EV_SWITCH:
		ev->sw.prev_pid = rd_i32(r, rec, &f[SW_PREV_PID]);
		ev->sw.next_pid = rd_i32(r, rec, &f[SW_NEXT_PID]);
		ev->sw.prev_prio = rd_i32(r, rec, &f[SW_PREV_PRIO]);
		ev->sw.next_prio = rd_i32(r, rec, &f[SW_NEXT_PRIO]);
		ev->sw.prev_state = ea_dat_prev_state_decode(&r->ps,
				rd_u(r, rec, &f[SW_PREV_STATE]));
		if (rd_str(r, rec, &f[SW_PREV_COMM], ev->sw.prev_comm, EA_COMM_LEN) ||
		    rd_str(r, rec, &f[SW_NEXT_COMM], ev->sw.next_comm, EA_COMM_LEN))
			goto bad_str;
		break;
	case EA_EV_WAKEUP:
	case EA_EV_WAKING:
	case EA_EV_WAKEUP_NEW:
		ev->wake.pid = rd_i32(r, rec, &f[WK_PID]);
		ev->wake.prio = rd_i32(r, rec, &f[WK_PRIO]);
		ev->wake.target_cpu = rd_i32(r, rec, &f[WK_TARGET]);
		if (rd_str(r, rec, &f[WK_COMM], ev->wake.comm, EA_COMM_LEN))
			goto bad_str;
		break;
	case EA_EV_MIGRATE:
		ev->migrate.pid = rd_i32(r, rec, &f[MG_PID]);
		ev->migrate.orig_cpu = rd_i32(r, rec, &f[MG_ORIG]);
		ev->migrate.dest_cpu = rd_i32(r, rec, &f[MG_DEST]);
		if (rd_str(r, rec, &f[MG_COMM], ev->migrate.comm, EA_COMM_LEN))
			goto bad_str;
		break;
	case EA_EV_FREQ:
		ev->freq.freq_khz = (uint32_t)rd_u(r, rec, &f[PW_STATE]);
		ev->freq.cpu = rd_i32(r, rec, &f[PW_CPU]);
		break;
	case EA_EV_IDLE:
		/* u32 4294967295 (PWR_EVENT_EXIT) becomes EA_IDLE_EXIT */
		ev->idle.state = (int32_t)(uint32_t)rd_u(r, rec, &f[PW_STATE]);
		ev->idle.cpu = rd_i32(r, rec, &f[PW_CPU]);
		break;
	case EA_EV_UTIL_CFS:
		if (rd_str(r, rec, &f[UT_PATH_OR_PID], tmp, sizeof(tmp)))
			goto bad_str;
		if (strcmp(tmp, "/"))
			return 0;	/* a task group's rq, not the CPU's */
		ev->util.cpu = rd_i32(r, rec, &f[UT_CPU]);
		ev->util.pid = -1;
		ev->util.util = clamp_u32(rd_u(r, rec, &f[UT_UTIL]));
		break;
	case EA_EV_UTIL_SE:
		ev->util.pid = rd_i32(r, rec, &f[UT_PATH_OR_PID]);
		if (ev->util.pid <= 0)
			return 0;	/* group entity */
		ev->util.cpu = rd_i32(r, rec, &f[UT_CPU]);
		ev->util.util = clamp_u32(rd_u(r, rec, &f[UT_UTIL]));
		break;
	case EA_EV_SUSPEND:
		return decode_suspend(r, rec, cpu, f, ev);
	case EA_EV_HOTPLUG:
		ev->hotplug.cpu = rd_i32(r, rec, &f[HP_CPU]);
		ev->hotplug.enter = strcmp(d->name, "cpuhp_exit") != 0;
		ev->hotplug.target = ev->hotplug.enter ?
				     rd_i32(r, rec, &f[HP_TARGET_OR_STATE]) : -1;
		ev->hotplug.step = rd_i32(r, rec, &f[HP_IDX]);
		break;
	case EA_EV_MARKER: {
		char *t = ev->marker.text;

		if (rd_str(r, rec, &f[MK_BUF], t, sizeof(ev->marker.text)))
			goto bad_str;
		if (!ea_marker_keep(t))
			return 0;
		break;
	}
	default:
		return 0;
	}
	return 1;
bad_str:
	return bad_record(r, err, "string field points outside the record", rec);
}

/*
 * libtracecmd returns NULL both at the end of the data and when it fails
 * to load a page (corrupt page header). Such a CPU's data ends early and
 * silently: detect it by where its last record lies. Data is read page by
 * page, so the last record must lie in the CPU's last page; otherwise
 * whole pages were left unread.
 */
static int check_end(struct dat *r, struct ea_err *err)
{
	int cpu;

	for (cpu = 0; cpu < r->ncpus; cpu++) {
		const struct cpu_span *c = &r->span[cpu];

		if (!c->size || c->last + r->page_size >= c->start + c->size)
			continue;
		return ea_err_set(err, "%s:cpu %d record %" PRIu64 ": corrupt trace.dat: CPU data ends at offset %llu, %llu bytes before its end",
				  r->path, cpu, r->nrec[cpu], c->last,
				  c->start + c->size - c->last);
	}
	return 0;
}

static int decode_rec(struct dat *r, const struct tep_record *rec, int cpu,
		      struct ea_event *ev, struct ea_err *err)
{
	struct raw raw = {
		.data = rec->data,
		.size = rec->size > 0 ? (uint32_t)rec->size : 0,
		.ts = rec->ts,
		.offset = rec->offset,
	};

	return decode(r, &raw, cpu, ev, err);
}

static void lost_event(struct ea_event *ev, uint64_t ts, int cpu, int missed)
{
	memset(ev, 0, sizeof(*ev));
	ev->ts = ts;
	ev->cpu = cpu;
	ev->cur_pid = -1;
	ev->type = EA_EV_LOST;
	ev->lost.count = missed > 0 ? (uint64_t)missed : 0;
}

/* The libtracecmd path: one record at a time through its merge. */
static int tc_next(struct dat *r, struct ea_event *ev, struct ea_err *err)
{
	struct tep_record *rec;
	int cpu, rc;

	if (r->pending) {
		rec = r->pending;
		cpu = r->pending_cpu;
		r->pending = NULL;
		goto decode;
	}
	if (r->ended)
		return 0;
	for (;;) {
		rec = tracecmd_read_next_data(r->h, &cpu);
		if (!rec) {
			r->ended = true;
			return check_end(r, err);
		}
		if (cpu < 0 || cpu >= r->ncpus) {
			tracecmd_free_record(rec);
			return ea_err_set(err, "%s:cpu %d: record from a CPU the header does not list (%d CPUs)",
					  r->path, cpu, r->ncpus);
		}
		r->nrec[cpu]++;
		r->span[cpu].last = rec->offset;
		r->last_cpu = cpu;
		if (rec->missed_events) {
			/* Report the loss before the record that follows it. */
			lost_event(ev, rec->ts, cpu, rec->missed_events);
			r->pending = rec;
			r->pending_cpu = cpu;
			return 1;
		}
decode:
		rc = decode_rec(r, rec, cpu, ev, err);
		tracecmd_free_record(rec);
		if (rc)
			return rc;
	}
}

/*
 * The page walker's path: the same records in the same order (lowest
 * timestamp first, the lowest CPU on ties, as tracecmd_peek_next_data()).
 * The CPU whose record was returned moves on at the next call, so the
 * record's bytes stay in place while it is decoded.
 */
static int fast_next(struct dat *r, struct ea_event *ev, struct ea_err *err)
{
	struct dw *w = &r->w;
	int cpu, rc;

	if (r->ended)
		return 0;
	for (;;) {
		const struct dw_rec *wr;
		struct raw raw;

		if (r->fast_pending) {
			r->fast_pending = false;
			cpu = r->adv;
		} else {
			if (r->adv >= 0 && dw_advance(w, r->adv) < 0) {
				r->ended = true;
				return ea_err_set(err, "%s:cpu %d record %" PRIu64 ": %s",
						  r->path, r->adv,
						  r->nrec[r->adv] + 1, w->err);
			}
			cpu = dw_first(w);
			if (cpu < 0) {
				r->ended = true;
				return 0;
			}
			r->adv = cpu;
			r->nrec[cpu]++;
			r->last_cpu = cpu;
			wr = &w->cpu[cpu].rec;
			r->span[cpu].last = wr->offset;
			if (wr->missed) {
				lost_event(ev, wr->ts, cpu, wr->missed);
				r->fast_pending = true;
				return 1;
			}
		}
		wr = &w->cpu[cpu].rec;
		raw.data = wr->data;
		raw.size = wr->size;
		raw.ts = wr->ts;
		raw.offset = wr->offset;
		rc = decode(r, &raw, cpu, ev, err);
		if (rc)
			return rc;
	}
}

/*
 * The decoding thread: fast_next() into blocks of events, in the order
 * fast_next() gives them. The last block says how the stream ended and
 * where the reader then stood (the records after the last event, unused,
 * count in dat_where()).
 */
static void *par_main(void *arg)
{
	struct dat *r = arg;
	struct evr_blk *b;

	while ((b = evr_take_free(&r->q))) {
		int rc = 1;

		b->n = 0;
		b->status = 0;
		while (b->n < r->blk_n) {
			rc = fast_next(r, &b->ev[b->n], &b->err);
			if (rc <= 0)
				break;
			/* fast_next() left last_cpu at the event's CPU */
			b->nrec[b->n++] = r->nrec[r->last_cpu];
		}
		if (rc <= 0) {
			b->status = rc < 0 ? -1 : 1;
			b->end_cpu = r->last_cpu;
			b->end_nrec = r->last_cpu >= 0 ? r->nrec[r->last_cpu] : 0;
		}
		evr_put(&r->q, b);
		if (rc <= 0)
			break;
	}
	return NULL;
}

/* The events par_main() decoded, one at a time. */
static int par_next(struct dat *r, struct ea_event *ev, struct ea_err *err)
{
	struct evr_blk *b = r->cur;

	for (;;) {
		if (b && r->ci < b->n) {
			/* lines the other core wrote: ask for them early */
			__builtin_prefetch(&b->ev[r->ci + 6]);
			__builtin_prefetch((const char *)&b->ev[r->ci + 6] + 64);
			*ev = b->ev[r->ci];
			r->pcpu = ev->cpu;
			r->pnrec = b->nrec[r->ci++];
			return 1;
		}
		if (r->par_done)
			return 0;
		if (b && b->status) {
			r->par_done = true;
			r->pcpu = b->end_cpu;
			r->pnrec = b->end_nrec;
			if (b->status > 0)
				return 0;
			*err = b->err;
			return -1;
		}
		if (b)
			evr_release(&r->q, b);
		b = r->cur = evr_take_full(&r->q);
		r->ci = 0;
	}
}

/*
 * With more than one job, the first read starts the decoding thread (not
 * the open: a second reader of the file, dat_first_event(), reads a CPU
 * on its own through libtracecmd). A compressed file's chunks are
 * decompressed on a helper thread of their own (dz_start(), before the
 * decoding thread calls dz_fill()), ahead of the decoding thread: zlib's
 * inflating costs more than the decoding, and the helper sleeps once it
 * is DZ_RING chunks ahead.
 */
static void par_begin(struct dat *r)
{
	const char *env;

	r->par_tried = true;
	/* an uncompressed file: only when -j asks (ea_input_jobs_for()) */
	if (ea_input_jobs_for(r->zfast) < 2)
		return;
	if (r->zfast)
		dz_start(&r->z);	/* failing: decompressed by dz_fill()'s caller */
	/* tests: blocks of a few events exercise the hand-over */
	env = getenv("EATRACE_DAT_BLOCK");
	r->blk_n = env ? (uint32_t)strtoul(env, NULL, 10) : EVR_BLK;
	if (!r->blk_n || r->blk_n > EVR_BLK)
		r->blk_n = EVR_BLK;
	if (evr_start(&r->q, par_main, r) == 0) {
		r->par = true;
		r->pcpu = -1;
	}
}

static int dat_next(void *priv, struct ea_event *ev, struct ea_err *err)
{
	struct dat *r = priv;

	if (!r->fast)
		return tc_next(r, ev, err);
	if (!r->par_tried)
		par_begin(r);
	return r->par ? par_next(r, ev, err) : fast_next(r, ev, err);
}

static void dat_where(void *priv, char *buf, size_t n)
{
	struct dat *r = priv;

	if (r->par) {
		if (r->pcpu < 0)
			snprintf(buf, n, "start of data");
		else
			snprintf(buf, n, "cpu %d record %" PRIu64, r->pcpu,
				 r->pnrec);
		return;
	}
	if (r->last_cpu < 0)
		snprintf(buf, n, "start of data");
	else
		snprintf(buf, n, "cpu %d record %" PRIu64, r->last_cpu,
			 r->nrec[r->last_cpu]);
}

static void dat_close(void *priv)
{
	dat_free(priv);
}

/*
 * A CPU's first event from its own stream (ea_input_first_event()): a
 * second reader of the file, whose per-CPU cursor reads that CPU alone,
 * so the cost is that CPU's records up to its first one eatrace uses.
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
		open_rehearsed = true;
		rc = dat_open(&p, r->path, &info, err);
		open_rehearsed = false;
		if (rc)
			return -1;
		r->ahead = p;
	}
	a = r->ahead;
	for (;;) {
		rec = tracecmd_read_data(a->h, cpu);
		if (!rec)
			return 0;
		if (rec->missed_events)
			*lost_before = true;
		rc = decode_rec(a, rec, cpu, ev, err);
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
	.next = dat_next,
	.where = dat_where,
	.close = dat_close,
};
