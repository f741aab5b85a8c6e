// SPDX-License-Identifier: GPL-2.0-only
/*
 * The state stage: look-ahead, then the CPU and task machines, then the
 * consumers. See include/eatrace/state.h.
 */
#include <stdlib.h>
#include <string.h>

#include "state/apply.h"
#include "state/cpu.h"
#include "state/feed-derived.h"
#include "state/handoff.h"
#include "state/task.h"

int ea_state_new(struct ea_state **sp, const struct ea_state_config *cfg,
		 const struct ea_state_ops *ops, void *ctx)
{
	struct ea_state *s = calloc(1, sizeof(*s));

	*sp = NULL;
	if (!s)
		return -1;
	if (cfg)
		s->cfg = *cfg;
	s->ops = ops;
	s->event_types = !ops->event ? 0 :
			  ops->event_types ? ops->event_types : ~0u;
	s->ctx = ctx;
	s->track_tasks = !(s->cfg.no_tasks && s->cfg.no_util);
	if (la_init(&s->la, EA_LOOKAHEAD)) {
		free(s);
		return -1;
	}
	*sp = s;
	return 0;
}

void ea_state_free(struct ea_state *s)
{
	if (!s)
		return;
	la_free(&s->la);
	task_table_free(&s->tasks);
	free(s->cpus);
	free(s);
}

static void resolve_window(struct ea_state *s)
{
	s->win_start = s->cfg.win_start;
	s->win_end = s->cfg.win_end ? s->cfg.win_end : UINT64_MAX;
	if (s->cfg.win_relative) {
		s->win_start += s->first_ts;
		if (s->cfg.win_end)
			s->win_end = s->first_ts + s->cfg.win_end;
	}
}

static int start(struct ea_state *s, uint64_t first_ts)
{
	int ncpus = s->cfg.ncpus > 0 ? s->cfg.ncpus : 0;

	s->first_ts = s->last_ts = first_ts;
	resolve_window(s);
	if (s->la.max_cpu + 1 > ncpus)
		ncpus = s->la.max_cpu + 1;
	if (!ncpus)
		ncpus = 1;
	s->started = true;
	s->la.retro = false;
	/* The start is inferred: from now on hold back what the caller asked. */
	if (s->cfg.lookahead && s->cfg.lookahead < s->la.cap) {
		s->la.cap = s->cfg.lookahead;
		s->la_cut = true; /* feed_held() shrinks the rings once drained */
	}
	return cpu_grow(s, ncpus);
}

/* The highest CPU ev names: its own, or a cpu_idle/cpu_frequency cpu_id. */
static inline int top_cpu(const struct ea_event *ev)
{
	int need = ev->cpu;

	/* most events: a switch, wakeup or migration names no other CPU */
	_Static_assert(EA_EV_MIGRATE < EA_EV_FREQ && EA_EV_FREQ < EA_EV_IDLE &&
			       EA_EV_FREQ < EA_EV_HOTPLUG,
		       "top_cpu(): the types before EA_EV_FREQ name one CPU");
	if (ev->type < EA_EV_FREQ)
		return need;
	if (ev->type == EA_EV_IDLE && ev->idle.cpu > need)
		need = ev->idle.cpu;
	if (ev->type == EA_EV_FREQ && ev->freq.cpu > need)
		need = ev->freq.cpu;
	if (ev->type == EA_EV_HOTPLUG && ev->hotplug.cpu > need)
		need = ev->hotplug.cpu;
	return need;
}

/* apply() of what most events never need: the start, a new CPU, lost
 * events. Out of line: its frame would weigh on every event. */
__attribute__((noinline))
static int apply_rare(struct ea_state *s, const struct ea_event *ev,
		      struct ea_err *err)
{
	int need = top_cpu(ev);

	if (!s->started && start(s, ev->ts))
		return ea_err_set(err, "out of memory");
	if (need >= s->ncpus && cpu_grow(s, need + 1))
		return ea_err_set(err, "out of memory");
	if (ev->type == EA_EV_LOST && !(ev->flags & EA_EVF_SYNTH)) {
		s->counts.lost_markers++;
		s->counts.lost_events += ev->lost.count;
	}
	return 0;
}

/* Always inline: the events the look-ahead held back reach it through
 * deliver() one by one, a call less each. */
