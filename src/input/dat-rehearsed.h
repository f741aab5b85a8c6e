/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The files whose open a rehearsal child already got through, across
 * processes (dat-rehearsed.c): AddressSanitizer builds only, for test
 * suites that open the same good trace.dat hundreds of times.
 */
#ifndef EATRACE_INPUT_DAT_REHEARSED_H
#define EATRACE_INPUT_DAT_REHEARSED_H

#include <stdbool.h>
#include <sys/stat.h>

/* Whether path, as it is now, was noted by ea_dat_rehearsed_note(). */
bool ea_dat_rehearsed_before(const char *path);

/*
 * Note that the file of status st (fstat() of the descriptor opened) was
 * opened without trouble; not noted when changed in the last 2 s.
 */
void ea_dat_rehearsed_note(const struct stat *st);

#endif
