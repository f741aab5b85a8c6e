/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An existing output file's cached pages dropped when the run opens it
 * (src/output/outfile-drop.c): the file is replaced at the end anyway, so
 * its memory serves the run instead, and the rename at the end has fewer
 * pages to free.
 */
#ifndef EATRACE_OUTPUT_OUTFILE_DROP_H
#define EATRACE_OUTPUT_OUTFILE_DROP_H

/* Asks the kernel to drop path's clean cached pages (a hint: its bytes
 * are not changed; nothing is done for what is not a regular file we may
 * open for reading). */
void out_drop_cached(const char *path);

#endif
