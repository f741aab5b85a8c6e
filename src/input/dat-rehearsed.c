// SPDX-License-Identifier: GPL-2.0-only
/*
 * A note of each file whose rehearsed open got through (dat-rehearsed.h),
 * kept only when EATRACE_REHEARSED names a directory (tests/run.sh sets
 * it to a scratch directory of its own under make sanitize). Builds with
 * AddressSanitizer open every trace.dat in a forked child first
 * (dat-guard.c, rehearse_open()); the suite opens the same good files of
 * traces/ and ../shared/traces hundreds of times, and the child was about
 * a third of each sanitized run's CPU time. A file is known by its device,
 * inode, size and its modification and change times to the nanosecond:
 * a file cut, flipped or rewritten since (what the hostile-file tests do)
 * is another file, rehearsed again. A file changed in the last
 * FRESH_S seconds is not noted: a rewrite within the same clock tick
 * (the fuzz targets rewrite one memfd per input, same inode, often the
 * same size) could keep every figure; one written later than the note
 * has a later time. The note is an empty file in that directory, named by
 * those figures; nothing else is read or written there. Plain builds never
 * fork the child and never call this.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "input/dat-rehearsed.h"

#define FRESH_S 2

/* The notes' directory; NULL when none are kept. */
static const char *note_dir(void)
{
	const char *dir = getenv("EATRACE_REHEARSED");

	/* EATRACE_REHEARSE's tests make the child itself slow: always run */
	if (!dir || !*dir || getenv("EATRACE_REHEARSE"))
		return NULL;
	return dir;
}

/* The note's path in dir for a file of status st; false when none. */
static bool note_path(const char *dir, const struct stat *st, char *buf,
		      size_t n)
{
	int len;

	if (!S_ISREG(st->st_mode))
		return false;
	len = snprintf(buf, n, "%s/%llx-%llx-%llx-%lld.%09ld-%lld.%09ld", dir,
		       (unsigned long long)st->st_dev,
		       (unsigned long long)st->st_ino,
		       (unsigned long long)st->st_size,
		       (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec,
		       (long long)st->st_ctim.tv_sec, st->st_ctim.tv_nsec);
	return len > 0 && (size_t)len < n;
}

bool ea_dat_rehearsed_before(const char *path)
{
	const char *dir = note_dir();
	char note[4096];
	struct stat st;

	return dir && !stat(path, &st) &&
	       note_path(dir, &st, note, sizeof(note)) &&
	       access(note, F_OK) == 0;
}

void ea_dat_rehearsed_note(const struct stat *st)
{
	const char *dir = note_dir();
	char note[4096];
	time_t now;
	int fd;

	if (!dir)
		return;
	now = time(NULL);
	if (st->st_mtim.tv_sec > now - FRESH_S ||
	    st->st_ctim.tv_sec > now - FRESH_S ||
	    !note_path(dir, st, note, sizeof(note)))
		return;
	fd = open(note, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
}
