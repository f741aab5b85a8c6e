// SPDX-License-Identifier: GPL-2.0-only
/*
 * The discrete-event simulator's loop (docs/replay.md "Simulator").
 *
 * A run lasts until every activation's work is done, past the trace's end
 * if need be (docs/replay.md "Work"), and at least to the trace's end;
 * `recorded` on its own platform to the trace's end.
 * Time advances from one instant to the next at which anything happens:
 * an activation becomes eligible, a running task finishes its work or its
 * slice, a recorded idle-task stretch starts or ends, a recorded frequency
 * or idle state changes, or the 4 ms tick. At each instant, in this order:
 * work and PELT are advanced (lazily: sim-pelt.c "Lazy time"); finished
 * activations end (sim-act.c); idle-task stretches end, then start
 * (sim-busy0.c), and the other recorded changes and arrivals (placed by
 * the policy: sim-wake.c) come in the recording's order; at the tick, load
 * balancing (sim-balance.c); then every CPU picks what runs (sim-pick.c:
 * FIFO round robin, slices of 6 ms / nr_running, at least 0.75 ms; an idle
 * CPU may pull a waiting task); then the governor sets each frequency
 * domain's OPP (sim-freq.c). The events go out ordered by their recorded
 * causes (sim-emit.c).
 */
#include "replay/sim.h"

