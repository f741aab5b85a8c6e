// SPDX-License-Identifier: GPL-2.0-only
/*
 * Chrome trace-event JSON (include/eatrace/perfetto.h, docs/html.md): the
 * --perfetto file unless its name ends in .pftrace or .perfetto-trace.
 *
 * { "displayTimeUnit": "ms", "traceEvents": [ ... ] } with, per process
 * (one priced timeline):
 *  - "M" metadata: process_name, process_sort_index, and thread_name
 *    "CPU n" for tid n + 1 (tid 0 is avoided: some viewers treat it as
 *    the process itself);
 *  - "X" complete events (ts, dur in us) for each stretch a task ran on a
 *    CPU, on that CPU's thread;
 *  - "C" counters, one series each, at the process level: "power CPU n",
 *    "power <cluster>" (mean busy + idle power per timeline bucket,
 *    power_unit: never above the model's), "wakeup energy CPU n" and
 *    "wakeup energy <cluster>" (the wakeup energy of each bucket,
 *    power_unit x s, drawn apart so that it does not read as power),
 *    "OPP CPU n" (kHz while busy: the OPP it is priced at, the assumed
 *    one while the trace has not said), "idle state CPU n" (index while
 *    idle, -1 busy). A counter is written only when its value changes.
 * Timestamps are the trace's own (microseconds, ns resolution) unless the
 * caller gives another origin. With a size cap (ea_perfetto_cap()), the
 * power counters are downsampled (whole buckets merged) to fit half of it,
 * and the task slices and the OPP and idle-state counters, written in time
 * order, stop at the time the file reaches it.
 *
 * The text's pieces and the slices' pass are perfetto-json-text.c's; the
 * pass may have run during the run (perfetto-json-ahead.c), its text
 * then written out here.
 */
#include <stdlib.h>
#include <string.h>

#include "eatrace/escape.h"
#include "eatrace/output.h"
#include "output/perfetto-json-split.h"
#include "output/perfetto-json-text.h"
#include "output/timeline-changes.h"

/* s as a JSON string (rare names: written to the file directly). */
static void put_jstr(struct ea_perfetto *p, const char *s)
{
	pj_flush(p);
	ea_esc_json(p->f, s);
}

static void meta(struct ea_perfetto *p, const char *what, int tid,
		 const char *key, const char *sval, long long ival)
{
	char b[160];

	pj_sep(p);
	snprintf(b, sizeof(b),
		 "{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"%s\",\"args\":"
		 "{\"%s\":",
		 p->pid, tid, what, key);
	pj_put_text(p, b);
	if (sval) {
		put_jstr(p, sval);
	} else {
		snprintf(b, sizeof(b), "%lld", ival);
		pj_put_text(p, b);
	}
	pj_put_bytes(p, "}}", 2);
}

/* Power (wake false: busy + idle energy over the bucket's length) or the
 * bucket's wakeup energy (wake true) of column col, as a counter; step
 * buckets at a time (a downsampling step, to keep under a size cap). */
static void power_counters(struct ea_perfetto *p, const struct ea_timeline *t,
			   int col, const char *name, uint64_t t0, bool wake,
			   size_t step)
{
	char val[40], last[40] = "";
	double val_of = 0; /* val is ea_fmt_num(val_of) once have_val */
	bool have_val = false;
	size_t qlen;
	char *qname = pj_esc_dup(name, &qlen);

	if (!qname) {
		p->failed = true;
		return;
	}
	for (size_t b = 0; b < t->nbuckets; b += step) {
		uint64_t a;
		double w;

		if (!ea_pf_power_at(t, col, b, step, wake, &a, &w))
			continue;
		/* the same bits give the same digits: most buckets repeat
		 * the previous one's power */
		if (!have_val || memcmp(&w, &val_of, sizeof(w))) {
			ea_fmt_num(val, w);
			val_of = w;
			have_val = true;
		}
		/* the same text is the same value here (last is "" at
		 * first, never a number's text) */
		if (ea_pf_counter_repeats(true, !strcmp(val, last), wake, w))
			continue;
		pj_counter(p, qname, qlen, a, t0, val);
		snprintf(last, sizeof(last), "%s", val);
	}
	/* Close the last step at the end so its length is visible. */
	if (t->nbuckets)
		pj_counter(p, qname, qlen, t->end, t0, "0");
	free(qname);
}

