// SPDX-License-Identifier: GPL-2.0-only
/*
 * Perfetto traces (.perfetto-trace, .pftrace, .pb; gzip'd or not), read by
 * eatrace's own protobuf wire-format decoder (pb-wire.h). How they are read
 * and what is kept is in docs/perfetto.md; in short:
 *
 *  - pf-index.c indexes the FtraceEventBundles (inflating
 *    compressed_packets); each CPU's bundles, in file order, are that CPU's
 *    events in time order; the CPUs' streams are merged here, lowest
 *    timestamp first and the lowest CPU on ties (as the trace.dat reader);
 *  - a bundle is decoded when its CPU's previous one is used up: its
 *    compact_sched switches and wakings (pf-compact.c) and its per-event
 *    FtraceEvents (pf-event.c) are merged by timestamp as the CPU's
 *    events are asked for (pf-head.h), in the order Perfetto's trace
 *    processor gives equal timestamps (compact switches, compact wakings,
 *    then events);
 *  - compact_sched: the prev task of a switch is the next task of the
 *    CPU's previous switch; a CPU's first switch has none, and (as in
 *    Perfetto) yields no event, only the knowledge of who runs next. The
 *    waker (common pid) of a compact waking is the task running on the CPU;
 *  - previous_bundle_end_timestamp (or the older last_read_event_timestamp)
 *    of each CPU's first bundle says where that CPU's data may start to be
 *    incomplete (ring buffer overwrite); before the latest of them some
 *    CPU's events may be missing: those events are dropped (Perfetto's
 *    crop rule), which the trace's format string reports;
 *  - lost_events: an EA_EV_LOST before the bundle's first event; the
 *    first of a CPU carries the count ftrace_stats gives for the CPU (the
 *    others 0); a CPU that lost events by ftrace_stats but has no bundle
 *    with lost_events gets it before its first event (a ring buffer
 *    overwrites its oldest events);
 *  - sys_stats' first cpufreq_khz: an initial cpu_frequency per CPU, at
 *    its packet's time or the first event's if later, for the CPUs with
 *    no cpu_frequency before then;
 *  - suspend_resume (its machine_suspend action only) and cpuhp_enter,
 *    cpuhp_multi_enter and cpuhp_exit become EA_EV_SUSPEND and
 *    EA_EV_HOTPLUG (pf-event.c);
 *  - process_tree gives tgids and process names (report's processes);
 *    events eatrace's model has no place for are skipped;
 *  - a file whose events cannot outgrow a budget (not inflated: neither
 *    gzip'd nor with compressed_packets) is read a block at a time
 *    through next-blocks.h, on a thread of its own from two jobs
 *    (ea_input_jobs_for()): pf_next() and the checks there, the pipeline
 *    on the caller's; pf_first_event() beside it under nb_lock().
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/next-blocks.h"
#include "input/pb-wire.h"
#include "input/pf-events.h"
#include "input/pf-head.h"
#include "input/pf-index.h"
#include "input/reader.h"

/* FtraceEventBundle fields */
enum { FB_EVENT = 2, FB_LOST = 3, FB_COMPACT = 4 };

struct pcpu {
	size_t *bi; /* indexes into ix.b of this CPU's bundles */
	size_t nb, capb, next;
	/* the current bundle's events, merged as they are asked for (its
	 * lost_pending and lost_count: ftrace_stats' count for the next
	 * lost event) */
	struct pf_head hd;
	/* the CPU's next event (in hd's sources, or its lost_ev), NULL:
	 * none left in the current bundle (find_head() decodes the next) */
	struct ea_event *head;
	bool lost0_pending; /* hd's loss as it was before the first bundle */
	uint64_t lost0_count;
	bool done;
	size_t cur_bundle; /* index into ix.b, for where() */
	uint64_t where_pos; /* ... as pf_pos() gives it */
};

