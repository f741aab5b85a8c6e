// SPDX-License-Identifier: GPL-2.0-only
/*
 * The event stream of a text trace, for both text readers (reader-text.c,
 * reader-systrace.c): the file read line by line through a bounded buffer
 * (decompressed when gzip or zstd: text-stream.c), systrace HTML's
 * trace-data blocks picked out, each line parsed (ea_tl_parse()), lost-
 * events markers placed at their CPU's next event, the events sorted in a
 * bounded reorder window (reorder.c); each CPU's first event from a skim
 * of the file (text-first.c).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memmem, memrchr */
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "input/next-blocks.h"
#include "input/reorder.h"
#include "input/text-events.h"
#include "input/text-lex.h"
#include "input/text-line.h"
#include "input/text-stream.h"

#define BUF_SIZE (256 * 1024) /* > 2 * EA_TEXT_MAX_LINE */
#define TAIL 32
#define NUL_NONE SIZE_MAX

enum html_state { H_OUT, H_START, H_TEXT, H_JSON };

struct lost_pending {
	int cpu;
	uint64_t count;
	uint64_t line;
};

struct text_stream {
	char *path;
	struct ea_tstream *ts; /* the file, decompressed if gzip or zstd */
	bool html;
	struct ea_input_info *info;

	char *buf;
	size_t start, end, scan;
	/* has_nul(): the buffer scanned for NUL bytes up to zchk; nul the
	 * first at or after the last line's start, NUL_NONE: none */
	size_t zchk, nul;
	bool eof;
	uint64_t lineno;

	enum html_state hs;
	bool html_text_seen;

	struct ea_reorder *ro;
	struct lost_pending *lost;
	size_t nlost, alost;
	uint64_t where_line;
	bool done;
	struct ea_tl tl;
	/* A malformed event line is an error unless it is the file's last
	 * line: captures copied while being written end cut mid-line. */
	char cut_why[sizeof(((struct ea_tl *)0)->why)];
	uint64_t cut_line;
	/* what info gets at the end (publish()): the stream may run on a
	 * thread of its own, info is the caller's */
	uint64_t skipped_lines, cut_last_line;
	struct ea_text_first *first; /* ea_text_first_event()'s skim */
	uint64_t bytes; /* the file's, for nb_reader_init() */
	/* read through once ea_text_use_blocks() set it up */
	struct nb nb;
};

/* One read into the room after s->end; at the end of the file it sets
 * s->eof. 0, or -1 on a read or decompression error (read_err()). */
static int read_more(struct text_stream *s)
{
	ssize_t got = ea_ts_read(s->ts, s->buf + s->end, BUF_SIZE - s->end);

	if (got < 0)
		return -1;
	if (got == 0)
		s->eof = true;
	s->end += (size_t)got;
	return 0;
}

/*
 * A read error in line `line`: "PATH:line N: EIO's text", or for a
 * compressed file "PATH:offset N: corrupt gzip data: WHY (in line L)".
 */
static int read_err(struct text_stream *s, struct ea_err *err, uint64_t line)
{
	if (ea_ts_kind(s->ts) != EA_Z_NONE &&
	    !strncmp(ea_ts_error(s->ts), "offset ", 7))
		return ea_err_set(err, "%s:%s (in line %llu)", s->path,
				  ea_ts_error(s->ts), (unsigned long long)line);
	return ea_err_set(err, "%s:line %llu: %s", s->path,
			  (unsigned long long)line, ea_ts_error(s->ts));
}

/*
 * Next line: 1 and [*line, *line + *len) (no newline), 0 at the end,
 * -1 on a read error, 2 when the line exceeds EA_TEXT_MAX_LINE (then the
 * caller must call skip_line() or give up).
 */