/* The changes' text at the end of the run (what a pass ahead did not
 * write), from change from on by a thread of its own when p asks
 * (perfetto-json-split.c). */
static void changes(struct ea_perfetto *p, const struct ea_timeline *t,
		    const struct ea_state *s, int ncpus, uint64_t t0)
{
	struct ea_tl_reader *r = ea_tl_reader_new(t);
	size_t from = pj_split_from(p, t), until = SIZE_MAX;
	struct pj_split *sp = NULL;
	struct ea_tl_change ch;
	struct pj_pass ps;

	if (!r || pj_pass_init(&ps, p, t->acct, ncpus, NULL, 0)) {
		if (r)
			pj_pass_free(&ps);
		ea_tl_reader_free(r);
		p->failed = true;
		return;
	}
	if (from && (sp = pj_split_start(p, t, s, ncpus, t0, from)))
		until = from;
	for (;;) {
		while (!p->full && !p->failed && ps.k < until &&
		       tl_reader_next(r, &ch) && pj_pass_change(p, &ps, &ch, s, t0))
			;
		if (ps.k != until || p->full || p->failed)
			break;
		/* at the thread's first change: its text, or on from there */
		if (pj_split_take(sp, p))
			break;
		until = SIZE_MAX;
	}
	pj_split_free(sp, p);
	pj_pass_free(&ps);
	ea_tl_reader_free(r);
}

static void json_process(struct ea_perfetto *p, const char *name,
			 const struct ea_timeline *t, const struct ea_state *s,
			 uint64_t t0)
{
	const struct ea_model *m = t->acct->model;
	int ncpus = t->acct->trace_ncpus < t->ncpus ? t->acct->trace_ncpus
						    : t->ncpus;
	char n[EA_NAME_LEN + 64];
	size_t step;

	p->pid++;
	pj_w(p)->pid_len =
		(size_t)(pj_put_i64(pj_w(p)->pid, p->pid) - pj_w(p)->pid);
	meta(p, "process_name", 0, "name", name, 0);
	meta(p, "process_sort_index", 0, "sort_index", NULL, p->pid);
	for (int c = 0; c < ncpus; c++) {
		snprintf(n, sizeof(n), "CPU %d", c);
		meta(p, "thread_name", c + 1, "name", n, 0);
		meta(p, "thread_sort_index", c + 1, "sort_index", NULL, c);
	}
	step = ea_pf_power_step(p, t, ncpus, 100);
	for (int i = 0; i < m->nclusters; i++) {
		snprintf(n, sizeof(n), "power %s (%s)", m->clusters[i].name,
			 m->power_unit);
		power_counters(p, t, t->ncpus + i, n, t0, false, step);
		snprintf(n, sizeof(n), "wakeup energy %s (%s x s)",
			 m->clusters[i].name, m->power_unit);
		power_counters(p, t, t->ncpus + i, n, t0, true, step);
	}
	for (int c = 0; c < ncpus; c++) {
		snprintf(n, sizeof(n), "power CPU %d (%s)", c, m->power_unit);
		power_counters(p, t, c, n, t0, false, step);
		snprintf(n, sizeof(n), "wakeup energy CPU %d (%s x s)", c,
			 m->power_unit);
		power_counters(p, t, c, n, t0, true, step);
	}
	if (!p->ahead || !pf_json_ahead_take(p, t, s, t0, ncpus))
		changes(p, t, s, ncpus, t0);
	pj_flush(p);
}

static void json_end(struct ea_perfetto *p)
{
	pj_put_bytes(p, "\n]}\n", 4);
	pj_flush(p);
	free(p->impl);
	p->impl = NULL;
}

static const struct ea_pf_ops json_ops = {json_process, json_end};

int ea_pf_json_begin(struct ea_perfetto *p)
{
	struct pj_writer *w = malloc(sizeof(*w));

	if (!w)
		return -1;
	w->buf = w->own;
	w->cap = sizeof(w->own);
	w->held = NULL;
	p->impl = w;
	p->ops = &json_ops;
	p->first = true;
	pj_put_text(p, "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"generator\":"
		    "\"eatrace\"},\n"
		    "\"traceEvents\":[\n");
	return 0;
}
