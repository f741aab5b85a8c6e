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
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "eatrace/escape.h"
#include "eatrace/output.h"
#include "output/perfetto-priv.h"

static void sep(struct ea_perfetto *p)
{
	if (!p->first)
		fputs(",\n", p->f);
	p->first = false;
}

static void jstr(FILE *f, const char *s)
{
	ea_esc_json(f, s);
}

static void meta(struct ea_perfetto *p, const char *what, int tid,
		 const char *key, const char *sval, long long ival)
{
	sep(p);
	fprintf(p->f, "{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"%s\",\"args\":{\"%s\":",
		p->pid, tid, what, key);
	if (sval)
		jstr(p->f, sval);
	else
		fprintf(p->f, "%lld", ival);
	fputs("}}", p->f);
}

/* Decimal digits of v at p; the end. */
static char *put_u64(char *p, uint64_t v)
{
	char d[20];
	int n = 0;

	do {
		d[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = d[--n];
	return p;
}

/* "%lld" of v at p; the end. */
static char *put_i64(char *p, long long v)
{
	if (v < 0) {
		*p++ = '-';
		return put_u64(p, -(uint64_t)v);
	}
	return put_u64(p, (uint64_t)v);
}

/* Microseconds since t0 with ns resolution at p, "1234.567"; the end. */
static char *put_us(char *p, uint64_t ns, uint64_t t0)
{
	uint64_t d = ns > t0 ? ns - t0 : 0;
	unsigned r = (unsigned)(d % 1000);

	p = put_u64(p, d / 1000);
	*p++ = '.';
	*p++ = (char)('0' + r / 100);
	*p++ = (char)('0' + r / 10 % 10);
	*p++ = (char)('0' + r % 10);
	return p;
}

static char *put_str(char *p, const char *s)
{
	size_t n = strlen(s);

	memcpy(p, s, n);
	return p + n;
}

static void counter(struct ea_perfetto *p, const char *name, uint64_t ts,
		    uint64_t t0, const char *val)
{
	char b[96], *e;

	/* fprintf()'s "{\"ph\":\"C\",\"pid\":%d,\"tid\":0,\"name\":" NAME
	 * ",\"ts\":%s,\"args\":{\"value\":%s}}", by hand */
	sep(p);
	e = put_str(b, "{\"ph\":\"C\",\"pid\":");
	e = put_i64(e, p->pid);
	e = put_str(e, ",\"tid\":0,\"name\":");
	fwrite(b, 1, (size_t)(e - b), p->f);
	jstr(p->f, name);
	e = put_str(b, ",\"ts\":");
	e = put_us(e, ts, t0);
	e = put_str(e, ",\"args\":{\"value\":");
	fwrite(b, 1, (size_t)(e - b), p->f);
	fputs(val, p->f);
	fputs("}}", p->f);
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
		counter(p, name, a, t0, val);
		snprintf(last, sizeof(last), "%s", val);
	}
	/* Close the last step at the end so its length is visible. */
	if (t->nbuckets)
		counter(p, name, t->end, t0, "0");
}

/*
 * A task's slice on CPU c: the text fprintf() wrote with
 * "{\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"name\":" NAME
 * ",\"cat\":\"task\",\"ts\":%s,\"dur\":%s,\"args\":{\"pid\":%d,\"freq_khz\":%lld}}",
 * formatted by hand (one a busy stretch: the file's bulk).
 */
static void slice(struct ea_perfetto *p, int c, const char *comm,
		  const struct ea_tl_change *ch, long long fv, uint64_t t0)
{
	char b[160], *e = b;

	sep(p);
	e = put_str(e, "{\"ph\":\"X\",\"pid\":");
	e = put_i64(e, p->pid);
	e = put_str(e, ",\"tid\":");
	e = put_i64(e, c + 1);
	e = put_str(e, ",\"name\":");
	fwrite(b, 1, (size_t)(e - b), p->f);
	jstr(p->f, comm);
	e = put_str(b, ",\"cat\":\"task\",\"ts\":");
	e = put_us(e, ch->t0, t0);
	e = put_str(e, ",\"dur\":");
	e = put_us(e, ch->t1, ch->t0);
	e = put_str(e, ",\"args\":{\"pid\":");
	e = put_i64(e, ch->pid);
	e = put_str(e, ",\"freq_khz\":");
	e = put_i64(e, fv);
	e = put_str(e, "}}");
	fwrite(b, 1, (size_t)(e - b), p->f);
}

/* Per CPU: OPP and idle-state counters and task slices, in the order the
 * changes happened (time order), so that a size cap cuts them all at one
 * time. */
static void changes(struct ea_perfetto *p, const struct ea_timeline *t,
		    const struct ea_state *s, int ncpus, uint64_t t0)
{
	long long *last_f = malloc((size_t)(ncpus > 0 ? ncpus : 1) * sizeof(*last_f));
	long long *last_i = malloc((size_t)(ncpus > 0 ? ncpus : 1) * sizeof(*last_i));
	char fn[48], in[48], val[32], cb[32];

	if (!last_f || !last_i) {
		free(last_f);
		free(last_i);
		return;
	}
	for (int c = 0; c < ncpus; c++) {
		last_f[c] = -2;
		last_i[c] = -3;
	}
	for (size_t k = 0; k < t->nch && !p->full; k++) {
		const struct ea_tl_change *ch = &t->ch[k];
		int c = ch->cpu;
		long long fv = ch->mode == EA_CPU_BUSY ?
			(long long)ea_pf_priced_khz(t->acct, c, ch->freq_khz) : 0;
		long long iv = ch->mode == EA_CPU_IDLE ? ch->idle_state : -1;

		if (c >= ncpus || ch->t1 <= ch->t0)
			continue;
		if (ea_pf_check_cap(p, k, ch->t0))
			break;
		if (fv != last_f[c]) {
			snprintf(fn, sizeof(fn), "OPP CPU %d (kHz)", c);
			snprintf(val, sizeof(val), "%lld", fv);
			counter(p, fn, ch->t0, t0, val);
			last_f[c] = fv;
		}
		if (iv != last_i[c]) {
			snprintf(in, sizeof(in), "idle state CPU %d", c);
			snprintf(val, sizeof(val), "%lld", iv);
			counter(p, in, ch->t0, t0, val);
			last_i[c] = iv;
		}
		if (ch->mode != EA_CPU_BUSY)
			continue;
		slice(p, c, ea_pf_comm_of(s, ch->pid, cb), ch, fv, t0);
	}
	free(last_f);
	free(last_i);
}

static void json_process(struct ea_perfetto *p, const char *name,
			 const struct ea_timeline *t, const struct ea_state *s,
			 uint64_t t0)
{
	const struct ea_model *m = t->acct->model;
	int ncpus = t->acct->trace_ncpus < t->ncpus ? t->acct->trace_ncpus : t->ncpus;
	char n[EA_NAME_LEN + 64];
	size_t step;

	p->pid++;
	meta(p, "process_name", 0, "name", name, 0);
	meta(p, "process_sort_index", 0, "sort_index", NULL, p->pid);
	for (int c = 0; c < ncpus; c++) {
		snprintf(n, sizeof(n), "CPU %d", c);
		meta(p, "thread_name", c + 1, "name", n, 0);
		meta(p, "thread_sort_index", c + 1, "sort_index", NULL, c);
	}
	step = ea_pf_power_step(p, t, ncpus, 100);
	for (int i = 0; i < m->nclusters; i++) {
		snprintf(n, sizeof(n), "power %s (%s)", m->clusters[i].name, m->power_unit);
		power_counters(p, t, t->ncpus + i, n, t0, false, step);
		snprintf(n, sizeof(n), "wakeup energy %s (%s x s)", m->clusters[i].name,
			 m->power_unit);
		power_counters(p, t, t->ncpus + i, n, t0, true, step);
	}
	for (int c = 0; c < ncpus; c++) {
		snprintf(n, sizeof(n), "power CPU %d (%s)", c, m->power_unit);
		power_counters(p, t, c, n, t0, false, step);
		snprintf(n, sizeof(n), "wakeup energy CPU %d (%s x s)", c, m->power_unit);
		power_counters(p, t, c, n, t0, true, step);
	}
	changes(p, t, s, ncpus, t0);
}

static void json_end(struct ea_perfetto *p)
{
	fputs("\n]}\n", p->f);
}

static const struct ea_pf_ops json_ops = { json_process, json_end };

int ea_pf_json_begin(struct ea_perfetto *p)
{
	p->ops = &json_ops;
	p->first = true;
	fputs("{\"displayTimeUnit\":\"ms\",\"otherData\":{\"generator\":\"eatrace\"},\n"
	      "\"traceEvents\":[\n", p->f);
	return 0;
}
