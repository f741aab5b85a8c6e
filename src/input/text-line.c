// SPDX-License-Identifier: GPL-2.0-only
/*
 * Text trace lines: one hand-written parser for every layout of ftrace text
 * (see text-line.h), and the line-by-line stream both text readers run on.
 *
 * The hot path is: find the "[CPU]" column with memchr, read the timestamp
 * as integers, look the event name up by length, and parse the few bodies
 * we use left to right (key=value) or right to left (trace-cmd's plugin
 * form, whose comms may hold spaces and colons). No sscanf, no regex, no
 * floating point.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* memmem, memrchr, pread */
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input/reorder.h"
#include "input/text-line.h"
#include "input/text-stream.h"

#define LIT(s) s, sizeof(s) - 1

static inline bool is_digit(char c)
{
	return (unsigned char)(c - '0') < 10;
}

static inline bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

static inline const char *skip_spaces(const char *p, const char *e)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* Column padding: eight spaces at a time, up to the first other byte. */
	while (e - p >= 8) {
		uint64_t w;

		memcpy(&w, p, 8);
		w ^= 0x2020202020202020ull;
		if (w) {
			p += __builtin_ctzll(w) >> 3;
			break;
		}
		p += 8;
	}
#endif
	while (p < e && is_space(*p))
		p++;
	return p;
}

static inline const char *rtrim(const char *p, const char *e)
{
	while (e > p && (is_space(e[-1]) || e[-1] == '\r' || e[-1] == '\n'))
		e--;
	return e;
}

/* The helpers below take and return NULL so that parsers can chain them. */

static inline const char *skip_lit(const char *p, const char *e,
				   const char *lit, size_t n)
{
	if (p && (size_t)(e - p) >= n && !memcmp(p, lit, n))
		return p + n;
	return NULL;
}

/* memchr for the first byte, then compare: keys are found within a few bytes. */
static inline const char *find_lit(const char *p, const char *e,
				   const char *lit, size_t n)
{
	if (!p)
		return NULL;
	while ((size_t)(e - p) >= n) {
		const char *q = memchr(p, lit[0], (size_t)(e - p) - n + 1);

		if (!q)
			return NULL;
		if (!memcmp(q + 1, lit + 1, n - 1))
			return q;
		p = q + 1;
	}
	return NULL;
}

static const char *num_hex(const char *p, const char *e, uint64_t *v)
{
	const char *s = p;
	uint64_t x = 0;

	for (; p < e; p++) {
		unsigned d;

		if (is_digit(*p))
			d = (unsigned)(*p - '0');
		else if (*p >= 'a' && *p <= 'f')
			d = (unsigned)(*p - 'a' + 10);
		else if (*p >= 'A' && *p <= 'F')
			d = (unsigned)(*p - 'A' + 10);
		else
			break;
		if (x >> 60)
			return NULL;
		x = x << 4 | d;
	}
	if (p == s)
		return NULL;
	*v = x;
	return p;
}

/* Unsigned decimal (or 0x hex) number; NULL when absent or overflowing. */
static inline const char *num_u64(const char *p, const char *e, uint64_t *v)
{
	const char *s = p;
	uint64_t x = 0;

	if (!p)
		return NULL;
	if (e - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		return num_hex(p + 2, e, v);
	/* 19 digits cannot overflow: check only from the 20th on */
	for (const char *lim = e - p > 19 ? p + 19 : e; p < lim; p++) {
		unsigned d = (unsigned char)*p - (unsigned)'0';

		if (d > 9)
			break;
		x = x * 10 + d;
	}
	for (; p < e && is_digit(*p); p++) {
		unsigned d = (unsigned)(*p - '0');

		if (x > (UINT64_MAX - d) / 10)
			return NULL;
		x = x * 10 + d;
	}
	if (p == s)
		return NULL;
	*v = x;
	return p;
}

static const char *num_i64(const char *p, const char *e, int64_t *v)
{
	bool neg = false;
	uint64_t x = 0;

	if (p && p < e && *p == '-') {
		neg = true;
		p++;
	}
	p = num_u64(p, e, &x);
	if (!p || x > (uint64_t)INT64_MAX)
		return NULL;
	*v = neg ? -(int64_t)x : (int64_t)x;
	return p;
}

/* The hot one (pids, prios, CPUs): decimal digits parsed inline. */
static inline const char *num_i32(const char *p, const char *e, int32_t *v)
{
	const char *s;
	bool neg = false;
	uint64_t x = 0;

	if (!p)
		return NULL;
	if (p < e && *p == '-') {
		neg = true;
		p++;
	}
	if (e - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p = num_hex(p + 2, e, &x);
		if (!p)
			return NULL;
	} else {
		const char *lim = e - p > 19 ? p + 19 : e;

		for (s = p; p < lim; p++) {
			unsigned d = (unsigned char)*p - (unsigned)'0';

			if (d > 9)
				break;
			x = x * 10 + d;
		}
		if (p == s || (p < e && is_digit(*p)))
			return NULL;
	}
	if (x > (neg ? 2147483648ull : (uint64_t)INT32_MAX))
		return NULL;
	*v = neg ? (int32_t)-(int64_t)x : (int32_t)x;
	return p;
}

static const char *num_u32(const char *p, const char *e, uint32_t *v)
{
	uint64_t x = 0;

	p = num_u64(p, e, &x);
	if (!p || x > UINT32_MAX)
		return NULL;
	*v = (uint32_t)x;
	return p;
}

/* A number must end at a space or at the end of the line ("12x" is bad). */
static inline const char *field_end(const char *p, const char *e)
{
	if (p && (p == e || is_space(*p)))
		return p;
	return NULL;
}

/* Comms longer than TASK_COMM_LEN - 1 are truncated. */
static void copy_comm(char *dst, const char *s, const char *e)
{
	size_t n = (size_t)(e - s);

	if (n > EA_COMM_LEN - 1)
		n = EA_COMM_LEN - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/*
 * prev_state as letters. The kernel's print fmt and trace-cmd's plugin
 * print "R" (or "R+" when preempted on older kernels) for a task that is
 * still runnable, "X", "Z" or "x" (EXIT_DEAD, EXIT_ZOMBIE, TASK_DEAD) for
 * one that exited, and any other letters ("S", "D", "T", "t", "P", "I",
 * "W", "K", "N", combinations like "D|K") for a task that blocked.
 */
int ea_tl_prev_state_letters(const char *s, size_t n)
{
	bool dead = true, letters = false;

	if (n == 1 && s[0] == 'R')
		return EA_PREV_RUNNABLE;
	if (n == 2 && s[0] == 'R' && s[1] == '+')
		return EA_PREV_RUNNABLE;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == '|' || c == '+')
			continue;
		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')))
			return -1;
		letters = true;
		if (c != 'X' && c != 'Z' && c != 'x')
			dead = false;
	}
	if (!letters)
		return -1;
	return dead ? EA_PREV_DEAD : EA_PREV_BLOCKED;
}

