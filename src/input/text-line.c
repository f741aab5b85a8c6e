// SPDX-License-Identifier: GPL-2.0-only
/*
 * Text trace lines: one hand-written parser for every layout of ftrace text
 * (see text-line.h), up to the event's name; text-body.c parses the bodies.
 *
 * The hot path is: find the "[CPU]" column with memchr, read the timestamp
 * as integers, look the event name up by length, and parse the few bodies
 * we use (text-body.c). No sscanf, no regex, no floating point.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memrchr */
#endif
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "input/text-lex.h"
#include "input/text-line.h"
#include "input/text-digits.h"

__attribute__((format(printf, 2, 3))) static enum ea_tl_kind
fail(struct ea_tl *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
	return EA_TL_ERROR;
}

/* Printable excerpt of a malformed body for an error message. */
static const char *excerpt(const char *p, const char *e, char *buf, size_t n)
{
	size_t i = 0;

	for (; p < e && i + 4 < n; p++)
		buf[i++] = (*p >= 0x20 && *p < 0x7f) ? *p : '?';
	if (p < e) {
		memcpy(buf + i, "...", 3);
		i += 3;
	}
	buf[i] = '\0';
	return buf;
}

static enum ea_tl_kind malformed(struct ea_tl *r, const char *name,
				 const char *p, const char *e)
{
	char ex[64];

	return fail(r, "malformed %s event: '%s'", name,
		    excerpt(p, e, ex, sizeof(ex)));
}

