/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Text trace lines, shared by the ftrace-text and systrace readers.
 *
 * One parser understands every line layout we read:
 *
 *   [INSTANCE:] COMM-PID [( TGID)] [CPU] [FLAGS] SECS.FRAC: EVENT: BODY
 *
 * from /sys/kernel/tracing/trace (flags of 4 or 5 characters, or none),
 * `trace-cmd report` (plugin-formatted, -R raw and -N print-fmt bodies),
 * Android systrace (TGID column) and idlestat's hand-written files, plus
 * "CPU:N [LOST M EVENTS]" markers. Bodies are parsed by hand (no sscanf):
 * this is the hot path of every text trace.
 *
 * The stream part (ea_text_*) reads a file line by line with a bounded
 * buffer, runs the parser, sorts the events in a bounded reorder window and
 * implements the struct ea_reader_ops contract for both readers.
 */
#ifndef EATRACE_INPUT_TEXT_LINE_H
#define EATRACE_INPUT_TEXT_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eatrace/error.h"
#include "eatrace/event.h"
#include "eatrace/input.h"

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
 * prev_state decoding (exported for tests). Letters as printed by the
 * kernel's print fmt or trace-cmd's plugin ("R", "R+", "S", "D|K", "x" ...),
 * or the raw number of `trace-cmd report -R`. Return -1 when malformed.
 */
int ea_tl_prev_state_letters(const char *s, size_t n);
int ea_tl_prev_state_number(uint64_t v);

/* What the first bytes of a file look like. */
struct ea_text_probe {
	bool html;		/* an HTML document (systrace) */
	bool events;		/* has at least one event line or LOST marker */
	bool ftrace_header;	/* has "# tracer:" */
	bool tgid;		/* event lines or the legend carry a TGID column */
	bool report;		/* trace-cmd report header: "version = " / "cpus=" */
	bool idlestat;		/* idlestat topology header ("clusterA:") */
	int ncpus;		/* from a "cpus=N" header line, -1 when absent */
	/* the idlestat header's clusters: cluster number + 1 per CPU */
	uint8_t topo[EA_TOPO_MAX_CPUS];
	int topo_ncpus, topo_nclusters;
};

void ea_text_probe(const unsigned char *head, size_t n,
		   struct ea_text_probe *p);

/*
 * The stream: one open text trace, with the struct ea_reader_ops contract.
 * The layout (HTML or plain text, and info->format) is found from the
 * file's first bytes.
 */
int ea_text_open(void **priv, const char *path, struct ea_input_info *info,
		 struct ea_err *err);
int ea_text_next(void *priv, struct ea_event *ev, struct ea_err *err);
void ea_text_where(void *priv, char *buf, size_t n);
void ea_text_close(void *priv);
/* ea_reader_ops.first_event for plain text (text-first.c's skim). */
int ea_text_first_event(void *priv, int cpu, struct ea_event *ev,
			bool *lost_before, struct ea_err *err);

/* text-first.c: each CPU's first event from a skim of the file. */
struct ea_text_first;
struct ea_text_first *ea_text_first_new(const char *path);	/* NULL: error */
void ea_text_first_free(struct ea_text_first *f);
/* 1 with *ev (and *lost_before), 0 none, -1 out of memory. */
int ea_text_first_get(struct ea_text_first *f, int cpu, struct ea_event *ev,
		      bool *lost_before);

#endif
