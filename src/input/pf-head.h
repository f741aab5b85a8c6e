/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One CPU's next event of a Perfetto bundle (pf-head.c), for
 * reader-perfetto.c: the bundle's three sources (compact switches,
 * compact wakings, FtraceEvents; each in time order) merged by timestamp
 * one event at a time as the reader asks for them, with no list of the
 * merged events in between: on equal timestamps switches, wakings, then
 * events (Perfetto's trace processor's order); each event processed in
 * that order (a compact switch's prev task and a compact waking's waker
 * from the CPU's previous switch, the CPU's first compact switch and the
 * events before the crop dropped), a pending loss given before the first
 * event kept after it.
 *
 * The reader once merged a whole bundle into an array of pointers and
 * then copied each event from there: that list, its writes and its reads
 * were most of the decoding thread's time after the protobuf itself
 * (bench/README.md, perfetto10).
 */
#ifndef EATRACE_INPUT_PF_HEAD_H
#define EATRACE_INPUT_PF_HEAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "eatrace/event.h"
#include "input/pf-events.h"

/* Where an event came from, for the tie order of one bundle's events. */
enum { PF_SRC_SWITCH, PF_SRC_WAKING, PF_SRC_EVENT };

struct pf_head {
	/* the current bundle's events by source (PF_SRC_*), each in time
	 * order; filled by the reader, then pf_head_reset() */
	struct pf_evbuf src[3];
	struct ea_event *p[3], *end[3]; /* each source's next event, end */
	uint64_t t[3];		/* p's timestamp, UINT64_MAX: used up */
	struct ea_event *after;	/* the event a loss just given precedes */
	struct ea_event lost_ev; /* the loss given */
	bool lost_pending;	/* a loss to give before the next event kept */
	uint64_t lost_count;	/* ... its count (0: unknown) */
	/* the task the CPU runs, from its switches */
	bool have_cur;
	int32_t cur_pid, cur_prio;
	char cur_comm[EA_COMM_LEN];
};

/* Begin the bundle whose events the sources now hold (on a zeroed h:
 * none, which pf_head_next() then finds used up). */
void pf_head_reset(struct pf_head *h);

/* The lowest source not used up (all heads are at UINT64_MAX), -1: none. */
int pf_head_last(const struct pf_head *h);

/* Free the sources' buffers. */
void pf_head_free(struct pf_head *h);

/*
 * An event of the bundle, in merged order: the CPU's running task, the
 * first compact switch, the crop. 1: kept, 0: dropped.
 */
static inline bool pf_head_process(struct pf_head *h, int src,
				   struct ea_event *e, uint64_t crop)
{
	if (src == PF_SRC_SWITCH) {
		bool known = h->have_cur;

		e->cur_pid = h->cur_pid;
		e->sw.prev_pid = h->cur_pid;
		e->sw.prev_prio = h->cur_prio;
		memcpy(e->sw.prev_comm, h->cur_comm, EA_COMM_LEN);
		h->have_cur = true;
		h->cur_pid = e->sw.next_pid;
		h->cur_prio = e->sw.next_prio;
		memcpy(h->cur_comm, e->sw.next_comm, EA_COMM_LEN);
		if (!known)
			return false; /* the CPU's first switch: prev unknown */
	} else if (src == PF_SRC_WAKING) {
		e->cur_pid = h->have_cur ? h->cur_pid : -1;
	} else if (e->type == EA_EV_SWITCH) {
		h->have_cur = true;
		h->cur_pid = e->sw.next_pid;
		h->cur_prio = e->sw.next_prio;
		memcpy(h->cur_comm, e->sw.next_comm, EA_COMM_LEN);
	}
	return e->ts >= crop;
}

/*
 * The CPU's next event of the bundle (processed; events before crop
 * dropped), or the loss given before it; NULL once the bundle's events
 * are used up (again NULL until the next pf_head_reset()). The event
 * stays valid until the next call.
 */
static inline struct ea_event *pf_head_next(struct pf_head *h, uint64_t crop)
{
	struct ea_event *e = h->after;

	if (e) {
		h->after = NULL;
		return e;
	}
	for (;;) {
		uint64_t t0 = h->t[0], t1 = h->t[1], t2 = h->t[2], tw;
		int w = t1 < t0;

		/* the lowest head, the lowest source on ties */
		tw = w ? t1 : t0;
		if (t2 < tw) {
			w = 2;
			tw = t2;
		}
		/* all used up, or heads at a real UINT64_MAX */
		if (__builtin_expect(tw == UINT64_MAX, 0) &&
		    (w = pf_head_last(h)) < 0)
			return NULL;
		e = h->p[w]++;
		h->t[w] = h->p[w] < h->end[w] ? h->p[w]->ts : UINT64_MAX;
		if (!pf_head_process(h, w, e, crop))
			continue;
		if (h->lost_pending) {
			/* the loss is reported before the event after it */
			struct ea_event *l = &h->lost_ev;

			h->lost_pending = false;
			memset(l, 0, sizeof(*l));
			l->lost.count = h->lost_count;
			h->lost_count = 0;
			l->ts = e->ts;
			l->cpu = e->cpu;
			l->cur_pid = -1;
			l->type = EA_EV_LOST;
			h->after = e;
			return l;
		}
		return e;
	}
}

#endif
