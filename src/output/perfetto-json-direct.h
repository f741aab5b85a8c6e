/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A stream of its own into a regular file at an offset (pwrite()), for the
 * JSON --perfetto file's split thread (src/output/perfetto-json-direct.c):
 * it writes its text into the caller's file where that text belongs while
 * the caller writes what comes before it through the caller's stream.
 */
#ifndef EATRACE_OUTPUT_PERFETTO_JSON_DIRECT_H
#define EATRACE_OUTPUT_PERFETTO_JSON_DIRECT_H

#include <stdbool.h>
#include <stdio.h>

struct pj_direct;

/* A stream into f's file (unbuffered, at offset 0 until pj_direct_seek());
 * NULL when f is no regular file, is opened for appending, or out of
 * memory. f is left alone. */
struct pj_direct *pj_direct_open(FILE *f);
/* The stream (its writes land at its offset; ftell() gives it). */
FILE *pj_direct_stream(struct pj_direct *d);
/* Its next write at pos: 0, or -1. */
int pj_direct_seek(struct pj_direct *d, long long pos);
/* Where its next write goes. */
long long pj_direct_end(const struct pj_direct *d);
/* Whether it wrote (or tried to write) anything to the file. */
bool pj_direct_wrote(const struct pj_direct *d);
/* Whether a write failed (the file lacks some of its text). */
bool pj_direct_failed(const struct pj_direct *d);
/* Closes the stream (not f's file) and frees d (NULL: nothing). */
void pj_direct_free(struct pj_direct *d);

#endif
