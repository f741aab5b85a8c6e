/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A finished output file's fsync() and fclose() on a thread of their own
 * (src/output/outfile-sync.c), so that the run goes on while the disk
 * catches up; src/output/outfile.c waits for it before the rename that
 * needs it (ea_out_commit_later(), include/eatrace/output.h).
 */
#ifndef EATRACE_OUTPUT_OUTFILE_SYNC_H
#define EATRACE_OUTPUT_OUTFILE_SYNC_H

#include <stdio.h>

struct out_sync;

/* fsync(fileno(f)) then fclose(f) on a new thread (all signals blocked in
 * it). NULL: no thread (nothing done: f is still the caller's). */
struct out_sync *out_sync_start(FILE *f);
/* Waits for the thread, frees s: 0, or the errno of the first of fsync()
 * and fclose() that failed. */
int out_sync_wait(struct out_sync *s);

#endif
