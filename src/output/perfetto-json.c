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

/*
 * The text goes through a buffer of the writer's own (p->held bytes of
 * buf), given to the file a buffer at a time: one memcpy per piece, not
 * one fwrite. ea_pf_tell() counts what it holds.
 */
#define JBUF_BYTES 65536

/* The most one slice takes: its fixed text, "CPU n"'s prefix, a task's
 * text (an escaped comm, 6 bytes per byte at most), two times, a
 * frequency. */
#define SLICE_MAX_BYTES 512

struct jw {
	char buf[JBUF_BYTES];
	char pid[24]; /* the process's number, as text */
	size_t pid_len;
};

static struct jw *jw(const struct ea_perfetto *p)
{
	return p->impl;
}

static void jflush(struct ea_perfetto *p)
{
	if (p->held) {
		fwrite(jw(p)->buf, 1, p->held, p->f);
		ea_pf_gave(p, p->held);
	}
	p->held = 0;
}

/* Where n more bytes (n <= JBUF_BYTES) go; held grows by what is written
 * there when the caller gives the end (held_to()). */
static char *room(struct ea_perfetto *p, size_t n)
{
	if (p->held + n > JBUF_BYTES)
		jflush(p);
	return jw(p)->buf + p->held;
}

static void held_to(struct ea_perfetto *p, const char *end)
{
	p->held = (size_t)(end - jw(p)->buf);
}

static void put_bytes(struct ea_perfetto *p, const char *s, size_t n)
{
	if (n > JBUF_BYTES) {
		jflush(p);
		fwrite(s, 1, n, p->f);
		ea_pf_gave(p, n);
		return;
	}
	memcpy(room(p, n), s, n);
	p->held += n;
}

static void put_text(struct ea_perfetto *p, const char *s)
{
	put_bytes(p, s, strlen(s));
}

/* s as a JSON string (rare names: written to the file directly). */
static void put_jstr(struct ea_perfetto *p, const char *s)
{
	jflush(p);
	ea_esc_json(p->f, s);
}

/* s as a JSON string in a new buffer (*len bytes); NULL: no memory. */
static char *esc_dup(const char *s, size_t *len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&buf, &n);

	if (!m)
		return NULL;
	ea_esc_json(m, s);
	if (fclose(m)) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

static void sep(struct ea_perfetto *p)
{
	if (!p->first)
		put_bytes(p, ",\n", 2);
	p->first = false;
}

static void meta(struct ea_perfetto *p, const char *what, int tid,
		 const char *key, const char *sval, long long ival)
{
	char b[160];

	sep(p);
	snprintf(b, sizeof(b),
		 "{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"%s\",\"args\":"
		 "{\"%s\":",
		 p->pid, tid, what, key);
	put_text(p, b);
	if (sval) {
		put_jstr(p, sval);
	} else {
		snprintf(b, sizeof(b), "%lld", ival);
		put_text(p, b);
	}
	put_bytes(p, "}}", 2);
}

/* "00" to "99". */
static const char two_digits[201] = "000102030405060708091011121314151617181920"
				    "21222324252627282930313233343536373839"
				    "404142434445464748495051525354555657585960"
				    "61626364656667686970717273747576777879"
				    "8081828384858687888990919293949596979899";

