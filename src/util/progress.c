// SPDX-License-Identifier: GPL-2.0-only
/* Progress on stderr (include/eatrace/progress.h). */
#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "eatrace/escape.h"
#include "eatrace/progress.h"

#define POLL_EVERY 4096		/* events between clock reads */
#define DELAY_NS 1000000000ull	/* show after 1 s */
#define EVERY_NS 200000000ull	/* redraw at most every 0.2 s */

int ea_progress_enabled = 1;

static struct {
	bool on, drawn;
	unsigned count;
	dev_t dev;
	ino_t ino;
	long long size;
	uint64_t t0, last;
	int fd;			/* the reader's descriptor of the file, -1 */
	int pct;		/* highest percentage shown, -1: none yet */
	char name[64];
} p;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void ea_progress_start(const char *path)
{
	struct stat st;
	const char *base = strrchr(path, '/');

	memset(&p, 0, sizeof(p));
	p.fd = -1;
	p.pct = -1;
	if (!ea_progress_enabled || !isatty(STDERR_FILENO) || stat(path, &st) ||
	    !S_ISREG(st.st_mode) || st.st_size <= 0)
		return;
	p.on = true;
	p.dev = st.st_dev;
	p.ino = st.st_ino;
	p.size = st.st_size;
	p.t0 = now_ns();
	/* escaped: the line is drawn on the user's terminal */
	ea_esc_term_buf(p.name, sizeof(p.name), base ? base + 1 : path);
}

/* The descriptor open on our file with the largest offset (readers may hold
 * several). Returns the offset, or -1. */
static long long offset(void)
{
	long long best = -1;
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		char fn[64];
		struct stat st;
		FILE *f;
		long long pos;
		int fd = atoi(de->d_name);

		if (de->d_name[0] == '.' || fstat(fd, &st) || st.st_dev != p.dev ||
		    st.st_ino != p.ino)
			continue;
		snprintf(fn, sizeof(fn), "/proc/self/fdinfo/%d", fd);
		f = fopen(fn, "r");
		if (!f)
			continue;
		if (fscanf(f, "pos: %lld", &pos) == 1 && pos > best)
			best = pos;
		fclose(f);
	}
	closedir(d);
	return best;
}

/* Every POLL_EVERY events: draw the line when it is time. */
static void poll_clock(void)
{
	uint64_t t;
	long long pos;

	t = now_ns();
	if (t - p.t0 < DELAY_NS || t - p.last < EVERY_NS)
		return;
	p.last = t;
	pos = offset();
	if (pos > p.size)
		pos = p.size;
	/* One counter, never going back: readers hold several descriptors
	 * on the file (and libtracecmd seeks between CPUs' buffers), so the
	 * largest offset seen at one poll can be below an earlier one. */
	if (pos > 0 && (int)(100 * pos / p.size) > p.pct)
		p.pct = (int)(100 * pos / p.size);
	if (p.pct >= 0)
		fprintf(stderr, "\r%s: %3d%% read (%.0f s)\033[K", p.name, p.pct,
			(double)(t - p.t0) / 1e9);
	else	/* mapped, not read (trace.dat): no offset to show */
		fprintf(stderr, "\r%s: %.1fM events read (%.0f s)\033[K", p.name,
			p.count / 1e6, (double)(t - p.t0) / 1e9);
	p.drawn = true;
}

void ea_progress_poll(void)
{
	if (!p.on || ++p.count % POLL_EVERY)
		return;
	poll_clock();
}

void ea_progress_poll_n(unsigned n)
{
	unsigned was = p.count;

	if (!p.on)
		return;
	p.count += n;
	if (was / POLL_EVERY != p.count / POLL_EVERY)
		poll_clock();
}

void ea_progress_end(void)
{
	if (p.drawn)
		fputs("\r\033[K", stderr);
	p.on = p.drawn = false;
}

void ea_progress_step(const char *what, int i, int n)
{
	if (!ea_progress_enabled || !isatty(STDERR_FILENO))
		return;
	fprintf(stderr, "\r%s (%d/%d)\033[K", what, i, n);
	p.drawn = true;
}
