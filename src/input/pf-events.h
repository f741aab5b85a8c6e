/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The events of one Perfetto FtraceEventBundle, for reader-perfetto.c
 * (docs/perfetto.md): an FtraceEvent's payload into an ea_event
 * (pf-event.c), and a bundle's compact_sched arrays into switch and
 * waking events (pf-compact.c).
 */
#ifndef EATRACE_INPUT_PF_EVENTS_H
#define EATRACE_INPUT_PF_EVENTS_H

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "eatrace/error.h"
#include "eatrace/event.h"
#include "input/pb-wire.h"
#include "input/pf-index.h"

/* FtraceEvent fields (ftrace_event.proto) */
enum {
	FE_TIMESTAMP = 1,
	FE_PID = 2,
	FE_PRINT = 3,
	FE_SWITCH = 4,
	FE_FREQ = 11,
	FE_IDLE = 13,
	FE_WAKEUP = 17,
	FE_WAKING = 20,
	FE_WAKEUP_NEW = 114,
	FE_MIGRATE = 491,
	FE_SUSPEND = 113,
	FE_CPUHP_EXIT = 343,
	FE_CPUHP_MULTI_ENTER = 344,
	FE_CPUHP_ENTER = 345,
};

/* prev_state as text-body.c's ea_tl_prev_state_number(), inline: once per
 * switch */
static inline uint8_t pf_prev_state(uint64_t v)
{
	if (v == 0 || (v & 0xff) == 0)
		return EA_PREV_RUNNABLE;
	if ((v & 0x70) && !(v & 0x3))
		return EA_PREV_DEAD;
	return EA_PREV_BLOCKED;
}

/* A growing array of events. */
struct pf_evbuf {
	struct ea_event *ev;
	size_t n, cap;
};

/*
 * Room for need events in b, for bundle bd of the file ix indexes (its
 * budget of decoded events: pf_spend_decoded()): 0, or -1 with err.
 */
static inline int pf_grow_ev(struct pf_index *ix, const struct pf_bundle *bd,
			     struct pf_evbuf *b, size_t need, const char *path,
			     struct ea_err *err)
{
	size_t n = b->cap ? b->cap : 64;
	struct ea_event *q;

	if (need <= b->cap)
		return 0;
	while (n < need)
		n *= 2;
	if (pf_spend_decoded(ix, (n - b->cap) * sizeof(*q), bd, path, err))
		return -1;
	q = realloc(b->ev, n * sizeof(*q));
	if (!q)
		return ea_err_set(err, "%s: out of memory", path);
	b->ev = q;
	b->cap = n;
	return 0;
}

/* "PATH:cpu N packet P: what", for an error in bundle b. */
static inline int pf_bundle_err(const char *path, const struct pf_bundle *b,
				struct ea_err *err, const char *what)
{
	return ea_err_set(err, "%s:cpu %d packet %" PRIu32 ": %s", path, b->cpu,
			  b->packet, what);
}

/*
 * pf-event.c: decode the payload of FtraceEvent field num (its bytes in
 * b) into ev (type and the fields of its type; not ts, cpu, cur_pid,
 * flags). 1: an event eatrace uses, 0: skipped, -1: malformed.
 */
int pf_event_payload(uint32_t num, struct pb_buf b, struct ea_event *ev);

/* A bundle's compact_sched comm table, NUL-padded. */
struct pf_intern {
	char (*comm)[EA_COMM_LEN];
	size_t n, cap;
};

/*
 * pf-compact.c: bundle bd's CompactSched message b into sw (switches) and
 * wk (wakings), each in time order, with ts, cpu, type, flags
 * (EA_EVF_DERIVED) and the fields compact_sched carries (not a switch's
 * prev task, nor cur_pid: the reader derives them); the comm table in
 * *in. 0, or -1 with err
 * ("PATH:cpu N packet P: ...").
 */
int pf_compact(struct pf_index *ix, struct pf_intern *in, struct pf_evbuf *sw,
	       struct pf_evbuf *wk, const struct pf_bundle *bd, struct pb_buf b,
	       const char *path, struct ea_err *err);

#endif
