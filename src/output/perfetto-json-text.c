// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON --perfetto writer's text (src/output/perfetto-json-text.h): its
 * buffer, its numbers by hand, and the pass over a timeline's changes, at
 * the end of the run or ahead.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eatrace/escape.h"
#include "output/perfetto-json-text.h"
#include "util/grow.h"

/* The most one slice takes: its fixed text, "CPU n"'s prefix, a task's
 * text (an escaped comm, 6 bytes per byte at most), two times, a
 * frequency; and up to PAD_BYTES past its end (put_padded()). */
#define SLICE_MAX_BYTES 512

/* put_padded()'s unit: a piece's source is readable, and its destination
 * has room, up to a whole number of these. */
#define PAD_BYTES 32

void pj_flush(struct ea_perfetto *p)
{
	struct pj_writer *w = pj_w(p);

	if (w->held) {
		char *q;

		if (!p->held)
			return;
		q = aligned_alloc(PJ_BLOCK_BYTES, PJ_BLOCK_BYTES);
		/* the full block held (freed there when out of memory) */
		if (!q || !pf_ahead_add_block(w->held, (uint8_t *)w->buf,
					      p->held)) {
			free(q);
			w->buf = w->own;
			w->cap = sizeof(w->own);
			w->held->failed = true;
			p->failed = true;
			p->held = 0;
			return;
		}
		w->buf = q;
		p->held = 0;
		return;
	}
	if (p->held) {
		fwrite(w->buf, 1, p->held, p->f);
		ea_pf_gave(p, p->held);
	}
	p->held = 0;
}

void pj_put_bytes(struct ea_perfetto *p, const char *s, size_t n)
{
	if (n > pj_w(p)->cap) {
		pj_flush(p);
		fwrite(s, 1, n, p->f);
		ea_pf_gave(p, n);
		return;
	}
	memcpy(pj_room(p, n), s, n);
	p->held += n;
}

void pj_put_text(struct ea_perfetto *p, const char *s)
{
	pj_put_bytes(p, s, strlen(s));
}

char *pj_esc_dup(const char *s, size_t *len)
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

/* Between two events (pj_sep()). */
#define SEP ",\n"

void pj_sep(struct ea_perfetto *p)
{
	if (!p->first)
		pj_put_bytes(p, SEP, 2);
	p->first = false;
}

/* "00" to "99". */
static const char two_digits[201] = "000102030405060708091011121314151617181920"
				    "21222324252627282930313233343536373839"
				    "404142434445464748495051525354555657585960"
				    "61626364656667686970717273747576777879"
				    "8081828384858687888990919293949596979899";

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

/* The decimal digits v takes: floor(log10(v)) + 1 (1 for 0), from the bit
 * length (1233 / 4096 a little above log10(2)), one short below the next
 * power of 10. */
static inline int u64_digits(uint64_t v)
{
	int t = (64 - __builtin_clzll(v | 1)) * 1233 >> 12;
	int n = t + (v >= pow10[t]);

	return n ? n : 1;
}