static int read_line(struct text_stream *s, const char **line, size_t *len)
{
	for (;;) {
		char *nl = memchr(s->buf + s->scan, '\n', s->end - s->scan);

		if (nl &&
		    (size_t)(nl - s->buf) - s->start <= EA_TEXT_MAX_LINE) {
			*line = s->buf + s->start;
			*len = (size_t)(nl - *line);
			s->start = s->scan = (size_t)(nl + 1 - s->buf);
			s->lineno++;
			return 1;
		}
		s->scan = s->end;
		if (nl || s->end - s->start > EA_TEXT_MAX_LINE) {
			*line = s->buf + s->start;
			*len = EA_TEXT_MAX_LINE;
			s->lineno++;
			return 2;
		}
		if (s->eof) {
			if (s->start == s->end)
				return 0;
			*line = s->buf + s->start;
			*len = s->end - s->start;
			s->start = s->scan = s->end;
			s->lineno++;
			return 1;
		}
		if (s->start) {
			memmove(s->buf, s->buf + s->start, s->end - s->start);
			s->end -= s->start;
			s->scan -= s->start;
			if (s->zchk < s->start ||
			    (s->nul != NUL_NONE && s->nul < s->start)) {
				s->zchk = 0;
				s->nul = NUL_NONE;
			} else {
				s->zchk -= s->start;
				if (s->nul != NUL_NONE)
					s->nul -= s->start;
			}
			s->start = 0;
		}
		if (read_more(s))
			return -1;
	}
}

static void keep_tail(char *tail, size_t *tn, const char *p, size_t n)
{
	if (n >= TAIL) {
		memcpy(tail, p + n - TAIL, TAIL);
		*tn = TAIL;
		return;
	}
	if (*tn + n > TAIL) {
		size_t drop = *tn + n - TAIL;

		memmove(tail, tail + drop, *tn - drop);
		*tn -= drop;
	}
	memcpy(tail + *tn, p, n);
	*tn += n;
}

/*
 * Discard the rest of an over-long line (its number is already counted),
 * keeping its last TAIL bytes. 0 or -1 on a read error.
 */
static int skip_line(struct text_stream *s, char *tail, size_t *tn)
{
	*tn = 0;
	for (;;) {
		char *p = s->buf + s->start;
		char *nl = memchr(p, '\n', s->end - s->start);

		keep_tail(tail, tn, p,
			  nl ? (size_t)(nl - p) : s->end - s->start);
		if (nl) {
			s->start = s->scan = (size_t)(nl + 1 - s->buf);
			return 0;
		}
		s->start = s->scan = s->end = 0;
		s->zchk = 0;
		s->nul = NUL_NONE;
		if (s->eof)
			return 0;
		if (read_more(s))
			return -1;
	}
}

/*
 * Whether [a, b) of the buffer holds a NUL byte: memchr(line, '\0', len)
 * for each line, but each byte looked at once, the buffer scanned to its
 * end when a line reaches past what was scanned.
 */
static bool has_nul(struct text_stream *s, size_t a, size_t b)
{
	const char *z;

	if (s->zchk < a) {
		s->zchk = a;
		s->nul = NUL_NONE;
	} else if (s->nul < a) {
		/* a NUL before this line (in a long line skipped) */
		z = memchr(s->buf + a, '\0', s->zchk - a);
		s->nul = z ? (size_t)(z - s->buf) : NUL_NONE;
	}
	if (s->nul == NUL_NONE && s->zchk < b) {
		z = memchr(s->buf + s->zchk, '\0', s->end - s->zchk);
		s->nul = z ? (size_t)(z - s->buf) : NUL_NONE;
		s->zchk = s->end;
	}
	return s->nul < b;
}

static int where_err(struct text_stream *s, struct ea_err *err, uint64_t line,
		     const char *why)
{
	return ea_err_set(err, "%s:line %llu: %s", s->path,
			  (unsigned long long)line, why);
}

static int push(struct text_stream *s, const struct ea_event *ev, uint64_t line,
		struct ea_err *err)
{
	char why[160];

