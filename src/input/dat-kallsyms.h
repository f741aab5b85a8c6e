/* SPDX-License-Identifier: GPL-2.0-only */
/* No kallsyms nor saved cmdlines parsing while trace.dat files are opened
 * (dat-kallsyms.c). */
#ifndef EATRACE_INPUT_DAT_KALLSYMS_H
#define EATRACE_INPUT_DAT_KALLSYMS_H

#include <stdbool.h>

/* true: tep_parse_kallsyms() and tep_parse_saved_cmdlines() parse nothing
 * until set back to false. */
void ea_dat_kallsyms_skip(bool on);

/* How many parses were skipped so far (tests: once per file opened). */
unsigned long ea_dat_kallsyms_skipped(void);
/* The same for the saved cmdlines. */
unsigned long ea_dat_cmdlines_skipped(void);

#endif