/* Decimal digits of v at p; the end. */
static char *put_u64(char *p, uint64_t v)
{
	char *d = p + u64_digits(v);

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

/* The bytes pj_put_i64() of v writes. */
static inline size_t i64_len(long long v)
{
	return v < 0 ? 1 + (size_t)u64_digits(-(uint64_t)v)
		     : (size_t)u64_digits((uint64_t)v);
}

char *pj_put_i64(char *p, long long v)
{
	if (v < 0) {
		*p++ = '-';
		return put_u64(p, -(uint64_t)v);
	}
	return put_u64(p, (uint64_t)v);
}

/* v < 1000 as three digits at p ("007"). */
static inline void put3(char *p, uint32_t v)
{
	uint32_t h = v / 100;

	p[0] = (char)('0' + h);
	memcpy(p + 1, two_digits + 2 * (v - 100 * h), 2);
}

/* v < 1000 in decimal at p ("%u"); the end. */
static inline char *put_upto3(char *p, uint32_t v)
{
	if (v >= 100) {
		put3(p, v);
		return p + 3;
	}
	if (v >= 10) {
		memcpy(p, two_digits + 2 * v, 2);
		return p + 2;
	}
	*p = (char)('0' + v);
	return p + 1;
}

/*
 * Microseconds since t0 with ns resolution at p, "1234.567"; the end.
 * d ns is s seconds and r ns (r < 10^9): the microseconds are s's digits
 * then r's first six ("%06u" of r / 1000) when s > 0, else r / 1000's
 * own; the fraction r's last three. In groups of three digits, each from
 * 32-bit divisions by constants.
 */
static char *put_us(char *p, uint64_t ns, uint64_t t0)
{
	uint64_t d = ns > t0 ? ns - t0 : 0;
	uint64_t sec = d / 1000000000u;
	uint32_t r = (uint32_t)(d - sec * 1000000000u);
	uint32_t ms = r / 1000000u, rest = r - ms * 1000000u;
	uint32_t us = rest / 1000u, ns3 = rest - us * 1000u;

	if (sec) {
		p = sec < 1000 ? put_upto3(p, (uint32_t)sec) : put_u64(p, sec);
		put3(p, ms);
		put3(p + 3, us);
		p += 6;
	} else if (ms) {
		p = put_upto3(p, ms);
		put3(p, us);
		p += 3;
	} else {
		p = put_upto3(p, us);
	}
	*p = '.';
	put3(p + 1, ns3);
	return p + 4;
}

/* The bytes put_us(ns, t0) writes: the microseconds' digits (d / 1000 in
 * decimal, as the seconds and groups above give them: no leading zero,
 * "0" for none), then ".nnn". */
static inline size_t us_len(uint64_t ns, uint64_t t0)
{
	uint64_t d = ns > t0 ? ns - t0 : 0;

	return (size_t)u64_digits(d / 1000u) + PJ_LIT(".000");
}

static char *put_mem(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

/* n bytes of s at p, copied PAD_BYTES at a time (moves of a constant size,
 * no call): up to PAD_BYTES - 1 bytes past n are read from s and written
 * at p, where what follows overwrites them (or they lie past the text's
 * end, in its buffer's room); the end after n. */
static inline char *put_padded(char *p, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i += PAD_BYTES)
		memcpy(p + i, s + i, PAD_BYTES);
	return p + n;
}

/* A literal's bytes at p; the end. */
#define PUT_LIT(p, lit) put_mem(p, lit, sizeof(lit) - 1)

/* A counter's fixed text, before its process number, its name, its time
 * and its value (pj_counter(), counter_len()). */
#define C_HEAD "{\"ph\":\"C\",\"pid\":"
#define C_NAME ",\"tid\":0,\"name\":"
#define C_TS ",\"ts\":"
#define C_VAL ",\"args\":{\"value\":"
#define C_END "}}"

void pj_counter(struct ea_perfetto *p, const char *qname, size_t qlen,
		uint64_t ts, uint64_t t0, const char *val)
{
	char b[96], *e;

	/* fprintf()'s "{\"ph\":\"C\",\"pid\":%d,\"tid\":0,\"name\":" NAME
	 * ",\"ts\":%s,\"args\":{\"value\":%s}}", by hand */
	pj_sep(p);
	e = PUT_LIT(b, C_HEAD);
	e = put_mem(e, pj_w(p)->pid, pj_w(p)->pid_len);
	e = PUT_LIT(e, C_NAME);
	pj_put_bytes(p, b, (size_t)(e - b));
	pj_put_bytes(p, qname, qlen);
	e = PUT_LIT(b, C_TS);
	e = put_us(e, ts, t0);
	e = PUT_LIT(e, C_VAL);
	pj_put_bytes(p, b, (size_t)(e - b));
	pj_put_text(p, val);
	pj_put_bytes(p, C_END, 2);
}

static void tasks_free(struct pj_tasks *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->e[i].text);
	free(m->e);
	ea_pf_pid_map_free(&m->by_pid);
	memset(m, 0, sizeof(*m));
}