	if (!ea_reorder_push(s->ro, ev, line))
		return 0;
	if (!ea_reorder_too_late(s->ro))
		return where_err(s, err, line, "out of memory");
	snprintf(why, sizeof(why),
		 "timestamp %llu.%09llu goes backwards beyond the reorder "
		 "window (events up to %llu.%09llu already returned)",
		 (unsigned long long)(ev->ts / 1000000000ull),
		 (unsigned long long)(ev->ts % 1000000000ull),
		 (unsigned long long)(ea_reorder_last_out(s->ro) /
				      1000000000ull),
		 (unsigned long long)(ea_reorder_last_out(s->ro) %
				      1000000000ull));
	return where_err(s, err, line, why);
}

/*
 * Lost-events markers carry no timestamp: each is emitted at the time of
 * the next event from its CPU (that is when ftrace printed it), or at the
 * trace's last timestamp when the CPU has no further event.
 */
static int flush_lost(struct text_stream *s, int cpu, uint64_t ts,
		      struct ea_err *err)
{
	for (size_t i = 0; i < s->nlost;) {
		struct lost_pending *l = &s->lost[i];
		struct ea_event ev;

		if (cpu >= 0 && l->cpu != cpu) {
			i++;
			continue;
		}
		memset(&ev, 0, sizeof(ev));
		ev.ts = ts;
		ev.cpu = l->cpu;
		ev.cur_pid = -1;
		ev.type = EA_EV_LOST;
		ev.lost.count = l->count;
		if (push(s, &ev, l->line, err))
			return -1;
		*l = s->lost[--s->nlost];
	}
	return 0;
}

static int add_lost(struct text_stream *s, int cpu, uint64_t count,
		    struct ea_err *err)
{
	for (size_t i = 0; i < s->nlost; i++) {
		if (s->lost[i].cpu == cpu) {
			/* Unknown (0) stays unknown. */
			s->lost[i].count = s->lost[i].count && count
						   ? s->lost[i].count + count
						   : 0;
			return 0;
		}
	}
	if (s->nlost == s->alost) {
		size_t na = s->alost ? s->alost * 2 : 8;
		struct lost_pending *l = realloc(s->lost, na * sizeof(*l));

		if (!l)
			return where_err(s, err, s->lineno, "out of memory");
		s->lost = l;
		s->alost = na;
	}
	s->lost[s->nlost++] = (struct lost_pending){cpu, count, s->lineno};
	return 0;
}

/*
 * Does a malformed line look cut short (a capture copied while being
 * written) rather than corrupt? Its header is cut, or its key=value body
 * stops before the event's last key. Such a line is forgiven only when it
 * is the file's last.
 */
static bool looks_cut(const char *line, size_t len, const char *why)
{
	static const struct {
		const char *event, *last_key;
	} last[] = {
		{"sched_switch", "next_prio="},
		{"cpu_frequency", "cpu_id="},
		{"cpu_idle", "cpu_id="},
		{"sched_migrate_task", "dest_cpu="},
		/* target_cpu= is optional: prio= is the last key always there
		 */
		{"sched_wakeup", "prio="}, /* and sched_wakeup_new */
		{"sched_waking", "prio="},
	};

	if (!strncmp(why, "truncated event line", 20))
		return true;
	if (strncmp(why, "malformed ", 10))
		return false;
	for (size_t i = 0; i < sizeof(last) / sizeof(last[0]); i++)
		if (!strncmp(why + 10, last[i].event, strlen(last[i].event)))
			return memchr(line, '=', len) &&
			       !memmem(line, len, last[i].last_key,
				       strlen(last[i].last_key));
	return false;
}

static int text_line(struct text_stream *s, const char *line, size_t len,
		     struct ea_err *err)
{
	struct ea_tl *r = &s->tl;

