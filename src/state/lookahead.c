// SPDX-License-Identifier: GPL-2.0-only
/*
 * Look-ahead scanner: see state/lookahead.h. The scanner keeps its own idea
 * of which task runs on each CPU, from sched_switch and from every record's
 * current pid, so it notices a lost switch-in before the state machine gets
 * there and can schedule the correction at the right, earlier time.
 */
#include <stdlib.h>
#include <string.h>

#include "state/lookahead-common.h"

/* Slots the rings start with (fewer if the look-ahead is shorter). */
#define LA_FIRST_SLOTS 1024

/* la->ts_grow_at for the present ts_mask and slots */
static void ts_grow_point(struct lookahead *la)
{
	la->ts_grow_at = la->ts_mask + 1 < la->slots ? la->ts_mask + 1 :
						      UINT64_MAX;
}

int la_init(struct lookahead *la, size_t cap)
{
	size_t slots = 1, first;

	memset(la, 0, sizeof(*la));
	while (slots < cap)	/* a power of two: index with a mask */
		slots *= 2;
	first = slots < LA_FIRST_SLOTS ? slots : LA_FIRST_SLOTS;
	la->ring = malloc(first * sizeof(*la->ring));
	la->ring_ts = malloc(first * sizeof(*la->ring_ts));
	if (!la->ring || !la->ring_ts) {
		free(la->ring);
		free(la->ring_ts);
		return -1;
	}
	la->pend_min = UINT64_MAX;
	la->retro = true;
	la->cap = cap;
	la->slots = slots;
	la->mask = first - 1;
	la->ts_mask = first - 1;
	ts_grow_point(la);
	la->max_cpu = -1;
	return 0;
}

/*
 * The FIFO is full (len == its slots, fewer than la->slots since len <
 * cap): twice the slots, grown in place where it can be (no second copy
 * alive at once), the events before the head moved past the old end so
 * that they follow the others.
 */
int la_grow_ring(struct lookahead *la)
{
	size_t n = la->mask + 1;
	struct ea_event *ring = realloc(la->ring, 2 * n * sizeof(*ring));

	if (!ring)
		return -1;
	memcpy(ring + n, ring, la->head * sizeof(*ring));
	la->ring = ring;
	la->mask = 2 * n - 1;
	return 0;
}

/*
 * ring_ts is about to wrap (event la->pushed would go to slot 0): twice
 * the slots while fewer than la->slots. No event has wrapped yet, so each
 * keeps its slot (event k at k & ts_mask == k).
 */
__attribute__((noinline))
static int grow_ts(struct lookahead *la)
{
	size_t n = la->ts_mask + 1;
	uint64_t *ts = realloc(la->ring_ts, 2 * n * sizeof(*ts));

	if (!ts)
		return -1;
	la->ring_ts = ts;
	la->ts_mask = 2 * n - 1;
	ts_grow_point(la);
	return 0;
}

/*
 * The look-ahead was cut to la->cap (state.c's start()) and nothing is
 * held back: both rings down to the slots that depth needs, so a stage
 * run with a short look-ahead after its start does not keep the memory
 * the start's full-depth one grew to. ring_ts keeps the cap - 1 latest
 * events' times (not_before() reads those), each at its slot under the
 * new mask; nothing grows past the new slots again. On allocation
 * failure the rings stay as they were.
 */
void la_shrink(struct lookahead *la)
{
	size_t slots = 1, keep;
	struct ea_event *ring;
	uint64_t *ts;

	while (slots < la->cap)
		slots *= 2;
	if (la->len || (la->mask + 1 <= slots && la->ts_mask + 1 <= slots))
		return;
	ring = malloc(slots * sizeof(*ring));
	ts = malloc(slots * sizeof(*ts));
	if (!ring || !ts) {
		free(ring);
		free(ts);
		return;
	}
	keep = la->cap - 1 < la->pushed ? la->cap - 1 : la->pushed;
	for (uint64_t k = la->pushed - keep; k < la->pushed; k++)
		ts[k & (slots - 1)] = la->ring_ts[k & la->ts_mask];
	free(la->ring);
	free(la->ring_ts);
	la->ring = ring;
	la->ring_ts = ts;
	la->head = 0;
	la->mask = slots - 1;
	la->ts_mask = slots - 1;
	la->slots = slots;
	ts_grow_point(la);
}