static inline __attribute__((always_inline)) int
apply(struct ea_state *s, const struct ea_event *ev, struct ea_err *err)
{
	if ((!s->started || top_cpu(ev) >= s->ncpus || ev->type == EA_EV_LOST) &&
	    apply_rare(s, ev, err))
		return -1;
	apply_begin(s, ev);
	switch (ev->type) {
	case EA_EV_WAKEUP:
	case EA_EV_WAKING:
	case EA_EV_WAKEUP_NEW:
		cpu_apply_other(s, ev);
		if (s->track_tasks)
			task_wakeup(s, ev);
		break;
	case EA_EV_SWITCH:
		if (!(ev->flags & EA_EVF_SYNTH)) {
			cpu_switch(s, ev);
			break;
		}
		/* fall through */
	default:
		cpu_apply(s, ev);
		if (s->track_tasks)
			task_apply(s, ev);
		break;
	}
	apply_end(s, ev);
	return 0;
}

/*
 * An event the look-ahead lets go, handed to the applying thread
 * (handoff.h). The start and a new CPU read the look-ahead's view: done
 * here, at the same point of the scan as apply() would, once every event
 * before is applied (the applying thread then waits for the next block);
 * apply() then finds them done.
 */
__attribute__((noinline))
static int hand(struct ea_state *s, const struct ea_event *ev,
		struct ea_err *err)
{
	int need = top_cpu(ev);

	if (!s->started || need >= s->ncpus) {
		if (handoff_sync(s->handoff))
			return ea_err_set(err, "stopped");
		if (!s->started && start(s, ev->ts))
			return ea_err_set(err, "out of memory");
		if (need >= s->ncpus && cpu_grow(s, need + 1))
			return ea_err_set(err, "out of memory");
	}
	if (handoff_put(s->handoff, ev))
		return ea_err_set(err, "stopped");
	return 0;
}

/*
 * An event the look-ahead lets go: applied, or handed over (the common
 * case inline: into the block being filled, not its last slot).
 */
static inline int deliver(struct ea_state *s, const struct ea_event *ev,
			  struct ea_err *err)
{
	if (__builtin_expect(s->handoff != NULL, 0)) {
		struct evr_blk *b = s->handoff->fill;

		if (b && b->n < EVR_BLK - 1 && s->started &&
		    top_cpu(ev) < s->ncpus) {
			b->ev[b->n++] = *ev;
			return 0;
		}
		return hand(s, ev, err);
	}
	return apply(s, ev, err);
}

void state_two_changes(struct ea_state *s, const struct state_change *two)
{
	s->two = two;
}

void state_handoff(struct ea_state *s, struct handoff *h)
{
	s->handoff = h;
}

int state_apply_handed(struct ea_state *s, struct handoff *h,
		       struct ea_err *err)
{
	for (;;) {
		struct evr_blk *b = handoff_take(h);
		int status;

		for (uint32_t i = 0; i < b->n; i++) {
			if (apply(s, &b->ev[i], err)) {
				evr_release(&h->q, b);
				return -1;
			}
		}
		status = b->status;
		if (status < 0)
			*err = b->err;
		evr_release(&h->q, b);
		if (status)
			return status > 0 ? 0 : -1;
	}
}

/*
 * With one event held back, once started: la_full() would let ev go
 * before the next is scanned, after the synthetic events scanning it put
 * before it. Apply them all now, without the copy through the ring.
 */
static inline int apply_scanned(struct ea_state *s, const struct ea_event *ev,
				struct ea_err *err)
{
	const struct ea_event *out;

	while ((out = la_pop_synth_before(&s->la, ev)))
		if (deliver(s, out, err))
			return -1;
	return deliver(s, ev, err);
}

/* ea_state_feed() with one event held back and none held now */
__attribute__((noinline))
static int feed_one(struct ea_state *s, const struct ea_event *ev,
		    struct ea_err *err)
{
	/* ev, or the scanner's corrected copy (la_scan()) */
	if (!(ev = la_scan(&s->la, ev)))
		return ea_err_set(err, "out of memory");
	return apply_scanned(s, ev, err);
}

/* A scanned event of sorted input, once started, held back: let go what
 * may go before it. */
static inline int go_held(struct ea_state *s, const struct ea_event *ev,
			  struct ea_err *err)
{
	const struct ea_event *out;

	if (la_store(&s->la, ev))
		return ea_err_set(err, "out of memory");
	while ((out = la_pop_early(&s->la)))
		if (deliver(s, out, err))
			return -1;
	return 0;
}

/* go_typed(), which calls deliver() and go_held() above */
#include "state/go-typed.h"

/*
 * A scanned event of sorted input, once started: let go at once when
 * nothing is held back and it may go, else through the ring, letting go
 * what may go before it (feed_held(), feed_steady()).
 */