	switch (ea_tl_parse(line, len, r)) {
	case EA_TL_NONE:
		s->skipped_lines++;
		return 0;
	case EA_TL_OTHER:
		if (s->nlost)
			return flush_lost(s, r->ev.cpu, r->ev.ts, err);
		return 0;
	case EA_TL_EVENT:
		if (s->nlost && flush_lost(s, r->ev.cpu, r->ev.ts, err))
			return -1;
		return push(s, &r->ev, s->lineno, err);
	case EA_TL_LOST:
		return add_lost(s, r->lost_cpu, r->lost_count, err);
	case EA_TL_ERROR:
	default:
		if (!looks_cut(line, len, r->why))
			return where_err(s, err, s->lineno, r->why);
		memcpy(s->cut_why, r->why, sizeof(s->cut_why));
		s->cut_line = s->lineno;
		return 0;
	}
}

static bool blank(const char *p, const char *e)
{
	return rtrim(p, e) == p;
}

/* Position of "</script" in a line of the text block, or NULL. */
static const char *script_end(const char *line, size_t len)
{
	const char *lt = memrchr(line, '<', len);

	if (lt && skip_lit(lt, line + len, LIT("</script")))
		return lt;
	return NULL;
}

/*
 * Systrace HTML: the ftrace text lives in <script class="trace-data"
 * type="application/text"> blocks; other such blocks hold JSON (skipped),
 * the rest is the viewer (skipped, lines of any length).
 */
static int html_line(struct text_stream *s, const char *line, size_t len,
		     bool too_long, struct ea_err *err)
{
	const char *e = line + len, *p, *q;

	switch (s->hs) {
	case H_OUT:
		/* The opening tag starts its line: <script class="trace-data"
		 * ...> */
		p = skip_lit(skip_spaces(line, e), e, LIT("<script"));
		if (!p || !(p < e && (is_space(*p))))
			return 0;
		q = memchr(p, '>', (size_t)(e - p));
		if (!q || !memmem(p, (size_t)(q - p), "trace-data", 10))
			return 0;
		s->hs = H_START;
		if (too_long || blank(q + 1, e))
			return 0;
		return html_line(s, q + 1, (size_t)(e - q - 1), false, err);
	case H_START:
		p = skip_spaces(line, e);
		if (blank(p, e))
			return 0;
		if (*p == '{' || *p == '[') {
			s->hs = H_JSON;
			return html_line(s, line, len, too_long, err);
		}
		s->hs = H_TEXT;
		s->html_text_seen = true;
		/* fall through */
	case H_TEXT:
		if (too_long)
			return where_err(s, err, s->lineno,
					 "line longer than 65536 bytes");
		q = script_end(line, len);
		if (q) {
			s->hs = H_OUT;
			if (blank(line, q))
				return 0;
			len = (size_t)(q - line);
		}
		return text_line(s, line, len, err);
	case H_JSON:
		/* An over-long line's end is checked by the caller. */
		if (!too_long && memmem(line, len, "</script", 8))
			s->hs = H_OUT;
		return 0;
	}
	return 0;
}

static int stream_fill(struct text_stream *s, struct ea_err *err)
{
	char tail[TAIL];
	const char *line;
	size_t len, tn = 0;
	int rc = read_line(s, &line, &len);

	if (rc < 0)
		return read_err(s, err, s->lineno + 1);
	if (rc == 0) {
		if (s->cut_line)
			s->cut_last_line = s->cut_line;
		return 1;
	}
	if (s->cut_line && !blank(line, line + len))
		return where_err(s, err, s->cut_line, s->cut_why);
	if (has_nul(s, (size_t)(line - s->buf), (size_t)(line - s->buf) + len))
		return where_err(s, err, s->lineno,
				 "NUL byte: binary data in text trace");
	if (!s->html) {
		if (rc == 2)
			return where_err(s, err, s->lineno,
					 "line longer than 65536 bytes");
		return text_line(s, line, len, err);
	}
	if (rc == 2) {
		/* Decide from the head while it is in the buffer. */
		if (s->hs == H_TEXT ||
		    (s->hs == H_START && !blank(line, line + len) &&
		     *skip_spaces(line, line + len) != '{' &&
		     *skip_spaces(line, line + len) != '['))
			return where_err(s, err, s->lineno,
					 "line longer than 65536 bytes");
		if (s->hs == H_OUT || s->hs == H_START)
			html_line(s, line, len, true, err);
		if (skip_line(s, tail, &tn))
			return read_err(s, err, s->lineno);
		if (s->hs == H_JSON && memmem(tail, tn, "</script", 8))
			s->hs = H_OUT;
		return 0;
	}
	return html_line(s, line, len, false, err);
}

