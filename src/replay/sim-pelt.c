// SPDX-License-Identifier: GPL-2.0-only
/*
 * Time and PELT in the simulator: each CPU's and task's util_avg, the work
 * its task has left and its busy time, advanced lazily ("Lazy time"
 * below); the overutilised flag; util_est at a task's sleep.
 *
 * Lazy time. A step used to advance every CPU's PELT signal, its task's
 * work left, PELT signal and busy time to the step's instant, which is
 * mostly adding: an update within a PELT period (ea_pelt_update_within())
 * leaves the same state whether made at once or in pieces, and so do the
 * work done and the busy time. So a CPU is brought up to date
 * (sim_sync_cpu()) only before what it runs or its rate changes, or what it
 * accumulated is read. An update crossing a period decays, which does not
 * add up: the step whose instant crosses (pelt_b) makes it from the
 * previous step's instant, as each step did. A task that starts running
 * was updated from its own last update at its first step after, even one
 * at the same instant: so it still is (live()).
 */
#include "replay/sim.h"

/* !rp_fits(util, cap_orig): above 80% of the CPU's capacity. */
static bool over(const struct sim_cpu *c)
{
	return c->pelt.util_avg >= c->over_util;
}

/*
 * Run c from sync_t to t as it was: its task's work and busy time, its
 * task's signal if live, its own. Whether its util_avg may have changed.
 */
bool sim_run_cpu(struct sim *s, struct sim_cpu *c, uint64_t t, bool is_live)
{
	uint64_t dt = t - c->sync_t, t0 = c->sync_t;
	bool running = c->curr >= 0;
	uint32_t r = running ? c->rate : 0;

	c->sync_t = t;
	if (running) {
		struct sim_task *tk = &s->tasks[c->curr];
		uint64_t done = dt * r, win = in_win(s, t0, t);

		if (tk->rem != UINT64_MAX)
			tk->rem = tk->rem > done ? tk->rem - done : 0;
		if (is_live)
			pelt_update(&tk->pelt, t, true, r);
		c->task_busy_ns += win;
		c->work += win * r;
	}
	return pelt_update(&c->pelt, t, running, r);
}

static bool any_over(const struct sim *s)
{
	for (int i = 0; i < s->ncpus; i++)
		if (over(&s->cpus[i]))
			return true;
	return false;
}

/*
 * To t: the signals that cross a period now, the tasks whose work runs
 * out (listed in s->done, by CPU). Those can only be the CPUs whose next
 * event time (next_time() has just set nt) has come.
 */
void sim_advance(struct sim *s, uint64_t t)
{
	uint64_t dt = t - s->now;
	bool was_over, crossed = false;
	bool cross = t >= s->pelt_next;

	/* util_avg changes at a period's end, attach or detach only */
	was_over = s->over_stale ? any_over(s) : s->overutilised;
	s->ndone = 0;
	for (int i = 0; cross && i < s->ncpus; i++)
		if (s->cpus[i].pelt_b <= t)
			sim_run_cpu(s, &s->cpus[i], s->now,
				    live(s, &s->cpus[i]));
	s->nstep++;
	if (cross) {
		s->pelt_next = UINT64_MAX;
		for (int i = 0; i < s->ncpus; i++) {
			struct sim_cpu *c = &s->cpus[i];

			if (c->pelt_b <= t && sim_run_cpu(s, c, t, true)) {
				s->util_dirty = true;
				crossed = true;
			}
			sim_set_pelt_b(s, c);
		}
	}
	s->now = t;
	for (int w = 0; w < s->nw; w++) {
		for (uint64_t m = s->due[w]; m; m &= m - 1) {
			int i = s->corder[first_of(w, m)];
			struct sim_cpu *c = &s->cpus[i];

			if (c->curr < 0)
				continue;
			sim_sync_cpu(s, i);
			if (!s->tasks[c->curr].rem ||
			    s->tasks[c->curr].until <= t)
				s->done[s->ndone++] = i;
		}
	}
	if (was_over)
		s->overutil_ns += in_win(s, s->now - dt, s->now);
	s->overutilised = crossed || s->over_stale ? any_over(s) : was_over;
	s->over_stale = false;
	if (s->overutilised)
		s->over_sticky = true;
}

/*
 * util_est_update() at a sleep (mainline 6.9+, UTIL_EST_MARGIN 1024 / 100,
 * weight 1/4): up at once to the util at dequeue, down by a quarter of the
 * difference unless within the margin or above the CPU's capacity. Not
 * modelled: its skip when the task did not get all the CPU it wanted
 * (dequeued + margin < runnable_avg: no runnable_avg here).
 */
uint32_t rp_util_est_update(uint32_t ewma, uint32_t dequeued, uint32_t cap)
{
	uint32_t diff;

	if (ewma <= dequeued)
		return dequeued;
	diff = ewma - dequeued;
	if (diff < 1024 / 100 || dequeued > cap)
		return ewma;
	return ((ewma << 2) - diff) >> 2;
}

void sim_util_est_sleep(struct sim *s, struct sim_task *t, int cpu)
{
	t->ue_ewma = rp_util_est_update(t->ue_ewma, task_util(s, t),
					s->cpus[cpu].cap_orig);
}