/* Room for one more task; false when out of memory. */
static bool task_room(struct pj_tasks *m)
{
	if (ea_grow((void **)&m->e, &m->cap, m->n + 1, sizeof(*m->e), 64))
		return false;
	return ea_pf_pid_map_room(&m->by_pid);
}

/* pid's text (ea_pf_comm_of()'s name; ahead none); NULL: out of memory.
 * Inline in both its callers (pj_pass_change(), pj_pass_measure()), as it
 * was in the one: a call for each slice otherwise. */
static inline __attribute__((always_inline)) const struct pj_task *
task_text(struct pj_tasks *m, const struct ea_state *s, int32_t pid,
	  bool ahead)
{
	static const char cat[] = ",\"cat\":\"task\",\"ts\":";
	struct pj_task *tt;
	char cb[32], tail[64], *q, *e;
	size_t qlen = 0, tlen, slot;

	if (m->by_pid.cap) {
		uint64_t v = m->by_pid.val[ea_pf_pid_slot(&m->by_pid, pid)];

		if (v)
			return &m->e[v - 1];
	}
	if (!task_room(m))
		return NULL;
	q = ahead ? malloc(1) : pj_esc_dup(ea_pf_comm_of(s, pid, cb), &qlen);
	if (!q)
		return NULL;
	e = PUT_LIT(tail, ",\"args\":{\"pid\":");
	e = pj_put_i64(e, pid);
	e = PUT_LIT(e, ",\"freq_khz\":");
	tlen = (size_t)(e - tail);
	/* a comm has at most 15 bytes, 6 each escaped: never longer */
	tt = &m->e[m->n];
	tt->text = qlen <= 128
			   ? realloc(q, qlen + sizeof(cat) - 1 + tlen + PAD_BYTES)
			   : NULL;
	if (!tt->text) {
		free(q);
		return NULL;
	}
	memcpy(tt->text + qlen, cat, sizeof(cat) - 1);
	memcpy(tt->text + qlen + sizeof(cat) - 1, tail, tlen);
	/* read by put_padded() */
	memset(tt->text + qlen + sizeof(cat) - 1 + tlen, 0, PAD_BYTES);
	tt->name_len = (uint16_t)(qlen + sizeof(cat) - 1);
	tt->tail_len = (uint16_t)tlen;
	tt->pid = pid;
	slot = ea_pf_pid_slot(&m->by_pid, pid);
	m->by_pid.pid[slot] = pid;
	m->by_pid.val[slot] = ++m->n;
	m->by_pid.n++;
	return tt;
}

/* What one CPU's changes write again and again, made once. */
struct pj_cpu {
	char pre[64]; /* "{\"ph\":\"X\",\"pid\":P,\"tid\":C+1,\"name\":" */
	size_t pre_len;
	long long f, i; /* the OPP and idle state last written */
	char f_txt[PAD_BYTES]; /* f as text, then "}}" (a slice's end) */
	size_t f_len;
	uint32_t assumed_khz; /* a busy stretch's at an unknown OPP */
	char *opp, *idle; /* the counters' names as JSON strings (NULL:
			     not made yet) */
	size_t opp_len, idle_len;
};

/* Ahead: where the hole of task tt's name goes, at e in the buffer;
 * false when out of memory. */
static bool add_hole(struct ea_perfetto *p, struct pj_pass *ps,
		     const struct pj_task *tt, const char *e)
{
	if (ea_grow((void **)&ps->holes, &ps->holes_cap, ps->nholes + 1,
		    sizeof(*ps->holes), 4096))
		return false;
	ps->holes[ps->nholes++] = (struct pj_hole){
		.off = ps->held->bytes + (size_t)(e - pj_w(p)->buf),
		.task = (size_t)(tt - ps->tasks.e),
	};
	return true;
}

