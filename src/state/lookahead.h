/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The look-ahead window: events are held back EA_LOOKAHEAD deep while a
 * scanner reads them first. The scanner learns each CPU's state before its
 * first event, whether it reports cpu_idle, and finds contradictions (an
 * event whose current task is not the one the CPU was seen switching to),
 * for which it schedules a synthetic sched_switch at the best time.
 */
#ifndef EATRACE_STATE_LOOKAHEAD_H
#define EATRACE_STATE_LOOKAHEAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eatrace/event.h"

#define LA_NCAND 4
#define LA_RUN_BUCKETS 128	/* a power of two */

struct la_cpu {
	bool seen;		/* scanner has seen an event for this CPU */
	bool has_cpuidle;	/* scanner has seen cpu_idle for this CPU */
	bool init_busy;		/* state before the first event ... */
	int32_t init_pid;	/* ... and the task then (-1 unknown) */
	bool init_unknown;	/* ... which the first events do not prove */
	bool lost_first;	/* events were lost before the first record */
	bool tentative;		/* first seen in a record of the idle task
				   (an interrupt?): its first cpu_idle event
				   or switch decides init_busy */
	int32_t curr;		/* task the scanner believes runs (-1 unknown) */
	uint64_t curr_since;
	char curr_comm[EA_COMM_LEN];
	/* The last record showing curr current here (its key; 0: none):
	 * unknown time starts there when curr's switch-out proves lost. */
	uint64_t ev_ts, ev_seq;
	/* Wakeups onto this CPU a resync might still be placed at: the
	 * first one's seq (0: none) and the latest one's ts. */
	uint64_t pend_seq, pend_last_ts;
	/* The last record on this CPU (its key; 0: none), but for the
	 * wakings whose waker a reader derived (EA_EVF_DERIVED): a lost
	 * switch-in is placed no earlier (docs/inference.md). */
	uint64_t rec_ts, rec_seq;
	/* to 128 bytes, a power of two: la->cpus[i] is a shift away (the
	 * scan of every event finds its CPU's, and a wakeup its target's) */
	uint8_t pad[40];
};
_Static_assert(sizeof(struct la_cpu) == 128, "struct la_cpu: 128 bytes");

/* The last LA_NCAND tasks woken or moved onto a CPU since its last switch,
 * wherever recorded (pid[n % LA_NCAND] is the next slot): who ran when a
 * switch whose derived prev is the idle task says its prev slept
 * (compact_sched, la_derived() in lookahead.c). */
struct la_cands {
	uint32_t n;
	int32_t pid[LA_NCAND];
	int32_t pad[3];		/* to 32 bytes, as struct la_cpu's pad */
};
_Static_assert(sizeof(struct la_cands) == 32, "struct la_cands: 32 bytes");

/* A task's latest wakeup, or migration (sched_migrate_task): when and
 * where it was last queued. */
struct la_wake {
	int32_t pid;		/* 0: empty slot */
	int32_t cpu;
	uint64_t ts;
	uint64_t seq;		/* order key of the wakeup event */
	bool idle_here;		/* recorded on cpu by the idle task */
};

/*
 * Order key: (ts, seq). Events from the trace get even seq numbers in
 * arrival order; a synthetic switch gets the odd number right after the
 * wakeup it is placed at, or right before the event that revealed it.
 */
struct la_synth {
	struct ea_event ev;
	uint64_t seq;
	uint64_t nth;		/* pushed so many synthetic events before */
};