static inline __attribute__((always_inline)) int
go_scanned(struct ea_state *s, const struct ea_event *ev, struct ea_err *err)
{
	/* An event for a CPU the state does not have yet initialises it
	 * from what the scanner knows when la_full() lets it go: wait. */
	if (top_cpu(ev) >= s->ncpus)
		s->la.hold_seq = s->la.next_seq;
	/* Nothing held back and free to go: no copy through the ring. */
	if (!s->la.len && !s->la.nsynth && la_may_go(&s->la, s->la.next_seq))
		return deliver(s, ev, err);
	return go_held(s, ev, err);
}

/* ea_state_feed() through the look-ahead ring */
__attribute__((noinline))
static int feed_held(struct ea_state *s, const struct ea_event *ev,
		     struct ea_err *err)
{
	while (la_full(&s->la)) {
		if (deliver(s, la_pop(&s->la), err))
			return -1;
	}
	if (s->la_cut && !s->la.len) {
		la_shrink(&s->la);
		s->la_cut = false;
	}
	if (!(ev = la_scan(&s->la, ev)))
		return ea_err_set(err, "out of memory");
	if (s->la.cap == 1 && s->started)
		return apply_scanned(s, ev, err);
	if (!s->la.sorted || !s->started)
		return la_store(&s->la, ev) ? ea_err_set(err, "out of memory") : 0;
	return go_scanned(s, ev, err);
}

/* feed_held() once state_steady(): what it would do, without asking again
 * what state_steady() answered. Inline in state_feed_block()'s loop. */
static inline __attribute__((always_inline)) int
feed_steady(struct ea_state *s, const struct ea_event *ev, struct ea_err *err)
{
	while (la_full(&s->la)) {
		if (deliver(s, la_pop(&s->la), err))
			return -1;
	}
	if (!(ev = la_scan(&s->la, ev)))
		return ea_err_set(err, "out of memory");
	if (!s->la.sorted)
		return la_store(&s->la, ev) ? ea_err_set(err, "out of memory") : 0;
	return go_scanned(s, ev, err);
}

int ea_state_feed(struct ea_state *s, const struct ea_event *ev,
		  struct ea_err *err)
{
	if (s->la.cap == 1 && s->started && !s->la.len)
		return feed_one(s, ev, err);
	return feed_held(s, ev, err);
}

/*
 * feed_derived_type() of a derived event (EA_EVF_DERIVED) feed_type()
 * refused, out of line: state_feed_block()'s path for recorded events
 * stays as it was; the state is marked as fed derived events, whose
 * later blocks go to state_feed_block_derived() (feed-derived.c).
 */
__attribute__((noinline)) static enum feed_type_result
feed_derived(struct ea_state *s, const struct ea_event *ev)
{
	s->derived_in = true;
	return feed_derived_type(s, ev);
}

/* deliver() and go_held() for feed-derived.c's go_typed() */
__attribute__((noinline)) int
state_deliver(struct ea_state *s, const struct ea_event *ev,
	      struct ea_err *err)
{
	return deliver(s, ev, err);
}

__attribute__((noinline)) int
state_go_held(struct ea_state *s, const struct ea_event *ev,
	      struct ea_err *err)
{
	return go_held(s, ev, err);
}

/*
 * ea_state_feed() of each event of a block: one call for the block, the
 * look-ahead's steady path (feed_steady()) inline in its loop.
 */
int state_feed_block(struct ea_state *s, const struct ea_event *evs, size_t n,
		     size_t *at, struct ea_err *err)
{
	bool fast = state_steady(s);
	/* the per-type feeds apply here: not with a hand-over; and once
	 * ring_ts is grown (la_ts_grown(): it then stays so) */
	bool typed = !s->handoff && la_ts_grown(&s->la);

	for (size_t i = 0; i < n; i++) {
		int rc;

		/* a block another thread decoded: its lines are in the other
		 * core's cache, ask for them early (past the end: harmless;
		 * an address, not a pointer beyond the array) */
		uintptr_t ahead = (uintptr_t)&evs[i] + 8 * sizeof(*evs);

		__builtin_prefetch((const void *)ahead);
		__builtin_prefetch((const void *)(ahead + 64));
		if (fast && typed) {
			enum feed_type_result r = feed_type(s, &evs[i]);

			if (r == FEED_NOT && (evs[i].flags & EA_EVF_DERIVED))
				r = feed_derived(s, &evs[i]);
			if (r == FEED_DONE)
				continue;
			if (r == FEED_SCANNED) {
				rc = go_typed(s, &evs[i], err);
				goto done;
			}
		}
		if (fast) {
			rc = feed_steady(s, &evs[i], err);
			fast = s->la.sorted;
		} else {
			rc = ea_state_feed(s, &evs[i], err);
			fast = state_steady(s);
		}
done:
		if (rc) {
			*at = i;
			return -1;
		}
	}
	return 0;
}