struct pf {
	char *path;
	char format[96];
	struct pf_index ix;
	struct pcpu *cpu;
	int ncpu;
	uint64_t crop; /* events before it are dropped */
	size_t chunk; /* bytes read from the file at once */
	/* the parts of the file read: as many as CPUs, the least recently
	 * used replaced; CPUs whose bundles are near each other share them */
	struct pf_chunk *ck;
	uint64_t *ck_used;
	uint64_t ck_clock;
	struct pf_intern intern; /* a bundle's compact_sched comms */
	int last_cpu;
	uint64_t pos_now; /* pf_pos() once pf_next() has given an event */
	/* sys_stats' initial frequencies, given before the first event at or
	 * after freq0_ts; freq_seen: CPUs with a cpu_frequency before */
	size_t freq0_next;
	bool *freq_seen;
	bool emitted; /* an event was given */
	/* pf_next(): the CPU whose events follow, while before lim_ts */
	struct pcpu *run;
	uint64_t lim_ts;
	int lim_cpu;
	/* read through when pf_blocks_init() says (nb_reader_reads()) */
	struct nb nb;
};

static void pf_blocks_init(struct pf *r, int ncpus);

static struct ea_event *push(struct pf *r, const struct pf_bundle *bd,
			     struct pf_evbuf *b, struct ea_err *err)
{
	if (b->n == b->cap && pf_grow_ev(&r->ix, bd, b, b->n + 1, r->path, err))
		return NULL;
	return &b->ev[b->n++];
}

/* ---- one FtraceEvent: its timestamp and pid here, its payload in
 * pf-event.c ---------------------------------------------------------- */

static int one_event(struct pf *r, struct pcpu *c, const struct pf_bundle *bd,
		     struct pb_buf b, struct ea_err *err)
{
	struct pb_buf pay = {NULL, NULL};
	struct ea_event *ev;
	struct pb_field f = {0};
	uint32_t num = 0;
	uint64_t ts = 0;
	int32_t pid = -1;
	int rc = PB_END;

	while (b.p < b.end) {
		uint8_t t = *b.p;
		uint64_t v;

		/* timestamp (1) and pid (2), one-byte tags: inline */
		if (t == 0x08 || t == 0x10) {
			b.p++;
			if (pb_varint(&b, &v) != PB_OK) {
				rc = PB_ERR;
				break;
			}
			if (t == 0x08)
				ts = v;
			else
				pid = pb_i32(v);
			continue;
		}
		/* a payload of field 16 or more (two-byte tag) under 128
		 * bytes, as pb_next() would take it: the usual last field */
		if ((t & 0x87) == 0x82 && b.end - b.p >= 3 && b.p[1] &&
		    b.p[1] < 0x80 && b.p[2] < 0x80 &&
		    b.p[2] <= b.end - b.p - 3) {
			num = (uint32_t)((t & 0x7f) | b.p[1] << 7) >> 3;
			pay.p = b.p + 3;
			pay.end = pay.p + b.p[2];
			b.p = pay.end;
			rc = PB_END;
			continue;
		}
		rc = pb_next(&b, &f);
		if (rc != PB_OK)
			break;
		if (f.num == FE_TIMESTAMP)
			ts = f.v;
		else if (f.num == FE_PID)
			pid = pb_i32(f.v);
		else if (f.wire == PB_LEN && f.num != 5) {
			num = f.num;
			pay = f.sub;
		}
	}
	if (rc == PB_ERR)
		return pf_bundle_err(r->path, bd, err,
				     "malformed ftrace event (protobuf field "
				     "cut or invalid)");
	if (!num)
		return 0;
	/* decoded in place, taken back when skipped */
	ev = push(r, bd, &c->hd.src[PF_SRC_EVENT], err);
	if (!ev)
		return -1;
	rc = pf_event_payload(num, pay, ev);
	if (rc <= 0) {
		c->hd.src[PF_SRC_EVENT].n--;
		if (rc < 0)
			return pf_bundle_err(r->path, bd, err,
					     "malformed ftrace event payload "
					     "(protobuf field cut or invalid)");
		return 0;
	}
	ev->ts = ts;
	ev->cpu = bd->cpu;
	ev->cur_pid = pid;
	ev->flags = 0;
	return 0;
}

/* ---- one bundle ------------------------------------------------------- */

/* A bundle's bytes: in memory, or in one of the chunks of the file. */
static int bundle_bytes(struct pf *r, const struct pf_bundle *bd,
			struct pb_buf *b, struct ea_err *err)
{
	int n = r->ncpu > 0 ? r->ncpu : 1, k = 0;