/* Between a slice's start and its length (slice(), slice_len()). */
#define S_DUR ",\"dur\":"

/*
 * A task's slice on a CPU: the text fprintf() wrote with
 * "{\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"name\":" NAME
 * ",\"cat\":\"task\",\"ts\":%s,\"dur\":%s,\"args\":{\"pid\":%d,\"freq_khz\":%lld}}",
 * from its pieces (one a busy stretch: the file's bulk); ahead, NAME is a
 * hole. false when out of memory.
 */
static bool slice(struct ea_perfetto *p, struct pj_pass *ps,
		  const struct pj_cpu *ct, const struct pj_task *tt,
		  const struct ea_tl_change *ch, uint64_t t0)
{
	char *e = pj_room(p, SLICE_MAX_BYTES);

	if (!p->first)
		e = PUT_LIT(e, SEP);
	p->first = false;
	e = put_padded(e, ct->pre, ct->pre_len);
	if (ps->name_holes && !add_hole(p, ps, tt, e))
		return false;
	e = put_padded(e, tt->text, tt->name_len);
	e = put_us(e, ch->t0, t0);
	e = PUT_LIT(e, S_DUR);
	e = put_us(e, ch->t1, ch->t0);
	e = put_padded(e, tt->text + tt->name_len, tt->tail_len);
	e = put_padded(e, ct->f_txt, ct->f_len);
	pj_held_to(p, e);
	return true;
}

/* CPU c's OPP counter (opp) or idle-state counter (its name made the
 * first time). */
static bool counter_name(char **qname, size_t *qlen, bool opp, int c)
{
	char n[48];

	if (*qname)
		return true;
	if (opp)
		snprintf(n, sizeof(n), "OPP CPU %d (kHz)", c);
	else
		snprintf(n, sizeof(n), "idle state CPU %d", c);
	*qname = pj_esc_dup(n, qlen);
	return *qname != NULL;
}

static void cpu_counter(struct ea_perfetto *p, char **qname, size_t *qlen,
			bool opp, int c, uint64_t ts, uint64_t t0, long long v)
{
	char val[32];

	if (!counter_name(qname, qlen, opp, c)) {
		p->failed = true;
		return;
	}
	*pj_put_i64(val, v) = 0;
	pj_counter(p, *qname, *qlen, ts, t0, val);
}

/*
 * The OPP (kHz: ea_pf_priced_khz(), the assumed one's looked up once; 0
 * when not busy) and idle state (-1 when not idle) that change ch puts
 * its CPU ct at: *fv, *iv. Whether the OPP differs from the one last
 * written (ct->f: then fv, its slices' text "fv}}" made).
 */
static inline bool cpu_values(struct pj_cpu *ct,
			      const struct ea_tl_change *ch, long long *fv,
			      long long *iv)
{
	*fv = ch->mode == EA_CPU_BUSY
		      ? (long long)(ch->freq_khz ? ch->freq_khz
						 : ct->assumed_khz)
		      : 0;
	*iv = ch->mode == EA_CPU_IDLE ? ch->idle_state : -1;
	if (*fv == ct->f)
		return false;
	ct->f = *fv;
	ct->f_len = (size_t)(PUT_LIT(pj_put_i64(ct->f_txt, *fv), "}}") -
			     ct->f_txt);
	return true;
}

