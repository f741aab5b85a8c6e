// SPDX-License-Identifier: GPL-2.0-only
/*
 * A trace's events kept in memory and played back (eatrace/evstore.h):
 * each event packed to its header and the union member its type uses, in
 * chunks of 1 MiB that no record straddles.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eatrace/evstore.h"
#include "input-block.h"

#define CHUNK_BYTES (1u << 20)
/* ts, cpu, cur_pid, type, flags */
#define HDR_BYTES (8 + 4 + 4 + 1 + 1)
#define UNION_OFF offsetof(struct ea_event, sw)
#define MAX_RECORD (HDR_BYTES + sizeof(struct ea_event) - UNION_OFF)

struct chunk {
	unsigned char *buf;
	size_t len;
};

/* A CPU's first event, as ea_input_first_event() reads ahead for it. */
struct first_of {
	uint8_t state; /* 0 nothing yet, 1 a lost-events marker, 2 found */
	bool lost_before;
	struct ea_event ev;
};

struct ea_evstore {
	struct chunk *chunks;
	size_t nchunks, chunk_cap;
	size_t count;
	struct ea_input_info info_open, info;
	char format_open[64], format[64];
	struct first_of *first;
	int nfirst;
};

/* Bytes of the union an event of this type uses. */
static size_t payload_bytes(uint8_t type)
{
	const struct ea_event *e = NULL;

	switch (type) {
	case EA_EV_SWITCH:
		return sizeof(e->sw);
	case EA_EV_WAKEUP:
	case EA_EV_WAKING:
	case EA_EV_WAKEUP_NEW:
		return sizeof(e->wake);
	case EA_EV_MIGRATE:
		return sizeof(e->migrate);
	case EA_EV_FREQ:
		return sizeof(e->freq);
	case EA_EV_IDLE:
		return sizeof(e->idle);
	case EA_EV_LOST:
		return sizeof(e->lost);
	case EA_EV_UTIL_CFS:
	case EA_EV_UTIL_SE:
		return sizeof(e->util);
	case EA_EV_SUSPEND:
		return sizeof(e->suspend);
	case EA_EV_HOTPLUG:
		return sizeof(e->hotplug);
	default:
		return sizeof(struct ea_event) -
		       UNION_OFF; /* markers, the whole union */
	}
}

/* Room for one more record; NULL when memory runs out. */
static unsigned char *room(struct ea_evstore *st)
{
	struct chunk *c = st->nchunks ? &st->chunks[st->nchunks - 1] : NULL;

	if (c && c->len + MAX_RECORD <= CHUNK_BYTES)
		return c->buf + c->len;
	if (st->nchunks == st->chunk_cap) {
		size_t n = st->chunk_cap ? st->chunk_cap * 2 : 16;
		struct chunk *p = realloc(st->chunks, n * sizeof(*p));

		if (!p)
			return NULL;
		st->chunks = p;
		st->chunk_cap = n;
	}
	c = &st->chunks[st->nchunks];
	if (!(c->buf = malloc(CHUNK_BYTES)))
		return NULL;
	c->len = 0;
	st->nchunks++;
	return c->buf;
}

static int append(struct ea_evstore *st, const struct ea_event *ev)
{
	unsigned char *p = room(st);
	size_t pl = payload_bytes(ev->type);

	if (!p)
		return -1;
	memcpy(p, &ev->ts, 8);
	memcpy(p + 8, &ev->cpu, 4);
	memcpy(p + 12, &ev->cur_pid, 4);
	p[16] = ev->type;
	p[17] = ev->flags;
	memcpy(p + HDR_BYTES, (const char *)ev + UNION_OFF, pl);
	st->chunks[st->nchunks - 1].len += HDR_BYTES + pl;
	st->count++;
	return 0;
}

/* The generic read ahead of ea_input_first_event(), done as events pass. */
static int note_first(struct ea_evstore *st, const struct ea_event *ev)
{
	struct first_of *f;

	if (ev->cpu < 0)
		return 0;
	if (ev->cpu >= st->nfirst) {
		int n = st->nfirst ? st->nfirst : 8;
		struct first_of *p;

		while (n <= ev->cpu)
			n *= 2;
		if (!(p = realloc(st->first, n * sizeof(*p))))
			return -1;
		memset(p + st->nfirst, 0,
		       (size_t)(n - st->nfirst) * sizeof(*p));
		st->first = p;
		st->nfirst = n;
	}
	f = &st->first[ev->cpu];
	if (f->state == 2)
		return 0;
	if (ev->type == EA_EV_LOST) {
		f->state = 1;
		f->lost_before = true;
		return 0;
	}
	f->state = 2;
	f->ev = *ev;
	return 0;
}