	if (!bd->p) {
		for (int i = 0; i < n; i++) {
			const struct pf_chunk *c = &r->ck[i];

			if (c->buf && bd->off >= c->boff &&
			    bd->off - c->boff <= c->blen &&
			    bd->len <= c->blen - (bd->off - c->boff)) {
				k = i;
				goto found;
			}
			if (r->ck_used[i] < r->ck_used[k])
				k = i;
		}
	}
found:
	r->ck_used[k] = ++r->ck_clock;
	return pf_bundle_bytes(&r->ix, bd, &r->ck[k], r->chunk, &b->p, &b->end,
			       r->path, err);
}

/* Decode c's next bundle into its three sources. */
static int load_bundle(struct pf *r, struct pcpu *c, struct ea_err *err)
{
	const struct pf_bundle *bd = &r->ix.b[c->bi[c->next]];
	struct pb_buf b;
	struct pb_field f = {0};
	int rc;

	c->cur_bundle = c->bi[c->next++];
	c->where_pos = (uint64_t)(uint32_t)(bd->cpu + 1) << 32 | bd->packet;
	if (bundle_bytes(r, bd, &b, err))
		return -1;
	for (int i = 0; i < 3; i++)
		c->hd.src[i].n = 0;
	for (;;) {
		/* an FtraceEvent (field 2) under 128 bytes, as pb_next()
		 * would take it: most of a bundle's fields */
		if (b.end - b.p >= 2 && b.p[0] == 0x12 && b.p[1] < 0x80 &&
		    b.p[1] <= b.end - b.p - 2) {
			struct pb_buf ev = {b.p + 2, b.p + 2 + b.p[1]};

			b.p = ev.end;
			if (one_event(r, c, bd, ev, err))
				return -1;
			continue;
		}
		if ((rc = pb_next(&b, &f)) != PB_OK)
			break;
		if (f.num == FB_LOST && f.wire == PB_VARINT && f.v)
			c->hd.lost_pending = true;
		if (f.wire != PB_LEN)
			continue;
		if (f.num == FB_EVENT) {
			if (one_event(r, c, bd, f.sub, err))
				return -1;
		} else if (f.num == FB_COMPACT) {
			if (pf_compact(&r->ix, &r->intern,
				       &c->hd.src[PF_SRC_SWITCH],
				       &c->hd.src[PF_SRC_WAKING], bd, f.sub,
				       r->path, err))
				return -1;
		}
	}
	if (rc == PB_ERR)
		return pf_bundle_err(r->path, bd, err,
				     "malformed ftrace bundle (protobuf field "
				     "cut or invalid)");
	return 0;
}

/*
 * Make c->head c's next event, decoding bundles as needed (pf-head.h
 * merges each). 1, 0 at the end of c's data, -1 on error.
 */
static int find_head(struct pf *r, struct pcpu *c, struct ea_err *err)
{
	while (!c->head && !(c->head = pf_head_next(&c->hd, r->crop))) {
		if (c->next == c->nb) {
			c->done = true;
			return 0;
		}
		if (load_bundle(r, c, err))
			return -1;
		pf_head_reset(&c->hd);
	}
	return 1;
}

/* Give c's next event (c->head) into ev; c->head then the one after it in
 * the bundle, NULL when the bundle has no more. */
static inline void take_head(struct pf *r, struct pcpu *c, struct ea_event *ev)
{
	*ev = *c->head;
	c->head = pf_head_next(&c->hd, r->crop);
}

/* ---- the reader ------------------------------------------------------- */

static int pf_probe_op(const unsigned char *head, size_t n)
{
	return pf_probe(head, n);
}

static void pf_free(struct pf *r)
{
	if (!r)
		return;
	nb_free(&r->nb);	/* the decoding thread first */
	for (int i = 0; i < r->ncpu; i++) {
		free(r->cpu[i].bi);
		pf_head_free(&r->cpu[i].hd);
	}
	for (int i = 0; r->ck && i < (r->ncpu > 0 ? r->ncpu : 1); i++)
		free(r->ck[i].buf);
	free(r->ck);
	free(r->ck_used);
	free(r->cpu);
	free(r->freq_seen);
	free(r->intern.comm);
	pf_index_free(&r->ix);
	free(r->path);
	free(r);
}