/* Decimal digits of v at p; the end. */
static char *put_u64(char *p, uint64_t v)
{
	static const uint64_t pow10[20] = {
		1ull,
		10ull,
		100ull,
		1000ull,
		10000ull,
		100000ull,
		1000000ull,
		10000000ull,
		100000000ull,
		1000000000ull,
		10000000000ull,
		100000000000ull,
		1000000000000ull,
		10000000000000ull,
		100000000000000ull,
		1000000000000000ull,
		10000000000000000ull,
		100000000000000000ull,
		1000000000000000000ull,
		10000000000000000000ull,
	};
	/* digits: floor(log10(v)) + 1, from the bit length (1233 / 4096 a
	 * little above log10(2)), one short below the next power of 10 */
	int t = (64 - __builtin_clzll(v | 1)) * 1233 >> 12;
	int n = t + (v >= pow10[t]);
	char *d = p + (n ? n : 1);

	p = d;
	while (v >= 100) {
		d -= 2;
		memcpy(d, two_digits + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10)
		memcpy(d - 2, two_digits + 2 * v, 2);
	else
		d[-1] = (char)('0' + v);
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
	uint64_t us = d / 1000;
	unsigned r = (unsigned)(d % 1000);

	if (us >= 100000000) {
		/* the last 8 digits in 32 bits */
		uint32_t lo = (uint32_t)(us % 100000000);

		p = put_u64(p, us / 100000000);
		for (int k = 6; k >= 0; k -= 2) {
			memcpy(p + k, two_digits + 2 * (lo % 100), 2);
			lo /= 100;
		}
		p += 8;
	} else {
		p = put_u64(p, us);
	}
	*p++ = '.';
	*p++ = (char)('0' + r / 100);
	memcpy(p, two_digits + 2 * (r % 100), 2);
	return p + 2;
}

static char *put_mem(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

/* A literal's bytes at p; the end. */
#define PUT_LIT(p, lit) put_mem(p, lit, sizeof(lit) - 1)

/* A counter: qname is its name as a JSON string (qlen bytes), val its
 * value's text. */
static void counter(struct ea_perfetto *p, const char *qname, size_t qlen,
		    uint64_t ts, uint64_t t0, const char *val)
{
	char b[96], *e;

	/* fprintf()'s "{\"ph\":\"C\",\"pid\":%d,\"tid\":0,\"name\":" NAME
	 * ",\"ts\":%s,\"args\":{\"value\":%s}}", by hand */
	sep(p);
	e = PUT_LIT(b, "{\"ph\":\"C\",\"pid\":");
	e = put_mem(e, jw(p)->pid, jw(p)->pid_len);
	e = PUT_LIT(e, ",\"tid\":0,\"name\":");
	put_bytes(p, b, (size_t)(e - b));
	put_bytes(p, qname, qlen);
	e = PUT_LIT(b, ",\"ts\":");
	e = put_us(e, ts, t0);
	e = PUT_LIT(e, ",\"args\":{\"value\":");
	put_bytes(p, b, (size_t)(e - b));
	put_text(p, val);
	put_bytes(p, "}}", 2);
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
	char *qname = esc_dup(name, &qlen);

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
		counter(p, qname, qlen, a, t0, val);
		snprintf(last, sizeof(last), "%s", val);
	}
	/* Close the last step at the end so its length is visible. */
	if (t->nbuckets)
		counter(p, qname, qlen, t->end, t0, "0");
	free(qname);
}

/*
 * A task's text in its slices, made once per task: its name as a JSON
 * string and ",\"cat\":\"task\",\"ts\":" (name_len bytes), then
 * ",\"args\":{\"pid\":PID,\"freq_khz\":" (tail_len bytes).
 */
struct task_text {
	uint16_t name_len, tail_len;
	char *text;
};

/* The tasks' texts, found by pid (its value: index + 1). */
struct task_map {
	struct ea_pf_pid_map by_pid;
	struct task_text *e;
	size_t n, cap;
};

static void task_map_free(struct task_map *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->e[i].text);
	free(m->e);
	ea_pf_pid_map_free(&m->by_pid);
	memset(m, 0, sizeof(*m));
}

/* Room for one more task; false when out of memory. */
static bool task_room(struct task_map *m)
{
	if (m->n == m->cap) {
		size_t n = m->cap ? m->cap * 2 : 64;
		struct task_text *e = realloc(m->e, n * sizeof(*e));

		if (!e)
			return false;
		m->e = e;
		m->cap = n;
	}
	return ea_pf_pid_map_room(&m->by_pid);
}