void la_free(struct lookahead *la)
{
	free(la->ring);
	free(la->ring_ts);
	free(la->synth);
	free(la->cpus);
	free(la->cands);
	free(la->wakes);
	memset(la, 0, sizeof(*la));
}

static int grow_cpus_slow(struct lookahead *la, int cpu)
{
	int n = la->ncpus ? la->ncpus : 8;
	struct la_cpu *p;
	struct la_cands *k;

	while (n <= cpu)
		n *= 2;
	k = realloc(la->cands, n * sizeof(*k));
	if (!k)
		return -1;
	la->cands = k;
	memset(k + la->ncpus, 0, (n - la->ncpus) * sizeof(*k));
	p = realloc(la->cpus, n * sizeof(*p));
	if (!p)
		return -1;
	memset(p + la->ncpus, 0, (n - la->ncpus) * sizeof(*p));
	for (int i = la->ncpus; i < n; i++)
		p[i].curr = p[i].init_pid = -1;
	la->cpus = p;
	la->ncpus = n;
	return 0;
}

static inline int grow_cpus(struct lookahead *la, int cpu)
{
	if (cpu > la->max_cpu)
		la->max_cpu = cpu;
	return cpu < la->ncpus ? 0 : grow_cpus_slow(la, cpu);
}

static int wake_grow(struct lookahead *la)
{
	size_t old = la->wake_slots;
	struct la_wake *tab = la->wakes;

	la->wake_slots = old ? old * 2 : 1024;
	la->wakes = calloc(la->wake_slots, sizeof(*la->wakes));
	if (!la->wakes) {
		la->wakes = tab;
		la->wake_slots = old;
		return -1;
	}
	for (size_t i = 0; i < old; i++)
		if (tab[i].pid)
			*wake_slot(la, tab[i].pid) = tab[i];
	free(tab);
	return 0;
}

static int wake_set(struct lookahead *la, int32_t pid, int32_t cpu, uint64_t ts,
		    uint64_t seq, bool idle_here)
{
	struct la_wake *w = la->last_wake;

	if (pid <= 0)
		return 0;
	/* sched_waking then sched_wakeup: the same entry twice */
	if (!w || w->pid != pid) {
		if ((la->nwakes + 1) * 2 > la->wake_slots && wake_grow(la))
			return -1;
		w = wake_slot(la, pid);
		if (!w->pid)
			la->nwakes++;
		la->last_wake = w;
	}
	w->pid = pid;
	w->cpu = cpu;
	w->ts = ts;
	w->seq = seq;
	w->idle_here = idle_here;
	return 0;
}

static struct la_wake *wake_get(struct lookahead *la, int32_t pid)
{
	struct la_wake *w;

	if (!la->wake_slots)
		return NULL;
	w = wake_slot(la, pid);
	return w->pid ? w : NULL;
}

/* Synthetic events: a binary min-heap on (ts, seq). */
static bool before(uint64_t ts_a, uint64_t seq_a, uint64_t ts_b, uint64_t seq_b)
{
	return ts_a < ts_b || (ts_a == ts_b && seq_a < seq_b);
}

/* On equal keys, the one pushed first: the order does not depend on
 * the heap's layout (which depends on when events were let go). */
static bool synth_before(const struct la_synth *a, const struct la_synth *b)
{
	if (a->ev.ts != b->ev.ts || a->seq != b->seq)
		return before(a->ev.ts, a->seq, b->ev.ts, b->seq);
	return a->nth < b->nth;
}

static int synth_push(struct lookahead *la, const struct ea_event *ev,
		      uint64_t seq)
{
	struct la_synth item = { *ev, seq, la->synth_pushed++ };
	size_t i;

	if (la->nsynth == la->synth_cap) {
		size_t n = la->synth_cap ? la->synth_cap * 2 : 64;
		struct la_synth *p = realloc(la->synth, n * sizeof(*p));

		if (!p)
			return -1;
		la->synth = p;
		la->synth_cap = n;
	}
	i = la->nsynth++;
	while (i > 0) {
		size_t parent = (i - 1) / 2;

		if (!synth_before(&item, &la->synth[parent]))
			break;
		la->synth[i] = la->synth[parent];
		i = parent;
	}
	la->synth[i] = item;
	return 0;
}

