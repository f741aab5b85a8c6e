/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Opening a trace.dat through libtracecmd under a guard against its
 * crashes and loops on corrupt files (dat-guard.c), and picking the
 * buffer to read: the top level, or the first instance buffer with
 * records when the top level has none.
 */
#ifndef EATRACE_INPUT_DAT_GUARD_H
#define EATRACE_INPUT_DAT_GUARD_H

#include <stdbool.h>
#include <sys/stat.h>

#include "eatrace/error.h"

struct tracecmd_input;

/* The file opened, and where its reading starts. */
struct dat_open {
	struct tracecmd_input *top; /* the file */
	struct tracecmd_input *h; /* the buffer to read: top or an instance */
	const char *bufname; /* the instance read, NULL the top level */
	/* read cursor of each CPU of cursor_h before the first peek */
	unsigned long long *cursor0; /* malloc()ed, NULL: none */
	int ncursor0;
	struct tracecmd_input *cursor_h; /* the handle they are of */
	/* top's descriptor (open_head()), -1: none; closed by a failed open */
	int top_fd;
	struct stat top_st;
};

/*
 * Open path's headers and data into *o (zeroed first) with libtracecmd's
 * output silenced. rehearsed: this process has just opened the same file
 * under the guard (a second reader of it: not rehearsed again). 0, or -1
 * with err, the one-line cause (a refused file, a crash, a loop, a
 * stall), *o's handles then abandoned (never closed: closing crashes) and
 * its cursors freed.
 */
int ea_dat_open_guarded(const char *path, bool rehearsed, struct dat_open *o,
			struct ea_err *err);

#endif
