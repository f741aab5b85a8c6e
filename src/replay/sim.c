// SPDX-License-Identifier: GPL-2.0-only
/*
 * The discrete-event simulator (docs/replay.md "Simulator").
 *
 * Time advances from one instant to the next at which anything happens:
 * an activation becomes eligible, a running task finishes its work or its
 * slice, a recorded idle-task stretch starts or ends, a recorded frequency
 * or idle state changes, or the 4 ms tick. At each instant, in this order:
 * work and PELT are advanced (lazily: "Lazy time"); finished activations
 * block; idle-task stretches end, then start; arrivals are placed by the
 * policy; at the tick, load balancing ("Load balancing"); then every CPU
 * picks what runs (FIFO round robin, slices of 6 ms / nr_running, at least
 * 0.75 ms; an idle CPU may pull a waiting task); then the governor sets
 * each frequency domain's OPP.
 *
 * The timeline is emitted as ea_events (sched_switch, sched_wakeup,
 * cpu_idle, cpu_frequency). Events of one instant are ordered by the
 * recorded event that caused them (each activation, stretch and frequency
 * change carries its recorded position), keeping each CPU's own order: with
 * the `recorded` choices this reproduces the recording's order, which
 * matters to cluster wakeups (whether a CPU leaves idle before or after its
 * sibling enters it at the same nanosecond).
 *
 * Idle-task stretches (CPU busy in pid 0) are replayed on their recorded
 * CPU at their recorded time: all of them under `recorded`; under other
 * policies only those between two idle periods (interrupts), not the idle
 * exit before a task's run nor the idle entry after it (they belong to that
 * run, which may be elsewhere), and none while a task runs there.
 */
#include <stdlib.h>
#include <string.h>

#include "replay/sim.h"

static bool arr_less(const struct sim_arrival *x, const struct sim_arrival *y)
{
	if (x->t != y->t)
		return x->t < y->t;
	if (x->seq != y->seq)
		return x->seq < y->seq;
	return x->task < y->task;
}

static void sift_down(struct sim *s, size_t i)
{
	struct sim_arrival *h = s->heap, x = h[i];
	size_t n = s->nheap;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && arr_less(&h[c + 1], &h[c]))
			c++;
		if (!arr_less(&h[c], &x))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = x;
}

/* Task i's first arrival from acts[k] on into *a; false if none is left. */
static bool next_arrival(const struct sim *s, uint32_t i, size_t k,
			 struct sim_arrival *a)
{
	const struct rp_task *t = &s->w->tasks[i];

	for (; k < t->nacts; k++) {
		const struct rp_act *x = &t->acts[k];

		/* the task's next activation, for when it arrives */
		__builtin_prefetch(x + 1);
		__builtin_prefetch((const char *)(x + 2) - 1);
		if (!(x->flags & RP_ACT_RAN) ||
		    x->eligible > s->w->counts.last_ts)
			continue;
		*a = (struct sim_arrival){ x->eligible, x->seq_in, i,
					   (uint32_t)k };
		return true;
	}
	return false;
}

struct sim_arrival sim_arr_pop(struct sim *s)
{
	struct sim_arrival a;

	if (!s->heap)
		return s->arr[s->ai++];
	a = s->heap[0];
	if (!next_arrival(s, a.task, a.act + 1, &s->heap[0]))
		s->heap[0] = s->heap[--s->nheap];
	if (s->nheap)
		sift_down(s, 0);
	return a;
}

static int cmp_arr(const void *a, const void *b)
{
	const struct sim_arrival *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->task < y->task ? -1 : x->task > y->task;
}

/*
 * Whether each task's own arrivals come in (t, seq) order, strictly: then
 * merging the tasks' sequences in a heap yields the order of sorting them
 * all (cmp_arr), without the sort and its array. *n: how many arrivals.
 */