int ea_evstore_load(struct ea_evstore **stp, const char *path,
		    struct ea_err *err)
{
	struct ea_evstore *st;
	struct ea_input *in;
	const struct ea_event *evs;
	size_t n;
	int rc = 1;

	*stp = NULL;
	if (ea_input_open(&in, path, err))
		return -1;
	if (!(st = calloc(1, sizeof(*st)))) {
		ea_input_close(in);
		return ea_err_set(err, "%s: out of memory", path);
	}
	/* what ea_run() reads at the start: ncpus, may_have (owned parts
	 * are the final info's) */
	st->info_open = *ea_input_info(in);
	st->info_open.rails = NULL;
	st->info_open.procs = NULL;
	snprintf(st->format_open, sizeof(st->format_open), "%s",
		 st->info_open.format ? st->info_open.format : "?");
	st->info_open.format = st->format_open;
	while (rc > 0 && (rc = ea_input_next_block(in, &evs, &n, err)) > 0)
		for (size_t i = 0; i < n; i++)
			if (append(st, &evs[i]) || note_first(st, &evs[i])) {
				rc = ea_err_set(err,
						"%s: out of memory (%zu events kept)",
						path, st->count);
				break;
			}
	if (rc == 0) {
		st->info = *ea_input_info(in);
		ea_input_take_owned(in, &st->info);
		snprintf(st->format, sizeof(st->format), "%s",
			 st->info.format ? st->info.format : "?");
		st->info.format = st->format;
	}
	ea_input_close(in);
	if (rc < 0) {
		ea_evstore_free(st);
		return -1;
	}
	*stp = st;
	return 0;
}

void ea_evstore_free(struct ea_evstore *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->nchunks; i++)
		free(st->chunks[i].buf);
	free(st->chunks);
	free(st->first);
	ea_input_info_free_owned(&st->info);
	free(st);
}

size_t ea_evstore_count(const struct ea_evstore *st)
{
	return st->count;
}

size_t ea_evstore_bytes(const struct ea_evstore *st)
{
	return st->nchunks * (size_t)CHUNK_BYTES + sizeof(*st) +
	       (size_t)st->nfirst * sizeof(*st->first);
}

const struct ea_input_info *ea_evstore_info(const struct ea_evstore *st)
{
	return &st->info;
}

static int cur_next(void *ctx, struct ea_event *ev, struct ea_err *err)
{
	struct ea_evstore_cursor *c = ctx;
	const struct ea_evstore *st = c->st;
	const unsigned char *p;

	if (c->index == st->count) {
		c->done = true;
		return 0;
	}
	if (c->off == st->chunks[c->chunk].len) {
		c->chunk++;
		c->off = 0;
	}
	p = st->chunks[c->chunk].buf + c->off;
	memset(ev, 0, sizeof(*ev));
	memcpy(&ev->ts, p, 8);
	memcpy(&ev->cpu, p + 8, 4);
	memcpy(&ev->cur_pid, p + 12, 4);
	ev->type = p[16];
	ev->flags = p[17];
	memcpy((char *)ev + UNION_OFF, p + HDR_BYTES, payload_bytes(ev->type));
	c->off += HDR_BYTES + payload_bytes(ev->type);
	c->index++;
	return 1;
}

static void cur_where(void *ctx, char *buf, size_t n)
{
	const struct ea_evstore_cursor *c = ctx;

	snprintf(buf, n, "event %zu", c->index);
}

static int cur_first_event(void *ctx, int cpu, struct ea_event *ev,
			   bool *lost_before)
{
	const struct ea_evstore *st =
		((const struct ea_evstore_cursor *)ctx)->st;

	*lost_before = false;
	if (cpu < 0 || cpu >= st->nfirst || st->first[cpu].state != 2)
		return 0;
	*ev = st->first[cpu].ev;
	*lost_before = st->first[cpu].lost_before;
	return 1;
}

static const struct ea_input_info *cur_info(void *ctx)
{
	const struct ea_evstore_cursor *c = ctx;

	return c->done ? &c->st->info : &c->st->info_open;
}

void ea_evstore_source(const struct ea_evstore *st,
		       struct ea_evstore_cursor *cur,
		       struct ea_event_source *src)
{
	*cur = (struct ea_evstore_cursor){.st = st};
	*src = (struct ea_event_source){
		.next = cur_next,
		.where = cur_where,
		.first_event = cur_first_event,
		.info = cur_info,
		.take_owned = NULL,
		.ctx = cur,
	};
}