/* The next arrival: from the chunk merged ahead, or merged here. */
static inline struct sim_arrival arr_pop(struct sim *s)
{
	return s->ahead ? sim_ahead_pop(s) : sim_arr_pop(s);
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
	while (c->rec_idle + 1 < tl->nidles &&
	       tl->idles[c->rec_idle + 1].since <= s->now)
		c->rec_idle++;
	return c->rec_idle + 1 < tl->nidles ? tl->idles[c->rec_idle + 1].since
					    : UINT64_MAX;
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
	if (c->wake_at > s->now)
		t = umin(t, c->wake_at);
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

enum due {
	DUE_NONE,
	DUE_FREQ,
	DUE_BUSY0_START,
	DUE_BUSY0_END,
	DUE_ARRIVAL,
	DUE_MOVE,
	DUE_IDLE,
	DUE_OFF_START,
	DUE_OFF_END
};

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
	for (k = c->rec_idle;
	     k + 1 < tl->nidles && tl->idles[k + 1].since <= s->now; k++)
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
	const struct sim_arrival *a;

	/*
	 * Only arrivals due (the common case): nothing else recorded is due
	 * at t, no CPU is in an idle-task stretch nor follows recorded idle
	 * states, no task is moving; an arrival changes none of that (moves
	 * come from activations ending, sim-act.c). The loop below would
	 * take the arrivals alone, in the same order.
	 */
	if (!s->nin_busy0 && !s->rec_idle_tl && !s->nmoves && !s->noffs &&
	    !(s->gov == RP_GOV_RECORDED && s->fi < s->w->nfreqs &&
	      s->w->freqs[s->fi].ts <= t) &&
	    !(s->bi < s->w->nbusy0 && s->w->busy0[s->bi].start <= t)) {
		while ((a = sim_arr_peek(s)) && a->t <= t &&
		       a->seq < UINT64_MAX) {
			struct sim_arrival next = arr_pop(s);

			sim_arrive(s, &next);
		}
		return;
	}
	for (;;) {
		enum due kind = DUE_NONE;
		uint64_t best = UINT64_MAX, q;
		const struct sim_arrival *ar;
		struct sim_arrival next;
		int arg = -1;
		/* CPUs in an idle-task stretch, or recorded idle states */
		bool per_cpu = s->nin_busy0 || s->rec_idle_tl;

		if (s->gov == RP_GOV_RECORDED && s->fi < s->w->nfreqs &&
		    s->w->freqs[s->fi].ts <= t &&
		    s->w->freqs[s->fi].seq < best) {
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

			if (c->in_busy0 && c->busy0_end <= t &&
			    c->busy0_seq_end < best) {
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
			q = cur_nseg(tk) ? cur_seg(tk, tk->seg)->seq_in : 0;
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
			next = arr_pop(s);
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
		for (int i = 0;
		     s->same_platform && i < s->ncpus && i < s->w->ncpus; i++)
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
	 * sim_pick() changes nothing on a CPU not touched since its last
	 * sim_pick(), but at a tick (pull) or at its slice's end, which is no
	 * earlier than its next event time. It leaves the CPU settled: what it
	 * does there itself calls for no second look.
	 */
	for (int i = 0; i < s->ncpus; i++) { /* i: a position in corder */
		int w = i >> 6;
		uint64_t m;

		if (!tick) {
			/* as they are now: sim_pick() may touch the CPUs after
			 * i */
			m = (s->pk_dirty[w] | s->due[w]) & (~0ull << (i & 63));
			if (!m) {
				i = w * 64 + 63; /* the next word */
				continue;
			}
			i = first_of(w, m);
		}
		sim_pick(s, s->corder[i], tick);
		s->pk_dirty[w] &= ~(1ull << (i & 63));
	}
	/* sim_governor()'s own first test, here: most steps change no util */
	if (s->gov != RP_GOV_RECORDED && (s->util_dirty || s->gov_pending))
		sim_governor(s);
}

/* Whether some task has work left: to arrive, moving, or runnable. */
static bool work_left(const struct sim *s)
{
	if (sim_arr_peek(s) || s->nmoves)
		return true;
	for (int i = 0; i < s->ncpus; i++)
		if (s->cpus[i].curr >= 0 || s->cpus[i].nrq)
			return true;
	return false;
}

/* Past the trace's end nothing recorded holds a CPU: a task left that no
 * CPU runs, nor will once leaving idle, would wait for ever. */
static bool stalled(struct sim *s)
{
	for (int i = 0; i < s->ncpus; i++)
		if (s->cpus[i].curr >= 0 || s->cpus[i].wake_at > s->now)
			return (s->stalled = 0);
	return ++s->stalled > 2;
}

bool sim_step(struct sim *s)
{
	uint64_t t;

	if (s->error[0])
		return false;
	t = next_time(s);
	/* `recorded` on its platform is the recording's timeline: it ends
	 * where the recording did, as report prices it (docs/replay.md
	 * "Work"); what its round robin left undone shows in its work */
	if (t > s->last_ts && (s->keep_gaps || !work_left(s)))
		return false;
	step(s, t);
	if (s->now > s->last_ts && stalled(s))
		sim_fail(s, "tasks left that no CPU runs past the trace's end");
	return !s->error[0];
}

int sim_run(struct sim *s)
{
	struct sim_out *o;

	while (sim_step(s))
		;
	if (s->now < s->last_ts && !s->error[0]) {
		sim_close_bucket(s);
		sim_advance(s, s->last_ts);
	}
	for (int i = 0; i < s->ncpus; i++)
		sim_sync_cpu(s, i); /* busy times: lazy */
	s->end_ns = s->now;
	/* Close the timeline at its end: the recording's last instant, or
	 * when its last task was done. */
	o = sim_emit(s, 0, EA_EV_MARKER, KEY_SIM, e_task(s, 0));
	if (o)
		o->marker.text = SIM_MARK_END;
	for (int i = 0; i < s->ncpus && s->oracle_pass1; i++)
		if (s->cpus[i].e_idle)
			sim_push_len(s, &s->cpus[i],
				     s->now - s->cpus[i].idle_since);
	if (!s->error[0])
		sim_flush(s);
	sim_ahead_end(s);
	/* what was handed over is delivered, as it was when handed */
	sim_apart_end(s);
	return s->error[0] ? -1 : 0;
}

int sim_measure_idle(struct sim *s)
{
	int rc;

	/* placement and frequencies do not depend on the idle states chosen */
	s->oracle_pass1 = true;
	rc = sim_run(s);
	if (!rc)
		sim_rewind(s);
	s->oracle_pass1 = false;
	return rc;
}

void sim_get_metrics(struct sim *s, struct sim_metrics *out)
{
	*out = (struct sim_metrics){
		.lat = s->no_lat ? NULL : &s->lat,
		.floor = s->no_lat ? NULL : &s->floor,
		.nlat = s->nlat,
		.floor_wait_ns = s->floor_wait_ns,
		.end_ns = s->end_ns,
		.wait_ns = s->wait_ns,
		.late = s->late,
		.overutil_ns = s->overutil_ns,
		.migrations = s->migrations,
		.placements = s->placements,
		.events = s->events,
	};
}

void sim_cpu_totals(const struct sim *s, int cpu, uint64_t *busy_ns,
		    uint64_t *work)
{
	*busy_ns = s->cpus[cpu].task_busy_ns;
	*work = s->cpus[cpu].work;
}
