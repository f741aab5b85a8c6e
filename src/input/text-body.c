// SPDX-License-Identifier: GPL-2.0-only
/*
 * The bodies of the text-trace events eatrace uses (the text after
 * "EVENT: "), one parser per event and layout: key=value left to right
 * (kernel print fmt, trace-cmd -N and -R), or right to left (trace-cmd's
 * plugin form, whose comms may hold spaces and colons). ea_tl_parse()
 * (text-line.c) finds the event name and hands the body here.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memrchr */
#endif
#include <string.h>

#include "input/text-lex.h"
#include "input/text-line.h"
#include "input/text-digits.h"

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

static const char *num_u32(const char *p, const char *e, uint32_t *v)
{
	uint64_t x = 0;

	p = num_u64(p, e, &x);
	if (!p || x > UINT32_MAX)
		return NULL;
	*v = (uint32_t)x;
	return p;
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

/*
 * "<ck>A<pk>1<rk>120", the keys with their separators ("prev_comm=",
 * " prev_pid=", " prev_prio="): the end of the prio, or NULL.
 */
static inline const char *task_kv(const char *p, const char *e, const char *ck,
				  size_t cn, const char *pk, size_t pn,
				  const char *rk, size_t rn, char *comm,
				  int32_t *pid, int32_t *prio)
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
	int32_t v;

	e = rtrim(p, e);
	*prio = -1;
	if (e > p && e[-1] == ']') {
		/* "[120]": 1 to 8 digits after the last '[', read backwards
		 * (what memrchr() and num_i32() find for them), else those */
		b = ea_digits_back(p, e - 1, &v);
		if (b > p && b < e - 1 && b[-1] == '[') {
			b--;
			*prio = v;
		} else {
			b = memrchr(p, '[', (size_t)(e - p));
			if (!b || num_i32(b + 1, e, prio) != e - 1)
				return false;
		}
		e = rtrim(p, b);
		if (e == b)
			return false;
	}
	/* "COMM:4951": the same for the pid after the last ':' */
	c = ea_digits_back(p, e, &v);
	if (c > p && c < e && c[-1] == ':') {
		copy_comm(comm, p, c - 1);
		*pid = v;
		return true;
	}
	c = memrchr(p, ':', (size_t)(e - p));
	if (!c)
		c = p - 1;
	else
		copy_comm(comm, p, c);
	return c + 1 < e && num_i32(c + 1, e, pid) == e;
}

/* find_lit(p, e, LIT(" ==> ")) by its '=' (the comms before it hold
 * spaces more often than '='). */
static const char *find_arrow(const char *p, const char *e)
{
	for (const char *q = p; (q = memchr(q, '=', (size_t)(e - q))); q++)
		if (q > p && e - q >= 4 && q[-1] == ' ' && q[1] == '=' &&
		    q[2] == '>' && q[3] == ' ')
			return q - 1;
	return NULL;
}

/* trace-cmd plugin: "COMM:PID [PRIO] S ==> COMM:PID [PRIO]". */
static bool switch_plugin(const char *p, const char *e, struct ea_event *ev)
{
	const char *arrow = find_arrow(p, e);
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
			      ev->wake.comm, &ev->wake.pid, &ev->wake.prio),
		      e);
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
		return field_end(
			num_i32(p ? p + 5 : NULL, e, &ev->hotplug.step), e);
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

/* ---- dispatch by event name ------------------------------------------- */

enum name_id {
	N_OTHER,
	N_SWITCH,
	N_WAKEUP,
	N_WAKING,
	N_WAKEUP_NEW,
	N_MIGRATE,
	N_FREQ,
	N_IDLE,
	N_CFS_RQ,
	N_SE,
	N_PRINT,
	N_MARK,
	N_SUSPEND,
	N_HP_ENTER,
	N_HP_EXIT,
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

/* A malformed body: its event's name for the message. */
static enum ea_tl_kind bad_body(const char **bad, const char *name)
{
	*bad = name;
	return EA_TL_ERROR;
}

enum ea_tl_kind ea_tl_body(const char *name, size_t n, const char *p,
			   const char *e, struct ea_event *ev, const char **bad)
{
	enum name_id id = lookup_name(name, n);
	int rc;

	if (id == N_OTHER)
		return EA_TL_OTHER;
	p = skip_spaces(p, e);

	switch (id) {
	case N_SWITCH:
		ev->type = EA_EV_SWITCH;
		if (skip_lit(p, e, LIT("prev_comm="))
			    ? !switch_kv(p, e, ev)
			    : !switch_plugin(p, e, ev))
			return bad_body(bad, "sched_switch");
		return EA_TL_EVENT;
	case N_WAKEUP:
	case N_WAKING:
	case N_WAKEUP_NEW:
		ev->type = id == N_WAKEUP   ? EA_EV_WAKEUP
			   : id == N_WAKING ? EA_EV_WAKING
					    : EA_EV_WAKEUP_NEW;
		if (skip_lit(p, e, LIT("comm=")) ? !wake_kv(p, e, ev)
						 : !wake_plugin(p, e, ev))
			return bad_body(bad, ea_event_type_name(ev->type));
		return EA_TL_EVENT;
	case N_MIGRATE:
		ev->type = EA_EV_MIGRATE;
		if (!migrate_kv(p, e, ev))
			return bad_body(bad, "sched_migrate_task");
		return EA_TL_EVENT;
	case N_FREQ:
		ev->type = EA_EV_FREQ;
		if (!freq_kv(p, e, ev))
			return bad_body(bad, "cpu_frequency");
		return EA_TL_EVENT;
	case N_IDLE:
		ev->type = EA_EV_IDLE;
		if (!idle_kv(p, e, ev))
			return bad_body(bad, "cpu_idle");
		return EA_TL_EVENT;
	case N_CFS_RQ:
		ev->type = EA_EV_UTIL_CFS;
		rc = cfs_rq_kv(p, e, ev);
		if (rc < 0)
			return bad_body(bad, "sched_load_cfs_rq");
		return rc ? EA_TL_EVENT : EA_TL_OTHER;
	case N_SE:
		ev->type = EA_EV_UTIL_SE;
		rc = se_kv(p, e, ev);
		if (rc < 0)
			return bad_body(bad, "sched_load_se");
		return rc ? EA_TL_EVENT : EA_TL_OTHER;
	case N_SUSPEND:
		ev->type = EA_EV_SUSPEND;
		rc = suspend_kv(p, e, ev);
		if (rc < 0)
			return bad_body(bad, "suspend_resume");
		return rc ? EA_TL_EVENT : EA_TL_OTHER;
	case N_HP_ENTER:
	case N_HP_EXIT:
		ev->type = EA_EV_HOTPLUG;
		if (!hotplug_kv(p, e, id == N_HP_ENTER, ev))
			return bad_body(bad, id == N_HP_ENTER ? "cpuhp_enter"
							      : "cpuhp_exit");
		return EA_TL_EVENT;
	case N_PRINT:
	case N_MARK:
		ev->type = EA_EV_MARKER;
		return marker(p, e, id == N_PRINT, ev) ? EA_TL_EVENT
						       : EA_TL_OTHER;
	default:
		return EA_TL_OTHER;
	}
}