/* The stream's next event (ea_reader_ops.next's contract, unchecked);
 * where_line its line. */
static int stream_next(struct text_stream *s, struct ea_event *ev,
		       struct ea_err *err)
{
	uint64_t line;
	int rc;

	for (;;) {
		if (ea_reorder_ready(s->ro, s->done)) {
			ea_reorder_pop(s->ro, ev, &line);
			s->where_line = line;
			return 1;
		}
		if (s->done)
			return 0;
		rc = stream_fill(s, err);
		if (rc < 0)
			return -1;
		if (rc > 0) {
			if (s->html && !s->html_text_seen)
				return ea_err_set(
					err,
					"%s: HTML without systrace ftrace text "
					"(no <script class=\"trace-data\"> "
					"block)",
					s->path);
			if (s->nlost &&
			    flush_lost(s, -1, ea_reorder_max_ts(s->ro), err))
				return -1;
			s->done = true;
		}
	}
}

/* nb_src.next_n: stream_next() up to n times, each event's line beside */
static int text_next_n(void *priv, struct ea_event *ev, uint64_t *pos,
		       uint32_t n, uint32_t *got, struct ea_err *err)
{
	struct text_stream *s = priv;
	uint32_t i = 0;
	int rc = 1;

	while (i < n) {
		rc = stream_next(s, &ev[i], err);
		if (rc <= 0)
			break;
		pos[i++] = s->where_line;
	}
	*got = i;
	return rc;
}

/* nb_src.pos: the line of the event last returned (0 before any) */
static uint64_t text_pos(void *priv)
{
	const struct text_stream *s = priv;

	return s->where_line;
}

static void text_where_at(void *priv, uint64_t pos, char *buf, size_t n)
{
	(void)priv;
	snprintf(buf, n, "line %llu", (unsigned long long)pos);
}

/* What the stream counted, into the caller's info: at the end, when the
 * stream (and its thread) has nothing more to change. */
static void publish(struct text_stream *s)
{
	s->info->skipped_lines = s->skipped_lines;
	s->info->reordered = ea_reorder_reordered(s->ro);
	if (s->cut_last_line)
		s->info->cut_last_line = s->cut_last_line;
}

int ea_text_next(void *priv, struct ea_event *ev, struct ea_err *err)
{
	struct text_stream *s = priv;
	int rc = nb_reader_reads(&s->nb) ? nb_next(&s->nb, ev, err)
					 : stream_next(s, ev, err);

	if (rc == 0)
		publish(s);
	return rc;
}

int ea_text_next_block(void *priv, const struct ea_event **evs, size_t *n,
		       struct ea_err *err)
{
	struct text_stream *s = priv;
	int rc = nb_reader_next_block(&s->nb, evs, n, err);

	if (rc == 0)
		publish(s);
	return rc;
}

void ea_text_block_at(void *priv, size_t i)
{
	nb_reader_block_at(&((struct text_stream *)priv)->nb, i);
}

bool ea_text_checked(void *priv)
{
	return nb_reader_checked(&((const struct text_stream *)priv)->nb);
}

int ea_text_threads(void *priv)
{
	return nb_reader_threads(&((const struct text_stream *)priv)->nb);
}

void ea_text_where(void *priv, char *buf, size_t n)
{
	struct text_stream *s = priv;

	text_where_at(s, s->nb.begun ? nb_pos(&s->nb) : s->where_line, buf,
		      n);
}

