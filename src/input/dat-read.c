// SPDX-License-Identifier: GPL-2.0-only
/*
 * A trace.dat's records into events (dat-read.h: ea_reader_ops.next and
 * .where), three ways:
 *  - through libtracecmd's merge, tracecmd_read_next_data() (tc_next()),
 *    for the files the page walker cannot read;
 *  - through eatrace's page walker (fast_next(): dat-walk.c, set up by
 *    dat-walk-setup.c), the same records in the same order;
 *  - the page walker on a thread of its own when -j allows (par_main()),
 *    this thread taking its events in blocks (par_next()).
 * Blocks of events (fill_block(), with or without that thread) take the
 * common case through dat-run.c, a run of records at a time.
 * The decoding of each record (decode()) lives in the same file as the
 * loops that call it, for the compiler: this is the reader's hot path.
 *
 * Per record, the decoder looks common_type up in a table of at most a
 * dozen ids (dat-format.c resolved them at open) and either skips the
 * record or reads its fields at their known offsets: for the usual layout
 * of sched_switch and the wakeups (host byte order, 4-byte integers,
 * char[16] comms) with plain loads and no switch per field (dat-fixed.h);
 * otherwise through rd_u()/rd_str(), which handle every size, kind and
 * byte order.
 * No allocation.
 *
 * Quirk handled here: tracecmd_read_next_data() returns NULL both at the
 * end of the data and when a page cannot be loaded: check_end() compares
 * where each CPU's records stopped with where its data ends.
 */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-cmd.h>

#include "eatrace/input.h"
#include "input/dat-fixed.h"
#include "input/dat-read.h"
#include "input/dat-run.h"
#include "input/dat-tracecmd.h"
#include "input/event-check.h"
#include "input/reader.h"

/* One record, from libtracecmd or from the page walker (dat-walk.c). */
struct dat_raw {
	const unsigned char *data;
	uint32_t size;
	uint64_t ts;
	unsigned long long offset; /* file offset (for messages) */
};