/*
 * prev_state as a raw number (`trace-cmd report -R`). Text has no event
 * format to say what the bits mean, and they changed across kernels, so
 * this is a heuristic that holds for the values real kernels emit:
 *
 *  - 0 is TASK_RUNNING: preempted, runnable.
 *  - A nonzero value with the low 8 bits clear is a "preempted" marker
 *    added on top of TASK_RUNNING: TASK_REPORT_MAX (0x100, 4.14+) or
 *    TASK_STATE_MAX (1024, 2048, 4096 in 3.x to 4.13), or the transient
 *    TASK_WAKING (256 in 3.x): runnable.
 *  - 0x10, 0x20 or 0x40 without the S (1) or D (2) bits is a dead task on
 *    the old layouts: EXIT_DEAD 16, EXIT_ZOMBIE 32, TASK_DEAD 64 (4.8 to
 *    4.13 print 64 as "x"). Caveat: from 4.14, 0x40 is TASK_PARKED, which
 *    this reports as dead although the print fmt says "P" (blocked).
 *  - Anything else (S, D, T, t, idle 0x80, wakekill, ...) blocked.
 */
int ea_tl_prev_state_number(uint64_t v)
{
	if (v == 0 || (v & 0xff) == 0)
		return EA_PREV_RUNNABLE;
	if ((v & 0x70) && !(v & 0x3))
		return EA_PREV_DEAD;
	return EA_PREV_BLOCKED;
}

static int prev_state(const char *s, const char *e)
{
	uint64_t v = 0;

	if (s < e && is_digit(*s)) {
		if (num_u64(s, e, &v) != e)
			return -1;
		return ea_tl_prev_state_number(v);
	}
	return ea_tl_prev_state_letters(s, (size_t)(e - s));
}

/* ---- event bodies ------------------------------------------------------ */

/*
 * "<ck>A<pk>1<rk>120", the keys with their separators ("prev_comm=",
 * " prev_pid=", " prev_prio="): the end of the prio, or NULL.
 */
static inline const char *task_kv(const char *p, const char *e,
				  const char *ck, size_t cn,
				  const char *pk, size_t pn,
				  const char *rk, size_t rn,
				  char *comm, int32_t *pid, int32_t *prio)
{
	const char *q;

	p = skip_lit(p, e, ck, cn);
	q = find_lit(p, e, pk, pn);
	if (!q)
		return NULL;
	copy_comm(comm, p, q);
	p = num_i32(q + pn, e, pid);
	p = skip_lit(p, e, rk, rn);
	return num_i32(p, e, prio);
}

/*
 * "prev_comm=A prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=B
 * next_pid=2 next_prio=120" (kernel print fmt, trace-cmd -N), the same
 * without "==>" and with a numeric prev_state (trace-cmd -R).
 */
static bool switch_kv(const char *p, const char *e, struct ea_event *ev)
{
	const char *q;
	int st;

	p = task_kv(p, e, LIT("prev_comm="), LIT(" prev_pid="),
		    LIT(" prev_prio="), ev->sw.prev_comm, &ev->sw.prev_pid,
		    &ev->sw.prev_prio);
	p = skip_lit(p, e, LIT(" prev_state="));
	if (!p)
		return false;
	for (q = p; q < e && !is_space(*q); q++)
		;
	st = prev_state(p, q);
	if (st < 0)
		return false;
	ev->sw.prev_state = (uint8_t)st;
	p = skip_spaces(q, e);
	if (skip_lit(p, e, LIT("==>")))
		p = skip_spaces(p + 3, e);
	p = task_kv(p, e, LIT("next_comm="), LIT(" next_pid="),
		    LIT(" next_prio="), ev->sw.next_comm, &ev->sw.next_pid,
		    &ev->sw.next_prio);
	return field_end(p, e) != NULL;
}

/* Start of the last space-separated token of [p, e) (e trimmed). */
static const char *last_token(const char *p, const char *e)
{
	while (e > p && !is_space(e[-1]))
		e--;
	return e;
}

/*
 * trace-cmd plugin "COMM:PID [PRIO]", parsed from the right: comms may hold
 * spaces and colons ("rs:main Q:Reg:238 [120]"). The comm or the prio may
 * be missing when the event lacks those fields.
 */
static bool comm_pid_prio(const char *p, const char *e, char *comm,
			  int32_t *pid, int32_t *prio)
{
	const char *b, *c;

	e = rtrim(p, e);
	*prio = -1;
	if (e > p && e[-1] == ']') {
		b = memrchr(p, '[', (size_t)(e - p));
		if (!b || num_i32(b + 1, e, prio) != e - 1)
			return false;
		e = rtrim(p, b);
		if (e == b)
			return false;
	}
	c = memrchr(p, ':', (size_t)(e - p));
	if (!c)
		c = p - 1;
	else
		copy_comm(comm, p, c);
	return c + 1 < e && num_i32(c + 1, e, pid) == e;
}

/* trace-cmd plugin: "COMM:PID [PRIO] S ==> COMM:PID [PRIO]". */
static bool switch_plugin(const char *p, const char *e, struct ea_event *ev)
{
	const char *arrow = find_lit(p, e, LIT(" ==> "));
	const char *l, *t;
	int st;

	if (!arrow)
		return false;
	l = rtrim(p, arrow);
	t = last_token(p, l);
	if (t == p)
		return false;
	st = prev_state(t, l);
	if (st < 0)
		return false;
	ev->sw.prev_state = (uint8_t)st;
	return comm_pid_prio(p, t, ev->sw.prev_comm, &ev->sw.prev_pid,
			     &ev->sw.prev_prio) &&
	       comm_pid_prio(skip_spaces(arrow + 5, e), e, ev->sw.next_comm,
			     &ev->sw.next_pid, &ev->sw.next_prio);
}

/* "comm=A pid=1 prio=120 [success=1] [target_cpu=002]" */
static bool wake_kv(const char *p, const char *e, struct ea_event *ev)
{
	const char *q;

	ev->wake.target_cpu = -1;
	p = field_end(task_kv(p, e, LIT("comm="), LIT(" pid="), LIT(" prio="),
			      ev->wake.comm, &ev->wake.pid, &ev->wake.prio), e);
	if (!p)
		return false;
	q = find_lit(p, e, LIT(" target_cpu="));
	if (q && !field_end(num_i32(q + 12, e, &ev->wake.target_cpu), e))
		return false;
	return true;
}