struct lookahead {
	/*
	 * Both rings start small and double as they fill, up to `slots`
	 * (a power of two >= cap): a short trace, or a look-ahead that lets
	 * events go early, never touches the memory of a full-depth one.
	 */
	struct ea_event *ring;	/* FIFO of held-back events */
	uint64_t *ring_ts;	/* ts of the last ts_mask + 1 events pushed */
	uint64_t pushed;	/* events pushed: event k has seq 2k + 2 */
	size_t head, len, cap;	/* cap: events held back at most */
	size_t mask;		/* ring slots - 1 (a power of two) */
	size_t ts_mask;		/* ring_ts slots - 1 (a power of two) */
	uint64_t ts_grow_at;	/* pushed when ring_ts must grow first:
				   ts_mask + 1 below slots, else never
				   (UINT64_MAX) */
	size_t slots;		/* what either may grow to */
	/*
	 * Sorted input (timestamps never go backwards), for la_pop_early():
	 * the lowest of the CPUs' bounds, the larger of pend_seq and rec_seq
	 * of a CPU with a pending wakeup (pend_min, or lower when
	 * pend_dirty), and hold_seq: events up to it wait for la_full().
	 */
	bool sorted;
	uint64_t pend_min, hold_seq, last_ts;
	bool pend_dirty;
	int pend_ncpus;		/* CPUs below it may have a pend_seq */
	int npend;		/* CPUs with a pend_seq */
	struct ea_event popped;	/* the synthetic event la_pop() returned */
	uint64_t next_seq;
	struct la_synth *synth;	/* min-heap of synthetic events by key */
	size_t nsynth, synth_cap;
	uint64_t synth_pushed;
	struct la_cpu *cpus;
	struct la_cands *cands;	/* as many */
	int ncpus;		/* allocated */
	int max_cpu;		/* highest CPU id seen */
	/* How many CPUs the scanner believes run a pid of each bucket
	 * (pid % LA_RUN_BUCKETS; la_set_curr()): an empty bucket proves
	 * that no CPU runs the pid without walking them (runs_elsewhere()) */
	uint16_t running[LA_RUN_BUCKETS];
	struct la_wake *wakes;	/* pid -> latest wakeup, open addressing */
	size_t nwakes, wake_slots;
	struct la_wake *last_wake;	/* the entry set last (the table grows
					   only just before one is set) */
	uint64_t resyncs, resync_from_wakeup;
	/* resyncs placed after the previous task's last record, later than
	 * the wakeup; resyncs whose time is proven the task's (not unknown);
	 * switches whose derived prev was replaced (la_derived()): by a
	 * task woken onto the CPU, by the task the scanner knows runs */
	uint64_t resync_after_prev, resync_proven;
	uint64_t prev_from_waking, prev_from_scanner;
	uint64_t tasks_left;	/* switch-outs found lost (leave_others()) */
	/* Until the state starts nothing is let go: unknown time may start
	 * at a task's last record. After, it starts at the record showing
	 * the switch-out lost, and the time between is counted here (the
	 * same whether or not events are let go early). */
	bool retro;
	uint64_t unplaced_ns;
	struct ea_event fixed;	/* la_scan()'s corrected switch */
};

int la_init(struct lookahead *la, size_t cap);
void la_free(struct lookahead *la);
/* With nothing held back, the rings cut to what la->cap needs (a
 * look-ahead shortened after the start). */
void la_shrink(struct lookahead *la);
/* Scan ev and hold it back. Returns -1 on allocation failure. */
int la_push(struct lookahead *la, const struct ea_event *ev);
/*
 * la_push() in two: scan ev (its key is then la->next_seq) ... Returns
 * the event to hold back and apply in its place: ev, or for a switch whose
 * prev task a reader derived (EA_EVF_DERIVED) the prev the scanner knows
 * (la->fixed, valid until the next la_scan(); see la_derived() in
 * lookahead.c). NULL on allocation failure.
 */
const struct ea_event *la_scan(struct lookahead *la, const struct ea_event *ev);
int la_grow_ring(struct lookahead *la);
/* ... and hold it back, unless it is let go at once (la_may_go()).
 * Returns -1 on allocation failure. */
static inline int la_store(struct lookahead *la, const struct ea_event *ev)
{
	if (la->len > la->mask && la_grow_ring(la))
		return -1;
	la->ring[(la->head + la->len) & la->mask] = *ev;
	la->len++;
	return 0;
}

