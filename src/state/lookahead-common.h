/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The look-ahead's scan of the common events, inline: a sched_switch or a
 * wakeup on a CPU already seen, whose current task is the one the scanner
 * expects, that names no task running elsewhere and needs no memory
 * (la_try_switch(), la_try_wake()). lookahead.c's la_scan() starts with
 * them; the per-type feeds (feed-type.h) call them in their one pass. Each
 * either scans the event as la_scan() would, or does nothing and returns
 * false (la_scan()'s general path then takes it).
 */
#ifndef EATRACE_STATE_LOOKAHEAD_COMMON_H
#define EATRACE_STATE_LOOKAHEAD_COMMON_H

#include <string.h>

#include "state/lookahead.h"

static inline size_t wake_hash(int32_t pid, size_t slots)
{
	return ((uint32_t)pid * 2654435761u) & (slots - 1);
}

static inline struct la_wake *wake_slot(struct lookahead *la, int32_t pid)
{
	size_t i = wake_hash(pid, la->wake_slots);

	while (la->wakes[i].pid && la->wakes[i].pid != pid)
		i = (i + 1) & (la->wake_slots - 1);
	return &la->wakes[i];
}

/*
 * pid's entry of the wake table, claimed (counted, and made the last one
 * met) when new; NULL, having done nothing, when a new entry would need
 * the table to grow.
 */
static inline struct la_wake *wake_claim(struct lookahead *la, int32_t pid)
{
	struct la_wake *w = la->last_wake;

	if (w && w->pid == pid)
		return w;
	if ((la->nwakes + 1) * 2 > la->wake_slots)
		return NULL;
	w = wake_slot(la, pid);
	if (!w->pid)
		la->nwakes++;
	la->last_wake = w;
	return w;
}

/* A CPU other than `except` the scanner believes runs pid, or -1. */
static inline int running_elsewhere(const struct lookahead *la, int32_t pid,
				    int except)
{
	const struct la_cpu *p, *end;

	if (pid <= 0)
		return -1;
	/* a match is rare: one compare and branch a CPU (callers have
	 * la->cpus up to max_cpu) */
	for (p = la->cpus, end = p + la->max_cpu + 1; p < end; p++)
		if (__builtin_expect(p->curr == pid, 0) && p - la->cpus != except)
			return (int)(p - la->cpus);
	return -1;
}

/*
 * Whether running_elsewhere() finds a CPU: not when no CPU runs a pid of
 * pid's bucket (la->running), else by walking them. except: a CPU
 * la->cpus holds.
 */
static inline bool runs_elsewhere(const struct lookahead *la, int32_t pid,
				  int except)
{
	if (pid <= 0 || !la->running[(uint32_t)pid & (LA_RUN_BUCKETS - 1)])
		return false;
	return running_elsewhere(la, pid, except) >= 0;
}

/* The scanner believes CPU c runs pid from now: every write of c->curr
 * (but la_first_sight()'s, first_sight() in lookahead.c) */
static inline void la_set_curr(struct lookahead *la, struct la_cpu *c,
			       int32_t pid)
{
	if (c->curr > 0)
		la->running[(uint32_t)c->curr & (LA_RUN_BUCKETS - 1)]--;
	if (pid > 0)
		la->running[(uint32_t)pid & (LA_RUN_BUCKETS - 1)]++;
	c->curr = pid;
}

/* The scanner's view of CPU c after the sched_switch ev on it. */
static inline void switch_in(struct lookahead *la, struct la_cpu *c,
			     const struct ea_event *ev)
{
	la_set_curr(la, c, ev->sw.next_pid);
	c->curr_since = ev->ts;
	c->ev_ts = c->rec_ts = ev->ts;
	c->ev_seq = c->rec_seq = la->next_seq;
	c->tentative = false;	/* in the idle loop, busy, before it */
	la->cands[ev->cpu].n = 0;
	memcpy(c->curr_comm, ev->sw.next_comm, EA_COMM_LEN);
	/* Wakeups before now can no longer place a resync on c. */
	if (c->pend_seq && c->pend_last_ts < ev->ts) {
		c->pend_seq = 0;
		la->npend--;
		la->pend_dirty = true;
	}
}

/* A task woken or moved onto cpu (which la->cpus holds). */
static inline void cand_add(struct lookahead *la, int cpu, int32_t pid)
{
	struct la_cands *k = &la->cands[cpu];

	/* sched_waking then sched_wakeup: once */
	if (!k->n || k->pid[(k->n - 1) % LA_NCAND] != pid)
		k->pid[k->n++ % LA_NCAND] = pid;
}

/* A wakeup onto cpu (which la->cpus holds) a later resync there may be
 * placed at. */
static inline void pend_on(struct lookahead *la, int cpu, uint64_t ts)
{
	struct la_cpu *c = &la->cpus[cpu];

	if (!c->pend_seq) {
		if (cpu >= la->pend_ncpus)
			la->pend_ncpus = cpu + 1;
		c->pend_seq = la->next_seq;
		la->npend++;
		if (la->next_seq < la->pend_min)
			la->pend_min = la->next_seq;
	}
	c->pend_last_ts = ts;
}

/* CPU id the scanner has seen (la->cpus holds it) */
static inline bool known_cpu(const struct lookahead *la, int cpu)
{
	return (unsigned int)cpu < (unsigned int)(la->max_cpu + 1);
}

/*
 * Whether ring_ts has grown all it may (push_ts() never grows it again):
 * callers of la_try_switch() and la_try_wake() ask this first (per event,
 * or once for as long as it holds: it holds for good once true).
 */
static inline bool la_ts_grown(const struct lookahead *la)
{
	return la->ts_grow_at == UINT64_MAX;
}

/*
 * What la_scan() asks of every event it takes on these paths, beyond
 * la_ts_grown(): sorted order kept (la->sorted stays as it is).
 */
static inline bool la_try_room(const struct lookahead *la,
			       const struct ea_event *ev)
{
	return ev->ts >= la->last_ts;
}

/* la_scan()'s first and last steps, for an event la_try_room() took:
 * its key (la->next_seq after it), its time into ring_ts. */
static inline void la_try_key(struct lookahead *la, const struct ea_event *ev)
{
	la->last_ts = ev->ts;
	la->next_seq += 2;
}

static inline void la_try_push(struct lookahead *la, const struct ea_event *ev)
{
	la->ring_ts[la->pushed & la->ts_mask] = ev->ts;
	la->pushed++;
}

/*
 * la_scan() of a sched_switch that is neither synthetic nor derived
 * (EA_EVF_SYNTH, EA_EVF_DERIVED), once la_ts_grown(), on a CPU seen, whose prev task is the
 * one the scanner believes runs there and whose next task it believes
 * runs nowhere else; false, having done nothing, for any other.
 */
static inline bool la_try_switch(struct lookahead *la, const struct ea_event *ev)
{
	int cpu = ev->cpu;
	struct la_cpu *c;

	if (!known_cpu(la, cpu) || (ev->flags & (EA_EVF_SYNTH | EA_EVF_DERIVED)))
		return false;
	c = &la->cpus[cpu];
	if (!c->seen || (ev->sw.prev_pid >= 0 && ev->sw.prev_pid != c->curr) ||
	    !la_try_room(la, ev) ||
	    runs_elsewhere(la, ev->sw.next_pid, cpu))
		return false;
	la_try_key(la, ev);
	switch_in(la, c, ev);	/* ev_ts and rec_ts too */
	/* a record on a CPU with a pending wakeup may raise its bound
	 * (la_may_go_slow()) */
	if (c->pend_seq)
		la->pend_dirty = true;
	la_try_push(la, ev);
	return true;
}

/*
 * la_try_wake() and la_try_wake_derived() in one body: a record (rec)
 * sets its CPU's rec_ts and rec_seq and may raise a pending bound; a
 * derived waking only shows its CPU's current task. Inline with rec a
 * constant: each caller compiles to its own path.
 */
static inline __attribute__((always_inline)) bool
la_try_wake_as(struct lookahead *la, const struct ea_event *ev, bool rec)
{
	int cpu = ev->cpu, target = ev->wake.target_cpu;
	int32_t pid = ev->wake.pid;
	struct la_wake *w = NULL;
	struct la_cpu *c;

	if (!known_cpu(la, cpu) ||
	    (ev->flags & (rec ? EA_EVF_SYNTH | EA_EVF_DERIVED : EA_EVF_SYNTH)))
		return false;
	c = &la->cpus[cpu];
	if (!c->seen || (ev->cur_pid >= 0 && ev->cur_pid != c->curr) ||
	    !la_try_room(la, ev))
		return false;
	if (pid > 0) {
		if (target >= la->ncpus ||
		    (target >= 0 && runs_elsewhere(la, pid, target)))
			return false;
		if (!(w = wake_claim(la, pid)))
			return false;
	}
	la_try_key(la, ev);
	if (pid > 0) {
		if (target >= 0) {
			cand_add(la, target, pid);
			if (la->sorted)
				pend_on(la, target, ev->ts);
		}
		w->pid = pid;
		w->cpu = target;
		w->ts = ev->ts;
		w->seq = la->next_seq;
		w->idle_here = ev->cur_pid == 0 && cpu == target;
	}
	if (ev->cur_pid >= 0) {	/* it shows curr current on its CPU */
		c->ev_ts = ev->ts;
		c->ev_seq = la->next_seq;
	}
	if (rec) {
		c->rec_ts = ev->ts;
		c->rec_seq = la->next_seq;
		if (c->pend_seq)
			la->pend_dirty = true;
	}
	la_try_push(la, ev);
	return true;
}

/*
 * la_scan() of a sched_waking, sched_wakeup or sched_wakeup_new, neither
 * synthetic nor derived, once la_ts_grown(), on a CPU seen, whose current task is the one
 * the scanner believes runs there, of a task it believes runs on no CPU
 * but the target, where the wake table needs no memory; false, having
 * done nothing, for any other.
 */
static inline bool la_try_wake(struct lookahead *la, const struct ea_event *ev)
{
	return la_try_wake_as(la, ev, true);
}

/*
 * la_try_switch() of a derived switch (EA_EVF_DERIVED: a Perfetto
 * compact_sched's), taken as lookahead.c's scan_common() takes it: not
 * when its derived prev is the idle task and it slept (la_derived()'s),
 * and without marking pend_min stale (scan_common() marks it for records
 * only), so that la_may_go(), not la_switch_may_go(), says whether it may
 * go. Apart from la_try_switch(): the recorded events' path stays as it
 * was.
 */
static inline bool la_try_switch_derived(struct lookahead *la,
					 const struct ea_event *ev)
{
	int cpu = ev->cpu;
	struct la_cpu *c;

	if (!known_cpu(la, cpu) || (ev->flags & EA_EVF_SYNTH))
		return false;
	c = &la->cpus[cpu];
	if (!c->seen || (ev->sw.prev_pid >= 0 && ev->sw.prev_pid != c->curr) ||
	    !la_try_room(la, ev) ||
	    runs_elsewhere(la, ev->sw.next_pid, cpu))
		return false;
	if (!ev->sw.prev_pid && ev->sw.prev_state != EA_PREV_RUNNABLE)
		return false;
	la_try_key(la, ev);
	switch_in(la, c, ev);	/* ev_ts and rec_ts too */
	la_try_push(la, ev);
	return true;
}

/*
 * la_try_wake() of a derived waking (its current task the reader's: a
 * compact_sched's), taken as scan_common() takes it: not as a record of
 * its CPU (rec_ts, rec_seq, pend_min) but as an event showing its current
 * task.
 */
static inline bool la_try_wake_derived(struct lookahead *la,
				       const struct ea_event *ev)
{
	return la_try_wake_as(la, ev, false);
}

/*
 * la_may_go(la, la->next_seq) for the event la_try_switch() or
 * la_try_wake() has just scanned, asked without pend_min (nor its
 * recomputation). The event's key is at most every CPU's bound
 * (la_may_go_slow()) exactly when no CPU but its own had a pending
 * wakeup (a pend_seq) before it: its own CPU's bound is at least its key
 * (the event is that CPU's last record), as is that of a CPU the event
 * makes pending (pend_seq is its key); any other CPU with a pending
 * wakeup has both pend_seq and rec_seq below it. npend counts the CPUs
 * with one after the event: a switch may only have ended its own CPU's,
 * a wakeup added its target's (whose pend_seq is then the event's key).
 */
static inline bool la_switch_may_go(const struct lookahead *la,
				    const struct ea_event *ev)
{
	const struct la_cpu *c = &la->cpus[ev->cpu];

	return la->npend == (c->pend_seq != 0) && la->next_seq > la->hold_seq;
}

static inline bool la_wake_may_go(const struct lookahead *la,
				  const struct ea_event *ev)
{
	const struct la_cpu *c = &la->cpus[ev->cpu];
	int target = ev->wake.target_cpu;
	int others = la->npend - (c->pend_seq != 0);

	/* made pending by ev (la_try_wake() checked target < ncpus) */
	if (target >= 0 && target != ev->cpu && ev->wake.pid > 0 &&
	    la->cpus[target].pend_seq == la->next_seq)
		others--;
	return !others && la->next_seq > la->hold_seq;
}

#endif
