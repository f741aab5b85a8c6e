/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Read-only mmap windows over an uncompressed trace.dat's CPU data
 * (dat-map.c), for the page walker (dat-walk.c's refill()): the pages are
 * walked where the page cache holds them instead of being copied by
 * pread() first (that copy, the kernel's _copy_to_iter, was 29 % of a
 * report's samples on rec.dat; bench/README.md, map7).
 *
 * One window per CPU, of a few MiB, the previous one unmapped when the
 * CPU moves past it: memory stays bounded by the windows, never the file.
 * A window is mapped only when it lies inside the file as fstat() gives it
 * now; the caller reads it with pread() otherwise (the same "truncated
 * trace.dat: file ends at ..." message as before), and when mmap() fails
 * (a file system that cannot map, no address space, EATRACE_NO_MMAP=1).
 *
 * A file cut short WHILE mapped: touching a page past its new end raises
 * SIGBUS. dat-map.c's handler, installed once (the first window), finds
 * the window the address lies in (a fixed registry of the live windows,
 * read without a lock), maps zero pages over the rest of it
 * (MAP_FIXED|MAP_ANONYMOUS) and flags it cut, then returns: the faulting
 * load reads zeros, whatever thread made it (the decoding thread, the
 * caller's with -j 1, the look-ahead's second reader), and without a
 * setjmp on the hot path. Zeros are an empty page or an item the walker
 * refuses at once ("record length below 4"); either way the reader asks
 * dm_cut() (through dw_cut(), dat-walk.h) whenever its stream ends or
 * fails, and reports the cut file instead, one line, exit 2, no output
 * (docs/robustness.md). A SIGBUS elsewhere goes to the handler found at
 * installation (or the default action: the crash it always was).
 */
#ifndef EATRACE_INPUT_DAT_MAP_H
#define EATRACE_INPUT_DAT_MAP_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One mapped window of a file. */
struct dm_win {
	unsigned char *base;	/* the mapping (system-page aligned), NULL: none */
	size_t len;		/* its length */
	int slot;		/* its entry in the fault registry */
};

/*
 * The window, in bytes, for each of n CPUs with data of pages of
 * page_size bytes: 0 when windows are off (EATRACE_NO_MMAP=1). A whole
 * number of trace pages and of system pages, DM_WINDOW bytes while all
 * the windows together stay under DM_TOTAL. EATRACE_MMAP_KIB=K (a bench
 * knob, bench/README.md) asks for K KiB instead of DM_WINDOW.
 */
size_t dm_window(int n, uint32_t page_size);

/*
 * Map [off, off + len) of fd read-only into *m, which maps nothing: the
 * byte at off, or NULL when it is not mapped (*m left empty): the range
 * reaches past the file's end, mmap() failed, or the registry is full.
 * The caller then reads the range.
 */
const unsigned char *dm_map(struct dm_win *m, int fd, unsigned long long off,
			    size_t len);

/* Unmap *m (nothing when it maps nothing): true when it was cut (zeros
 * stood in for pages the file no longer had). */
bool dm_unmap(struct dm_win *m);

/* True when part of *m was cut since it was mapped. */
bool dm_cut(const struct dm_win *m);

/*
 * The fault handler's test, for another SIGBUS handler that may stand in
 * for dat-map.c's for a while (dat-guard.c's, while it opens a file):
 * true when si's address lies in a live window, which now reads zeros.
 */
bool dm_fault(const siginfo_t *si);

#endif