static void synth_pop(struct lookahead *la, struct ea_event *ev)
{
	struct la_synth last = la->synth[--la->nsynth];
	size_t i = 0;

	*ev = la->synth[0].ev;
	for (;;) {
		size_t l = 2 * i + 1, m;

		if (l >= la->nsynth)
			break;
		m = l;
		if (l + 1 < la->nsynth && synth_before(&la->synth[l + 1], &la->synth[l]))
			m = l + 1;
		if (!synth_before(&la->synth[m], &last))
			break;
		la->synth[i] = la->synth[m];
		i = m;
	}
	if (la->nsynth)
		la->synth[i] = last;
}

/* The task the record says is current on its CPU, or -1. */
static int32_t current_of(const struct ea_event *ev)
{
	if (ev->type == EA_EV_SWITCH)
		return ev->sw.prev_pid;
	return ev->cur_pid;
}

void la_first_sight(struct la_cpu *c, const struct ea_event *ev, int32_t cur)
{
	c->seen = true;
	c->init_pid = cur;
	/* A CPU first seen leaving a cpuidle state was in one before, which
	 * one is unknown. */
	c->init_busy = !(ev->type == EA_EV_IDLE && ev->idle.state == EA_IDLE_EXIT);
	c->init_unknown = !c->init_busy;
	/* A record of the idle task that is neither a switch nor a cpu_idle
	 * event (an interrupt's wakeup, say) does not tell whether the CPU
	 * was in a cpuidle state: its first cpu_idle event will. */
	c->tentative = cur == 0 && ev->type != EA_EV_SWITCH &&
		       ev->type != EA_EV_IDLE;
	c->curr = cur;
	c->curr_since = ev->ts;
	if (ev->type == EA_EV_SWITCH)
		memcpy(c->curr_comm, ev->sw.prev_comm, EA_COMM_LEN);
}

/* la_first_sight() of a CPU of the look-ahead's: its curr counted */
static void first_sight(struct lookahead *la, struct la_cpu *c,
			const struct ea_event *ev, int32_t cur)
{
	int32_t was = c->curr;

	la_first_sight(c, ev, cur);
	c->curr = was;
	la_set_curr(la, c, cur);
}

/* The first cpu_idle event of a CPU first seen in an idle-task record. */
static void settle_tentative(struct la_cpu *c, const struct ea_event *ev)
{
	c->tentative = false;
	if (ev->idle.state == EA_IDLE_EXIT) {
		c->init_busy = false;	/* it was in a cpuidle state ... */
		c->init_unknown = true;	/* ... which one is unknown */
	}
}

/*
 * CPU c runs `cur` according to ev, but the scanner believed c->curr: the
 * switch-in of `cur` was lost. Best evidence for when it happened: its latest
 * wakeup on this CPU after the previous switch, else this very event.
 */
/*
 * Events before the oldest held back are already applied: with la_full()
 * letting events go, the oldest held back when event k is scanned is
 * event k - cap + 1 (or the first), whatever la_pop_early() let go.
 */
static uint64_t not_before(const struct lookahead *la,
			   const struct ea_event *ev)
{
	uint64_t k = la->pushed;	/* ev's index */

	if (!k)
		return ev->ts;
	k = k >= la->cap ? k - la->cap + 1 : 0;
	/* a one-event look-ahead holds back ev alone, whose ts is not in
	 * the ring yet */
	if (k == la->pushed)
		return ev->ts;
	return la->ring_ts[k & la->ts_mask];
}

/* The key of the oldest event held back. */
/*
 * CPU c's state is unknown from the last record that showed its current
 * task (c->ev_ts), which ev has just shown wrong: a synthetic marker there
 * while nothing has been let go (the start), else just before ev (the
 * time between is counted, la->unplaced_ns). Not for the idle task: a
 * lost switch out of idle is placed at the wakeup, idle until then.
 */
static int unknown_from(struct lookahead *la, struct la_cpu *c, int cpu,
			const struct ea_event *ev, uint64_t sw_ts,
			uint64_t sw_seq)
{
	struct ea_event m;
	uint64_t ts = ev->ts, seq = la->next_seq - 1;

	if (c->curr == 0 || !c->ev_seq)
		return 0;
	if (la->retro && la->len) {
		ts = la->ring[la->head].ts;
		seq = head_seq(la) - 1;
	}
	if (before(ts, seq, c->ev_ts, c->ev_seq + 1)) {
		ts = c->ev_ts;
		seq = c->ev_seq + 1;
	} else if (c->ev_ts < ts) {
		la->unplaced_ns += ts - c->ev_ts;
	}
	/* the synthetic switch it precedes marks it from there itself */
	if (!before(ts, seq, sw_ts, sw_seq))
		return 0;
	memset(&m, 0, sizeof(m));
	m.ts = ts;
	m.cpu = cpu;
	m.cur_pid = -1;
	m.type = EA_EV_LOST;
	m.flags = EA_EVF_SYNTH | EA_EVF_UNKNOWN;
	return synth_push(la, &m, seq);
}

