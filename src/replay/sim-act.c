// SPDX-License-Identifier: GPL-2.0-only
/*
 * Activations in the simulation: what each asks (--work: its recorded work,
 * or the CPU up to its recorded end), its start when released, its end (the
 * task blocks, or takes its next released activation, or, following the
 * recording's segments, moves to the next one's CPU), its wakeup latency
 * and whether it finished late.
 */
#include <stdlib.h>
#include <string.h>

#include "replay/sim.h"

/* Whether a's latency (and lateness) count: a recorded wakeup, in the
 * window. */
static bool measured(const struct sim *s, const struct rp_act *a)
{
	return !(a->flags & (RP_ACT_START | RP_ACT_INFERRED)) &&
	       a->release >= s->win0 && a->release <= s->win1;
}

void sim_record_latency(struct sim *s, const struct sim_task *t)
{
	const struct rp_act *a = cur_act(s, t);

	if (!measured(s, a))
		return;
	if (s->nlat == s->lat_cap) {
		size_t n = s->lat_cap ? s->lat_cap * 2 : 256;
		uint64_t *p = realloc(s->lat, n * sizeof(*p));

		if (!p) {
			sim_fail(s, "out of memory");
			return;
		}
		s->lat = p;
		s->lat_cap = n;
	}
	/* eligible >= release (workload.c); saturate all the same */
	s->lat[s->nlat++] = s->now > a->release ? s->now - a->release : 0;
}

/* Whether a is demand (runnable to its recorded end): --work. */
static bool demand(const struct sim *s, const struct rp_act *a)
{
	switch (s->work) {
	case EA_WORK_DEMAND:
		return true;
	case EA_WORK_FIXED:
		return false;
	default:
		/* the recording's own choices on its own platform got what
		 * it gave them: the recording is the reference */
		if (s->policy->follow_segments && s->same_platform)
			return false;
		return a->flags & RP_ACT_DEMAND;
	}
}

/* Work of segment g of a, t's current activation (following segments),
 * or of all of a; UINT64_MAX: demand, its last one runs until its task's
 * until. */
static uint64_t work_of(const struct sim *s, const struct sim_task *t,
			const struct rp_act *a, uint32_t g)
{
	struct rp_act_segs as = {0, 0};
	bool last;

	if (s->policy->follow_segments)
		as = cur_segs(t);
	last = !s->policy->follow_segments || g + 1 >= as.nseg;
	if (last && demand(s, a))
		return UINT64_MAX;
	if (!s->policy->follow_segments || !as.nseg)
		return a->work;
	if (s->same_platform) /* overlap stretches: sim_busy0_start() */
		return t->w->segs[as.seg0 + g].work -
		       t->w->segs[as.seg0 + g].stretch;
	return t->w->segs[as.seg0 + g].work;
}

void sim_start_act(struct sim *s, struct sim_task *t, size_t k)
{
	const struct rp_act *a = &t->w->acts[k];

	t->cur = k;
	t->served = false;
	t->seg = 0;
	t->rem = work_of(s, t, a, 0);
	t->until =
		demand(s, a) && !(a->flags & RP_ACT_OPEN) ? a->end : UINT64_MAX;
	/* Time between release and eligibility was spent runnable. */
	s->wait_ns += in_win(s, a->release, a->eligible);
}

/* The next released activation after cur that ran in the recording. */
static bool next_released(struct sim_task *t)
{
	for (size_t k = t->cur + 1; k < t->next; k++)
		if (t->w->acts[k].flags & RP_ACT_RAN) {
			t->cur = k;
			return true;
		}
	return false;
}

static void add_move(struct sim *s, int task, uint64_t t)
{
	if (s->nmoves == s->moves_cap) {
		size_t n = s->moves_cap ? s->moves_cap * 2 : 16;
		struct sim_move *p = realloc(s->moves, n * sizeof(*p));

		if (!p) {
			sim_fail(s, "out of memory");
			return;
		}
		s->moves = p;
		s->moves_cap = n;
	}
	s->moves[s->nmoves++] = (struct sim_move){t, task};
	if (t < s->t_rec)
		s->t_rec = t;
}

/* Move i is due: the task joins its next segment's CPU. */
void sim_do_move(struct sim *s, size_t i)
{
	int task = s->moves[i].task;
	struct sim_task *t = &s->tasks[task];
	const struct rp_act *a = cur_act(s, t);
	struct rp_act_segs as = cur_segs(t);

	memmove(s->moves + i, s->moves + i + 1,
		(s->nmoves - i - 1) * sizeof(*s->moves));
	s->nmoves--;
	sim_enqueue(s, task,
		    map_cpu(s, as.nseg ? t->w->segs[as.seg0 + t->seg].cpu
				       : a->cpu));
}

/*
 * Whether a, finishing now, is late: past both its recorded end and what
 * its work takes from its release on the platform's biggest CPU at its
 * top OPP, by more than EA_REPLAY_LATE_NS.
 */
static bool late(const struct sim *s, const struct rp_act *a)
{
	uint64_t due = a->end,
		 best = a->release + (a->work + s->cap_max - 1) / s->cap_max;

	if (best > due)
		due = best;
	return s->now > due + EA_REPLAY_LATE_NS;
}

void sim_complete(struct sim *s, int cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];
	struct sim_task *t = &s->tasks[c->curr];
	const struct rp_act *a = cur_act(s, t);
	uint64_t key = a->seq_out;

	touch(s, cpu);
	if (s->policy->follow_segments && t->seg + 1 < cur_segs(t).nseg) {
		/* The recording moved it: on to the next segment's CPU. */
		const struct rp_seg *g =
			&t->w->segs[cur_segs(t).seg0 + ++t->seg];

		t->rem = work_of(s, t, a, t->seg);
		add_move(s, c->curr,
			 g->from_idle && g->start > s->now ? g->start : s->now);
		c->curr = -1;
		sim_set_pelt_b(s, c);
		if (g->seq_in > *kmax(s, c))
			c->kmax = g->seq_in;
		return;
	}
	if (measured(s, a) && late(s, a))
		s->late++;
	if (next_released(t)) {
		const struct rp_act *n = cur_act(s, t);

		sim_start_act(s, t, t->cur);
		t->served = true;
		sim_record_latency(s, t);
		if (s->policy->follow_segments && n->cpu >= 0 &&
		    map_cpu(s, n->cpu) != cpu) {
			/* the recording ran it elsewhere */
			add_move(s, c->curr, s->now);
			c->curr = -1;
			sim_set_pelt_b(s, c);
		}
		return;
	}
	t->runnable = false;
	sim_util_est_sleep(s, t, cpu);
	c->curr = -1;
	sim_set_pelt_b(s, c);
	if (key > *kmax(s, c))
		c->kmax = key;
}