int pj_pass_init(struct pj_pass *ps, struct ea_perfetto *p,
		 const struct ea_acct *a, int ncpus, struct pf_ahead *held,
		 size_t max_bytes)
{
	memset(ps, 0, sizeof(*ps));
	ps->acct = a;
	ps->ncpus = ncpus;
	ps->max_cpu = -1;
	ps->held = held;
	ps->name_holes = held != NULL;
	ps->max_bytes = max_bytes;
	ps->cpu = calloc((size_t)(ncpus > 0 ? ncpus : 1), sizeof(*ps->cpu));
	if (!ps->cpu)
		return -1;
	for (int c = 0; c < ncpus; c++) {
		struct pj_cpu *ct = &ps->cpu[c];
		char *e = PUT_LIT(ct->pre, "{\"ph\":\"X\",\"pid\":");

		e = put_mem(e, pj_w(p)->pid, pj_w(p)->pid_len);
		e = PUT_LIT(e, ",\"tid\":");
		e = pj_put_i64(e, c + 1);
		e = PUT_LIT(e, ",\"name\":");
		ct->pre_len = (size_t)(e - ct->pre);
		ct->f = -2;
		ct->i = -3;
		ct->assumed_khz = ea_pf_assumed_khz(a, c);
	}
	return 0;
}

void pj_pass_free(struct pj_pass *ps)
{
	tasks_free(&ps->tasks);
	for (int c = 0; ps->cpu && c < ps->ncpus; c++) {
		free(ps->cpu[c].opp);
		free(ps->cpu[c].idle);
	}
	free(ps->cpu);
	free(ps->holes);
	free(ps->checks);
	memset(ps, 0, sizeof(*ps));
}

/* Ahead, where the cap would check (every 256th change given): the bytes
 * and holes before it noted; false (stopped) once the bytes reach what
 * the pass may hold, or out of memory. */
static bool ahead_check(struct ea_perfetto *p, struct pj_pass *ps,
			uint64_t at)
{
	size_t off = ps->held->bytes + p->held;

	if (ea_grow((void **)&ps->checks, &ps->checks_cap, ps->nchecks + 1,
		    sizeof(*ps->checks), 256)) {
		p->failed = true;
		return false;
	}
	ps->checks[ps->nchecks++] =
		(struct pj_check){.off = off, .holes = ps->nholes, .at = at};
	if (off >= ps->max_bytes) {
		ps->stopped = true;
		return false;
	}
	return true;
}

/* Per CPU: OPP and idle-state counters and task slices, in the order the
 * changes happened (time order), so that a size cap cuts them all at one
 * time. */
bool pj_pass_change(struct ea_perfetto *p, struct pj_pass *ps,
		    const struct ea_tl_change *ch, const struct ea_state *s,
		    uint64_t t0)
{
	size_t k = ps->k++;
	int c = ch->cpu;
	struct pj_cpu *ct;
	const struct pj_task *tt;
	long long fv, iv;

	if (c > ps->max_cpu)
		ps->max_cpu = c;
	if (c >= ps->ncpus || ch->t1 <= ch->t0)
		return true;
	if (ps->held ? !(k % 256) && !ahead_check(p, ps, ch->t0)
		     : ea_pf_check_cap(p, k, ch->t0))
		return false;
	ct = &ps->cpu[c];
	if (cpu_values(ct, ch, &fv, &iv))
		cpu_counter(p, &ct->opp, &ct->opp_len, true, c, ch->t0, t0, fv);
	if (iv != ct->i) {
		cpu_counter(p, &ct->idle, &ct->idle_len, false, c, ch->t0, t0,
			    iv);
		ct->i = iv;
	}
	if (ch->mode != EA_CPU_BUSY)
		return !p->failed;
	tt = task_text(&ps->tasks, s, ch->pid, ps->name_holes);
	if (!tt || !slice(p, ps, ct, tt, ch, t0)) {
		p->failed = true;
		return false;
	}
	return !p->failed;
}

void pj_pass_skip(struct pj_pass *ps, const struct ea_tl_change *ch)
{
	int c = ch->cpu;
	struct pj_cpu *ct;
	long long fv, iv;

	ps->k++;
	if (c > ps->max_cpu)
		ps->max_cpu = c;
	if (c >= ps->ncpus || ch->t1 <= ch->t0)
		return;
	/* pj_pass_change()'s values, without their counters */
	ct = &ps->cpu[c];
	cpu_values(ct, ch, &fv, &iv);
	ct->i = iv;
}

