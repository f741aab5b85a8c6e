// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ring-buffer pages for the benchmark traces (x86-64 / little-endian
 * 64-bit layout: 8-byte page timestamp, 8-byte commit, then events).
 *
 *   rawpages read TRACE_PIPE_RAW OUT
 *	Copy one CPU's ring buffer (tracing stopped) to OUT, page by page,
 *	until it is empty (non-blocking reads, so it never waits).
 *   rawpages info FILE...
 *	Print "events FIRST_NS LAST_NS" over all the files (CPUs).
 *   rawpages repeat N SHIFT_NS IN OUT
 *	Write IN N times to OUT, copy k with every timestamp moved by
 *	k * SHIFT_NS: page timestamps, and the absolute time stamps some
 *	kernels put in pages. Deltas inside a page are relative, so the
 *	result is the same recording played N times back to back. With
 *	`trace-cmd restore` this gives a trace.dat N times longer, for
 *	measurements that must scale with the trace's length.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PAGE 4096
#define HDR 16
#define COMMIT_MASK ((1u << 27) - 1)
#define TS_SHIFT 27

static uint32_t rd4(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint64_t rd8(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static void wr4(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void wr8(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

/*
 * Walk one page's events (as libtraceevent's kbuffer does). With shift,
 * absolute time stamps are moved by it. Returns the number of data
 * events; *last gets the page's last timestamp. -1 on a malformed page.
 */
static long walk(unsigned char *pg, uint64_t shift, uint64_t *last)
{
	uint64_t ts = rd8(pg);
	uint32_t size = (uint32_t)rd8(pg + 8) & COMMIT_MASK;
	unsigned char *p = pg + HDR, *end = pg + HDR + size;
	long n = 0;

	if (HDR + size > PAGE)
		return -1;
	while (p + 4 <= end) {
		uint32_t h = rd4(p), type = h & 31, delta = h >> 5, len;
		unsigned char *d = p + 4;

		switch (type) {
		case 29:	/* padding */
			if (d + 4 > end)
				return n;	/* end of page */
			len = rd4(d);
			p = d + len;
			if (!delta)
				p = end;
			continue;
		case 30:	/* time extend */
			ts += ((uint64_t)rd4(d) << TS_SHIFT) + delta;
			p = d + 4;
			continue;
		case 31: {	/* absolute time stamp */
			uint64_t abs = ((uint64_t)rd4(d) << TS_SHIFT) + delta;

			if (shift) {
				abs += shift;
				wr4(p, (uint32_t)(abs << 5) | 31);
				wr4(d, (uint32_t)(abs >> TS_SHIFT));
			}
			ts = abs;
			p = d + 4;
			continue;
		}
		case 0:
			len = (rd4(d) - 4 + 3) & ~3u;
			d += 4;
			break;
		default:
			len = type * 4;
		}
		ts += delta;
		n++;
		p = d + len;
	}
	*last = ts;
	return n;
}

static int do_read(const char *src, const char *dst)
{
	unsigned char pg[PAGE];
	int in = open(src, O_RDONLY | O_NONBLOCK);
	FILE *out = fopen(dst, "w");
	ssize_t n;

	if (in < 0 || !out) {
		perror(in < 0 ? src : dst);
		return 1;
	}
	while ((n = read(in, pg, PAGE)) > 0)
		if (fwrite(pg, 1, (size_t)n, out) != (size_t)n) {
			perror(dst);
			return 1;
		}
	if (n < 0 && errno != EAGAIN && errno != EINTR) {
		perror(src);
		return 1;
	}
	close(in);
	return fclose(out) ? 1 : 0;
}

static int do_info(int nf, char **files)
{
	unsigned char pg[PAGE];
	uint64_t first = UINT64_MAX, last = 0, l;
	unsigned long long events = 0;

	for (int i = 0; i < nf; i++) {
		FILE *f = fopen(files[i], "r");
		long n;

		if (!f) {
			perror(files[i]);
			return 1;
		}
		while (fread(pg, 1, PAGE, f) == PAGE) {
			n = walk(pg, 0, &l);
			if (n < 0) {
				fprintf(stderr, "%s: malformed page\n", files[i]);
				return 1;
			}
			if (!n)
				continue;
			if (rd8(pg) < first)
				first = rd8(pg);
			if (l > last)
				last = l;
			events += (unsigned long long)n;
		}
		fclose(f);
	}
	printf("%llu %" PRIu64 " %" PRIu64 "\n", events,
	       first == UINT64_MAX ? 0 : first, last);
	return 0;
}

static int do_repeat(long times, uint64_t shift, const char *src,
		     const char *dst)
{
	FILE *in = fopen(src, "r"), *out = fopen(dst, "w");
	unsigned char pg[PAGE];
	uint64_t l;

	if (!in || !out) {
		perror(!in ? src : dst);
		return 1;
	}
	for (long k = 0; k < times; k++) {
		rewind(in);
		while (fread(pg, 1, PAGE, in) == PAGE) {
			wr8(pg, rd8(pg) + (uint64_t)k * shift);
			if (k && walk(pg, (uint64_t)k * shift, &l) < 0) {
				fprintf(stderr, "%s: malformed page\n", src);
				return 1;
			}
			if (fwrite(pg, 1, PAGE, out) != PAGE) {
				perror(dst);
				return 1;
			}
		}
	}
	fclose(in);
	return fclose(out) ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "read"))
		return do_read(argv[2], argv[3]);
	if (argc >= 3 && !strcmp(argv[1], "info"))
		return do_info(argc - 2, argv + 2);
	if (argc == 6 && !strcmp(argv[1], "repeat"))
		return do_repeat(atol(argv[2]), strtoull(argv[3], NULL, 10),
				 argv[4], argv[5]);
	fprintf(stderr, "usage: %s read SRC OUT | info FILE... | repeat N SHIFT_NS IN OUT\n",
		argv[0]);
	return 2;
}