/* trace-cmd plugin: "COMM:PID [PRIO] [success=1] [CPU:002]" */
static bool wake_plugin(const char *p, const char *e, struct ea_event *ev)
{
	const char *t;

	ev->wake.target_cpu = -1;
	e = rtrim(p, e);
	t = last_token(p, e);
	if (skip_lit(t, e, LIT("CPU:"))) {
		if (num_i32(t + 4, e, &ev->wake.target_cpu) != e)
			return false;
		e = rtrim(p, t);
		t = last_token(p, e);
	}
	if (skip_lit(t, e, LIT("success=")))
		e = rtrim(p, t);
	return comm_pid_prio(p, e, ev->wake.comm, &ev->wake.pid,
			     &ev->wake.prio);
}

/* "comm=A pid=1 prio=120 orig_cpu=0 dest_cpu=1" */
static bool migrate_kv(const char *p, const char *e, struct ea_event *ev)
{
	const char *q;

	p = skip_lit(p, e, LIT("comm="));
	q = find_lit(p, e, LIT(" pid="));
	if (!q)
		return false;
	copy_comm(ev->migrate.comm, p, q);
	p = field_end(num_i32(q + 5, e, &ev->migrate.pid), e);
	q = find_lit(p, e, LIT(" orig_cpu="));
	if (!q || !field_end(num_i32(q + 10, e, &ev->migrate.orig_cpu), e))
		return false;
	q = find_lit(q, e, LIT(" dest_cpu="));
	return q && field_end(num_i32(q + 10, e, &ev->migrate.dest_cpu), e);
}

/* "state=1000000 cpu_id=0" */
static bool freq_kv(const char *p, const char *e, struct ea_event *ev)
{
	p = skip_lit(p, e, LIT("state="));
	p = num_u32(p, e, &ev->freq.freq_khz);
	p = skip_lit(p, e, LIT(" cpu_id="));
	return field_end(num_i32(p, e, &ev->freq.cpu), e) != NULL;
}

/* "state=1 cpu_id=0"; state 4294967295 (or -1) is PWR_EVENT_EXIT. */
static bool idle_kv(const char *p, const char *e, struct ea_event *ev)
{
	int64_t st = 0;

	p = skip_lit(p, e, LIT("state="));
	p = num_i64(p, e, &st);
	p = skip_lit(p, e, LIT(" cpu_id="));
	p = field_end(num_i32(p, e, &ev->idle.cpu), e);
	if (!p || st < INT32_MIN || st > UINT32_MAX)
		return false;
	if (st == -1 || st == UINT32_MAX)
		ev->idle.state = EA_IDLE_EXIT;
	else
		ev->idle.state = (int32_t)(uint32_t)st;
	return true;
}

static bool util_field(const char *p, const char *e, uint32_t *util)
{
	const char *q = find_lit(p, e, LIT(" util="));

	return q && field_end(num_u32(q + 6, e, util), e);
}

/*
 * "cpu=2 path=/ load=0 [rbl_load=0] util=0": only the root rq is kept.
 * Returns 1 kept, 0 skipped, -1 malformed.
 */
static int cfs_rq_kv(const char *p, const char *e, struct ea_event *ev)
{
	p = skip_lit(p, e, LIT("cpu="));
	p = num_i32(p, e, &ev->util.cpu);
	p = skip_lit(p, e, LIT(" path="));
	if (!p)
		return -1;
	if (!(p + 1 < e && p[0] == '/' && is_space(p[1])))
		return 0;
	ev->util.pid = -1;
	return util_field(p, e, &ev->util.util) ? 1 : -1;
}

/* "cpu=2 path=(null) comm=A pid=12 load=0 util=0": tasks (pid > 0) only. */
static int se_kv(const char *p, const char *e, struct ea_event *ev)
{
	const char *q;

	p = skip_lit(p, e, LIT("cpu="));
	p = field_end(num_i32(p, e, &ev->util.cpu), e);
	q = find_lit(p, e, LIT(" pid="));
	if (!q || !field_end(num_i32(q + 5, e, &ev->util.pid), e))
		return -1;
	if (ev->util.pid <= 0)
		return 0;
	return util_field(q, e, &ev->util.util) ? 1 : -1;
}

/*
 * "machine_suspend[3] begin" (power.h: "%s[%u] %s"). Returns 1 kept, 0 an
 * action eatrace does not use, -1 malformed.
 */
static int suspend_kv(const char *p, const char *e, struct ea_event *ev)
{
	const char *b = memchr(p, '[', (size_t)(e - p));
	uint32_t val;

	if (!b)
		return -1;
	if (!ea_suspend_action_keep(p, (size_t)(b - p)))
		return 0;
	p = num_u32(b + 1, e, &val);
	p = skip_lit(p, e, LIT("] "));
	if (!p || val > INT32_MAX)
		return -1;
	ev->suspend.val = (int32_t)val;
	if (skip_lit(p, e, LIT("begin")) && p + 5 == e)
		ev->suspend.begin = 1;
	else if (!(skip_lit(p, e, LIT("end")) && p + 3 == e))
		return -1;
	return 1;
}

/* A CPU number of a cpuhp event: "0001", 0..EA_MAX_CPUS - 1. */
static const char *hp_cpu(const char *p, const char *e, int32_t *cpu)
{
	p = num_i32(p, e, cpu);
	return p && *cpu >= 0 && *cpu < EA_MAX_CPUS ? p : NULL;
}

/* skip_spaces() in a chain: NULL stays NULL */
static const char *sp(const char *p, const char *e)
{
	return p ? skip_spaces(p, e) : NULL;
}

/*
 * cpuhp.h: enter " cpu: %04u target: %3d step: %3d (%ps)", exit
 * " cpu: %04u  state: %3d step: %3d ret: %d".
 */
