// SPDX-License-Identifier: GPL-2.0-only
/*
 * Activations in the simulation: the work each asks (--work: its recorded
 * work, or the CPU from its release to its recorded end at the speed it ran
 * at: docs/replay.md "Work"), the same under every policy and done whatever
 * the time it takes; its start when released, its end (the task blocks, or
 * takes its next released activation, or, following the recording's
 * segments, moves to the next one's CPU), its wakeup latency with the part
 * of it the recording supplies (its floor), and whether it finished late.
 */
#include <stdlib.h>
#include <string.h>

#include "replay/sim.h"

/* Whether a's latency (and lateness) count: a recorded wakeup, in the
 * window, no events lost before its first run (its latency is not known). */
static bool measured(const struct sim *s, const struct rp_act *a)
{
	return !(a->flags & (RP_ACT_START | RP_ACT_INFERRED | RP_ACT_LOST)) &&
	       a->release >= s->win0 && a->release <= s->win1;
}

void sim_record_latency(struct sim *s, const struct sim_task *t)
{
	const struct rp_act *a = cur_act(s, t);
	uint64_t lat, floor;

	if (!measured(s, a))
		return;
	/* eligible >= release (workload.c); saturate all the same */
	lat = s->now > a->release ? s->now - a->release : 0;
	/* pulled to another CPU before the one woken had left idle: less */
	floor = umin(t->floor_ns, lat);
	if (!s->no_lat && (sim_lats_put(&s->floor, floor) ||
			   sim_lats_put(&s->lat, lat))) {
		sim_fail(s, "out of memory");
		return;
	}
	s->nlat++;
	if (!s->keep_gaps) /* else counted at its start */
		s->floor_wait_ns += in_win(s, a->release, a->release + floor);
}

/* Whether a is demand (asks the CPU from its release to its recorded
 * end): --work. */
static bool demand(const struct sim *s, const struct rp_act *a)
{
	switch (s->work) {
	case EA_WORK_DEMAND:
		return true;
	case EA_WORK_FIXED:
		return false;
	default:
		/* on the recorded platform the work the recording did is
		 * what its CPUs could do: the reference of every policy */
		if (s->same_platform)
			return false;
		return a->flags & RP_ACT_DEMAND;
	}
}

/*
 * What a demand asks beyond a's recorded work: the CPU from its
 * eligibility to its recorded end (the trace's end if it never blocked) at
 * the speed it ran at in the recording (its work / its CPU time), less the
 * work it received; 0 where it ran all that time.
 */
static uint64_t demand_extra(const struct sim *s, const struct rp_act *a)
{
	uint64_t end = a->flags & RP_ACT_OPEN ? s->last_ts : a->end;
	uint64_t span = end > a->eligible ? end - a->eligible : 0;

	if (!demand(s, a) || !a->ran_ns || span <= a->ran_ns)
		return 0;
	return (uint64_t)((unsigned __int128)a->work * span / a->ran_ns) -
	       a->work;
}

/* Work of segment g of a, t's current activation (following segments),
 * or of all of a: a demand's extra with the last. */
static uint64_t work_of(const struct sim *s, const struct sim_task *t,
			const struct rp_act *a, uint32_t g)
{
	uint32_t nseg = 0;
	uint64_t w;

	if (s->policy->follow_segments)
		nseg = cur_nseg(t);
	if (!s->policy->follow_segments || !nseg)
		return a->work + demand_extra(s, a);
	w = cur_seg(t, g)->work;
	if (s->same_platform) /* overlap stretches: sim_busy0_start() */
		w -= cur_seg(t, g)->stretch;
	return g + 1 == nseg ? w + demand_extra(s, a) : w;
}

void sim_start_act(struct sim *s, struct sim_task *t, size_t k)
{
	const struct rp_act *a = &t->act;

	t->cur = k;
	t->act = *sim_task_act(t, k);
	t->segs_at = rp_task_segs(t->w, k, &t->nseg, &t->seg1);
	if (t->segs_at == &t->seg1)
		t->segs_at = NULL;
	t->served = false;
	t->seg = 0;
	t->rem = work_of(s, t, a, 0);
	t->until = UINT64_MAX;
	t->floor_ns = 0;
	/* Under `recorded` on its platform, the recorded time between its
	 * release and eligibility was spent runnable: the recording's gap
	 * (unknown after lost events). */
	if (s->keep_gaps && !(a->flags & RP_ACT_LOST)) {
		t->floor_ns = a->eligible - a->release;
		s->wait_ns += in_win(s, a->release, a->eligible);
		s->floor_wait_ns += in_win(s, a->release, a->eligible);
	}
}

/* The next released activation after cur that ran in the recording. */
static bool next_released(struct sim_task *t)
{
	for (size_t k = t->cur + 1; k < t->next; k++)
		if (sim_task_act(t, k)->flags & RP_ACT_RAN) {
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

	memmove(s->moves + i, s->moves + i + 1,
		(s->nmoves - i - 1) * sizeof(*s->moves));
	s->nmoves--;
	sim_enqueue(s, task,
		    map_cpu(s, cur_nseg(t) ? cur_seg(t, t->seg)->cpu : a->cpu));
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
	if (s->policy->follow_segments && t->seg + 1 < cur_nseg(t)) {
		/* The recording moved it: on to the next segment's CPU. */
		const struct rp_seg *g = cur_seg(t, ++t->seg);

		t->rem = work_of(s, t, a, t->seg);
		add_move(s, c->curr,
			 g->from_idle && g->start > s->now ? g->start : s->now);
		sim_leave(s, c->curr, cpu, false);
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
			sim_leave(s, c->curr, cpu, false);
			c->curr = -1;
			sim_set_pelt_b(s, c);
		}
		return;
	}
	sim_leave(s, c->curr, cpu, true);
	t->off_ns = s->now;
	t->runnable = false;
	sim_util_est_sleep(s, t, cpu);
	c->curr = -1;
	sim_set_pelt_b(s, c);
	if (key > *kmax(s, c))
		c->kmax = key;
}
