/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What one trace reader (one file format) provides to input.c.
 * Adding a format = one new reader-*.c file + one entry in input.c's table.
 */
#ifndef EATRACE_INPUT_READER_H
#define EATRACE_INPUT_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "eatrace/input.h"

struct ea_reader_ops {
	const char *name;
	/* Nonzero when the first n bytes of the file look like this format. */
	int (*probe)(const unsigned char *head, size_t n);
	/*
	 * Open path; fill info (format, ncpus, may_have). Return 0 or -1 with
	 * err set to "PATH: cause" (or "PATH:POSITION: cause").
	 */
	int (*open)(void **priv, const char *path, struct ea_input_info *info,
		    struct ea_err *err);
	/* Same contract as ea_input_next(); events in timestamp order. */
	int (*next)(void *priv, struct ea_event *ev, struct ea_err *err);
	/*
	 * Position of the event last returned, for error messages about it
	 * found by later stages: "line 123", "cpu 1 record 42".
	 */
	void (*where)(void *priv, char *buf, size_t n);
	void (*close)(void *priv);
	/*
	 * Optional: the first event of CPU cpu, as ea_input_first_event()
	 * (1, 0 none, -1 error). Readers without it get the generic read
	 * ahead of input.c; a reader that returns 2 gets it too.
	 */
	int (*first_event)(void *priv, int cpu, struct ea_event *ev,
			   bool *lost_before, struct ea_err *err);
	/*
	 * Optional, asked once after the first event next() returned: true
	 * when the reader has already put every event it returns through
	 * event-check.h's checks (on a thread of its own), its error naming
	 * the event's position as input.c's would; input.c then skips them.
	 */
	bool (*checked)(void *priv);
	/*
	 * Optional (input-block.h): the next events as a block the reader
	 * holds, checked (as by .checked), where() naming the last; 2 when
	 * the reader gives them one at a time (then next() is used).
	 * block_at(i) makes where() name event i of the last block.
	 */
	int (*next_block)(void *priv, const struct ea_event **evs, size_t *n,
			  struct ea_err *err);
	void (*block_at)(void *priv, size_t i);
	/*
	 * Optional: the threads the reader runs, the caller's included, when
	 * given enough jobs (ea_input_jobs_for()): a thread decoding, one
	 * decompressing the file's chunks; each is one of the jobs. 1 when
	 * absent.
	 */
	int (*threads)(void *priv);
	/*
	 * The reader decompresses a gzip'd or zstd'd file as it reads it
	 * (the text readers: text-events.c); input.c then opens it with the
	 * file as it is, not a decompressed copy (spool.c).
	 */
	bool reads_compressed;
};

extern const struct ea_reader_ops ea_reader_dat;	/* reader-dat.c */
extern const struct ea_reader_ops ea_reader_systrace;	/* reader-systrace.c */
extern const struct ea_reader_ops ea_reader_text;	/* reader-text.c */
extern const struct ea_reader_ops ea_reader_perfetto;	/* reader-perfetto.c */

/*
 * A trace.dat v7's sections, each ending inside the file (dat-sections.c):
 * finds a file cut inside a section libtracecmd does not read. 0 (also for
 * other versions and layouts it does not know), or -1 with err.
 */
int ea_dat_check_sections(const char *path, struct ea_err *err);

/*
 * A marker (print / tracing_mark_write) text the readers keep: only
 * eatrace's own ("eatrace: ..."), its trailing blanks and newline cut, as
 * the text readers do. False: not ours, the event is skipped.
 */
static inline bool ea_marker_keep(char *t)
{
	size_t n;

	if (strncmp(t, "eatrace:", 8))
		return false;
	n = strlen(t);
	while (n && (t[n - 1] == '\n' || t[n - 1] == '\r' ||
		     t[n - 1] == ' ' || t[n - 1] == '\t'))
		t[--n] = '\0';
	return true;
}

#endif