static bool hotplug_kv(const char *p, const char *e, bool enter,
		       struct ea_event *ev)
{
	if (skip_lit(p, e, LIT("cpu="))) {
		/* raw (trace-cmd report -R): "cpu=1 target=0 idx=230 fun=0x..",
		 * "cpu=1 state=229 idx=230 ret=0" */
		p = hp_cpu(p + 4, e, &ev->hotplug.cpu);
		ev->hotplug.enter = enter;
		ev->hotplug.target = -1;
		if (enter)
			p = num_i32(skip_lit(p, e, LIT(" target=")), e,
				    &ev->hotplug.target);
		else
			p = find_lit(p, e, LIT(" idx="));
		p = find_lit(p, e, LIT(" idx="));
		return field_end(num_i32(p ? p + 5 : NULL, e, &ev->hotplug.step), e);
	}
	p = skip_lit(p, e, LIT("cpu: "));
	p = hp_cpu(p, e, &ev->hotplug.cpu);
	p = sp(p, e);
	ev->hotplug.enter = enter;
	ev->hotplug.target = -1;
	if (enter) {
		p = skip_lit(p, e, LIT("target:"));
		p = num_i32(sp(p, e), e, &ev->hotplug.target);
	} else {
		int32_t state;

		p = skip_lit(p, e, LIT("state:"));
		p = num_i32(sp(p, e), e, &state);
	}
	p = sp(p, e);
	p = skip_lit(p, e, LIT("step:"));
	p = num_i32(sp(p, e), e, &ev->hotplug.step);
	return p && (p == e || is_space(*p));
}

/*
 * Marker text: "tracing_mark_write: TEXT" (trace-cmd print plugin, -N),
 * "ip=tracing_mark_write buf=TEXT" (-R) for `print`, the text itself for
 * ftrace's "tracing_mark_write:" lines. Kept when it starts "eatrace:".
 */
static bool marker(const char *p, const char *e, bool is_print,
		   struct ea_event *ev)
{
	const char *q;
	size_t n;

	e = rtrim(p, e);
	if (is_print) {
		if (skip_lit(p, e, LIT("ip="))) {
			q = find_lit(p, e, LIT(" buf="));
			if (!q)
				return false;
			p = q + 5;
		} else {
			for (q = p; q < e && *q != ':' && !is_space(*q); q++)
				;
			if (q == e || *q != ':')
				return false;
			p = skip_spaces(q + 1, e);
		}
	}
	if (!skip_lit(p, e, LIT("eatrace:")))
		return false;
	n = (size_t)(e - p);
	if (n > sizeof(ev->marker.text) - 1)
		n = sizeof(ev->marker.text) - 1;
	memcpy(ev->marker.text, p, n);
	ev->marker.text[n] = '\0';
	return true;
}

/* ---- line layout --------------------------------------------------------- */

enum name_id {
	N_OTHER, N_SWITCH, N_WAKEUP, N_WAKING, N_WAKEUP_NEW, N_MIGRATE,
	N_FREQ, N_IDLE, N_CFS_RQ, N_SE, N_PRINT, N_MARK, N_SUSPEND,
	N_HP_ENTER, N_HP_EXIT,
};

static enum name_id lookup_name(const char *s, size_t n)
{
#define IS(lit) (!memcmp(s, lit, sizeof(lit) - 1))
	switch (n) {
	case 5:
		return IS("print") ? N_PRINT : N_OTHER;
	case 8:
		return IS("cpu_idle") ? N_IDLE : N_OTHER;
	case 10:
		return IS("cpuhp_exit") ? N_HP_EXIT : N_OTHER;
	case 11:
		return IS("cpuhp_enter") ? N_HP_ENTER : N_OTHER;
	case 14:
		return IS("suspend_resume") ? N_SUSPEND : N_OTHER;
	case 12:
		if (memcmp(s, "sched_", 6))
			return N_OTHER;
		if (IS("sched_switch"))
			return N_SWITCH;
		if (IS("sched_wakeup"))
			return N_WAKEUP;
		if (IS("sched_waking"))
			return N_WAKING;
		return N_OTHER;
	case 13:
		if (IS("cpu_frequency"))
			return N_FREQ;
		return IS("sched_load_se") ? N_SE : N_OTHER;
	case 16:
		return IS("sched_wakeup_new") ? N_WAKEUP_NEW : N_OTHER;
	case 17:
		if (IS("cpuhp_multi_enter"))
			return N_HP_ENTER;
		return IS("sched_load_cfs_rq") ? N_CFS_RQ : N_OTHER;
	case 18:
		if (IS("sched_migrate_task"))
			return N_MIGRATE;
		return IS("tracing_mark_write") ? N_MARK : N_OTHER;
	default:
		return N_OTHER;
	}
#undef IS
}

__attribute__((format(printf, 2, 3)))
static enum ea_tl_kind fail(struct ea_tl *r, const char *fmt, ...)
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
		return fail(r, "lost-events marker for CPU %d out of range", cpu);
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
 * NULL; sets *pid (-1 when the column has no numeric pid) and r->tgid.
 */
