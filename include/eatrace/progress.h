/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Progress on stderr while a trace is read: only when stderr is a terminal,
 * only once reading has taken more than a second, as the share of the file
 * read so far (the reader's file offset, from /proc/self/fdinfo, so that no
 * reader needs to report it). Never touches stdout.
 */
#ifndef EATRACE_PROGRESS_H
#define EATRACE_PROGRESS_H

/* Set to 0 to turn it off (tests, -q). */
extern int ea_progress_enabled;

void ea_progress_start(const char *path);
/* Cheap: call for every event. */
void ea_progress_poll(void);
/* ea_progress_poll() for n events at once (a block of them). */
void ea_progress_poll_n(unsigned n);
/* A step of the work after reading (e.g. "replay: policy feec", 2, 5),
 * drawn at once when stderr is a terminal; ea_progress_end() clears it. */
void ea_progress_step(const char *what, int i, int n);
/* Clears the line if one was drawn. */
void ea_progress_end(void);

#endif
