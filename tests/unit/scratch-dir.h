/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A scratch directory for the tests that write files (test-outfile.c,
 * test-outfile-drop.c): scratch_make() in a group setup makes it,
 * scratch_remove() in the group teardown removes it with what the tests
 * left in it (files, and directories left empty), and scratch_at(NAME) is
 * the path of NAME in it (four calls' paths valid at once, for a call
 * taking two or three of them).
 */
#ifndef EATRACE_TESTS_SCRATCH_DIR_H
#define EATRACE_TESTS_SCRATCH_DIR_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char scratch_dir[64];

/* /tmp/eatrace-NAME.XXXXXX made: 0, or -1 (the setup fails). */
static int scratch_make(const char *name)
{
	int n = snprintf(scratch_dir, sizeof(scratch_dir),
			 "/tmp/eatrace-%s.XXXXXX", name);

	if (n < 0 || (size_t)n >= sizeof(scratch_dir))
		return -1;
	return mkdtemp(scratch_dir) ? 0 : -1;
}

/* The directory and its entries removed: 0, or -1 (the teardown fails). */
static int scratch_remove(void)
{
	DIR *d = opendir(scratch_dir);
	struct dirent *de;
	char p[512];

	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			snprintf(p, sizeof(p), "%s/%s", scratch_dir,
				 de->d_name);
			if (rmdir(p))
				unlink(p);
		}
	if (d)
		closedir(d);
	return rmdir(scratch_dir);
}

static const char *scratch_at(const char *name)
{
	static char p[4][512];
	static int i;

	i = (i + 1) % 4;
	snprintf(p[i], sizeof(p[i]), "%s/%s", scratch_dir, name);
	return p[i];
}

#endif