/* Whether a bundle says events were lost before it. */
static bool bundle_lost(struct pf *r, struct pcpu *c, const struct pf_bundle *b)
{
	struct pb_buf m;
	struct pb_field f = {0};
	struct ea_err err;

	(void)c;
	if (bundle_bytes(r, b, &m, &err))
		return false; /* the reader meets the error later */
	while (pb_next(&m, &f) == PB_OK)
		if (f.num == FB_LOST && f.wire == PB_VARINT && f.v)
			return true;
	return false; /* a malformed bundle: the reader says so later */
}

/*
 * ftrace_stats' counts to the CPUs' first lost_ev (a CPU with none gets
 * one before its first event); sys_stats' initial frequencies. 0, or -1
 * out of memory.
 */
static int lost_counts(struct pf *r)
{
	for (int i = 0;
	     r->ix.lost_known && i < r->ncpu && (size_t)i < r->ix.nlost; i++) {
		struct pcpu *c = &r->cpu[i];
		uint64_t n = r->ix.lost[i];
		bool marked = false;

		if (!n || n > INT64_MAX) /* none, or fewer at the end */
			continue;
		c->hd.lost_count = n;
		for (size_t k = 0; k < c->nb && !marked; k++)
			marked = bundle_lost(r, c, &r->ix.b[c->bi[k]]);
		if (!marked)
			c->hd.lost_pending = true;
		c->lost0_pending = c->hd.lost_pending;
		c->lost0_count = c->hd.lost_count;
	}
	if (r->ix.nfreq0 && r->ncpu > 0 &&
	    !(r->freq_seen = calloc((size_t)r->ncpu, sizeof(bool))))
		return -1;
	return 0;
}

/*
 * The next sys_stats initial frequency to give before an event at ts (or
 * at the end, ts UINT64_MAX): 1 and ev, 0 none.
 */
static int freq0_next(struct pf *r, uint64_t ts, struct ea_event *ev)
{
	uint64_t at = r->ix.freq0_ts > r->crop ? r->ix.freq0_ts : r->crop;

	if (!r->freq_seen || at > ts || ts == UINT64_MAX)
		return 0;
	while (r->freq0_next < r->ix.nfreq0 &&
	       r->freq0_next < (size_t)r->ncpu) {
		size_t c = r->freq0_next++;

		if (!r->ix.freq0[c] || r->freq_seen[c])
			continue;
		memset(ev, 0, sizeof(*ev));
		/* never before the first event: it would move the start */
		ev->ts = r->emitted ? at : ts;
		ev->cpu = (int32_t)c;
		ev->cur_pid = -1;
		ev->type = EA_EV_FREQ;
		ev->freq.freq_khz = r->ix.freq0[c];
		ev->freq.cpu = (int32_t)c;
		return 1;
	}
	free(r->freq_seen);
	r->freq_seen = NULL;
	return 0;
}

static int pf_open(void **priv, const char *path, struct ea_input_info *info,
		   struct ea_err *err)
{
	struct pf *r = calloc(1, sizeof(*r));
	int t, len;

