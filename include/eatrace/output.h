/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Output plumbing shared by every renderer: files written atomically, and a
 * small streaming JSON writer with deterministic formatting.
 */
#ifndef EATRACE_OUTPUT_H
#define EATRACE_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "eatrace/error.h"

enum ea_format { EA_FMT_TEXT, EA_FMT_JSON, EA_FMT_CSV };

/*
 * An output file: "-" or NULL is stdout. A regular file (or a name not yet
 * there) is written to a temporary (.eatrace-PID-XXXXXX) in its directory,
 * keeping the existing file's mode (a new one: 0666 less the umask), and
 * replaced only when the whole run succeeded: ea_out_commit() finishes the
 * file, ea_out_commit_all() (main(), at the end of a run that did not fail)
 * renames every finished file over its target; on failure (or exit without
 * it) ea_out_discard_all() removes them, so a failed run replaces nothing
 * (one exception: diff -f junit commits its error file itself, see
 * run_error() in src/cli/cmd-diff.c).
 * A symlink is followed and its target replaced. Anything else (device,
 * FIFO, socket, /dev/stdout, /dev/fd/N) is written in place, never
 * replaced. A file noted as an input of the run is refused as output.
 */
struct ea_outfile;

struct ea_out {
	FILE *f;
	struct ea_outfile *file;	/* NULL: stdout */
};

int ea_out_open(struct ea_out *o, const char *path, struct ea_err *err);
/* Finish writing (flush, fsync); the file is replaced by ea_out_commit_all(). */
int ea_out_commit(struct ea_out *o, struct ea_err *err);
/*
 * ea_out_commit(), the fsync() of a file of 1 MiB or more (and its close)
 * on a thread of its own, so that the run goes on meanwhile:
 * ea_out_commit_all() waits for it before any rename (and reports its
 * write error there), ea_out_discard_all() before removing it.
 */
int ea_out_commit_later(struct ea_out *o, struct ea_err *err);
/*
 * path, an existing regular file this run will replace (ea_out_open()
 * does it too): its clean cached pages dropped now, so that the run uses
 * that memory (a hint: its bytes stay; "-", a missing file and anything
 * not a regular file are left alone). Before a long run that opens its
 * outputs at the end (report's --html, --perfetto), so that the run's own
 * memory comes from them (src/output/outfile-drop.c says why).
 */
void ea_out_drop_old(const char *path);
/* Drop an open (or finished) file: nothing is replaced. */
void ea_out_abort(struct ea_out *o);
/* Replace every finished file, or (on error) none that was not yet. */
int ea_out_commit_all(struct ea_err *err);
void ea_out_discard_all(void);
/* The directory holding o's temporary (into buf), NULL when in place. */
const char *ea_out_dir_of(const struct ea_out *o, char *buf, size_t size);
/* The file holding o's bytes until the end of the run (its temporary), NULL
 * when written in place (a device, a FIFO...) or to stdout. */
const char *ea_out_pending_path(const struct ea_out *o);
/*
 * Make file (written by another program, ideally in ea_out_dir_of()) the
 * content of o: renamed when possible, else copied (and removed).
 */
int ea_out_adopt(struct ea_out *o, const char *file, struct ea_err *err);

/* JSON writer: two-space indentation, keys in the order written. */
struct ea_json {
	FILE *f;
	int depth;
	bool first;		/* no member written yet at this depth */
};

void ea_json_begin(struct ea_json *j, FILE *f);
void ea_json_end(struct ea_json *j);	/* final newline */
/* key may be NULL inside arrays. */
void ea_json_obj(struct ea_json *j, const char *key);
void ea_json_obj_end(struct ea_json *j);
void ea_json_arr(struct ea_json *j, const char *key);
void ea_json_arr_end(struct ea_json *j);
void ea_json_str(struct ea_json *j, const char *key, const char *val);
void ea_json_int(struct ea_json *j, const char *key, long long val);
void ea_json_uint(struct ea_json *j, const char *key, unsigned long long val);
/* Shortest round-trip representation (%.17g trimmed); NaN/Inf -> null. */
void ea_json_num(struct ea_json *j, const char *key, double val);
/* Exact seconds from nanoseconds: 1.000000123 */
void ea_json_ns_as_s(struct ea_json *j, const char *key, uint64_t ns);
void ea_json_bool(struct ea_json *j, const char *key, bool val);
/* A number already formatted (e.g. an exact decimal energy). */
void ea_json_raw(struct ea_json *j, const char *key, const char *literal);

/* "%llu.%09llu" seconds into buf (at least 32 bytes). */
const char *ea_fmt_s(char *buf, uint64_t ns);
/* Shortest decimal that reads back as the same double. */
const char *ea_fmt_num(char *buf, double v);

#endif