/* pid's text (ea_pf_comm_of()'s name); NULL: out of memory. */
static const struct task_text *task_text(struct task_map *m,
					 const struct ea_state *s, int32_t pid)
{
	static const char cat[] = ",\"cat\":\"task\",\"ts\":";
	struct task_text *tt;
	char cb[32], tail[64], *q, *e;
	size_t qlen, tlen, slot;

	if (m->by_pid.cap) {
		uint64_t v = m->by_pid.val[ea_pf_pid_slot(&m->by_pid, pid)];

		if (v)
			return &m->e[v - 1];
	}
	if (!task_room(m))
		return NULL;
	q = esc_dup(ea_pf_comm_of(s, pid, cb), &qlen);
	if (!q)
		return NULL;
	e = PUT_LIT(tail, ",\"args\":{\"pid\":");
	e = put_i64(e, pid);
	e = PUT_LIT(e, ",\"freq_khz\":");
	tlen = (size_t)(e - tail);
	/* a comm has at most 15 bytes, 6 each escaped: never longer */
	tt = &m->e[m->n];
	tt->text =
		qlen <= 128 ? realloc(q, qlen + sizeof(cat) - 1 + tlen) : NULL;
	if (!tt->text) {
		free(q);
		return NULL;
	}
	memcpy(tt->text + qlen, cat, sizeof(cat) - 1);
	memcpy(tt->text + qlen + sizeof(cat) - 1, tail, tlen);
	tt->name_len = (uint16_t)(qlen + sizeof(cat) - 1);
	tt->tail_len = (uint16_t)tlen;
	slot = ea_pf_pid_slot(&m->by_pid, pid);
	m->by_pid.pid[slot] = pid;
	m->by_pid.val[slot] = ++m->n;
	m->by_pid.n++;
	return tt;
}

/* What one CPU's changes write again and again, made once. */
struct cpu_text {
	char pre[64]; /* "{\"ph\":\"X\",\"pid\":P,\"tid\":C+1,\"name\":" */
	size_t pre_len;
	long long f, i; /* the OPP and idle state last written */
	char f_txt[24]; /* f as text */
	size_t f_len;
	char *opp, *idle; /* the counters' names as JSON strings (NULL:
			     not made yet) */
	size_t opp_len, idle_len;
};

/*
 * A task's slice on a CPU: the text fprintf() wrote with
 * "{\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"name\":" NAME
 * ",\"cat\":\"task\",\"ts\":%s,\"dur\":%s,\"args\":{\"pid\":%d,\"freq_khz\":%lld}}",
 * from its pieces (one a busy stretch: the file's bulk).
 */
static void slice(struct ea_perfetto *p, const struct cpu_text *ct,
		  const struct task_text *tt, const struct ea_tl_change *ch,
		  uint64_t t0)
{
	char *e = room(p, SLICE_MAX_BYTES);

	if (!p->first)
		e = PUT_LIT(e, ",\n");
	p->first = false;
	e = put_mem(e, ct->pre, ct->pre_len);
	e = put_mem(e, tt->text, tt->name_len);
	e = put_us(e, ch->t0, t0);
	e = PUT_LIT(e, ",\"dur\":");
	e = put_us(e, ch->t1, ch->t0);
	e = put_mem(e, tt->text + tt->name_len, tt->tail_len);
	e = put_mem(e, ct->f_txt, ct->f_len);
	e = PUT_LIT(e, "}}");
	held_to(p, e);
}

/* CPU c's OPP counter (opp) or idle-state counter (its name made the
 * first time). */
static void cpu_counter(struct ea_perfetto *p, char **qname, size_t *qlen,
			bool opp, int c, uint64_t ts, uint64_t t0, long long v)
{
	char n[48], val[32];

	if (!*qname) {
		if (opp)
			snprintf(n, sizeof(n), "OPP CPU %d (kHz)", c);
		else
			snprintf(n, sizeof(n), "idle state CPU %d", c);
		*qname = esc_dup(n, qlen);
		if (!*qname) {
			p->failed = true;
			return;
		}
	}
	*put_i64(val, v) = 0;
	counter(p, *qname, *qlen, ts, t0, val);
}

