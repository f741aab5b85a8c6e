// SPDX-License-Identifier: GPL-2.0-only
/*
 * Each CPU's first event in a text trace, for ea_input_first_event(),
 * without a second full pass: a skim of the file from a descriptor of its
 * own reads only each line's "[CPU]" column (ea_tl_cpu()) and parses in
 * full only the lines of CPUs whose first event is not known yet, and
 * "CPU:N [LOST M EVENTS]" markers. Memory: one buffer and one event per
 * CPU.
 *
 * The answer is what the stream (ea_text_next(), sorted by the reorder
 * buffer) gives first for that CPU: the earliest of its event lines, by
 * timestamp then line. A line can come before an earlier one only within
 * the reorder buffer's reach (EA_REORDER_CAP events, else the stream
 * refuses the file), so a CPU's first line, once asked for, is checked
 * against its lines up to EA_REORDER_CAP "[CPU]" lines further (the tail,
 * read again from the line after it), no more.
 *
 * A gzip or zstd file (text-stream.h) is skimmed the same way, decompressed
 * again from its start: the skim reads forward, and each tail is read
 * from a second stream that decompresses forward to the line after the
 * CPU's first line (from the start again when that is behind it). First
 * lines are near the start, so this costs little more than the plain skim
 * and holds no more memory; no temporary file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input/reorder.h"
#include "input/text-events.h"
#include "input/text-line.h"
#include "input/text-stream.h"

#define FIRST_BUF (256 * 1024)	/* > EA_TEXT_MAX_LINE */

struct ea_text_first {
	struct ea_tstream *ts;
	struct ea_tstream *tail_ts;	/* check_tail()'s, opened on first use */
	char *path;
	char *buf;
	size_t start, end;
	bool eof, done;
	uint64_t ncol;		/* lines with a "[CPU]" column so far */
	int n;			/* CPUs below n in first[] */
	off_t pos;		/* file offset of buf[end] */
	struct first_of {
		uint8_t state;	/* 0 none yet, 1 found (its tail not yet
				   checked), 2 final */
		bool lost;	/* a lost-events marker before it */
		off_t next;	/* file offset of the line after it */
		struct ea_event ev;
	} *first;
	struct ea_tl tl;
};

struct ea_text_first *ea_text_first_new(const char *path)
{
	struct ea_text_first *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	struct ea_err err;

	f->buf = malloc(FIRST_BUF);
	f->path = strdup(path);
	f->ts = ea_ts_open(path, &err);
	if (!f->buf || !f->path || !f->ts) {
		ea_text_first_free(f);
		return NULL;
	}
	return f;
}

void ea_text_first_free(struct ea_text_first *f)
{
	if (!f)
		return;
	ea_ts_close(f->ts);
	ea_ts_close(f->tail_ts);
	free(f->path);
	free(f->buf);
	free(f->first);
	free(f);
}

/* Next line without its newline: 1, 0 at the end (or a read error: the
 * main pass reports it). A line longer than the buffer is passed over. */
static int next_line(struct ea_text_first *f, const char **line, size_t *len)
{
	bool skipping = false;

	for (;;) {
		char *p = f->buf + f->start;
		char *nl = memchr(p, '\n', f->end - f->start);
		ssize_t got;

		if (nl) {
			f->start = (size_t)(nl + 1 - f->buf);
			if (skipping)
				continue;
			*line = p;
			*len = (size_t)(nl - p);
			return 1;
		}
		if (f->eof) {
			if (f->start == f->end || skipping)
				return 0;
			*line = p;
			*len = f->end - f->start;
			f->start = f->end;
			return 1;
		}
		if (f->start == 0 && f->end == FIRST_BUF) {
			skipping = true;	/* over-long: not an event */
			f->end = 0;
		} else if (f->start) {
			memmove(f->buf, p, f->end - f->start);
			f->end -= f->start;
			f->start = 0;
		}
		got = ea_ts_pread(f->ts, f->buf + f->end, FIRST_BUF - f->end,
				  (uint64_t)f->pos);
		if (got <= 0)
			f->eof = true;
		else {
			f->end += (size_t)got;
			f->pos += got;
		}
	}
}

