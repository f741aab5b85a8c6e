/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Text traces as a stream of events, for the ftrace-text and systrace
 * readers (reader-text.c, reader-systrace.c): what a file's first bytes
 * look like (text-probe.c), the stream itself with the struct
 * ea_reader_ops contract (text-events.c), and each CPU's first event from
 * a skim of the file (text-first.c). Lines are parsed by text-line.h's
 * parser.
 */
#ifndef EATRACE_INPUT_TEXT_EVENTS_H
#define EATRACE_INPUT_TEXT_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eatrace/error.h"
#include "eatrace/event.h"
#include "eatrace/input.h"

/* What the first bytes of a file look like. */
struct ea_text_probe {
	bool html; /* an HTML document (systrace) */
	bool events; /* has at least one event line or LOST marker */
	bool ftrace_header; /* has "# tracer:" */
	bool tgid; /* event lines or the legend carry a TGID column */
	bool report; /* trace-cmd report header: "version = " / "cpus=" */
	bool idlestat; /* idlestat topology header ("clusterA:") */
	int ncpus; /* from a "cpus=N" header line, -1 when absent */
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
/*
 * Read the stream a block at a time through next-blocks.h (ftrace text:
 * reader-text.c), on a thread of its own when there are jobs for it; call
 * after ea_text_open() (info: its). Then these are the reader's
 * next_block, block_at, checked and threads entries (reader.h); without
 * it, next_block gives 2 (one at a time) and threads 1.
 */
void ea_text_use_blocks(void *priv, const struct ea_input_info *info);
int ea_text_next_block(void *priv, const struct ea_event **evs, size_t *n,
		       struct ea_err *err);
void ea_text_block_at(void *priv, size_t i);
bool ea_text_checked(void *priv);
int ea_text_threads(void *priv);
/* ea_reader_ops.first_event for plain text (text-first.c's skim). */
int ea_text_first_event(void *priv, int cpu, struct ea_event *ev,
			bool *lost_before, struct ea_err *err);

/* text-first.c: each CPU's first event from a skim of the file. */
struct ea_text_first;
struct ea_text_first *ea_text_first_new(const char *path); /* NULL: error */
void ea_text_first_free(struct ea_text_first *f);
/* 1 with *ev (and *lost_before), 0 none, -1 out of memory. */
int ea_text_first_get(struct ea_text_first *f, int cpu, struct ea_event *ev,
		      bool *lost_before);

#endif