/* The bytes cpu_counter() writes for v (p's process, not first); 0 with
 * *failed set when out of memory. */
static size_t counter_len(const struct ea_perfetto *p, char **qname,
			  size_t *qlen, bool opp, int c, uint64_t ts,
			  uint64_t t0, long long v, bool *failed)
{
	if (!counter_name(qname, qlen, opp, c)) {
		*failed = true;
		return 0;
	}
	return PJ_LIT(SEP) + PJ_LIT(C_HEAD) + pj_w(p)->pid_len +
	       PJ_LIT(C_NAME) + *qlen + PJ_LIT(C_TS) + us_len(ts, t0) +
	       PJ_LIT(C_VAL) + i64_len(v) + PJ_LIT(C_END);
}

size_t pj_pass_measure(const struct ea_perfetto *p, struct pj_pass *ps,
		       const struct ea_tl_change *ch, const struct ea_state *s,
		       uint64_t t0, bool *check)
{
	size_t k = ps->k++, n = 0;
	int c = ch->cpu;
	struct pj_cpu *ct;
	const struct pj_task *tt;
	long long fv, iv;
	bool failed = false;

	*check = false;
	if (c > ps->max_cpu)
		ps->max_cpu = c;
	if (c >= ps->ncpus || ch->t1 <= ch->t0)
		return 0;
	/* pj_pass_change()'s steps, each text's length for its text */
	*check = !(k % 256);
	ct = &ps->cpu[c];
	if (cpu_values(ct, ch, &fv, &iv))
		n += counter_len(p, &ct->opp, &ct->opp_len, true, c, ch->t0,
				 t0, fv, &failed);
	if (iv != ct->i) {
		n += counter_len(p, &ct->idle, &ct->idle_len, false, c, ch->t0,
				 t0, iv, &failed);
		ct->i = iv;
	}
	if (failed)
		return SIZE_MAX;
	if (ch->mode != EA_CPU_BUSY)
		return n;
	tt = task_text(&ps->tasks, s, ch->pid, ps->name_holes);
	if (!tt)
		return SIZE_MAX;
	/* slice()'s pieces */
	return n + PJ_LIT(SEP) + ct->pre_len + tt->name_len +
	       us_len(ch->t0, t0) + PJ_LIT(S_DUR) + us_len(ch->t1, ch->t0) +
	       tt->tail_len + ct->f_len;
}

int pj_writer_to(struct ea_perfetto *p, FILE *f)
{
	struct pj_writer *w = malloc(sizeof(*w));

	memset(p, 0, sizeof(*p));
	if (!w)
		return -1;
	w->buf = w->own;
	w->cap = sizeof(w->own);
	w->held = NULL;
	w->pid_len = (size_t)(pj_put_i64(w->pid, 1) - w->pid);
	p->impl = w;
	p->f = f;
	p->pid = 1;
	p->first = false;
	return 0;
}

int pj_writer_ahead(struct ea_perfetto *p, struct pf_ahead *held)
{
	struct pj_writer *w = malloc(sizeof(*w));

	memset(p, 0, sizeof(*p));
	if (!w)
		return -1;
	w->buf = aligned_alloc(PJ_BLOCK_BYTES, PJ_BLOCK_BYTES);
	if (!w->buf) {
		free(w);
		return -1;
	}
	w->cap = PJ_BLOCK_BYTES;
	w->held = held;
	w->pid_len = (size_t)(pj_put_i64(w->pid, 1) - w->pid);
	p->impl = w;
	p->pid = 1;
	p->first = false;
	return 0;
}

void pj_writer_free(struct ea_perfetto *p)
{
	struct pj_writer *w = p->impl;

	if (w && w->buf != w->own)
		free(w->buf);
	free(w);
	p->impl = NULL;
}