	if (!r || !(r->path = strdup(path))) {
		free(r);
		return ea_err_set(err, "%s: out of memory", path);
	}
	r->last_cpu = -1;
	if (pf_index_open(&r->ix, path, info->stored_bytes, err)) {
		pf_free(r);
		return -1;
	}
	r->ncpu = r->ix.max_cpu + 1;
	/* 256 KB read at once (in as many chunks as CPUs), less with many
	 * CPUs (16 MB in all), never less than 64 KB */
	r->chunk = PF_CHUNK;
	if (r->ncpu > 64)
		r->chunk = r->ncpu > 256 ? (size_t)64 << 10
					 : ((size_t)16 << 20) / (size_t)r->ncpu;
	r->cpu = calloc(r->ncpu > 0 ? (size_t)r->ncpu : 1, sizeof(*r->cpu));
	r->ck = calloc(r->ncpu > 0 ? (size_t)r->ncpu : 1, sizeof(*r->ck));
	r->ck_used =
		calloc(r->ncpu > 0 ? (size_t)r->ncpu : 1, sizeof(*r->ck_used));
	if (!r->cpu || !r->ck || !r->ck_used) {
		pf_free(r);
		return ea_err_set(err, "%s: out of memory", path);
	}
	for (int i = 0; i < r->ncpu; i++)
		pf_head_reset(&r->cpu[i].hd);
	for (size_t i = 0; i < r->ix.nb; i++) {
		const struct pf_bundle *b = &r->ix.b[i];
		struct pcpu *c = &r->cpu[b->cpu];

		if (c->nb == c->capb) {
			size_t n = c->capb ? c->capb * 2 : 16;
			size_t *q = realloc(c->bi, n * sizeof(*q));

			if (!q) {
				pf_free(r);
				return ea_err_set(err, "%s: out of memory",
						  path);
			}
			c->bi = q;
			c->capb = n;
		}
		/* the crop: the latest end of knowledge of the first bundles */
		if (!c->nb && b->has_prev_end && b->prev_end > r->crop)
			r->crop = b->prev_end;
		c->bi[c->nb++] = i;
	}
	if (lost_counts(r)) {
		pf_free(r);
		return ea_err_set(err, "%s: out of memory", path);
	}
	for (t = 0; t < EA_EV_NR; t++)
		info->may_have[t] = true;
	info->may_have[EA_EV_UTIL_CFS] = false; /* no such Perfetto event */
	info->may_have[EA_EV_UTIL_SE] = false;
	len = snprintf(r->format, sizeof(r->format), "perfetto%s%s",
		       r->ix.gzip || info->gzip ? " (gzip)" : "",
		       r->ix.ncompressed ? " (compressed packets)" : "");
	if (r->crop)
		snprintf(r->format + len, sizeof(r->format) - len,
			 ", cropped before %" PRIu64 " ns", r->crop);
	info->format = r->format;
	info->ncpus = r->ncpu > 0 ? r->ncpu : -1;
	info->rails = r->ix.rails; /* the input owns it now */
	r->ix.rails = NULL;
	info->procs = r->ix.procs;
	r->ix.procs = NULL;
	pf_blocks_init(r, info->ncpus);
	*priv = r;
	return 0;
}

/*
 * pf_next() where r->run's next event does not come before r->lim_cpu's:
 * that CPU's event is the next of all (r->lim_ts, r->lim_cpu is the first
 * of the others' heads, which have not moved since), and its events
 * follow while before the first of the other heads, the run's included.
 * Every CPU but the run's has its head or is done (pf_next()'s loop took
 * them all when it chose the run): 1 and ev. 0, having done nothing,
 * when one has neither; pf_next()'s loop then takes it.
 */
static inline int pf_switch_run(struct pf *r, struct ea_event *ev)
{
	int k = r->lim_cpu, lc = INT32_MAX;
	struct pcpu *nx = &r->cpu[k];
	uint64_t lim = UINT64_MAX;

	if (!nx->head)
		return 0;
	if (r->ncpu == 2) {
		/* the other heads: the other CPU's (two CPUs, whose events
		 * alternate nearly one by one on a busy machine) */
		const struct pcpu *o = &r->cpu[1 - k];

		if (!o->head) {
			if (!o->done)
				return 0;
		} else if (o->head->ts < lim) {
			lim = o->head->ts;
			lc = 1 - k;
		}
	} else {
		for (int i = 0; i < r->ncpu; i++) {
			const struct pcpu *c = &r->cpu[i];
			uint64_t ts;

			if (!c->head) {
				if (!c->done)
					return 0;
				continue;
			}
			ts = c->head->ts;
			if (i != k && ts < lim) {
				lim = ts;
				lc = i;
			}
		}
	}
	r->last_cpu = k;
	r->pos_now = nx->where_pos;
	take_head(r, nx, ev);
	r->run = nx;
	r->lim_ts = lim;
	r->lim_cpu = lc;
	return 1;
}

/*
 * pf_next() past the run: every CPU's head (its next bundle decoded when
 * it has none), the first of them given, the run set up from it.
 */
__attribute__((noinline)) static int pf_merge_next(struct pf *r,
						   struct ea_event *ev,
						   struct ea_err *err)
{
	struct pcpu *best = NULL;
	uint64_t lim = UINT64_MAX;
	int bc = -1, lc = INT32_MAX;