/* Control characters or invalid UTF-8: not text at all. */
static bool looks_binary(const unsigned char *p, const unsigned char *e)
{
	while (p < e) {
		unsigned char c = *p++;
		int more;

		if (c < 0x80) {
			if ((c < 0x20 && c != '\t' && c != '\r' && c != '\f') ||
			    c == 0x7f)
				return true;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			more = 1;
		else if (c >= 0xe0 && c <= 0xef)
			more = 2;
		else if (c >= 0xf0 && c <= 0xf4)
			more = 3;
		else
			return true;
		for (; more; more--)
			if (p >= e || (*p++ & 0xc0) != 0x80)
				return true;
	}
	return false;
}

/* "CPU:2 [LOST 123 EVENTS]" or "CPU:2 [LOST EVENTS]". */
static enum ea_tl_kind lost_line(const char *p, const char *e, struct ea_tl *r)
{
	int32_t cpu;
	const char *q;

	p = num_i32(p + 4, e, &cpu);
	q = skip_lit(skip_spaces(p ? p : e, e), e, LIT("[LOST"));
	if (!p || !q)
		return EA_TL_NONE;
	if (cpu < 0 || cpu >= EA_MAX_CPUS)
		return fail(r, "lost-events marker for CPU %d out of range",
			    cpu);
	r->lost_cpu = cpu;
	r->lost_count = 0;
	q = skip_spaces(q, e);
	if (q < e && is_digit(*q) && !num_u64(q, e, &r->lost_count))
		return fail(r, "bad count in lost-events marker");
	return EA_TL_LOST;
}

/*
 * Find "[CPU]" after the task column: a '[' + digits + ']' preceded by
 * spaces, an optional "(TGID)" and a "COMM-PID" token (the comm may hold
 * spaces and dashes; the pid follows its last dash). Returns the '[' or
 * NULL; sets *pid (-1 when the column has no numeric pid), r->tgid and
 * *close (its ']').
 */
static inline __attribute__((always_inline)) const char *
find_cpu_column(const char *p, const char *e, struct ea_tl *r, int32_t *pid,
		int32_t *cpu, const char **close)
{
	const char *b = p;

	while ((b = memchr(b, '[', (size_t)(e - b)))) {
		const char *q = b + 1, *t = b, *dash;
		bool tgid = false;
		int32_t c, v;

		b++;
		if (q >= e || !is_digit(*q)) /* decimal only: no sign, no 0x */
			continue;
		q = num_i32(q, e, &c);
		if (!q || q >= e || *q != ']' || (q + 1 < e && !is_space(q[1])))
			continue;
		for (const char *d = t + 1; d < q; d++)
			if (!is_digit(*d))
				q = NULL;
		if (!q)
			continue;
		if (t == p || !is_space(t[-1]))
			continue;
		t = rtrim(p, t);
		if (t > p && t[-1] == ')') {
			const char *o = memrchr(p, '(', (size_t)(t - 1 - p));

			if (!o)
				continue;
			tgid = true;
			t = rtrim(p, o);
		}
		if (t == p)
			continue;
		/* "comm-4947": 1 to 8 digits after the last '-', read
		 * backwards (what memrchr() and num_i32() find for them) */
		dash = ea_digits_back(p, t, &v);
		if (dash > p && dash < t && dash[-1] == '-') {
			dash--;
			*pid = v;
		} else {
			dash = memrchr(p, '-', (size_t)(t - p));
			if (!dash)
				continue;
			if (dash + 1 == t || num_i32(dash + 1, t, pid) != t)
				*pid = -1;
		}
		*cpu = c;
		r->tgid = tgid;
		*close = q;
		return b - 1;
	}
	return NULL;
}

/*
 * A line that starts like an event ("comm-123" then nothing, "[" or "(")
 * but has no complete "[CPU]" column was cut short.
 */
static bool cut_event(const char *p, const char *e)
{
	const char *t = p, *d;

	while (t < e && !is_space(*t))
		t++;
	d = t;
	while (d > p && is_digit(d[-1]))
		d--;
	if (d == t || d == p || d[-1] != '-')
		return false;
	t = skip_spaces(t, e);
	return t == e || *t == '[' || *t == '(';
}

/*
 * A " [X]" column after the task that is not a CPU id: digits too many
 * for one (2^31 and up), or not decimal digits ("[0x1]", "[-1]", "[1e3]"):
 * the line is corrupt, not cut. Returns X's length (at most 40, in *d) and
 * sets *why, or returns 0.
 */
static int bad_cpu_column(const char *p, const char *e, const char **d,
			  const char **why)
{
	const char *b = p;

	while ((b = memchr(b, '[', (size_t)(e - b)))) {
		const char *q = ++b;
		bool digits = true;
		int32_t c;

		while (q < e && *q != ']' && !is_space(*q)) {
			digits = digits && is_digit(*q);
			q++;
		}
		if (q == b || q >= e || *q != ']' || b - 1 == p ||
		    !is_space(b[-2]) || (q + 1 < e && !is_space(q[1])))
			continue;
		if (!digits)
			*why = "is not a decimal CPU number";
		else if (num_i32(b, q, &c) != q)
			*why = "out of range";
		else
			continue;
		*d = b;
		return q - b > 40 ? 40 : (int)(q - b);
	}
	return 0;
}

/* "SECS[.FRAC]" with up to 9 decimals, to ns exactly. (Inline: it is
 * ea_tl_parse()'s, per line; ea_tl_cpu() has a copy.) The fraction's
 * digits eight at a time when fewer than eight (microseconds: six). */
static inline __attribute__((always_inline)) const char *
timestamp(const char *p, const char *e, uint64_t *ns)
{
	static const uint64_t pow10[10] = {
		1,	 10,	   100,	      1000,	  10000,
		100000, 1000000, 10000000, 100000000, 1000000000,
	};
	uint64_t sec, frac = 0;
	const char *f;
	int digits;

	p = num_u64(p, e, &sec);
	if (!p)
		return NULL;
	if (p < e && *p == '.') {
		f = ++p;
		if (ea_digits8_ok() && e - p >= 8 &&
		    (digits = (int)ea_digits8(p, &frac)) < 8) {
			p += digits;
		} else {
			frac = 0;
			for (; p < e && is_digit(*p); p++)
				frac = frac * 10 + (uint64_t)(*p - '0');
			digits = (int)(p - f);
		}
		if (digits < 1 || digits > 9)
			return NULL;
		frac *= pow10[9 - digits];
		/* below 18446744073 s no fraction overflows: no division */
		if (sec > 18446744072ull &&
		    sec > (UINT64_MAX - frac) / 1000000000ull)
			return NULL;
		*ns = sec * 1000000000ull + frac;
	} else {
		*ns = sec; /* raw counter clocks print integers */
	}
	return p;
}

/*
 * For the skim: the column when it is the line's first '[', as
 * find_cpu_column() takes it but quicker (no TGID column, no pid parsed);
 * NULL: ask find_cpu_column().
 */
static const char *quick_cpu_column(const char *p, const char *e, int32_t *cpu)
{
	const char *b = memchr(p, '[', (size_t)(e - p)), *q, *t;
	uint32_t c = 0;

	if (!b || b == p || !is_space(b[-1]))
		return NULL;
	for (t = b - 1; t > p && is_space(t[-1]); t--)
		;
	if (t == p || t[-1] == ')' || !memrchr(p, '-', (size_t)(t - p)))
		return NULL;
	for (q = b + 1; q < e && q - b <= 9 && is_digit(*q); q++)
		c = c * 10 + (uint32_t)(*q - '0');
	if (q == b + 1 || q >= e || *q != ']' || (q + 1 < e && !is_space(q[1])))
		return NULL;
	*cpu = (int32_t)c;
	return b;
}

/*
 * After the CPU column's ']' c ("[001]"): past the optional flags column
 * ("d..2.", "d..2", "dNh1": never a digit) to where the timestamp starts.
 */
static inline const char *after_flags(const char *c, const char *e)
{
	const char *q = skip_spaces(c + 1, e);

	if (q < e && !is_digit(*q)) {
		while (q < e && !is_space(*q))
			q++;
		q = skip_spaces(q, e);
	}
	return q;
}

/*
 * Whether the flags column after the CPU column's ']' c says interrupt
 * context: its third character (hardirq/softirq: h, s, H hardirq in a
 * softirq, z NMI, Z NMI in a hardirq).
 */
static inline bool irq_context(const char *c, const char *e)
{
	const char *q = skip_spaces(c + 1, e);

	if (q + 3 > e || is_digit(*q) || is_space(q[1]) || is_space(q[2]))
		return false;
	return q[2] == 'h' || q[2] == 's' || q[2] == 'H' || q[2] == 'z' ||
	       q[2] == 'Z';
}

int ea_tl_cpu(const char *s, size_t n, uint64_t *ts)
{
	const char *e = s + n, *p = skip_spaces(s, e), *b, *c, *q;
	struct ea_tl r;
	int32_t pid, cpu;

	if (p < e && *p == 'C' && skip_lit(p, e, LIT("CPU:")))
		return -2;
	b = quick_cpu_column(p, e, &cpu);
	if (!b && !(b = find_cpu_column(p, e, &r, &pid, &cpu, &c)))
		return -1;
	if (!ts)
		return cpu;
	/* as ea_tl_parse(): optional flags, then the timestamp */
	*ts = UINT64_MAX;
	q = after_flags(memchr(b, ']', (size_t)(e - b)), e);
	if (q < e && !timestamp(q, e, ts))
		*ts = UINT64_MAX;
	return cpu;
}

/*
 * The length of the event name at p when it is one of the frequent ones
 * and ':' follows it, else 0 (ea_tl_parse() then walks the name byte by
 * byte): what that walk finds for them, their bytes being name bytes.
 */
static inline size_t hot_name(const char *p, const char *e)
{
	if (e - p < 17)
		return 0;
	if (!memcmp(p, "sched_", 6)) {
		if (!memcmp(p + 6, "switch:", 7) || !memcmp(p + 6, "waking:", 7))
			return 12;
		if (memcmp(p + 6, "wakeup", 6))
			return 0;
		if (p[12] == ':')
			return 12;
		return memcmp(p + 12, "_new:", 5) ? 0 : 16;
	}
	if (!memcmp(p, "cpu_idle:", 9))
		return 8;
	return memcmp(p, "cpu_frequency:", 14) ? 0 : 13;
}

/* Bytes of an event name: [0-9A-Za-z_]. */
static const bool name_char[256] = {
	['0' ... '9'] = true,
	['A' ... 'Z'] = true,
	['a' ... 'z'] = true,
	['_'] = true,
};

enum ea_tl_kind ea_tl_parse(const char *s, size_t n, struct ea_tl *r)
{
	const char *p = s, *e = rtrim(s, s + n), *b, *c = NULL, *q, *name;
	struct ea_event *ev = &r->ev;
	int32_t pid = -1, cpu = -1;
	uint64_t ts;
	enum ea_tl_kind kind;
	const char *bad;
	bool irq;

	r->tgid = false;
	p = skip_spaces(p, e);
	if (p == e || *p == '#')
		return EA_TL_NONE;
	if (*p == 'C' && skip_lit(p, e, LIT("CPU:")))
		return lost_line(p, e, r);

	b = find_cpu_column(p, e, r, &pid, &cpu, &c);
	if (!b) {
		const char *d, *why;
		int nd = bad_cpu_column(p, e, &d, &why);

		if (nd)
			return fail(r, "CPU column [%.*s] %s", nd, d, why);
		if (cut_event(p, e))
			return fail(r, "truncated event line");
		if (looks_binary((const unsigned char *)p,
				 (const unsigned char *)e))
			return fail(r, "binary data in text trace");
		return EA_TL_NONE;
	}
	irq = irq_context(c, e);
	q = after_flags(c, e);
	if (q == e)
		return fail(r, "truncated event line (no timestamp)");
	q = timestamp(q, e, &ts);
	if (!q || q == e || *q != ':') {
		char ex[48];

		return fail(r, "bad timestamp in event line: '%s'",
			    excerpt(b, e, ex, sizeof(ex)));
	}
	memset(ev, 0, sizeof(*ev));
	ev->ts = ts;
	ev->cpu = cpu;
	ev->cur_pid = pid;

	/* Event name, then its body. A name without ':' is an unknown event. */
	name = skip_spaces(q + 1, e);
	q = name + hot_name(name, e);
	if (q == name)
		while (q < e && name_char[(unsigned char)*q])
			q++;
	if (q == e || *q != ':') {
		/* Not an event name: garbage after an event-like header. */
		if (looks_binary((const unsigned char *)q,
				 (const unsigned char *)e))
			return fail(r, "binary data in text trace");
		return EA_TL_OTHER;
	}
	kind = ea_tl_body(name, (size_t)(q - name), q + 1, e, ev, &bad);
	if (kind == EA_TL_ERROR)
		return malformed(r, bad, skip_spaces(q + 1, e), e);
	if (irq && (ev->type == EA_EV_WAKING || ev->type == EA_EV_WAKEUP ||
		    ev->type == EA_EV_WAKEUP_NEW))
		ev->flags = EA_EVF_IRQ;
	return kind;
}