static inline uint64_t rd_u(const struct dat_fmt *r, const struct dat_raw *rec,
			    const struct fld *f)
{
	const char *p = (const char *)rec->data + f->off;

	if (r->native) { /* as tep_read_number(), without the call */
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

static inline int64_t rd_s(const struct dat_fmt *r, const struct dat_raw *rec,
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

static inline int32_t rd_i32(const struct dat_fmt *r, const struct dat_raw *rec,
			     const struct fld *f)
{
	return (int32_t)rd_s(r, rec, f);
}

/*
 * Copy a string field into dst (n bytes, always NUL-terminated, cut at
 * the first NUL). Returns -1 when a dynamic field points outside the
 * record.
 */
static int rd_str(const struct dat_fmt *r, const struct dat_raw *rec,
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

static const struct desc *find_desc(const struct dat_fmt *r, int id)
{
	int i;

	if (id >= 0 && id < DESC_IDS)
		return r->desc_of[id] ? &r->desc[r->desc_of[id] - 1] : NULL;
	for (i = 0; i < r->ndesc; i++)
		if (r->desc[i].id == id)
			return &r->desc[i];
	return NULL;
}

static int bad_record(const struct dat *r, struct ea_err *err, const char *what,
		      const struct dat_raw *rec)
{
	return ea_err_set(err,
			  "%s:cpu %d record %" PRIu64 ": %s (%" PRIu32
			  " bytes at offset %llu)",
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
static int decode_suspend(const struct dat_fmt *r, const struct dat_raw *rec,
			  int cpu, const struct fld *f, struct ea_event *ev)
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
 * decode() of a record whose format is not the usual layout (d->fixed):
 * every field through rd_u()/rd_str(). Out of line: rare in most traces.
 */
__attribute__((noinline))
static int decode_fields(struct dat *dr, const struct dat_raw *rec, int cpu,
			 const struct desc *d, struct ea_event *ev,
			 struct ea_err *err)
{
	const struct dat_fmt *r = &dr->fmt;
	const struct fld *f = d->f;
	char tmp[4];

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
		ev->sw.prev_state = ea_dat_prev_state_decode(
			&r->ps, rd_u(r, rec, &f[SW_PREV_STATE]));
		if (rd_str(r, rec, &f[SW_PREV_COMM], ev->sw.prev_comm,
			   EA_COMM_LEN) ||
		    rd_str(r, rec, &f[SW_NEXT_COMM], ev->sw.next_comm,
			   EA_COMM_LEN))
			goto bad_str;
		break;
	case EA_EV_WAKEUP:
	case EA_EV_WAKING:
	case EA_EV_WAKEUP_NEW:
		if (r->has_flags && rec->data[r->f_flags.off] & IRQ_FLAGS)
			ev->flags = EA_EVF_IRQ;
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
			return 0; /* a task group's rq, not the CPU's */
		ev->util.cpu = rd_i32(r, rec, &f[UT_CPU]);
		ev->util.pid = -1;
		ev->util.util = clamp_u32(rd_u(r, rec, &f[UT_UTIL]));
		break;
	case EA_EV_UTIL_SE:
		ev->util.pid = rd_i32(r, rec, &f[UT_PATH_OR_PID]);
		if (ev->util.pid <= 0)
			return 0; /* group entity */
		ev->util.cpu = rd_i32(r, rec, &f[UT_CPU]);
		ev->util.util = clamp_u32(rd_u(r, rec, &f[UT_UTIL]));
		break;
	case EA_EV_SUSPEND:
		return decode_suspend(r, rec, cpu, f, ev);
	case EA_EV_HOTPLUG:
		ev->hotplug.cpu = rd_i32(r, rec, &f[HP_CPU]);
		ev->hotplug.enter = strcmp(d->name, "cpuhp_exit") != 0;
		ev->hotplug.target =
			ev->hotplug.enter
				? rd_i32(r, rec, &f[HP_TARGET_OR_STATE])
				: -1;
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
	return bad_record(dr, err, "string field points outside the record",
			  rec);
}

/*
 * 1: ev filled, 0: record not used, -1: corrupt record.
 * ev is not cleared first: the header and every field of the union member
 * of its type are set (strings NUL-padded to their array's end); the rest
 * of the union is left as it was. Inline: the reader's loops take the
 * usual layout of sched_switch and the wakeups without a call.
 */
static inline __attribute__((always_inline)) int
decode(struct dat *dr, const struct dat_raw *rec, int cpu, struct ea_event *ev,
       struct ea_err *err)
{
	const struct dat_fmt *r = &dr->fmt;
	const struct desc *d;
	const unsigned char *p = rec->data;

	if (!r->ndesc)
		return 0;
	if (rec->size < (uint32_t)r->common_min)
		return bad_record(dr, err,
				  "record shorter than the common fields", rec);
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
		return bad_record(dr, err,
				  "record shorter than its event format", rec);
	if (!d->fixed)
		return decode_fields(dr, rec, cpu, d, ev, err);
	dat_decode_fixed(r, d, p, rec->ts, cpu, ev);
	return 1;
}

/* decode() of the record the page walker holds for cpu */
static inline __attribute__((always_inline)) int
decode_walked(struct dat *r, const struct dw_rec *wr, int cpu,
	      struct ea_event *ev, struct ea_err *err)
{
	struct dat_raw raw = {
		.data = wr->data,
		.size = wr->size,
		.ts = wr->ts,
		.offset = wr->offset,
	};

	return decode(r, &raw, cpu, ev, err);
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
		return ea_err_set(err,
				  "%s:cpu %d record %" PRIu64
				  ": corrupt trace.dat: CPU data ends at "
				  "offset %llu, %llu bytes before its end",
				  r->path, cpu, r->nrec[cpu], c->last,
				  c->start + c->size - c->last);
	}
	return 0;
}

static inline int decode_rec(struct dat *r, const struct tep_record *rec,
			     int cpu, struct ea_event *ev, struct ea_err *err)
{
	struct dat_raw raw = {
		.data = rec->data,
		.size = rec->size > 0 ? (uint32_t)rec->size : 0,
		.ts = rec->ts,
		.offset = rec->offset,
	};

	return decode(r, &raw, cpu, ev, err);
}

int ea_dat_decode_rec(struct dat *r, const struct tep_record *rec, int cpu,
		      struct ea_event *ev, struct ea_err *err)
{
	return decode_rec(r, rec, cpu, ev, err);
}

/*
 * rc, the walk's end (0) or failure (-1) or not (1); but -1 and err saying
 * so when the file was cut short under a mapped window (dat-map.h): what
 * the walker read there were zeros, not the file's pages.
 */
static int cut_short(struct dat *r, int rc, struct ea_err *err)
{
	if (rc > 0 || !dw_cut(&r->w))
		return rc;
	return ea_err_set(err, "%s: %s", r->path, r->w.err);
}

/*
 * CPU cpu's next event from the page walker alone, the other CPUs left
 * where they are (dat_first_event(), on a reader of its own that nothing
 * else advances): the walker's set-up loaded each CPU's first record, so
 * the first call takes it as it is. 1 with *ev, 0 at the end of the CPU's
 * data, -1 with err; *lost_before set when a record passed on the way
 * follows lost events.
 */
static int cpu_next(struct dat *r, int cpu, struct ea_event *ev,
		    bool *lost_before, struct ea_err *err)
{
	struct dw *w = &r->w;

	for (;;) {
		const struct dw_rec *wr = &w->cpu[cpu].rec;
		int rc = 1;

		if (r->nrec[cpu] && (rc = dw_advance(w, cpu)) < 0)
			return ea_err_set(
				err, "%s:cpu %d record %" PRIu64 ": %s",
				r->path, cpu, r->nrec[cpu] + 1, w->err);
		if (!rc || !w->cpu[cpu].have)
			return 0;
		r->nrec[cpu]++;
		r->last_cpu = cpu;
		if (wr->missed)
			*lost_before = true;
		rc = decode_walked(r, wr, cpu, ev, err);
		if (rc)
			return rc;
	}
}

/* cpu_next(), its end or failure checked by cut_short() */
int ea_dat_cpu_next(struct dat *r, int cpu, struct ea_event *ev,
		    bool *lost_before, struct ea_err *err)
{
	return cut_short(r, cpu_next(r, cpu, ev, lost_before, err), err);
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
			return ea_err_set(err,
					  "%s:cpu %d: record from a CPU the "
					  "header does not list (%d CPUs)",
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
static inline __attribute__((always_inline)) int
fast_next(struct dat *r, struct ea_event *ev, struct ea_err *err)
{
	struct dw *w = &r->w;
	int cpu, rc;

	if (r->ended)
		return 0;
	for (;;) {
		const struct dw_rec *wr;

		if (r->fast_pending) {
			r->fast_pending = false;
			cpu = r->adv;
		} else {
			if (r->adv >= 0 && dw_next(w, r->adv) < 0) {
				r->ended = true;
				return ea_err_set(
					err, "%s:cpu %d record %" PRIu64 ": %s",
					r->path, r->adv, r->nrec[r->adv] + 1,
					w->err);
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
		rc = decode_walked(r, &w->cpu[cpu].rec, cpu, ev, err);
		if (rc)
			return rc;
	}
}

/*
 * An event the checks refuse, as input.c's check_event() says it (named
 * by the reader's path, which input.c turns into the user's, and by the
 * event's position: fast_next() left last_cpu at it). -1.
 */
static int par_bad_event(const struct dat *r, const struct ea_event *ev,
			 struct ea_err *err)
{
	char cause[256];

	ea_event_cause(ev, r->ncpus, r->par_last_ts, cause, sizeof(cause));
	return ea_err_set(err, "%s:cpu %d record %" PRIu64 ": %s", r->path,
			  r->last_cpu, r->nrec[r->last_cpu], cause);
}

/*
 * fast_next() into block b, up to n events, checked as input.c's
 * check_event() checks them: the common case a run of records at a time
 * (dat-run.c), the others through fast_next(). When the stream ends (or fails) there, b
 * says how and where the reader then stood (the records after the last
 * event, unused, count in ea_dat_where()). 1: more may follow; else
 * b->status is set.
 */
static int fill_block(struct dat *r, struct evr_blk *b, uint32_t n)
{
	int rc = 1;

	b->n = 0;
	b->status = 0;
	while (b->n < n) {
		const struct ea_event *ev;

		/* the common case a run at a time, then the record it left */
		dat_run(r, b, n);
		if (b->n >= n)
			break;
		ev = &b->ev[b->n];
		rc = fast_next(r, &b->ev[b->n], &b->err);
		if (rc <= 0)
			break;
		/* input.c's checks, by the reader (ea_dat_checked()) */
		if (!ea_event_ok(ev, r->ncpus, r->par_last_ts)) {
			rc = par_bad_event(r, ev, &b->err);
			break;
		}
		r->par_last_ts = ev->ts;
		/* fast_next() left last_cpu at the event's CPU */
		b->nrec[b->n++] = r->nrec[r->last_cpu];
	}
	rc = cut_short(r, rc, &b->err);
	if (rc <= 0) {
		b->status = rc < 0 ? -1 : 1;
		b->end_cpu = r->last_cpu;
		b->end_nrec = r->last_cpu >= 0 ? r->nrec[r->last_cpu] : 0;
		return 0;
	}
	return 1;
}

/*
 * The decoding thread: fast_next() into blocks of events, in the order
 * fast_next() gives them. The last block says how the stream ended.
 */
static void *par_main(void *arg)
{
	struct dat *r = arg;
	const uint32_t blk_n = r->blk_n;
	struct evr_blk *b;

	while ((b = evr_take_free(&r->q))) {
		int more = fill_block(r, b, blk_n);

		evr_put(&r->q, b);
		if (!more)
			break;
	}
	return NULL;
}

/*
 * The next block par_main() decoded that still has events to read, as
 * r->cur (r->ci at its first unread event): 1; 0 at the end, -1 on the
 * error the decoding thread met (*err). The part of par_next() and
 * par_next_block() that is not per event.
 */
static int par_advance(struct dat *r, struct ea_err *err)
{
	struct evr_blk *b = r->cur;

	for (;;) {
		if (b && r->ci < b->n)
			return 1;
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

/* The events par_main() decoded, one at a time. */
static int par_next(struct dat *r, struct ea_event *ev, struct ea_err *err)
{
	struct evr_blk *b = r->cur;
	int rc;

	if (!b || r->ci >= b->n) {
		rc = par_advance(r, err);
		if (rc <= 0)
			return rc;
		b = r->cur;
	}
	/* lines the other core wrote: ask for them early */
	__builtin_prefetch(&b->ev[r->ci + 6]);
	__builtin_prefetch((const char *)&b->ev[r->ci + 6] + 64);
	*ev = b->ev[r->ci];
	r->pcpu = ev->cpu;
	r->pnrec = b->nrec[r->ci++];
	return 1;
}

/*
 * par_next() a block at a time (ea_dat_next_block()): the rest of the
 * block being read, as it lies in the ring; where() names its last event,
 * ea_dat_block_at() another.
 */
static int par_next_block(struct dat *r, const struct ea_event **evs,
			  size_t *n, struct ea_err *err)
{
	struct evr_blk *b;
	int rc = par_advance(r, err);

	if (rc <= 0)
		return rc;
	b = r->cur;
	*evs = &b->ev[r->ci];
	*n = b->n - r->ci;
	r->bi0 = r->ci;
	r->ci = b->n;
	r->pcpu = b->ev[b->n - 1].cpu;
	r->pnrec = b->nrec[b->n - 1];
	return 1;
}

/* Events a block decoded on the reading thread holds (a few hundred: the
 * reader of the block finds them in cache). */
#define LOCAL_BLK 256

/*
 * par_next_block() without the decoding thread: the next events decoded
 * here, into one block of the reader's (r->cur, reused), checked as the
 * decoding thread checks them; where() and block_at() as with it.
 */
static int local_next_block(struct dat *r, const struct ea_event **evs,
			    size_t *n, struct ea_err *err)
{
	struct evr_blk *b = r->cur;

	if (r->par_done)
		return 0;
	if (!b) {
		b = r->cur = malloc(sizeof(*b));
		if (!b)
			return ea_err_set(err, "%s: out of memory", r->path);
		b->n = 0;
		b->status = 0;
		r->local = true;
		r->pcpu = -1;
	}
	if (!b->status)
		fill_block(r, b, LOCAL_BLK);
	else
		b->n = 0;	/* the events before the end: given */
	if (!b->n) {
		r->par_done = true;
		r->pcpu = b->end_cpu;
		r->pnrec = b->end_nrec;
		if (b->status > 0)
			return 0;
		*err = b->err;
		return -1;
	}
	*evs = b->ev;
	*n = b->n;
	r->bi0 = 0;
	r->ci = b->n;
	r->pcpu = b->ev[b->n - 1].cpu;
	r->pnrec = b->nrec[b->n - 1];
	return 1;
}

/*
 * With more than one job, the first read starts the helper threads (not
 * the open: a second reader of the file, dat_first_event(), reads a CPU
 * on its own through libtracecmd). An uncompressed file's pages are then
 * walked and decoded on a thread of their own. A compressed file's chunks
 * are decompressed on a helper thread (dz_start()), ahead of whoever
 * calls dz_fill(): zlib's inflating costs more than the decoding, and the
 * helper sleeps once it is DZ_RING chunks ahead. That helper is the
 * second job; the decoding thread is a third: with two jobs the caller
 * decodes (a quiet 2-vCPU VM, the bench recording in zstd, medians of 5:
 * 0.27 s wall with the caller decoding, 0.34 s and ten times the context
 * switches with three threads on the two CPUs; bench/README.md).
 */
static void par_begin(struct dat *r)
{
	uint64_t bytes = 0;
	const char *env;
	sigset_t mask;
	int jobs;

	/* what is left of each CPU's data (pages, decompressed or not) */
	for (int cpu = 0; cpu < r->w.ncpus; cpu++) {
		const struct dw_cpu *c = &r->w.cpu[cpu];

		if (c->end > c->buf_off)
			bytes += c->end - c->buf_off;
	}
	jobs = ea_input_jobs_for(r->zfast, bytes);
	r->par_tried = true;
	/* a small uncompressed file: only when -j asks (ea_input_jobs_for()) */
	if (jobs < 2)
		return;
	if (r->zfast) {
		dz_start(&r->z); /* failing: decompressed by dz_fill()'s caller
				  */
		if (jobs < 3)
			return;
	}
	/* tests: blocks of a few events exercise the hand-over */
	env = getenv("EATRACE_DAT_BLOCK");
	r->blk_n = env ? (uint32_t)strtoul(env, NULL, 10) : EVR_BLK;
	if (!r->blk_n || r->blk_n > EVR_BLK)
		r->blk_n = EVR_BLK;
	/*
	 * Signals stay with the main thread, but SIGBUS: a fault in a mapped
	 * window of a file cut short meanwhile (dat-map.h) is taken on the
	 * thread that reads it (a synchronous signal blocked kills).
	 */
	sigfillset(&mask);
	sigdelset(&mask, SIGBUS);
	if (evr_start_mask(&r->q, par_main, r, &mask) == 0) {
		r->par = true;
		r->pcpu = -1;
	}
}

int ea_dat_threads(void *priv)
{
	const struct dat *r = priv;

	if (!r->fast)
		return 1;
	return r->zfast ? 3 : 2;
}

int ea_dat_next(void *priv, struct ea_event *ev, struct ea_err *err)
{
	struct dat *r = priv;

	if (!r->fast)
		return tc_next(r, ev, err);
	if (!r->par_tried)
		par_begin(r);
	if (r->par)
		return par_next(r, ev, err);
	return cut_short(r, fast_next(r, ev, err), err);
}

int ea_dat_next_block(void *priv, const struct ea_event **evs, size_t *n,
		      struct ea_err *err)
{
	struct dat *r = priv;

	if (!r->fast)
		return 2;
	if (!r->par_tried)
		par_begin(r);
	if (r->par)
		return par_next_block(r, evs, n, err);
	/* not after events one at a time: ea_dat_where() would differ */
	if (!r->local && r->last_cpu >= 0)
		return 2;
	return local_next_block(r, evs, n, err);
}

void ea_dat_block_at(void *priv, size_t i)
{
	struct dat *r = priv;
	const struct evr_blk *b = r->cur;

	if (!(r->par || r->local) || !b || r->bi0 + i >= b->n)
		return;
	r->pcpu = b->ev[r->bi0 + i].cpu;
	r->pnrec = b->nrec[r->bi0 + i];
}

bool ea_dat_checked(void *priv)
{
	const struct dat *r = priv;

	return r->par;
}

void ea_dat_where(void *priv, char *buf, size_t n)
{
	struct dat *r = priv;

	if (r->par || r->local) {
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