	r->run = NULL;
	for (int i = 0; i < r->ncpu; i++) {
		struct pcpu *c = &r->cpu[i];
		uint64_t ts;

		if (!c->head) {
			int rc;

			if (c->done)
				continue;
			rc = find_head(r, c, err);
			if (rc < 0)
				return -1;
			if (!rc)
				continue;
		}
		ts = c->head->ts;
		if (!best || ts < best->head->ts) {
			/* the former best: below lim, or on it and a lower CPU
			 */
			if (best && (best->head->ts < lim ||
				     (best->head->ts == lim && bc < lc))) {
				lim = best->head->ts;
				lc = bc;
			}
			best = c;
			bc = i;
		} else if (ts < lim) {
			lim = ts;
			lc = i;
		}
	}
	if (r->freq_seen) {
		if (freq0_next(r, best ? best->head->ts : UINT64_MAX, ev)) {
			r->last_cpu = -1;
			r->pos_now = 0;
			return 1;
		}
		if (best && best->head->type == EA_EV_FREQ &&
		    best->head->freq.cpu >= 0 && r->freq_seen &&
		    best->head->freq.cpu < r->ncpu)
			r->freq_seen[best->head->freq.cpu] = true;
	}
	r->last_cpu = bc;
	if (!best)
		return 0;
	r->pos_now = best->where_pos;
	r->emitted = true;
	take_head(r, best, ev);
	if (!r->freq_seen) {
		r->run = best;
		r->lim_ts = lim;
		r->lim_cpu = lc;
	}
	return 1;
}

/*
 * The CPUs' streams merged: the lowest timestamp first, the lowest CPU on
 * ties. Once a CPU is chosen, its next events follow without looking at
 * the others while they come before the others' heads (r->run, up to
 * r->lim_ts; on lim_ts itself only when the CPU is below r->lim_cpu);
 * then the CPU of that head (pf_switch_run()); else pf_merge_next().
 */
static inline int pf_next(void *priv, struct ea_event *ev, struct ea_err *err)
{
	struct pf *r = priv;
	struct pcpu *run = r->run;

	if (run && run->head) {
		const struct ea_event *e = run->head;

		if (e->ts < r->lim_ts ||
		    (e->ts == r->lim_ts && r->last_cpu < r->lim_cpu)) {
			take_head(r, run, ev);
			return 1;
		}
		if (r->lim_cpu < r->ncpu && pf_switch_run(r, ev))
			return 1;
	}
	return pf_merge_next(r, ev, err);
}

/*
 * The first event of CPU cpu: its bundles decoded from the first, apart
 * from the reader's own stream. With sys_stats' initial frequencies
 * (given in pf_next(), across CPUs), 2: input.c reads ahead instead.
 */
static int pf_first_event(void *priv, int cpu, struct ea_event *ev,
			  bool *lost_before, struct ea_err *err)
{
	struct pf *r = priv;
	struct pcpu t;
	int rc;

	if (r->ix.nfreq0)
		return 2;
	if (cpu >= r->ncpu || !r->cpu[cpu].nb)
		return 0;
	/* the chunks, the intern table: the decoding thread's too */
	nb_lock(&r->nb);
	memset(&t, 0, sizeof(t));
	pf_head_reset(&t.hd);
	t.bi = r->cpu[cpu].bi;
	t.nb = r->cpu[cpu].nb;
	t.hd.lost_pending = r->cpu[cpu].lost0_pending;
	t.hd.lost_count = r->cpu[cpu].lost0_count;
	while ((rc = find_head(r, &t, err)) > 0) {
		struct ea_event e;

		take_head(r, &t, &e);
		if (e.type == EA_EV_LOST) {
			*lost_before = true;
			continue;
		}
		*ev = e;
		break;
	}
	nb_unlock(&r->nb);
	pf_head_free(&t.hd);
	return rc;
}

/*
 * pf_where()'s position after the event pf_next() last returned: the
 * CPU plus 1 (0: none, "end") in the high half, the packet of its bundle
 * in the low.
 */
static uint64_t pf_pos(void *priv)
{
	const struct pf *r = priv;

	return r->last_cpu < 0 ? 0 : r->cpu[r->last_cpu].where_pos;
}

/*
 * pf_next_n()'s loop for two CPUs while both have a head in their
 * current bundles and no initial frequency is left to give: the lower
 * head next, CPU 0 on ties, as pf_next() gives them (its run and limit
 * are that merge, kept across calls for any number of CPUs), without
 * the run's state. Events from ev[i] on, up to ev[n - 1]; returns the new
 * i. The run is left unset: pf_next() then starts from pf_merge_next(),
 * which decodes the next bundle of a CPU whose head is used up.
 */