bool sim_arrivals_in_order(const struct ea_workload *w, size_t *n)
{
	*n = 0;
	for (size_t i = 0; i < w->ntasks; i++) {
		const struct rp_task *t = &w->tasks[i];
		uint64_t pt = 0, pseq = 0;
		bool first = true;

		for (size_t k = 0; k < t->nacts; k++) {
			const struct rp_act *a = &t->acts[k];

			if (!(a->flags & RP_ACT_RAN) || a->eligible > w->counts.last_ts)
				continue;
			if (!first && (a->eligible < pt ||
				       (a->eligible == pt && a->seq_in <= pseq)))
				return false;
			first = false;
			pt = a->eligible;
			pseq = a->seq_in;
			(*n)++;
		}
	}
	return true;
}

/* All arrivals in one array, sorted: when some task's are out of order. */
int sim_arrivals_sort(struct sim *s)
{
	const struct ea_workload *w = s->w;
	size_t n = 0;

	for (size_t i = 0; i < w->ntasks; i++)
		n += w->tasks[i].nacts;
	s->arr = calloc(n ? n : 1, sizeof(*s->arr));
	if (!s->arr) {
		sim_fail(s, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < w->ntasks; i++) {
		const struct rp_task *t = &w->tasks[i];

		for (size_t k = 0; k < t->nacts; k++) {
			const struct rp_act *a = &t->acts[k];

			if (!(a->flags & RP_ACT_RAN) || a->eligible > w->counts.last_ts)
				continue;
			s->arr[s->narr++] = (struct sim_arrival){
				a->eligible, a->seq_in, (uint32_t)i, (uint32_t)k };
		}
	}
	if (s->narr)
		qsort(s->arr, s->narr, sizeof(*s->arr), cmp_arr);
	return 0;
}

/* Back to the first arrival: the heap of each task's first one (with no
 * heap, the sorted array's cursor is the caller's). */
void sim_arrivals_rewind(struct sim *s)
{
	if (s->heap) {
		s->nheap = 0;
		for (size_t i = 0; i < s->ntasks; i++)
			if (next_arrival(s, (uint32_t)i, 0, &s->heap[s->nheap]))
				s->nheap++;
		for (size_t i = s->nheap / 2; i-- > 0;)
			sift_down(s, i);
	}
}

/*
 * When the CPU's task has done rem at its rate: now + ceil(rem / rate).
 * Running on at the same rate keeps that instant (rem falls by rate per
 * ns), so it is kept with what it was computed from, and reused while
 * rem is what those imply now; otherwise divided again.
 */
static uint64_t finish(struct sim *s, struct sim_cpu *c, uint64_t rem)
{
	uint64_t r = c->rate, el = s->now - c->fin_now;

	if (r == c->fin_rate && el < (1ull << 40) && rem <= c->fin_rem &&
	    c->fin_rem - rem == el * r && c->fin_rem < (1ull << 62))
		return c->fin_t;
	c->fin_t = s->now + (rem + r - 1) / r;
	c->fin_rem = rem;
	c->fin_now = s->now;
	c->fin_rate = r;
	return c->fin_t;
}

static uint64_t next_idle_change(struct sim *s, int cpu)
{
	const struct rp_cpu_timeline *tl;
	struct sim_cpu *c = &s->cpus[cpu];

	if (!s->rec_idle_tl || cpu >= s->w->ncpus || !c->e_idle)
		return UINT64_MAX;
	tl = &s->w->cpus[cpu];
	while (c->rec_idle + 1 < tl->nidles && tl->idles[c->rec_idle + 1].since <= s->now)
		c->rec_idle++;
	return c->rec_idle + 1 < tl->nidles ? tl->idles[c->rec_idle + 1].since :
					       UINT64_MAX;
}

/*
 * The next instant cpu's own timeline has something: its task's finish or
 * slice end, its idle-task stretch's end, its recorded idle state change.
 * Kept in nt[cpu] until touch() says what it depends on changed, or the
 * instant comes: its task's work only runs down meanwhile, which finish()
 * turns into the same instant.
 */
static uint64_t cpu_next_time(struct sim *s, int i)
{
	struct sim_cpu *c = &s->cpus[i];
	uint64_t t = UINT64_MAX;

	if (c->in_busy0)
		t = umin(t, c->busy0_end);
	if (c->curr >= 0) {
		uint64_t rem = s->tasks[c->curr].rem;

		if (rem != UINT64_MAX) {
			/* its work left now: lazy (sim_advance()) */
			uint64_t done = (s->now - c->sync_t) * c->rate;

			rem = rem > done ? rem - done : 0;
			t = umin(t, finish(s, c, rem));
		}
		if (c->nrq)
			t = umin(t, c->slice_end);
		t = umin(t, s->tasks[c->curr].until);
	}
	if (s->rec_idle_tl)
		t = umin(t, next_idle_change(s, i));
	return t;
}

/*
 * The next instant anything is due, and the CPUs whose own next time
 * (nt) it is: due.
 */
static uint64_t next_time(struct sim *s)
{
	uint64_t t = UINT64_MAX, m = UINT64_MAX;

	if (sim_arr_peek(s))
		t = umin(t, sim_arr_peek(s)->t);
	for (size_t i = 0; i < s->nmoves; i++)
		t = umin(t, s->moves[i].t);
	if (s->bi < s->w->nbusy0)
		t = umin(t, s->w->busy0[s->bi].start);
	if (s->gov == RP_GOV_RECORDED && s->fi < s->w->nfreqs)
		t = umin(t, s->w->freqs[s->fi].ts);
	if (s->oi < s->noffs)
		t = umin(t, s->offs[s->oi].start);
	for (int i = 0; s->noffs && i < s->ncpus; i++)
		if (s->off_end[i])
			t = umin(t, s->off_end[i]->end);
	s->t_rec = t;
	/* again for the CPUs touched, or whose time came (due) */
	for (int w = 0; w < s->nw; w++) {
		for (uint64_t b = s->nt_dirty[w] | s->due[w]; b; b &= b - 1) {
			int i = s->corder[first_of(w, b)];

			s->nt[i] = cpu_next_time(s, i);
		}
		s->nt_dirty[w] = 0;
		s->due[w] = 0;
	}
	for (int i = 0; i < s->ncpus; i++)
		m = umin(m, s->nt[i]);
	t = umin(umin(t, s->next_tick), m);
	if (t < s->now)
		t = s->now;
	for (int i = 0; m <= t && i < s->ncpus; i++)
		if (s->nt[i] <= t)
			set_bit(s->due, s->cpos[i]);
	return t;
}

enum due { DUE_NONE, DUE_FREQ, DUE_BUSY0_START, DUE_BUSY0_END, DUE_ARRIVAL,
	   DUE_MOVE, DUE_IDLE, DUE_OFF_START, DUE_OFF_END };

/* The recorded idle interval of cpu starting exactly now, while idle. */
static bool idle_change_due(struct sim *s, int cpu, uint64_t *seq)
{
	const struct rp_cpu_timeline *tl;
	struct sim_cpu *c = &s->cpus[cpu];
	size_t k;

	if (!s->rec_idle_tl || cpu >= s->w->ncpus || !c->e_idle ||
	    c->idle_since == s->now)
		return false;
	tl = &s->w->cpus[cpu];
	for (k = c->rec_idle; k + 1 < tl->nidles && tl->idles[k + 1].since <= s->now; k++)
		;
	if (k >= tl->nidles || tl->idles[k].since != s->now ||
	    tl->idles[k].state == c->e_state)
		return false;
	*seq = tl->idles[k].seq;
	return true;
}

/*
 * Everything recorded that is due at t, in the recording's event order:
 * frequency changes, idle-task stretches starting and ending, arrivals,
 * moves between segments, idle state changes.
 */
static void process_due(struct sim *s, uint64_t t)
{
	for (;;) {
		enum due kind = DUE_NONE;
		uint64_t best = UINT64_MAX, q;
		const struct sim_arrival *ar;
		struct sim_arrival next;
		int arg = -1;
		/* CPUs in an idle-task stretch, or recorded idle states */
		bool per_cpu = s->nin_busy0 || s->rec_idle_tl;

		if (s->gov == RP_GOV_RECORDED && s->fi < s->w->nfreqs &&
		    s->w->freqs[s->fi].ts <= t && s->w->freqs[s->fi].seq < best) {
			best = s->w->freqs[s->fi].seq;
			kind = DUE_FREQ;
		}
		if (s->bi < s->w->nbusy0 && s->w->busy0[s->bi].start <= t &&
		    s->w->busy0[s->bi].seq_start < best) {
			best = s->w->busy0[s->bi].seq_start;
			kind = DUE_BUSY0_START;
		}
		for (int i = 0; s->noffs && i < s->ncpus; i++)
			if (s->off_end[i] && s->off_end[i]->end <= t &&
			    s->off_end[i]->end_seq <= best) {
				best = s->off_end[i]->end_seq;
				kind = DUE_OFF_END;
				arg = i;
			}
		if (s->oi < s->noffs && s->offs[s->oi].start <= t &&
		    s->offs[s->oi].seq < best) {
			best = s->offs[s->oi].seq;
			kind = DUE_OFF_START;
		}
		ar = sim_arr_peek(s);
		if (ar && ar->t <= t && ar->seq < best) {
			best = ar->seq;
			kind = DUE_ARRIVAL;
		}
		for (int i = 0; per_cpu && i < s->ncpus; i++) {
			struct sim_cpu *c = &s->cpus[i];

			if (c->in_busy0 && c->busy0_end <= t && c->busy0_seq_end < best) {
				best = c->busy0_seq_end;
				kind = DUE_BUSY0_END;
				arg = i;
			}
			if (idle_change_due(s, i, &q) && q < best) {
				best = q;
				kind = DUE_IDLE;
				arg = i;
			}
		}
		for (size_t i = 0; i < s->nmoves; i++) {
			const struct sim_task *tk = &s->tasks[s->moves[i].task];
			struct rp_act_segs as = cur_segs(tk);

			q = as.nseg ? tk->w->segs[as.seg0 + tk->seg].seq_in : 0;
			if (s->moves[i].t <= t && q < best) {
				best = q;
				kind = DUE_MOVE;
				arg = (int)i;
			}
		}
		switch (kind) {
		case DUE_NONE:
			return;
		case DUE_FREQ:
			sim_recorded_freq(s, &s->w->freqs[s->fi++]);
			break;
		case DUE_BUSY0_START:
			sim_busy0_start(s, &s->w->busy0[s->bi++]);
			break;
		case DUE_BUSY0_END:
			sim_busy0_end(s, arg);
			break;
		case DUE_ARRIVAL:
			next = sim_arr_pop(s);
			sim_arrive(s, &next);
			break;
		case DUE_MOVE:
			sim_do_move(s, (size_t)arg);
			break;
		case DUE_IDLE:
			sim_recorded_idle_change(s, arg);
			break;
		case DUE_OFF_START:
			sim_off_start(s, &s->offs[s->oi++]);
			break;
		case DUE_OFF_END:
			sim_off_end(s, arg);
			break;
		}
	}
}

static void step(struct sim *s, uint64_t t)
{
	bool tick = false;

	if (t == s->first_ts && !s->started) {
		/* CPUs the recording shows idle from the start start idle. */
		s->started = true;
		for (int i = 0; s->same_platform && i < s->ncpus && i < s->w->ncpus; i++)
			if (s->w->cpus[i].init_idle)
				sim_go_idle(s, i, 0);
	}

	if (t > s->now && s->nout > s->bucket0)
		sim_close_bucket(s);
	sim_advance(s, t);
	if (t == s->next_tick) {
		tick = true;
		s->next_tick += TICK_NS;
	}
	/* the CPUs whose task has no work left: sim_advance() listed them */
	for (int i = 0; i < s->ndone; i++)
		sim_complete(s, s->done[i]);
	/* nothing recorded is due before t_rec, but what CPUs have */
	if (t >= s->t_rec || s->nin_busy0 || s->rec_idle_tl)
		process_due(s, t);
	if (tick)
		sim_balance_tick(s);
	/*
	 * sim_pick() changes nothing on a CPU not touched since its last sim_pick(),
	 * but at a tick (pull) or at its slice's end, which is no earlier
	 * than its next event time. It leaves the CPU settled: what it does
	 * there itself calls for no second look.
	 */
	for (int i = 0; i < s->ncpus; i++) {	/* i: a position in corder */
		int w = i >> 6;
		uint64_t m;

		if (!tick) {
			/* as they are now: sim_pick() may touch the CPUs after i */
			m = (s->pk_dirty[w] | s->due[w]) & (~0ull << (i & 63));
			if (!m) {
				i = w * 64 + 63;	/* the next word */
				continue;
			}
			i = first_of(w, m);
		}
		sim_pick(s, s->corder[i], tick);
		s->pk_dirty[w] &= ~(1ull << (i & 63));
	}
	sim_governor(s);
}

bool sim_step(struct sim *s)
{
	uint64_t t;

	if (s->error[0])
		return false;
	t = next_time(s);
	if (t > s->last_ts)
		return false;
	step(s, t);
	return !s->error[0];
}

int sim_run(struct sim *s)
{
	struct ea_event *ev;

	while (sim_step(s))
		;
	if (s->now < s->last_ts && !s->error[0]) {
		sim_close_bucket(s);
		sim_advance(s, s->last_ts);
	}
	for (int i = 0; i < s->ncpus; i++)
		sim_sync_cpu(s, i);	/* busy times: lazy */
	/* Close the timeline at the recording's last instant. */
	ev = sim_emit(s, 0, EA_EV_MARKER, KEY_SIM, e_task(s, 0));
	if (ev)
		snprintf(ev->marker.text, sizeof(ev->marker.text), "eatrace: replay end");
	for (int i = 0; i < s->ncpus && s->oracle_pass1; i++)
		if (s->cpus[i].e_idle)
			sim_push_len(s, &s->cpus[i], s->now - s->cpus[i].idle_since);
	if (!s->error[0])
		sim_flush(s);
	return s->error[0] ? -1 : 0;
}

/* sched_prio_to_weight[]: CFS load weight per nice level, -20 .. 19. */
static const uint32_t nice_weight[40] = {
	88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
	9548,  7620,  6100,  4904,  3906,  3121,  2501,  1991,  1586,  1277,
	1024,  820,   655,   526,   423,   335,   272,   215,   172,   137,
	110,   87,    70,    56,    45,    36,    29,    23,    18,    15,
};

static void reset(struct sim *s)
{
	const struct ea_workload *w = s->w;

	s->now = s->first_ts = w->counts.first_ts;
	s->last_ts = w->counts.last_ts;
	s->win0 = w->counts.win_start;
	s->win1 = w->counts.win_end;
	s->next_tick = s->first_ts + TICK_NS;
	s->t_rec = 0;
	s->ai = s->bi = s->fi = s->oi = 0;
	for (int i = 0; s->off_until && i < s->ncpus; i++) {
		s->off_until[i] = 0;
		s->off_end[i] = NULL;
	}
	s->nmoves = 0;
	s->nout = s->bucket0 = 0;
	s->order = 0;
	s->nlat = 0;
	s->wait_ns = s->late = s->overutil_ns = s->migrations = s->events = 0;
	s->overutilised = s->over_sticky = false;
	s->started = false;
	for (size_t i = 0; i < s->ntasks; i++) {
		struct sim_task *t = &s->tasks[i];

		memset(t, 0, sizeof(*t));
		t->w = &w->tasks[i];
		t->cpu = t->pelt_cpu = -1;
		t->until = UINT64_MAX;
		t->rt = t->w->prio < 100;
		t->weight = nice_weight[t->w->prio < 100 ? 20 :
					t->w->prio > 139 ? 39 :
					t->w->prio - 100];
		/* staying on one CPU means nothing on another platform */
		t->pin = t->w->pin_auto && !s->same_platform ? -1 :
			 map_cpu(s, t->w->pin);
		/* --pin: CPUs of this platform; one of them: a pin */
		if (t->w->upin && ea_pin_first_cpu(t->w->upin) < s->ncpus) {
			t->upin = t->w->upin;
			t->pin = ea_pin_first_cpu(t->upin);
			for (int j = t->pin + 1; j < s->ncpus; j++)
				if (rp_pin_allows(t->upin, j))
					t->pin = -1;
		}
		t->wake_last_ms = s->first_ts / 1000000;
	}
	for (int i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[i];
		const struct ea_cluster *cl;

		c->cluster = s->m->cpu_cluster[i];
		cl = &s->m->clusters[c->cluster];
		c->curr = -1;
		c->nrq = 0;
		c->slice_end = UINT64_MAX;
		c->in_busy0 = false;
		s->nin_busy0 = 0;
		memset(&c->pelt, 0, sizeof(c->pelt));
		c->e_fresh = true;
		c->e_idle = false;
		c->e_pid = 0;
		c->e_task = -1;
		c->e_state = 0;
		c->kmax = 0;
		c->kmax_bucket = s->nbuckets;
		c->rec_idle = 0;
		c->nhist = 0;
		c->idle_period = 0;
		c->task_busy_ns = 0;
		c->work = 0;
		/* recorded: unknown until the trace says; else set at once */
		c->khz = 0;
		c->cap_idx = sim_cap_idx_for_khz(s, cl, 0);
		c->cap_orig = cl->caps[cl->ncaps - 1].cap;
		/* util x 1280 >= cap x 1024 <=> util >= cap x 1024 / 1280,
		 * rounded up */
		c->over_util = (uint32_t)(((uint64_t)c->cap_orig * 1024 + 1279) /
					  1280);
		c->fin_rate = 0;	/* no finish time yet */
		c->rate = cl->caps[c->cap_idx].cap;
		c->sync_t = s->now;
		c->curr_step = 0;
		touch(s, i);
	}
	memset(s->due, 0, s->nw * sizeof(*s->due));
	s->nstep = 0;
	s->pelt_next = UINT64_MAX;
	s->over_stale = true;
	for (int i = 0; i < s->ncpus; i++) {
		ea_pelt_update(&s->cpus[i].pelt, s->now, false, 0);
		sim_set_pelt_b(s, &s->cpus[i]);
	}
	for (int d = 0; d < s->ndoms; d++) {
		s->dom_k[d] = -1;	/* no OPP chosen yet */
		s->dom_last[d] = UINT64_MAX;
	}
	s->util_dirty = true;
	s->gov_pending = false;
	sim_arrivals_rewind(s);
}

/* Frequency domains: CPUs of one cluster that is a frequency domain, or
 * each CPU on its own. */
static int init_domains(struct sim *s)
{
	int n = 0;

	s->dom_start = calloc(s->ncpus + 1, sizeof(*s->dom_start));
	s->dom_cpu = calloc(s->ncpus ? s->ncpus : 1, sizeof(*s->dom_cpu));
	s->dom_k = calloc(s->ncpus ? s->ncpus : 1, sizeof(*s->dom_k));
	s->dom_util = calloc(s->ncpus ? s->ncpus : 1, sizeof(*s->dom_util));
	s->dom_last = calloc(s->ncpus ? s->ncpus : 1, sizeof(*s->dom_last));
	if (!s->dom_start || !s->dom_cpu || !s->dom_k || !s->dom_util ||
	    !s->dom_last)
		return -1;
	for (int i = 0; i < s->ncpus; i++) {
		int cl = s->m->cpu_cluster[i];

		s->cpus[i].dom = -1;
		for (int j = 0; j < i; j++)
			if (s->m->clusters[cl].freq_domain &&
			    s->m->cpu_cluster[j] == cl) {
				s->cpus[i].dom = s->cpus[j].dom;
				break;
			}
		if (s->cpus[i].dom < 0)
			s->cpus[i].dom = s->ndoms++;
	}
	for (int d = 0; d < s->ndoms; d++) {
		s->dom_start[d] = n;
		for (int i = 0; i < s->ncpus; i++)
			if (s->cpus[i].dom == d)
				s->dom_cpu[n++] = i;
	}
	s->dom_start[s->ndoms] = n;
	return 0;
}

/*
 * The order in which the simulator visits CPUs wherever the first visited
 * wins (which CPU picks, pulls or balances first, ties among sources): the
 * biggest top capacity first, then by id. A renumbering that keeps each
 * cluster's CPUs in order (tc2 and its A7-first copy) leaves it the same
 * sequence of CPUs, so it changes no result; on a platform numbered
 * big-first, such as tc2, it is the ids' order.
 */
static int order_cpus(struct sim *s)
{
	s->corder = malloc((s->ncpus ? s->ncpus : 1) * sizeof(*s->corder));
	s->cpos = malloc((s->ncpus ? s->ncpus : 1) * sizeof(*s->cpos));
	if (!s->corder || !s->cpos)
		return -1;
	for (int i = 0; i < s->ncpus; i++) {
		uint32_t cap = s->cpus[i].cap_orig;
		int p = i;

		/* insertion: ncpus is small, and this runs once */
		while (p > 0 && s->cpus[s->corder[p - 1]].cap_orig < cap) {
			s->corder[p] = s->corder[p - 1];
			p--;
		}
		s->corder[p] = i;
	}
	for (int p = 0; p < s->ncpus; p++)
		s->cpos[s->corder[p]] = p;
	return 0;
}

int sim_init(struct sim *s, const struct ea_workload *w, const struct ea_model *m,
	     const struct rp_policy *p, enum rp_gov g, enum rp_idle_sel idle,
	     bool same_platform, uint32_t assumed_khz)
{
	size_t n = 0;

	memset(s, 0, sizeof(*s));
	s->w = w;
	s->m = m;
	s->policy = p;
	s->gov = g;
	rp_gov_spec_default(&s->gspec, g);
	s->idle = idle;
	s->same_platform = same_platform;
	s->assumed_khz = assumed_khz;
	s->asymmetric = rp_asymmetric(m);
	s->rec_idle_tl = idle == RP_IDLE_RECORDED && same_platform;
	s->cap_max = 1;
	s->ncpus = same_platform && w->counts.ncpus > 0 &&
		   w->counts.ncpus < m->ncpus ? w->counts.ncpus : m->ncpus;
	for (int i = 0; i < s->ncpus; i++)
		if (m->cpu_cluster[i] < 0) {
			snprintf(s->error, sizeof(s->error),
				 "model '%s' has no CPU %d", m->name, i);
			return -1;
		}
	s->ntasks = w->ntasks;
	s->nsrc = w->counts.ncpus > w->ncpus ? w->counts.ncpus : w->ncpus;
	s->cpu_map = rp_cpu_map_new(w->cfg.model, s->nsrc, m, s->ncpus,
				    same_platform);
	if (!s->cpu_map) {
		sim_fail(s, "out of memory");
		return -1;
	}
	if (s->nsrc < 1)
		s->nsrc = 1;
	s->cpus = calloc(s->ncpus, sizeof(*s->cpus));
	s->tasks = calloc(s->ntasks ? s->ntasks : 1, sizeof(*s->tasks));
	s->env_util = calloc(s->ncpus, sizeof(*s->env_util));
	s->env_ue = calloc(s->ncpus, sizeof(*s->env_ue));
	s->env_cap = calloc(s->ncpus, sizeof(*s->env_cap));
	s->env_nr = calloc(s->ncpus, sizeof(*s->env_nr));
	s->done = calloc(s->ncpus, sizeof(*s->done));
	s->nt = calloc(s->ncpus, sizeof(*s->nt));
	s->nw = s->ncpus / 64 + 1;
	s->nt_dirty = calloc(s->nw, sizeof(*s->nt_dirty));
	s->pk_dirty = calloc(s->nw, sizeof(*s->pk_dirty));
	s->due = calloc(s->nw, sizeof(*s->due));
	s->comms = calloc(s->ntasks ? s->ntasks : 1, sizeof(*s->comms));
	s->swapper = calloc(s->ncpus, sizeof(*s->swapper));
	s->clc = rp_cl_cache_new(m);
	if (!s->cpus || !s->tasks || !s->env_util || !s->env_ue || !s->env_cap ||
	    !s->env_nr || !s->done || !s->nt || !s->nt_dirty || !s->pk_dirty ||
	    !s->due ||
	    !s->clc || !s->comms || !s->swapper || init_domains(s)) {
		sim_fail(s, "out of memory");
		return -1;
	}
	for (int i = 0; i < s->ncpus; i++) {
		const struct ea_cluster *cl = &m->clusters[m->cpu_cluster[i]];

		sim_swapper_comm(i, s->swapper[i]);
		s->cpus[i].cap_orig = cl->caps[cl->ncaps - 1].cap;
		if (cl->caps[cl->ncaps - 1].cap > s->cap_max)
			s->cap_max = cl->caps[cl->ncaps - 1].cap;
	}
	if (order_cpus(s)) {
		sim_fail(s, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < s->ntasks; i++)
		memcpy(s->comms[i], w->tasks[i].comm,
		       strnlen(w->tasks[i].comm, EA_COMM_LEN - 1));
	if (sim_init_offs(s))
		return -1;
	if (sim_arrivals_in_order(w, &n)) {
		s->heap = calloc(s->ntasks ? s->ntasks : 1, sizeof(*s->heap));
		if (!s->heap) {
			sim_fail(s, "out of memory");
			return -1;
		}
	} else {
		if (sim_arrivals_sort(s))
			return -1;
		n = s->narr;
	}
	/* a latency per activation served, at most one per arrival */
	s->lat = malloc((n ? n : 1) * sizeof(*s->lat));
	if (!s->lat) {
		sim_fail(s, "out of memory");
		return -1;
	}
	s->lat_cap = n ? n : 1;
	reset(s);
	return 0;
}

int sim_sort_arrivals(struct sim *s)
{
	free(s->heap);
	s->heap = NULL;
	s->nheap = 0;
	if (!s->arr && sim_arrivals_sort(s))
		return -1;
	reset(s);
	return 0;
}

int sim_rewind(struct sim *s)
{
	reset(s);
	return 0;
}

void sim_free(struct sim *s)
{
	for (int i = 0; s->cpus && i < s->ncpus; i++) {
		free(s->cpus[i].rq);
		free(s->cpus[i].idle_lens);
	}
	free(s->cpus);
	free(s->tasks);
	free(s->env_util);
	free(s->cpu_map);
	free(s->env_ue);
	free(s->env_cap);
	free(s->env_nr);
	free(s->done);
	free(s->nt);
	free(s->nt_dirty);
	free(s->pk_dirty);
	free(s->due);
	free(s->corder);
	free(s->cpos);
	free(s->comms);
	free(s->swapper);
	rp_cl_cache_free(s->clc);
	free(s->arr);
	free(s->heap);
	free(s->dom_start);
	free(s->dom_cpu);
	free(s->dom_k);
	free(s->dom_util);
	free(s->dom_last);
	free(s->moves);
	free(s->offs);
	free(s->off_until);
	free(s->off_end);
	free(s->out);
	free(s->lat);
	memset(s, 0, sizeof(*s));
}