static int grow(struct ea_text_first *f, int cpu)
{
	int n = f->n ? f->n : 8;
	struct first_of *p;

	while (n <= cpu)
		n *= 2;
	p = realloc(f->first, (size_t)n * sizeof(*p));
	if (!p)
		return -1;
	memset(p + f->n, 0, (size_t)(n - f->n) * sizeof(*p));
	f->first = p;
	f->n = n;
	return 0;
}

/*
 * The tail of cpu's first line: its lines among the next EA_REORDER_CAP
 * "[CPU]" lines, read again with a buffer of their own; an earlier one
 * (out of order within the reorder buffer's reach) is its first. 0, or -1
 * out of memory.
 */
static int check_tail(struct ea_text_first *f, int cpu)
{
	struct first_of *o = &f->first[cpu];
	struct ea_text_first t = { .ts = f->ts, .pos = o->next };
	const char *line;
	size_t len;
	uint64_t ts;

	o->state = 2;
	if (ea_ts_kind(f->ts) != EA_Z_NONE) {
		/* a stream of its own: the skim's reads on forward */
		struct ea_err err;

		if (!f->tail_ts && !(f->tail_ts = ea_ts_open(f->path, &err)))
			return -1;
		t.ts = f->tail_ts;
	}
	t.buf = malloc(FIRST_BUF);
	if (!t.buf)
		return -1;
	while (t.ncol < EA_REORDER_CAP && next_line(&t, &line, &len)) {
		int c = ea_tl_cpu(line, len, &ts);

		if (c < 0)
			continue;
		t.ncol++;
		if (c == cpu && ts < o->ev.ts &&
		    ea_tl_parse(line, len, &f->tl) == EA_TL_EVENT &&
		    f->tl.ev.cpu == cpu && f->tl.ev.ts < o->ev.ts)
			o->ev = f->tl.ev;
	}
	free(t.buf);
	return 0;
}

/* A lost-events marker: it comes before cpu's first event if none is
 * found yet. */
static int lost_line(struct ea_text_first *f, const char *line, size_t len)
{
	int cpu;

	if (ea_tl_parse(line, len, &f->tl) != EA_TL_LOST)
		return 0;
	cpu = f->tl.lost_cpu;
	if (cpu < 0 || cpu >= EA_MAX_CPUS)
		return 0;
	if (cpu >= f->n && grow(f, cpu))
		return -1;
	if (!f->first[cpu].state)
		f->first[cpu].lost = true;
	return 0;
}

static int skim_line(struct ea_text_first *f, const char *line, size_t len,
		     off_t next)
{
	struct first_of *o;
	int cpu = ea_tl_cpu(line, len, NULL);

	if (cpu == -2)
		return lost_line(f, line, len);
	if (cpu < 0)
		return 0;
	f->ncol++;
	if (cpu >= EA_MAX_CPUS || (cpu < f->n && f->first[cpu].state))
		return 0;
	if (ea_tl_parse(line, len, &f->tl) != EA_TL_EVENT)
		return 0;
	cpu = f->tl.ev.cpu;
	if (cpu < 0 || cpu >= EA_MAX_CPUS)
		return 0;
	if (cpu >= f->n && grow(f, cpu))
		return -1;
	o = &f->first[cpu];
	if (o->state)
		return 0;
	o->state = 1;
	o->ev = f->tl.ev;
	o->next = next;
	return 0;
}

int ea_text_first_get(struct ea_text_first *f, int cpu, struct ea_event *ev,
		      bool *lost_before)
{
	const char *line;
	size_t len;

	while (!f->done && (cpu >= f->n || !f->first[cpu].state)) {
		if (!next_line(f, &line, &len)) {
			f->done = true;
			break;
		}
		if (skim_line(f, line, len,
			      f->pos - (off_t)(f->end - f->start)))
			return -1;
	}
	if (cpu >= f->n || !f->first[cpu].state)
		return 0;
	if (f->first[cpu].state == 1 && check_tail(f, cpu))
		return -1;
	*ev = f->first[cpu].ev;
	*lost_before = f->first[cpu].lost;
	return 1;
}