static uint32_t pf_next_two(struct pf *r, struct ea_event *ev, uint64_t *pos,
			    uint32_t i, uint32_t n)
{
	struct pcpu *c0 = &r->cpu[0], *c1 = &r->cpu[1], *c = c0;
	const struct ea_event *h0 = c0->head, *h1 = c1->head;

	while (i < n && h0 && h1) {
		if (h1->ts < h0->ts) {
			c = c1;
			ev[i] = *h1;
			h1 = c1->head = pf_head_next(&c1->hd, r->crop);
		} else {
			c = c0;
			ev[i] = *h0;
			h0 = c0->head = pf_head_next(&c0->hd, r->crop);
		}
		pos[i++] = c->where_pos;
	}
	r->run = NULL;
	r->last_cpu = c == c0 ? 0 : 1;
	r->pos_now = c->where_pos;
	return i;
}

/* nb_src.next_n: pf_next() up to n times, each event's pf_pos() beside */
static int pf_next_n(void *priv, struct ea_event *ev, uint64_t *pos,
		     uint32_t n, uint32_t *got, struct ea_err *err)
{
	struct pf *r = priv;
	uint32_t i = 0;
	int rc = 1;

	while (i < n) {
		if (r->ncpu == 2 && r->cpu[0].head && r->cpu[1].head &&
		    !r->freq_seen) {
			i = pf_next_two(r, ev, pos, i, n);
			continue;
		}
		rc = pf_next(r, &ev[i], err);
		if (rc <= 0)
			break;
		pos[i++] = r->pos_now;	/* pf_pos(r), kept by pf_next() */
	}
	*got = i;
	return rc;
}

static void pf_where_at(void *priv, uint64_t pos, char *buf, size_t n)
{
	(void)priv;
	if (!(pos >> 32))
		snprintf(buf, n, "end");
	else
		snprintf(buf, n, "cpu %d packet %" PRIu32,
			 (int)(pos >> 32) - 1, (uint32_t)pos);
}

static void pf_where(void *priv, char *buf, size_t n)
{
	struct pf *r = priv;

	pf_where_at(r, r->nb.begun ? nb_pos(&r->nb) : pf_pos(r), buf, n);
}

/*
 * Blocks (next-blocks.h) for a file whose decoded events have no budget
 * to keep (pf_spend_decoded(): neither inflated nor with
 * compressed_packets): there the order in which pf_first_event() and the
 * stream decode changes nothing. Events per block of the decoding
 * thread: EATRACE_PF_BLOCK (tests: a few exercise the hand-over; 0, one
 * at a time as for the other files, the tests' reference).
 */
static void pf_blocks_init(struct pf *r, int ncpus)
{
	struct nb_src src = {r, pf_next_n, pf_pos, pf_where_at, r->path, ncpus};

	nb_reader_init(&r->nb, &src, "EATRACE_PF_BLOCK",
		       !r->ix.expanded && !r->ix.nbufs && r->ix.fd >= 0, false,
		       r->ix.len);
}

static int pf_next_op(void *priv, struct ea_event *ev, struct ea_err *err)
{
	struct pf *r = priv;

	return nb_reader_reads(&r->nb) ? nb_next(&r->nb, ev, err)
				       : pf_next(r, ev, err);
}

static int pf_next_block(void *priv, const struct ea_event **evs, size_t *n,
			 struct ea_err *err)
{
	return nb_reader_next_block(&((struct pf *)priv)->nb, evs, n, err);
}

static void pf_block_at(void *priv, size_t i)
{
	nb_reader_block_at(&((struct pf *)priv)->nb, i);
}

static bool pf_checked(void *priv)
{
	return nb_reader_checked(&((const struct pf *)priv)->nb);
}

static int pf_threads(void *priv)
{
	return nb_reader_threads(&((const struct pf *)priv)->nb);
}

static void pf_close(void *priv)
{
	pf_free(priv);
}

const struct ea_reader_ops ea_reader_perfetto = {
	.name = "perfetto",
	.probe = pf_probe_op,
	.open = pf_open,
	.next = pf_next_op,
	.where = pf_where,
	.close = pf_close,
	.first_event = pf_first_event,
	.checked = pf_checked,
	.next_block = pf_next_block,
	.block_at = pf_block_at,
	.threads = pf_threads,
};