/*
 * Why an early pop gives the same order (sorted input): a synthetic switch
 * scanned later is keyed either just before the event that reveals it,
 * after everything held back, or just after a wakeup w on its CPU with
 * w.ts >= that CPU's last switch, and then no earlier than just after the
 * CPU's last record (rec_seq; resync()). Such a wakeup has a pend_seq no
 * greater than its own key, so an event whose key is at most the larger
 * of its CPU's pend_seq and rec_seq, for every CPU with a pending wakeup
 * (pend_min), cannot be overtaken: a record on a CPU whose wakeup waits
 * lets go the events before it. The scanner's state the applied events
 * read (start, new CPUs) is guarded by hold_seq.
 *
 * la_may_go_slow() is la_may_go()'s answer once pend_min is stale
 * (pend_dirty): pend_min recomputed from the CPUs' pend_seq first.
 * Inline: it is asked about once per event a switch-heavy trace holds
 * back (rec.dat: 2.9 M times in 4.3 M events), a call each.
 */
static inline bool la_may_go_slow(struct lookahead *la, uint64_t seq)
{
	la->pend_min = UINT64_MAX;
	for (int i = 0; i < la->pend_ncpus; i++) {
		const struct la_cpu *c = &la->cpus[i];
		uint64_t bound = c->rec_seq > c->pend_seq ? c->rec_seq : c->pend_seq;

		if (c->pend_seq && bound < la->pend_min)
			la->pend_min = bound;
	}
	la->pend_dirty = false;
	return seq <= la->pend_min;
}

/* Whether la_pop_early() may let the event keyed seq go (sorted input). */
static inline bool la_may_go(struct lookahead *la, uint64_t seq)
{
	if (seq <= la->hold_seq)
		return false;
	/* pend_min is exact unless pend_dirty: only then recomputed */
	return seq <= la->pend_min ||
	       (la->pend_dirty && la_may_go_slow(la, seq));
}
/* Whether the ring holds all it may: la_pop() one before the next. */
static inline bool la_full(const struct lookahead *la)
{
	return la->len >= la->cap;
}
/*
 * Take the oldest held-back event (synthetic ones first on equal ts); NULL
 * if none. The pointer is valid until the next la_push() or la_pop().
 */
const struct ea_event *la_pop(struct lookahead *la);

/* la_pop() when it takes the ring's oldest: no synthetic event waits
 * (!la->nsynth) and one is held (la->len). Inline, for the per-type
 * feeds' letting go (state.c's go_typed()). */
static inline const struct ea_event *la_pop_ring(struct lookahead *la)
{
	const struct ea_event *ev = &la->ring[la->head];

	la->head = (la->head + 1) & la->mask;
	/* Emptied: start again at slot 0, which a short look-ahead keeps hot.
	 * ev stays valid: nothing is written before the next la_push(). */
	if (!--la->len)
		la->head = 0;
	return ev;
}

/* The order key of the oldest event held back (event k has 2k + 2). */
static inline uint64_t head_seq(const struct lookahead *la)
{
	return 2 * (la->pushed - la->len) + 2;
}

/*
 * With sorted input, the oldest held-back event (or a synthetic one due
 * before it) when nothing la_push() may still learn can change it or put
 * a synthetic event before it: the order la_pop() gives is the same, only
 * earlier. NULL when it must wait. Events up to seq la->hold_seq always
 * wait (set it for an event whose effect depends on what the scanner has
 * seen by the time la_full() would have let it go). Inline: most calls
 * find that the oldest must wait.
 */
static inline const struct ea_event *la_pop_early(struct lookahead *la)
{
	if (!la->sorted || !la->len || !la_may_go(la, head_seq(la)))
		return NULL;
	return la_pop(la);
}
/*
 * With nothing held back, the synthetic event due before the event just
 * scanned (key la->next_seq), if any: what la_pop() would give before it.
 */
const struct ea_event *la_pop_synth_before_slow(struct lookahead *la,
						const struct ea_event *ev);

static inline const struct ea_event *
la_pop_synth_before(struct lookahead *la, const struct ea_event *ev)
{
	return la->nsynth ? la_pop_synth_before_slow(la, ev) : NULL;
}
const struct la_cpu *la_cpu(const struct lookahead *la, int cpu);
/* What the scanner learns from the first event of CPU c (with cur the task
 * it shows current), also for a first event found beyond the look-ahead. */
void la_first_sight(struct la_cpu *c, const struct ea_event *ev, int32_t cur);

#endif