/* Per CPU: OPP and idle-state counters and task slices, in the order the
 * changes happened (time order), so that a size cap cuts them all at one
 * time. */
static void changes(struct ea_perfetto *p, const struct ea_timeline *t,
		    const struct ea_state *s, int ncpus, uint64_t t0)
{
	struct cpu_text *cpu =
		calloc((size_t)(ncpus > 0 ? ncpus : 1), sizeof(*cpu));
	struct task_map tasks = {0};
	struct ea_tl_reader *r = ea_tl_reader_new(t);
	struct ea_tl_change chv, *ch = &chv;

	if (!cpu || !r) {
		free(cpu);
		ea_tl_reader_free(r);
		p->failed = true;
		return;
	}
	for (int c = 0; c < ncpus; c++) {
		char *e = PUT_LIT(cpu[c].pre, "{\"ph\":\"X\",\"pid\":");

		e = put_mem(e, jw(p)->pid, jw(p)->pid_len);
		e = PUT_LIT(e, ",\"tid\":");
		e = put_i64(e, c + 1);
		e = PUT_LIT(e, ",\"name\":");
		cpu[c].pre_len = (size_t)(e - cpu[c].pre);
		cpu[c].f = -2;
		cpu[c].i = -3;
	}
	for (size_t k = 0; !p->full && !p->failed && ea_tl_reader_next(r, ch);
	     k++) {
		int c = ch->cpu;
		struct cpu_text *ct = &cpu[c < ncpus ? c : 0];
		long long fv = ch->mode == EA_CPU_BUSY
				       ? (long long)ea_pf_priced_khz(
						 t->acct, c, ch->freq_khz)
				       : 0;
		long long iv = ch->mode == EA_CPU_IDLE ? ch->idle_state : -1;
		const struct task_text *tt;

		if (c >= ncpus || ch->t1 <= ch->t0)
			continue;
		if (ea_pf_check_cap(p, k, ch->t0))
			break;
		if (fv != ct->f) {
			cpu_counter(p, &ct->opp, &ct->opp_len, true, c, ch->t0,
				    t0, fv);
			ct->f = fv;
			ct->f_len =
				(size_t)(put_i64(ct->f_txt, fv) - ct->f_txt);
		}
		if (iv != ct->i) {
			cpu_counter(p, &ct->idle, &ct->idle_len, false, c,
				    ch->t0, t0, iv);
			ct->i = iv;
		}
		if (ch->mode != EA_CPU_BUSY)
			continue;
		tt = task_text(&tasks, s, ch->pid);
		if (!tt) {
			p->failed = true;
			break;
		}
		slice(p, ct, tt, ch, t0);
	}
	task_map_free(&tasks);
	ea_tl_reader_free(r);
	for (int c = 0; c < ncpus; c++) {
		free(cpu[c].opp);
		free(cpu[c].idle);
	}
	free(cpu);
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
	jw(p)->pid_len = (size_t)(put_i64(jw(p)->pid, p->pid) - jw(p)->pid);
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
	changes(p, t, s, ncpus, t0);
	jflush(p);
}

static void json_end(struct ea_perfetto *p)
{
	put_bytes(p, "\n]}\n", 4);
	jflush(p);
	free(p->impl);
	p->impl = NULL;
}

static const struct ea_pf_ops json_ops = {json_process, json_end};

int ea_pf_json_begin(struct ea_perfetto *p)
{
	p->impl = malloc(sizeof(struct jw));
	if (!p->impl)
		return -1;
	p->ops = &json_ops;
	p->first = true;
	put_text(p, "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"generator\":"
		    "\"eatrace\"},\n"
		    "\"traceEvents\":[\n");
	return 0;
}
