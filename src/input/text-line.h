/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Text trace lines, shared by the ftrace-text and systrace readers.
 *
 * One parser (text-line.c, the bodies in text-body.c) understands every
 * line layout we read:
 *
 *   [INSTANCE:] COMM-PID [( TGID)] [CPU] [FLAGS] SECS.FRAC: EVENT: BODY
 *
 * from /sys/kernel/tracing/trace (flags of 4 or 5 characters, or none),
 * `trace-cmd report` (plugin-formatted, -R raw and -N print-fmt bodies),
 * Android systrace (TGID column) and idlestat's hand-written files, plus
 * "CPU:N [LOST M EVENTS]" markers. Bodies are parsed by hand (no sscanf):
 * this is the hot path of every text trace. The stream of events the
 * readers run on is text-events.h's.
 */
#ifndef EATRACE_INPUT_TEXT_LINE_H
#define EATRACE_INPUT_TEXT_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eatrace/event.h"

#define EA_TEXT_MAX_LINE 65536	/* longer lines are refused as corrupt */

enum ea_tl_kind {
	EA_TL_NONE,	/* not an event: blank, comment, header; skipped */
	EA_TL_EVENT,	/* an event eatrace uses: ev filled */
	EA_TL_OTHER,	/* a well-formed event line of a type we skip */
	EA_TL_LOST,	/* "CPU:N [LOST M EVENTS]": lost_cpu, lost_count */
	EA_TL_ERROR,	/* looks like an event but is malformed: why */
};

struct ea_tl {
	struct ea_event ev;
	bool tgid;		/* the line had a systrace TGID column */
	int lost_cpu;
	uint64_t lost_count;	/* 0: unknown */
	char why[160];		/* EA_TL_ERROR: the cause, one line */
};

/*
 * Parse one line (without its newline; need not be NUL-terminated).
 * Returns the kind; fills r accordingly.
 */
enum ea_tl_kind ea_tl_parse(const char *s, size_t n, struct ea_tl *r);

/*
 * The CPU of the line's "[CPU]" column, as ea_tl_parse() finds it, without
 * parsing the rest; -1 when the line has none, -2 when it starts with
 * "CPU:" (a lost-events marker, perhaps). With ts, also its timestamp
 * (UINT64_MAX when it has none that ea_tl_parse() would take).
 */
int ea_tl_cpu(const char *s, size_t n, uint64_t *ts);

/*
 * The body of the event named [name, name + n), from p (just after the
 * "NAME:") to e (text-body.c; ea_tl_parse()'s). EA_TL_EVENT with ev's type
 * and fields filled, EA_TL_OTHER for an event eatrace does not use, or
 * EA_TL_ERROR with *bad the event's name for the message.
 */
enum ea_tl_kind ea_tl_body(const char *name, size_t n, const char *p,
			   const char *e, struct ea_event *ev, const char **bad);

/*
 * prev_state decoding (text-body.c, exported for tests). Letters as
 * printed by the kernel's print fmt or trace-cmd's plugin ("R", "R+", "S",
 * "D|K", "x" ...), or the raw number of `trace-cmd report -R`. Return -1
 * when malformed.
 */
int ea_tl_prev_state_letters(const char *s, size_t n);
int ea_tl_prev_state_number(uint64_t v);

#endif