/*
 * ev shows pid elsewhere than on the CPUs the scanner believes run it (a
 * switch-in on another CPU, a wakeup naming another CPU: a running task's
 * wakeup names its own): its switch-out there was lost. From ev on, those
 * CPUs run an unknown task; their state is unknown since their last record
 * showing pid.
 */
static int leave_others(struct lookahead *la, int32_t pid, int except,
			const struct ea_event *ev)
{
	int cpu;

	while ((cpu = running_elsewhere(la, pid, except)) >= 0) {
		struct la_cpu *c = &la->cpus[cpu];
		struct ea_event sw;

		if (unknown_from(la, c, cpu, ev, ev->ts, la->next_seq - 1))
			return -1;
		memset(&sw, 0, sizeof(sw));
		sw.ts = ev->ts;
		sw.cpu = cpu;
		sw.cur_pid = pid;
		sw.type = EA_EV_SWITCH;
		sw.flags = EA_EVF_SYNTH | EA_EVF_UNKNOWN;
		sw.sw.prev_pid = pid;
		sw.sw.next_pid = -1;
		sw.sw.prev_prio = sw.sw.next_prio = -1;
		sw.sw.prev_state = EA_PREV_BLOCKED;
		memcpy(sw.sw.prev_comm, c->curr_comm, EA_COMM_LEN);
		la->tasks_left++;
		la_set_curr(la, c, -1);
		c->ev_seq = 0;
		if (synth_push(la, &sw, la->next_seq - 1))
			return -1;
	}
	return 0;
}

/*
 * The switch-in of cur, revealed by ev, goes at cur's latest wakeup (or
 * migration) onto this CPU since its last switch, but no earlier than the
 * CPU's last record before ev (the previous task's: the idle task may
 * record several wakeups in one interrupt before the first woken task
 * runs); else just before ev. The time from there to ev is cur's, proven,
 * when the CPU was idle and the idle task recorded that wakeup there (it
 * never runs while a task is queued on its CPU) and cur showed no sign of
 * being elsewhere since (a migration, which would have replaced the
 * wakeup, a run on another CPU); else unknown until ev.
 */
static int resync(struct lookahead *la, struct la_cpu *c, int cpu,
		  const struct ea_event *ev, int32_t cur)
{
	const struct la_wake *w = wake_get(la, cur);
	struct ea_event sw;
	uint64_t t_in = ev->ts, seq = la->next_seq - 1;	/* just before ev */
	uint8_t flags = EA_EVF_SYNTH | EA_EVF_UNKNOWN;	/* unknown until ev */

	if (w && w->cpu == cpu && w->ts >= c->curr_since && w->ts <= ev->ts &&
	    w->ts >= not_before(la, ev)) {
		t_in = w->ts;
		seq = w->seq + 1;	/* just after the wakeup */
		la->resync_from_wakeup++;
		if (c->rec_seq && before(t_in, seq, c->rec_ts, c->rec_seq + 1)) {
			t_in = c->rec_ts;	/* just after that record */
			seq = c->rec_seq + 1;
			la->resync_after_prev++;
		}
		if (c->curr == 0 && w->idle_here &&
		    running_elsewhere(la, cur, cpu) < 0) {
			flags = EA_EVF_SYNTH;
			la->resync_proven++;
		}
	}
	if (unknown_from(la, c, cpu, ev, t_in, seq))
		return -1;
	memset(&sw, 0, sizeof(sw));
	sw.ts = t_in;
	sw.cpu = cpu;
	sw.cur_pid = c->curr;
	sw.type = EA_EV_SWITCH;
	sw.flags = flags;
	sw.sw.prev_pid = c->curr;
	sw.sw.prev_prio = sw.sw.next_prio = -1;
	sw.sw.prev_state = EA_PREV_BLOCKED;
	memcpy(sw.sw.prev_comm, c->curr_comm, EA_COMM_LEN);
	sw.sw.next_pid = cur;
	if (ev->type == EA_EV_SWITCH)
		memcpy(sw.sw.next_comm, ev->sw.prev_comm, EA_COMM_LEN);
	la->resyncs++;
	la_set_curr(la, c, cur);
	c->curr_since = t_in;
	memcpy(c->curr_comm, sw.sw.next_comm, EA_COMM_LEN);
	return synth_push(la, &sw, seq);
}