void state_input_sorted(struct ea_state *s)
{
	s->la.sorted = true;
}

int state_finish_feed(struct ea_state *s, struct ea_err *err)
{
	const struct ea_event *out;

	while ((out = la_pop(&s->la)))
		if (deliver(s, out, err))
			return -1;
	/* nothing is scanned after the end: the rings to one slot each (a
	 * replay keeps the recording's state until it has replayed) */
	s->la.cap = 1;
	la_shrink(&s->la);
	if (!s->started)
		return ea_err_set(err, "no events the analysis can use");
	return 0;
}

int ea_state_finish(struct ea_state *s, struct ea_err *err)
{
	if (state_finish_feed(s, err))
		return -1;
	state_finish_apply(s);
	return 0;
}

void state_finish_apply(struct ea_state *s)
{
	s->counts.resyncs = s->la.resyncs;
	s->counts.resync_from_wakeup = s->la.resync_from_wakeup;
	s->counts.resync_after_prev = s->la.resync_after_prev;
	s->counts.resync_proven = s->la.resync_proven;
	s->counts.prev_from_waking = s->la.prev_from_waking;
	s->counts.prev_from_scanner = s->la.prev_from_scanner;
	s->counts.tasks_left = s->la.tasks_left;
	s->counts.unknown_unplaced_ns = s->la.unplaced_ns;
	cpu_finish(s);
	task_finish(s);
	s->finished = true;
}

int ea_state_ncpus(const struct ea_state *s)
{
	return s->ncpus;
}

const struct ea_cpu_state *ea_state_cpu(const struct ea_state *s, int cpu)
{
	return cpu >= 0 && cpu < s->ncpus ? &s->cpus[cpu].st : NULL;
}

bool ea_state_cpu_has_cpuidle(const struct ea_state *s, int cpu)
{
	return cpu >= 0 && cpu < s->ncpus && s->cpus[cpu].has_cpuidle;
}

uint64_t ea_state_cpu_first_ts(const struct ea_state *s, int cpu)
{
	return s->cpus[cpu].seen ? s->cpus[cpu].first_ts : s->last_ts;
}

uint64_t ea_state_cpu_last_ts(const struct ea_state *s, int cpu)
{
	return s->cpus[cpu].seen ? s->cpus[cpu].last_ts : s->first_ts;
}

uint64_t ea_state_first_ts(const struct ea_state *s)
{
	return s->first_ts;
}

uint64_t ea_state_last_ts(const struct ea_state *s)
{
	return s->last_ts;
}

void ea_state_window(const struct ea_state *s, uint64_t *start_ns,
		     uint64_t *end_ns)
{
	*start_ns = s->win_start > s->first_ts ? s->win_start : s->first_ts;
	*end_ns = s->win_end < s->last_ts ? s->win_end : s->last_ts;
	if (*end_ns < *start_ns)
		*end_ns = *start_ns;
}

uint64_t ea_state_clip(const struct ea_state *s, uint64_t *t0, uint64_t *t1)
{
	return st_clip(s, t0, t1);
}

void ea_state_clip_bounds(const struct ea_state *s, uint64_t *start_ns,
			  uint64_t *end_ns)
{
	*start_ns = s->win_start;
	*end_ns = s->win_end;
}

bool ea_state_in_window(const struct ea_state *s, uint64_t t)
{
	return st_in_window(s, t);
}

const struct ea_state_counts *ea_state_counts(const struct ea_state *s)
{
	return &s->counts;
}

const struct ea_state_config *ea_state_config(const struct ea_state *s)
{
	return &s->cfg;
}

struct ea_task *ea_state_task_at(const struct ea_state *s, size_t i)
{
	return i < s->tasks.n ? s->tasks.by_order[i] : NULL;
}

size_t ea_state_ntasks(const struct ea_state *s)
{
	return s->tasks.n;
}

struct ea_task *ea_state_task(const struct ea_state *s, int32_t pid)
{
	return task_find(s, pid);
}

uint32_t ea_state_cpu_util(const struct ea_state *s, int cpu)
{
	return s->cpus[cpu].pelt.util_avg;
}

void ea_state_cpu_util_stats(const struct ea_state *s, int cpu, double *mean,
			     uint32_t *max)
{
	const struct ea_cpu *c = &s->cpus[cpu];

	*mean = c->util_ns ? c->util_integral / (double)c->util_ns : 0;
	*max = c->util_max;
}

uint32_t ea_state_cpu_util_at(const struct ea_state *s, int cpu, uint64_t now)
{
	return cpu_util_at(s, cpu, now);
}