/*
 * Blocks (next-blocks.h) for the ftrace-text reader: its stream (the
 * lines lexed, parsed and put in order, and input.c's checks) on a
 * thread of its own from two jobs (ea_input_jobs_for(): a compressed
 * file's always, a plain one's from EA_APART_MIN_BYTES), the pipeline on
 * the caller's; ea_text_first_event()'s skim reads the file apart and
 * shares nothing with the stream. Events per block of the decoding
 * thread: EATRACE_TEXT_BLOCK (tests: a few exercise the hand-over; 0,
 * one at a time as before, the tests' reference).
 */
void ea_text_use_blocks(void *priv, const struct ea_input_info *info)
{
	struct text_stream *s = priv;
	struct nb_src src = {s,	      text_next_n, text_pos, text_where_at,
			     s->path, info->ncpus};

	nb_reader_init(&s->nb, &src, "EATRACE_TEXT_BLOCK", true,
		       ea_ts_kind(s->ts) != EA_Z_NONE, s->bytes);
}

void ea_text_close(void *priv)
{
	struct text_stream *s = priv;

	if (!s)
		return;
	nb_free(&s->nb); /* the decoding thread first */
	ea_ts_close(s->ts);
	ea_text_first_free(s->first);
	ea_reorder_free(s->ro);
	free(s->lost);
	free(s->buf);
	free(s->path);
	free(s);
}

int ea_text_first_event(void *priv, int cpu, struct ea_event *ev,
			bool *lost_before, struct ea_err *err)
{
	struct text_stream *s = priv;
	int rc;

	errno = 0;
	if (!s->first && !(s->first = ea_text_first_new(s->path)))
		return ea_err_set(err, "%s: %s", s->path,
				  errno ? strerror(errno) : "out of memory");
	rc = ea_text_first_get(s->first, cpu, ev, lost_before);
	if (rc < 0)
		return ea_err_set(err, "%s: out of memory", s->path);
	return rc;
}

/* The size of the file at path (stdin's spooled copy too), 0 unknown. */
static uint64_t file_bytes(const char *path)
{
	struct stat st;

	return !stat(path, &st) && st.st_size > 0 ? (uint64_t)st.st_size : 0;
}

int ea_text_open(void **priv, const char *path, struct ea_input_info *info,
		 struct ea_err *err)
{
	struct ea_text_probe p;
	struct text_stream *s;

	*priv = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return ea_err_set(err, "%s: out of memory", path);
	s->ts = ea_ts_open(path, err);
	if (!s->ts) {
		ea_text_close(s);
		return -1;
	}
	s->path = strdup(path);
	s->buf = malloc(BUF_SIZE);
	s->nul = NUL_NONE;
	s->bytes = file_bytes(path);
	s->ro = ea_reorder_new(EA_REORDER_CAP, EA_REORDER_WINDOW_NS);
	if (!s->path || !s->buf || !s->ro) {
		ea_text_close(s);
		return ea_err_set(err, "%s: out of memory", path);
	}
	/* The head, read into the line buffer that the lines then come from
	 * (a compressed stream cannot be read twice for nothing). */
	while (!s->eof && s->end < 4096)
		if (read_more(s)) {
			if (s->end)
				break; /* the lines read tell where: later */
			read_err(s, err, 1);
			ea_text_close(s);
			return -1;
		}
	ea_text_probe((const unsigned char *)s->buf,
		      s->end < 4096 ? s->end : 4096, &p);
	s->html = p.html;
	s->info = info;
	if (p.html)
		info->format = "systrace html";
	else if (p.tgid)
		info->format = "systrace text";
	else if (p.idlestat)
		info->format = "idlestat text";
	else if (p.report)
		info->format = "trace-cmd report text";
	else
		info->format = "ftrace text";
	if (p.ncpus > 0)
		info->ncpus = p.ncpus;
	if (p.topo_ncpus) {
		memcpy(info->topo_cluster, p.topo, sizeof(p.topo));
		info->topo_ncpus = p.topo_ncpus;
		info->topo_nclusters = p.topo_nclusters;
	}
	*priv = s;
	return 0;
}
