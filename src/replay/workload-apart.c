// SPDX-License-Identifier: GPL-2.0-only
/*
 * The workload's extraction on a thread of its own (eatrace/replay.h
 * ea_workload_apart_start()): the state stage's calls to the workload
 * consumer (a CPU's state change, an event) are copied, with the state's
 * first_ts at the time, into blocks handed to a thread that makes them on
 * the workload in the same order (workload.c's rp_wl_change(),
 * rp_wl_event()), while the caller's thread reads on. The workload reads
 * nothing else of the state, so it ends the same. Events the workload
 * only counts (types rp_wl_event() ignores) travel as a count in the next
 * record's head.
 *
 * A ring of WA_NBLK blocks of WA_BLK bytes (util/hand-ring.h): the
 * producer fills one, hands it over and takes a free one (waiting for one
 * if need be); the thread takes the oldest, makes its calls and gives it
 * back.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "replay/workload.h"
#include "util/hand-ring.h"
#include "util/thread.h"

#define WA_NBLK 8
#define WA_BLK (64u << 10)

enum wa_kind { WA_EVENT, WA_CHANGE, WA_CHANGE_END, WA_SKIP };

/* A record's head; an ea_event or a struct wa_change follows (WA_SKIP:
 * nothing). skipped: events counted alone before this record. */
struct wa_head {
	uint64_t first_ts, skipped;
	uint32_t kind;
	int32_t cpu;
};

struct wa_change {
	uint64_t since, now;
	struct ea_cpu_state old, new;
};

struct wa_blk {
	unsigned char buf[WA_BLK];
	size_t used;
};

struct ea_workload_apart {
	struct ea_workload *w;
	struct wa_blk *blk[WA_NBLK];
	struct ea_hand_ring ring;
	pthread_t th;
	/* the producer's */
	struct wa_blk *cur;
	uint64_t skipped, skip_first_ts;
};

/* The calls of one block, in order. */
static void replay_blk(struct ea_workload *w, const struct wa_blk *b)
{
	size_t at = 0;

	while (at < b->used) {
		struct wa_head h;

		memcpy(&h, b->buf + at, sizeof(h));
		at += sizeof(h);
		if (h.skipped)
			rp_wl_skip(w, h.first_ts, h.skipped);
		switch (h.kind) {
		case WA_EVENT: {
			struct ea_event ev;

			memcpy(&ev, b->buf + at, sizeof(ev));
			at += sizeof(ev);
			rp_wl_event(w, h.first_ts, &ev);
			break;
		}
		case WA_CHANGE:
		case WA_CHANGE_END: {
			struct wa_change c;

			memcpy(&c, b->buf + at, sizeof(c));
			at += sizeof(c);
			rp_wl_change(w, h.first_ts, h.cpu, c.since, c.now,
				     &c.old,
				     h.kind == WA_CHANGE_END ? NULL : &c.new);
			break;
		}
		default: /* WA_SKIP: its count alone */
			break;
		}
	}
}

static void *apart_main(void *arg)
{
	struct ea_workload_apart *a = arg;
	int slot;

	while ((slot = ea_hand_ring_take(&a->ring)) >= 0) {
		replay_blk(a->w, a->blk[slot]);
		ea_hand_ring_give_back(&a->ring);
	}
	return NULL; /* stopped, all made */
}

/* Producer: hand the current block over, take the next free one. */
static void hand(struct ea_workload_apart *a)
{
	a->cur = a->blk[ea_hand_ring_hand(&a->ring)];
	a->cur->used = 0;
}

/* Room for a record of n bytes after its head; the head written. */
static unsigned char *put(struct ea_workload_apart *a, uint32_t kind,
			  int32_t cpu, uint64_t first_ts, size_t n)
{
	struct wa_head h = {.first_ts =
				    a->skipped ? a->skip_first_ts : first_ts,
			    .skipped = a->skipped,
			    .kind = kind,
			    .cpu = cpu};
	unsigned char *p;

	if (a->cur->used + sizeof(h) + n > WA_BLK)
		hand(a);
	/* the skipped events' first_ts went with them; this one's below */
	p = a->cur->buf + a->cur->used;
	memcpy(p, &h, sizeof(h));
	a->cur->used += sizeof(h) + n;
	a->skipped = 0;
	return p + sizeof(h);
}

static void on_change(void *ctx, const struct ea_state *s, int cpu,
		      uint64_t since, uint64_t now,
		      const struct ea_cpu_state *old,
		      const struct ea_cpu_state *new)
{
	struct ea_workload_apart *a = ctx;
	uint64_t first_ts = ea_state_first_ts(s);
	struct wa_change c = {.since = since, .now = now, .old = *old};
	unsigned char *p;

	if (a->skipped) /* its own record: another first_ts may follow */
		put(a, WA_SKIP, 0, 0, 0);
	if (new)
		c.new = *new;
	p = put(a, new ? WA_CHANGE : WA_CHANGE_END, cpu, first_ts, sizeof(c));
	memcpy(p, &c, sizeof(c));
}

/* The event types rp_wl_event() does more with than count. */
#define WA_KEPT                                                             \
	((1u << EA_EV_LOST) | (1u << EA_EV_WAKEUP) | (1u << EA_EV_WAKING) | \
	 (1u << EA_EV_WAKEUP_NEW) | (1u << EA_EV_SWITCH))

static void on_event(void *ctx, const struct ea_state *s,
		     const struct ea_event *ev)
{
	struct ea_workload_apart *a = ctx;
	uint64_t first_ts = ea_state_first_ts(s);
	unsigned char *p;

	if (ev->type < 32 && !(WA_KEPT >> ev->type & 1)) {
		if (a->skipped && a->skip_first_ts != first_ts)
			put(a, WA_SKIP, 0, 0, 0);
		a->skipped++;
		a->skip_first_ts = first_ts;
		return;
	}
	if (a->skipped)
		put(a, WA_SKIP, 0, 0, 0);
	p = put(a, WA_EVENT, 0, first_ts, sizeof(*ev));
	memcpy(p, ev, sizeof(*ev));
}

const struct ea_state_ops ea_workload_apart_ops = {
	.cpu_change = on_change,
	.event = on_event,
};

int ea_workload_apart_start(struct ea_workload_apart **ap,
			    struct ea_workload *w)
{
	struct ea_workload_apart *a = calloc(1, sizeof(*a));

	*ap = NULL;
	if (!a)
		return -1;
	a->w = w;
	for (int i = 0; i < WA_NBLK; i++) {
		a->blk[i] = malloc(sizeof(*a->blk[i]));
		if (!a->blk[i])
			goto fail;
		a->blk[i]->used = 0;
	}
	a->cur = a->blk[0];
	ea_hand_ring_init(&a->ring, WA_NBLK);
	if (ea_thread_start(&a->th, apart_main, a, NULL)) {
		ea_hand_ring_destroy(&a->ring);
		goto fail;
	}
	*ap = a;
	return 0;
fail:
	for (int i = 0; i < WA_NBLK; i++)
		free(a->blk[i]);
	free(a);
	return -1;
}

void ea_workload_apart_end(struct ea_workload_apart *a)
{
	if (!a)
		return;
	if (a->skipped)
		put(a, WA_SKIP, 0, 0, 0);
	if (a->cur->used)
		hand(a);
	ea_hand_ring_stop(&a->ring); /* wakes the thread: the rest, then done */
	pthread_join(a->th, NULL);
	ea_hand_ring_destroy(&a->ring);
	for (int i = 0; i < WA_NBLK; i++)
		free(a->blk[i]);
	free(a);
}