/* Out of line: inlined, its frame would weigh on scan_common()'s path. */
__attribute__((noinline))
static int scan(struct lookahead *la, const struct ea_event *ev)
{
	int cpu = ev->cpu;
	int32_t cur = current_of(ev);
	struct la_cpu *c;

	if (grow_cpus(la, cpu))
		return -1;
	if (ev->type == EA_EV_IDLE || ev->type == EA_EV_FREQ) {
		int target = ev->type == EA_EV_IDLE ? ev->idle.cpu : ev->freq.cpu;

		if (grow_cpus(la, target))
			return -1;
		if (ev->type == EA_EV_IDLE) {
			struct la_cpu *t = &la->cpus[target];

			t->has_cpuidle = true;
			if (!t->seen)
				first_sight(la, t, ev, target == cpu ? ev->cur_pid : -1);
			else if (t->tentative)
				settle_tentative(t, ev);
		}
	}
	c = &la->cpus[cpu];
	if (ev->type == EA_EV_LOST) {
		if (!c->seen)
			c->lost_first = true;
		la_set_curr(la, c, -1);	/* unknown until an event tells */
		c->ev_seq = 0;
		la->cands[cpu].n = 0;
		return 0;
	}
	/* A current task a reader derived tells nothing against one the
	 * scanner knows (it is wrong where a switch-in was lost). */
	if ((ev->flags & EA_EVF_DERIVED) && ev->type != EA_EV_SWITCH &&
	    c->seen && c->curr >= 0 && cur != c->curr)
		cur = -1;
	if (!c->seen) {
		first_sight(la, c, ev, cur);
	} else if (cur >= 0 && c->curr < 0) {
		/* after lost events or from an unknown start */
		la_set_curr(la, c, cur);
		c->curr_since = ev->ts;
	} else if (cur >= 0 && cur != c->curr) {
		if (resync(la, c, cpu, ev, cur))
			return -1;
	}
	if (cur >= 0 && cur == c->curr) {
		c->ev_ts = ev->ts;
		c->ev_seq = la->next_seq;
	}
	if (!(ev->flags & EA_EVF_DERIVED)) {	/* switches: switch_in() */
		c->rec_ts = ev->ts;
		c->rec_seq = la->next_seq;
	}
	switch (ev->type) {
	case EA_EV_SWITCH:
		if (leave_others(la, ev->sw.next_pid, cpu, ev))
			return -1;
		switch_in(la, c, ev);
		break;
	case EA_EV_WAKEUP:
	case EA_EV_WAKEUP_NEW:
	case EA_EV_WAKING: {
		int target = ev->wake.target_cpu;

		if (target >= 0 && leave_others(la, ev->wake.pid, target, ev))
			return -1;
		if (ev->wake.pid > 0 && target >= 0) {
			/* Not grow_cpus(): the CPUs seen (max_cpu) must not
			 * change. */
			if (target >= la->ncpus && grow_cpus_slow(la, target))
				return -1;
			cand_add(la, target, ev->wake.pid);
			if (la->sorted)
				pend_on(la, target, ev->ts);
		}
		return wake_set(la, ev->wake.pid, target, ev->ts, la->next_seq,
				cur == 0 && cpu == target);
	}
	case EA_EV_MIGRATE: {
		/* A task moved onto dest is queued there, as by a wakeup
		 * (not one the idle task recorded there: no proof). */
		int dest = ev->migrate.dest_cpu;
		int32_t pid = ev->migrate.pid;

		if (pid <= 0 || dest < 0)
			break;
		if (dest >= la->ncpus && grow_cpus_slow(la, dest))
			return -1;
		cand_add(la, dest, pid);
		if (la->sorted)
			pend_on(la, dest, ev->ts);
		return wake_set(la, pid, dest, ev->ts, la->next_seq, false);
	}
	default:
		break;
	}
	return 0;
}