static inline __attribute__((always_inline)) const char *
find_cpu_column(const char *p, const char *e,
				   struct ea_tl *r, int32_t *pid,
				   int32_t *cpu)
{
	const char *b = p;

	while ((b = memchr(b, '[', (size_t)(e - b)))) {
		const char *q = b + 1, *t = b, *dash;
		bool tgid = false;
		int32_t c;

		b++;
		if (q >= e || !is_digit(*q))	/* decimal only: no sign, no 0x */
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
		dash = memrchr(p, '-', (size_t)(t - p));
		if (!dash)
			continue;
		if (dash + 1 == t || num_i32(dash + 1, t, pid) != t)
			*pid = -1;
		*cpu = c;
		r->tgid = tgid;
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
		if (q == b || q >= e || *q != ']' || b - 1 == p || !is_space(b[-2]) ||
		    (q + 1 < e && !is_space(q[1])))
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
 * ea_tl_parse()'s, per line; ea_tl_cpu() has a copy.) */
static inline __attribute__((always_inline)) const char *timestamp(const char *p, const char *e, uint64_t *ns)
{
	uint64_t sec, frac = 0;
	const char *f;
	int digits;

	p = num_u64(p, e, &sec);
	if (!p)
		return NULL;
	if (p < e && *p == '.') {
		f = ++p;
		for (; p < e && is_digit(*p); p++)
			frac = frac * 10 + (uint64_t)(*p - '0');
		digits = (int)(p - f);
		if (digits < 1 || digits > 9)
			return NULL;
		for (; digits < 9; digits++)
			frac *= 10;
		if (sec > (UINT64_MAX - frac) / 1000000000ull)
			return NULL;
		*ns = sec * 1000000000ull + frac;
	} else {
		*ns = sec;	/* raw counter clocks print integers */
	}
	return p;
}

/*
 * For the skim: the column when it is the line's first '[', as
 * find_cpu_column() takes it but quicker (no TGID column, no pid parsed);
 * NULL: ask find_cpu_column().
 */
static const char *quick_cpu_column(const char *p, const char *e,
				    int32_t *cpu)
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
 * After the CPU column b ("[001]"): past the optional flags column
 * ("d..2.", "d..2", "dNh1": never a digit) to where the timestamp starts.
 */
static const char *after_flags(const char *b, const char *e)
{
	const char *q = skip_spaces(memchr(b, ']', (size_t)(e - b)) + 1, e);

	if (q < e && !is_digit(*q)) {
		while (q < e && !is_space(*q))
			q++;
		q = skip_spaces(q, e);
	}
	return q;
}

int ea_tl_cpu(const char *s, size_t n, uint64_t *ts)
{
	const char *e = s + n, *p = skip_spaces(s, e), *b, *q;
	struct ea_tl r;
	int32_t pid, cpu;

	if (p < e && *p == 'C' && skip_lit(p, e, LIT("CPU:")))
		return -2;
	b = quick_cpu_column(p, e, &cpu);
	if (!b && !(b = find_cpu_column(p, e, &r, &pid, &cpu)))
		return -1;
	if (!ts)
		return cpu;
	/* as ea_tl_parse(): optional flags, then the timestamp */
	*ts = UINT64_MAX;
	q = after_flags(b, e);
	if (q < e && !timestamp(q, e, ts))
		*ts = UINT64_MAX;
	return cpu;
}

/* Bytes of an event name: [0-9A-Za-z_]. */
static const bool name_char[256] = {
	['0' ... '9'] = true, ['A' ... 'Z'] = true, ['a' ... 'z'] = true,
	['_'] = true,
};

enum ea_tl_kind ea_tl_parse(const char *s, size_t n, struct ea_tl *r)
{
	const char *p = s, *e = rtrim(s, s + n), *b, *q, *name;
	struct ea_event *ev = &r->ev;
	int32_t pid = -1, cpu = -1;
	uint64_t ts;
	enum name_id id;
	int rc;

	r->tgid = false;
	p = skip_spaces(p, e);
	if (p == e || *p == '#')
		return EA_TL_NONE;
	if (*p == 'C' && skip_lit(p, e, LIT("CPU:")))
		return lost_line(p, e, r);

	b = find_cpu_column(p, e, r, &pid, &cpu);
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
	q = after_flags(b, e);
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
	for (q = name; q < e && name_char[(unsigned char)*q]; q++)
		;
	if (q == e || *q != ':') {
		/* Not an event name: garbage after an event-like header. */
		if (looks_binary((const unsigned char *)q,
				 (const unsigned char *)e))
			return fail(r, "binary data in text trace");
		return EA_TL_OTHER;
	}
	id = lookup_name(name, (size_t)(q - name));
	if (id == N_OTHER)
		return EA_TL_OTHER;
	p = skip_spaces(q + 1, e);

	switch (id) {
	case N_SWITCH:
		ev->type = EA_EV_SWITCH;
		if (skip_lit(p, e, LIT("prev_comm=")) ? !switch_kv(p, e, ev) :
							!switch_plugin(p, e, ev))
			return malformed(r, "sched_switch", p, e);
		return EA_TL_EVENT;
	case N_WAKEUP:
	case N_WAKING:
	case N_WAKEUP_NEW:
		ev->type = id == N_WAKEUP ? EA_EV_WAKEUP :
			   id == N_WAKING ? EA_EV_WAKING : EA_EV_WAKEUP_NEW;
		if (skip_lit(p, e, LIT("comm=")) ? !wake_kv(p, e, ev) :
						   !wake_plugin(p, e, ev))
			return malformed(r, ea_event_type_name(ev->type), p, e);
		return EA_TL_EVENT;
	case N_MIGRATE:
		ev->type = EA_EV_MIGRATE;
		if (!migrate_kv(p, e, ev))
			return malformed(r, "sched_migrate_task", p, e);
		return EA_TL_EVENT;
	case N_FREQ:
		ev->type = EA_EV_FREQ;
		if (!freq_kv(p, e, ev))
			return malformed(r, "cpu_frequency", p, e);
		return EA_TL_EVENT;
	case N_IDLE:
		ev->type = EA_EV_IDLE;
		if (!idle_kv(p, e, ev))
			return malformed(r, "cpu_idle", p, e);
		return EA_TL_EVENT;
	case N_CFS_RQ:
		ev->type = EA_EV_UTIL_CFS;
		rc = cfs_rq_kv(p, e, ev);
		if (rc < 0)
			return malformed(r, "sched_load_cfs_rq", p, e);
		return rc ? EA_TL_EVENT : EA_TL_OTHER;
	case N_SE:
		ev->type = EA_EV_UTIL_SE;
		rc = se_kv(p, e, ev);
		if (rc < 0)
			return malformed(r, "sched_load_se", p, e);
		return rc ? EA_TL_EVENT : EA_TL_OTHER;
	case N_SUSPEND:
		ev->type = EA_EV_SUSPEND;
		rc = suspend_kv(p, e, ev);
		if (rc < 0)
			return malformed(r, "suspend_resume", p, e);
		return rc ? EA_TL_EVENT : EA_TL_OTHER;
	case N_HP_ENTER:
	case N_HP_EXIT:
		ev->type = EA_EV_HOTPLUG;
		if (!hotplug_kv(p, e, id == N_HP_ENTER, ev))
			return malformed(r, id == N_HP_ENTER ? "cpuhp_enter" :
						"cpuhp_exit", p, e);
		return EA_TL_EVENT;
	case N_PRINT:
	case N_MARK:
		ev->type = EA_EV_MARKER;
		return marker(p, e, id == N_PRINT, ev) ? EA_TL_EVENT :
							 EA_TL_OTHER;
	default:
		return EA_TL_OTHER;
	}
}

/* ---- probe ----------------------------------------------------------------- */

static bool starts_nocase(const unsigned char *p, const unsigned char *e,
			  const char *lit)
{
	for (; *lit; lit++, p++) {
		unsigned char c;

		if (p >= e)
			return false;
		c = *p;
		if (c >= 'A' && c <= 'Z')
			c = (unsigned char)(c - 'A' + 'a');
		if (c != (unsigned char)*lit)
			return false;
	}
	return true;
}

/* One line of idlestat's topology header: "clusterA:", "\t\tcpuN". */
static void topo_line(struct ea_text_probe *p, const char *l, size_t len)
{
	size_t i = 0;
	int32_t c;

	if (len > 8 && !memcmp(l, "cluster", 7) && l[len - 1] == ':') {
		p->idlestat = true;
		if (p->topo_nclusters < 255)
			p->topo_nclusters++;
		return;
	}
	if (!p->topo_nclusters || !len || (l[0] != '\t' && l[0] != ' '))
		return;
	while (i < len && (l[i] == '\t' || l[i] == ' '))
		i++;
	if (len - i > 3 && !memcmp(l + i, "cpu", 3) &&
	    num_i32(l + i + 3, l + len, &c) && c >= 0 && c < EA_TOPO_MAX_CPUS) {
		p->topo[c] = (uint8_t)p->topo_nclusters;
		if (c + 1 > p->topo_ncpus)
			p->topo_ncpus = c + 1;
	}
}

void ea_text_probe(const unsigned char *head, size_t n, struct ea_text_probe *p)
{
	const unsigned char *s = head, *e = head + n, *nul;
	bool before_events = true, whole = n < 4096;
	struct ea_tl r;

	memset(p, 0, sizeof(*p));
	p->ncpus = -1;
	/* Only what precedes a NUL byte counts: binary data is not text. */
	nul = memchr(head, 0, n);
	if (nul) {
		e = nul;
		whole = false;
	}
	if (e - s >= 3 && s[0] == 0xef && s[1] == 0xbb && s[2] == 0xbf)
		s += 3;
	while (s < e && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n'))
		s++;
	if (starts_nocase(s, e, "<!doctype html") || starts_nocase(s, e, "<html")) {
		p->html = true;
		return;
	}
	while (s < e) {
		const unsigned char *nl = memchr(s, '\n', (size_t)(e - s));
		const char *l = (const char *)s;
		size_t len;
		enum ea_tl_kind k;

		/* A cut last line only counts when the whole file is here. */
		if (!nl && !whole)
			break;
		len = nl ? (size_t)(nl - s) : (size_t)(e - s);
		s = nl ? nl + 1 : e;
		if (len >= 9 && !memcmp(l, "# tracer:", 9))
			p->ftrace_header = true;
		if (l[0] == '#' && memmem(l, len, "TGID", 4))
			p->tgid = true;
		if (before_events && len > 5 && !memcmp(l, "cpus=", 5)) {
			int32_t c;

			if (num_i32(l + 5, l + len, &c) && c > 0)
				p->ncpus = c;
			p->report = true;
		}
		if (len >= 10 && !memcmp(l, "version = ", 10))
			p->report = true;
		/* idlestat's topology header, also commented out ("# ") */
		if (before_events && len > 2 && l[0] == '#') {
			const char *h = l[1] == ' ' ? l + 2 : l + 1;

			topo_line(p, h, len - (size_t)(h - l));
		} else if (before_events) {
			topo_line(p, l, len);
		}
		k = ea_tl_parse(l, len, &r);
		if (k == EA_TL_EVENT || k == EA_TL_OTHER || k == EA_TL_LOST) {
			p->events = true;
			before_events = false;
			if (r.tgid)
				p->tgid = true;
		}
	}
}

/* ---- stream ------------------------------------------------------------------ */

#define BUF_SIZE (256 * 1024)	/* > 2 * EA_TEXT_MAX_LINE */
#define TAIL 32

enum html_state { H_OUT, H_START, H_TEXT, H_JSON };

struct lost_pending {
	int cpu;
	uint64_t count;
	uint64_t line;
};

struct text_stream {
	char *path;
	struct ea_tstream *ts;	/* the file, decompressed if gzip or zstd */
	bool html;
	struct ea_input_info *info;

	char *buf;
	size_t start, end, scan;
	bool eof;
	uint64_t lineno;

	enum html_state hs;
	bool html_text_seen;

	struct ea_reorder *ro;
	struct lost_pending *lost;
	size_t nlost, alost;
	uint64_t where_line;
	bool done;
	struct ea_tl tl;
	/* A malformed event line is an error unless it is the file's last
	 * line: captures copied while being written end cut mid-line. */
	char cut_why[sizeof(((struct ea_tl *)0)->why)];
	uint64_t cut_line;
	struct ea_text_first *first;	/* ea_text_first_event()'s skim */
};

/* One read into the room after s->end; at the end of the file it sets
 * s->eof. 0, or -1 on a read or decompression error (read_err()). */
static int read_more(struct text_stream *s)
{
	ssize_t got = ea_ts_read(s->ts, s->buf + s->end, BUF_SIZE - s->end);

	if (got < 0)
		return -1;
	if (got == 0)
		s->eof = true;
	s->end += (size_t)got;
	return 0;
}

/*
 * A read error in line `line`: "PATH:line N: EIO's text", or for a
 * compressed file "PATH:offset N: corrupt gzip data: WHY (in line L)".
 */
static int read_err(struct text_stream *s, struct ea_err *err, uint64_t line)
{
	if (ea_ts_kind(s->ts) != EA_Z_NONE && !strncmp(ea_ts_error(s->ts), "offset ", 7))
		return ea_err_set(err, "%s:%s (in line %llu)", s->path,
				  ea_ts_error(s->ts), (unsigned long long)line);
	return ea_err_set(err, "%s:line %llu: %s", s->path,
			  (unsigned long long)line, ea_ts_error(s->ts));
}

/*
 * Next line: 1 and [*line, *line + *len) (no newline), 0 at the end,
 * -1 on a read error, 2 when the line exceeds EA_TEXT_MAX_LINE (then the
 * caller must call skip_line() or give up).
 */
static int read_line(struct text_stream *s, const char **line, size_t *len)
{
	for (;;) {
		char *nl = memchr(s->buf + s->scan, '\n', s->end - s->scan);

		if (nl && (size_t)(nl - s->buf) - s->start <= EA_TEXT_MAX_LINE) {
			*line = s->buf + s->start;
			*len = (size_t)(nl - *line);
			s->start = s->scan = (size_t)(nl + 1 - s->buf);
			s->lineno++;
			return 1;
		}
		s->scan = s->end;
		if (nl || s->end - s->start > EA_TEXT_MAX_LINE) {
			*line = s->buf + s->start;
			*len = EA_TEXT_MAX_LINE;
			s->lineno++;
			return 2;
		}
		if (s->eof) {
			if (s->start == s->end)
				return 0;
			*line = s->buf + s->start;
			*len = s->end - s->start;
			s->start = s->scan = s->end;
			s->lineno++;
			return 1;
		}
		if (s->start) {
			memmove(s->buf, s->buf + s->start, s->end - s->start);
			s->end -= s->start;
			s->scan -= s->start;
			s->start = 0;
		}
		if (read_more(s))
			return -1;
	}
}

static void keep_tail(char *tail, size_t *tn, const char *p, size_t n)
{
	if (n >= TAIL) {
		memcpy(tail, p + n - TAIL, TAIL);
		*tn = TAIL;
		return;
	}
	if (*tn + n > TAIL) {
		size_t drop = *tn + n - TAIL;

		memmove(tail, tail + drop, *tn - drop);
		*tn -= drop;
	}
	memcpy(tail + *tn, p, n);
	*tn += n;
}

/*
 * Discard the rest of an over-long line (its number is already counted),
 * keeping its last TAIL bytes. 0 or -1 on a read error.
 */
static int skip_line(struct text_stream *s, char *tail, size_t *tn)
{
	*tn = 0;
	for (;;) {
		char *p = s->buf + s->start;
		char *nl = memchr(p, '\n', s->end - s->start);

		keep_tail(tail, tn, p, nl ? (size_t)(nl - p) : s->end - s->start);
		if (nl) {
			s->start = s->scan = (size_t)(nl + 1 - s->buf);
			return 0;
		}
		s->start = s->scan = s->end = 0;
		if (s->eof)
			return 0;
		if (read_more(s))
			return -1;
	}
}

static int where_err(struct text_stream *s, struct ea_err *err, uint64_t line,
		     const char *why)
{
	return ea_err_set(err, "%s:line %llu: %s", s->path,
			  (unsigned long long)line, why);
}

static int push(struct text_stream *s, const struct ea_event *ev,
		uint64_t line, struct ea_err *err)
{
	char why[160];

	if (!ea_reorder_push(s->ro, ev, line)) {
		s->info->reordered = ea_reorder_reordered(s->ro);
		return 0;
	}
	if (!ea_reorder_too_late(s->ro))
		return where_err(s, err, line, "out of memory");
	snprintf(why, sizeof(why),
		 "timestamp %llu.%09llu goes backwards beyond the reorder window (events up to %llu.%09llu already returned)",
		 (unsigned long long)(ev->ts / 1000000000ull),
		 (unsigned long long)(ev->ts % 1000000000ull),
		 (unsigned long long)(ea_reorder_last_out(s->ro) / 1000000000ull),
		 (unsigned long long)(ea_reorder_last_out(s->ro) % 1000000000ull));
	return where_err(s, err, line, why);
}

/*
 * Lost-events markers carry no timestamp: each is emitted at the time of
 * the next event from its CPU (that is when ftrace printed it), or at the
 * trace's last timestamp when the CPU has no further event.
 */
static int flush_lost(struct text_stream *s, int cpu, uint64_t ts,
		      struct ea_err *err)
{
	for (size_t i = 0; i < s->nlost;) {
		struct lost_pending *l = &s->lost[i];
		struct ea_event ev;

		if (cpu >= 0 && l->cpu != cpu) {
			i++;
			continue;
		}
		memset(&ev, 0, sizeof(ev));
		ev.ts = ts;
		ev.cpu = l->cpu;
		ev.cur_pid = -1;
		ev.type = EA_EV_LOST;
		ev.lost.count = l->count;
		if (push(s, &ev, l->line, err))
			return -1;
		*l = s->lost[--s->nlost];
	}
	return 0;
}

static int add_lost(struct text_stream *s, int cpu, uint64_t count,
		    struct ea_err *err)
{
	for (size_t i = 0; i < s->nlost; i++) {
		if (s->lost[i].cpu == cpu) {
			/* Unknown (0) stays unknown. */
			s->lost[i].count = s->lost[i].count && count ?
					   s->lost[i].count + count : 0;
			return 0;
		}
	}
	if (s->nlost == s->alost) {
		size_t na = s->alost ? s->alost * 2 : 8;
		struct lost_pending *l = realloc(s->lost, na * sizeof(*l));

		if (!l)
			return where_err(s, err, s->lineno, "out of memory");
		s->lost = l;
		s->alost = na;
	}
	s->lost[s->nlost++] = (struct lost_pending){ cpu, count, s->lineno };
	return 0;
}

/*
 * Does a malformed line look cut short (a capture copied while being
 * written) rather than corrupt? Its header is cut, or its key=value body
 * stops before the event's last key. Such a line is forgiven only when it
 * is the file's last.
 */
static bool looks_cut(const char *line, size_t len, const char *why)
{
	static const struct {
		const char *event, *last_key;
	} last[] = {
		{ "sched_switch", "next_prio=" },
		{ "cpu_frequency", "cpu_id=" },
		{ "cpu_idle", "cpu_id=" },
		{ "sched_migrate_task", "dest_cpu=" },
		/* target_cpu= is optional: prio= is the last key always there */
		{ "sched_wakeup", "prio=" },	/* and sched_wakeup_new */
		{ "sched_waking", "prio=" },
	};

	if (!strncmp(why, "truncated event line", 20))
		return true;
	if (strncmp(why, "malformed ", 10))
		return false;
	for (size_t i = 0; i < sizeof(last) / sizeof(last[0]); i++)
		if (!strncmp(why + 10, last[i].event, strlen(last[i].event)))
			return memchr(line, '=', len) &&
			       !memmem(line, len, last[i].last_key,
				       strlen(last[i].last_key));
	return false;
}

static int text_line(struct text_stream *s, const char *line, size_t len,
		     struct ea_err *err)
{
	struct ea_tl *r = &s->tl;

	switch (ea_tl_parse(line, len, r)) {
	case EA_TL_NONE:
		s->info->skipped_lines++;
		return 0;
	case EA_TL_OTHER:
		if (s->nlost)
			return flush_lost(s, r->ev.cpu, r->ev.ts, err);
		return 0;
	case EA_TL_EVENT:
		if (s->nlost && flush_lost(s, r->ev.cpu, r->ev.ts, err))
			return -1;
		return push(s, &r->ev, s->lineno, err);
	case EA_TL_LOST:
		return add_lost(s, r->lost_cpu, r->lost_count, err);
	case EA_TL_ERROR:
	default:
		if (!looks_cut(line, len, r->why))
			return where_err(s, err, s->lineno, r->why);
		memcpy(s->cut_why, r->why, sizeof(s->cut_why));
		s->cut_line = s->lineno;
		return 0;
	}
}

static bool blank(const char *p, const char *e)
{
	return rtrim(p, e) == p;
}

/* Position of "</script" in a line of the text block, or NULL. */
static const char *script_end(const char *line, size_t len)
{
	const char *lt = memrchr(line, '<', len);

	if (lt && skip_lit(lt, line + len, LIT("</script")))
		return lt;
	return NULL;
}

/*
 * Systrace HTML: the ftrace text lives in <script class="trace-data"
 * type="application/text"> blocks; other such blocks hold JSON (skipped),
 * the rest is the viewer (skipped, lines of any length).
 */
static int html_line(struct text_stream *s, const char *line, size_t len,
		     bool too_long, struct ea_err *err)
{
	const char *e = line + len, *p, *q;

	switch (s->hs) {
	case H_OUT:
		/* The opening tag starts its line: <script class="trace-data" ...> */
		p = skip_lit(skip_spaces(line, e), e, LIT("<script"));
		if (!p || !(p < e && (is_space(*p))))
			return 0;
		q = memchr(p, '>', (size_t)(e - p));
		if (!q || !memmem(p, (size_t)(q - p), "trace-data", 10))
			return 0;
		s->hs = H_START;
		if (too_long || blank(q + 1, e))
			return 0;
		return html_line(s, q + 1, (size_t)(e - q - 1), false, err);
	case H_START:
		p = skip_spaces(line, e);
		if (blank(p, e))
			return 0;
		if (*p == '{' || *p == '[') {
			s->hs = H_JSON;
			return html_line(s, line, len, too_long, err);
		}
		s->hs = H_TEXT;
		s->html_text_seen = true;
		/* fall through */
	case H_TEXT:
		if (too_long)
			return where_err(s, err, s->lineno,
					 "line longer than 65536 bytes");
		q = script_end(line, len);
		if (q) {
			s->hs = H_OUT;
			if (blank(line, q))
				return 0;
			len = (size_t)(q - line);
		}
		return text_line(s, line, len, err);
	case H_JSON:
		/* An over-long line's end is checked by the caller. */
		if (!too_long && memmem(line, len, "</script", 8))
			s->hs = H_OUT;
		return 0;
	}
	return 0;
}

static int stream_fill(struct text_stream *s, struct ea_err *err)
{
	char tail[TAIL];
	const char *line;
	size_t len, tn = 0;
	int rc = read_line(s, &line, &len);

	if (rc < 0)
		return read_err(s, err, s->lineno + 1);
	if (rc == 0) {
		if (s->cut_line)
			s->info->cut_last_line = s->cut_line;
		return 1;
	}
	if (s->cut_line && !blank(line, line + len))
		return where_err(s, err, s->cut_line, s->cut_why);
	if (memchr(line, '\0', len))
		return where_err(s, err, s->lineno,
				 "NUL byte: binary data in text trace");
	if (!s->html) {
		if (rc == 2)
			return where_err(s, err, s->lineno,
					 "line longer than 65536 bytes");
		return text_line(s, line, len, err);
	}
	if (rc == 2) {
		/* Decide from the head while it is in the buffer. */
		if (s->hs == H_TEXT ||
		    (s->hs == H_START && !blank(line, line + len) &&
		     *skip_spaces(line, line + len) != '{' &&
		     *skip_spaces(line, line + len) != '['))
			return where_err(s, err, s->lineno,
					 "line longer than 65536 bytes");
		if (s->hs == H_OUT || s->hs == H_START)
			html_line(s, line, len, true, err);
		if (skip_line(s, tail, &tn))
			return read_err(s, err, s->lineno);
		if (s->hs == H_JSON && memmem(tail, tn, "</script", 8))
			s->hs = H_OUT;
		return 0;
	}
	return html_line(s, line, len, false, err);
}

int ea_text_next(void *priv, struct ea_event *ev, struct ea_err *err)
{
	struct text_stream *s = priv;
	uint64_t line;
	int rc;

	for (;;) {
		if (ea_reorder_ready(s->ro, s->done)) {
			ea_reorder_pop(s->ro, ev, &line);
			s->where_line = line;
			return 1;
		}
		if (s->done)
			return 0;
		rc = stream_fill(s, err);
		if (rc < 0)
			return -1;
		if (rc > 0) {
			if (s->html && !s->html_text_seen)
				return ea_err_set(err,
						  "%s: HTML without systrace ftrace text (no <script class=\"trace-data\"> block)",
						  s->path);
			if (s->nlost &&
			    flush_lost(s, -1, ea_reorder_max_ts(s->ro), err))
				return -1;
			s->done = true;
		}
	}
}

void ea_text_where(void *priv, char *buf, size_t n)
{
	struct text_stream *s = priv;

	snprintf(buf, n, "line %llu", (unsigned long long)s->where_line);
}

void ea_text_close(void *priv)
{
	struct text_stream *s = priv;

	if (!s)
		return;
	ea_ts_close(s->ts);
	ea_text_first_free(s->first);
	ea_reorder_free(s->ro);
	free(s->lost);
	free(s->buf);
	free(s->path);
	free(s);
}

int ea_text_first_event(void *priv, int cpu, struct ea_event *ev,
			bool *lost_before, struct ea_err *err)
{
	struct text_stream *s = priv;
	int rc;

	errno = 0;
	if (!s->first && !(s->first = ea_text_first_new(s->path)))
		return ea_err_set(err, "%s: %s", s->path,
				  errno ? strerror(errno) : "out of memory");
	rc = ea_text_first_get(s->first, cpu, ev, lost_before);
	if (rc < 0)
		return ea_err_set(err, "%s: out of memory", s->path);
	return rc;
}

int ea_text_open(void **priv, const char *path, struct ea_input_info *info,
		 struct ea_err *err)
{
	struct ea_text_probe p;
	struct text_stream *s;

	*priv = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return ea_err_set(err, "%s: out of memory", path);
	s->ts = ea_ts_open(path, err);
	if (!s->ts) {
		ea_text_close(s);
		return -1;
	}
	s->path = strdup(path);
	s->buf = malloc(BUF_SIZE);
	s->ro = ea_reorder_new(EA_REORDER_CAP, EA_REORDER_WINDOW_NS);
	if (!s->path || !s->buf || !s->ro) {
		ea_text_close(s);
		return ea_err_set(err, "%s: out of memory", path);
	}
	/* The head, read into the line buffer that the lines then come from
	 * (a compressed stream cannot be read twice for nothing). */
	while (!s->eof && s->end < 4096)
		if (read_more(s)) {
			if (s->end)
				break;	/* the lines read tell where: later */
			read_err(s, err, 1);
			ea_text_close(s);
			return -1;
		}
	ea_text_probe((const unsigned char *)s->buf,
		      s->end < 4096 ? s->end : 4096, &p);
	s->html = p.html;
	s->info = info;
	if (p.html)
		info->format = "systrace html";
	else if (p.tgid)
		info->format = "systrace text";
	else if (p.idlestat)
		info->format = "idlestat text";
	else if (p.report)
		info->format = "trace-cmd report text";
	else
		info->format = "ftrace text";
	if (p.ncpus > 0)
		info->ncpus = p.ncpus;
	if (p.topo_ncpus) {
		memcpy(info->topo_cluster, p.topo, sizeof(p.topo));
		info->topo_ncpus = p.topo_ncpus;
		info->topo_nclusters = p.topo_nclusters;
	}
	*priv = s;
	return 0;
}
