// SPDX-License-Identifier: GPL-2.0-only
/*
 * No kallsyms parsing while a trace.dat file is opened (issue 19).
 *
 * libtracecmd parses the file's kallsyms section (up to megabytes of
 * /proc/kallsyms) with libtraceevent's tep_parse_kallsyms() on every
 * open, and offers no flag to skip it; eatrace never resolves a kernel
 * address from a file. The function is defined here, in the program:
 * the dynamic linker binds libtracecmd's call to it (a definition in the
 * executable comes first), and while ea_dat_kallsyms_skip(true) is in
 * force it parses nothing. Otherwise it hands the call to libtraceevent's
 * own, so live commands that print events (libtracefs loads this
 * machine's kallsyms for them) resolve addresses as before.
 *
 * The same for the saved cmdlines (pid -> comm, thousands of lines, each
 * through sscanf(): 17 M instructions on the bench trace, more than all
 * the rest of the open): eatrace takes comms from the records' own
 * fields and prints no event with its comm (dat-read.c prints only
 * suspend_resume's info text).
 */
#include <dlfcn.h>
#include <stdbool.h>

#include <event-parse.h>

#include "input/dat-kallsyms.h"

static bool skip;
static unsigned long skipped, cmdlines_skipped;

void ea_dat_kallsyms_skip(bool on)
{
	skip = on;
}

unsigned long ea_dat_kallsyms_skipped(void)
{
	return skipped;
}

unsigned long ea_dat_cmdlines_skipped(void)
{
	return cmdlines_skipped;
}

int tep_parse_kallsyms(struct tep_handle *tep, const char *kallsyms)
{
	static int (*real)(struct tep_handle *, const char *);

	if (skip) {
		skipped++;
		return 0;
	}
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "tep_parse_kallsyms");
	return real ? real(tep, kallsyms) : -1;
}

int tep_parse_saved_cmdlines(struct tep_handle *tep, const char *buf)
{
	static int (*real)(struct tep_handle *, const char *);

	if (skip) {
		cmdlines_skipped++;
		return 0;
	}
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "tep_parse_saved_cmdlines");
	return real ? real(tep, buf) : -1;
}