/* scan_common() of a wakeup on a CPU whose current task is as expected */
static inline bool scan_wake(struct lookahead *la, const struct ea_event *ev)
{
	int32_t pid = ev->wake.pid;
	int cpu = ev->wake.target_cpu;
	struct la_wake *w;
	bool pends = la->sorted && cpu >= 0;

	if (pid <= 0)
		return true;	/* neither pend() nor wake_set() */
	/* Only when neither pend() nor wake_set() needs memory. */
	if (cpu >= la->ncpus)
		return false;
	if (!(w = wake_claim(la, pid)))
		return false;
	if (cpu >= 0)
		cand_add(la, cpu, pid);
	if (pends)
		pend_on(la, cpu, ev->ts);
	w->pid = pid;
	w->cpu = cpu;
	w->ts = ev->ts;
	w->seq = la->next_seq;
	w->idle_here = ev->cur_pid == 0 && ev->cpu == cpu;
	return true;
}

/*
 * scan() of most events: a switch, wakeup, frequency or idle event on CPUs
 * already seen, whose current task is the one the scanner expects, and
 * that needs no memory. Returns false, having done nothing, for any other.
 */
static inline bool scan_common(struct lookahead *la, const struct ea_event *ev)
{
	int cpu = ev->cpu;
	struct la_cpu *c;

	if (!known_cpu(la, cpu))
		return false;
	c = &la->cpus[cpu];
	if (!c->seen)
		return false;
	switch (ev->type) {
	case EA_EV_SWITCH:
		if ((ev->sw.prev_pid >= 0 && ev->sw.prev_pid != c->curr) ||
		    running_elsewhere(la, ev->sw.next_pid, cpu) >= 0)
			return false;
		/* a derived idle prev that slept: la_derived() */
		if ((ev->flags & EA_EVF_DERIVED) && !ev->sw.prev_pid &&
		    ev->sw.prev_state != EA_PREV_RUNNABLE)
			return false;
		switch_in(la, c, ev);
		return true;
	case EA_EV_WAKEUP:
	case EA_EV_WAKING:
	case EA_EV_WAKEUP_NEW:
		if ((ev->cur_pid >= 0 && ev->cur_pid != c->curr) ||
		    (ev->wake.target_cpu >= 0 &&
		     running_elsewhere(la, ev->wake.pid, ev->wake.target_cpu) >= 0))
			return false;
		if (!scan_wake(la, ev))
			return false;
		break;
	case EA_EV_FREQ:
		if (!known_cpu(la, ev->freq.cpu) ||
		    (ev->cur_pid >= 0 && ev->cur_pid != c->curr))
			return false;
		break;
	case EA_EV_IDLE:
		if (!known_cpu(la, ev->idle.cpu) || !la->cpus[ev->idle.cpu].seen ||
		    la->cpus[ev->idle.cpu].tentative ||
		    (ev->cur_pid >= 0 && ev->cur_pid != c->curr))
			return false;
		la->cpus[ev->idle.cpu].has_cpuidle = true;
		break;
	default:
		return false;
	}
	if (ev->cur_pid >= 0) {	/* it shows curr current on its CPU */
		c->ev_ts = ev->ts;
		c->ev_seq = la->next_seq;
	}
	if (!(ev->flags & EA_EVF_DERIVED)) {
		c->rec_ts = ev->ts;
		c->rec_seq = la->next_seq;
		/* a record on a CPU with a pending wakeup may raise its
		 * bound (la_may_go_slow()) */
		if (c->pend_seq)
			la->pend_dirty = true;
	}
	return true;
}

/*
 * A switch whose prev task a reader derived (EA_EVF_DERIVED) from the
 * CPU's previous switch: the prev task it had, as far as the scanner
 * knows, in *out (and out is returned), or ev when the derivation stands.
 * The task the scanner saw running there since (a record of it revealed a
 * lost switch-in); else, when the derived prev is the idle task but
 * prev_state says it slept (the idle task never sleeps), or the scanner
 * saw the idle task there since, the first task queued on the CPU since
 * its last switch that is neither the switch's next task nor running
 * elsewhere.
 */
static const struct ea_event *la_derived(struct lookahead *la,
					 const struct ea_event *ev,
					 struct ea_event *out)
{
	const struct la_cpu *c;
	int32_t prev = ev->sw.prev_pid, pid = -1;

	if (!known_cpu(la, ev->cpu) || !la->cpus[ev->cpu].seen)
		return ev;
	c = &la->cpus[ev->cpu];
	*out = *ev;
	if (c->curr > 0 && c->curr != prev) {
		/* a record of it revealed its lost switch-in */
		la->prev_from_scanner++;
		pid = c->curr;
		memcpy(out->sw.prev_comm, c->curr_comm, EA_COMM_LEN);
	} else if (c->curr == 0 &&
		   (prev != 0 || ev->sw.prev_state != EA_PREV_RUNNABLE)) {
		/* A task ran since the idle task: of those queued on the CPU
		 * (their latest wakeup or migration put them there since its
		 * last switch), the first one woken (later wakings may be
		 * its own), but the switch's next task. Its comm is the
		 * task table's, from its wakeup. */
		const struct la_cands *k = &la->cands[ev->cpu];
		uint32_t i = k->n > LA_NCAND ? k->n - LA_NCAND : 0;

		for (; i < k->n && pid < 0; i++) {
			int32_t q = k->pid[i % LA_NCAND];
			const struct la_wake *w = wake_get(la, q);

			if (q != ev->sw.next_pid && w && w->cpu == ev->cpu &&
			    w->ts >= c->curr_since &&
			    running_elsewhere(la, q, ev->cpu) < 0)
				pid = q;
		}
		if (pid < 0)
			return ev;
		la->prev_from_waking++;
		memset(out->sw.prev_comm, 0, EA_COMM_LEN);
	} else {
		return ev;
	}
	out->cur_pid = out->sw.prev_pid = pid;
	out->sw.prev_prio = -1;
	return out;
}

/* ev's time into ring_ts, growing it first when it is full: ev, or NULL
 * when out of memory. */
static inline const struct ea_event *push_ts(struct lookahead *la,
					     const struct ea_event *ev)
{
	if (la->pushed == la->ts_grow_at && grow_ts(la))
		return NULL;
	la->ring_ts[la->pushed & la->ts_mask] = ev->ts;
	la->pushed++;
	return ev;
}

/* la_scan() of an event scan_common() does not take. Out of line, and
 * called last: la_scan() keeps nothing across a call. */
__attribute__((noinline))
static const struct ea_event *scan_rare(struct lookahead *la,
					const struct ea_event *ev)
{
	if (ev->type == EA_EV_SWITCH && (ev->flags & EA_EVF_DERIVED))
		ev = la_derived(la, ev, &la->fixed);
	if (scan(la, ev))
		return NULL;
	return push_ts(la, ev);
}

/* la_scan() of what la_try_switch() and la_try_wake() do not take */
__attribute__((noinline))
static const struct ea_event *scan_other(struct lookahead *la,
					 const struct ea_event *ev)
{
	if (ev->ts < la->last_ts)
		la->sorted = false;	/* not what the caller promised */
	la->last_ts = ev->ts;
	la->next_seq += 2;	/* ev's key; odd keys are for synthetic ones */
	if (!scan_common(la, ev))
		return scan_rare(la, ev);
	return push_ts(la, ev);
}

const struct ea_event *la_scan(struct lookahead *la, const struct ea_event *ev)
{
	if (!la_ts_grown(la))
		return scan_other(la, ev);
	switch (ev->type) {
	case EA_EV_SWITCH:
		if (la_try_switch(la, ev))
			return ev;
		break;
	case EA_EV_WAKEUP:
	case EA_EV_WAKING:
	case EA_EV_WAKEUP_NEW:
		if (la_try_wake(la, ev))
			return ev;
		break;
	default:
		break;
	}
	return scan_other(la, ev);
}

int la_push(struct lookahead *la, const struct ea_event *ev)
{
	if (!(ev = la_scan(la, ev)))
		return -1;
	return la_store(la, ev);
}

const struct ea_event *la_pop(struct lookahead *la)
{
	if (la->nsynth &&
	    (!la->len || before(la->synth[0].ev.ts, la->synth[0].seq,
				la->ring[la->head].ts, head_seq(la)))) {
		synth_pop(la, &la->popped);
		return &la->popped;
	}
	if (!la->len)
		return NULL;
	return la_pop_ring(la);
}

const struct ea_event *la_pop_synth_before_slow(struct lookahead *la,
						const struct ea_event *ev)
{
	if (!before(la->synth[0].ev.ts, la->synth[0].seq, ev->ts,
		    la->next_seq))
		return NULL;
	synth_pop(la, &la->popped);
	return &la->popped;
}

const struct la_cpu *la_cpu(const struct lookahead *la, int cpu)
{
	return cpu < la->ncpus ? &la->cpus[cpu] : NULL;
}
