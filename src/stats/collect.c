// SPDX-License-Identifier: GPL-2.0-only
/*
 * Statistics collector: integrates the state stage's CPU changes into busy,
 * idle, inferred, per-frequency and per-idle-state time, idle residencies
 * and exits, and compares reconstructed PELT with the kernel's own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/collect.h"

#define PELT_WARMUP_NS 100000000ull	/* 100 ms: ~3 half-lives */

void ea_stats_init(struct ea_stats *st)
{
	memset(st, 0, sizeof(*st));
}

void ea_stats_free(struct ea_stats *st)
{
	for (int i = 0; i < st->ncpus; i++)
		free(st->cpus[i].freqs);
	free(st->cpus);
	memset(st, 0, sizeof(*st));
}

static struct ea_cpu_stats *cpu_stats(struct ea_stats *st, int cpu)
{
	if (cpu >= st->cpus_cap) {	/* grow by doubling: CPUs come one by one */
		int cap = st->cpus_cap ? st->cpus_cap : 8;
		struct ea_cpu_stats *p;

		while (cap <= cpu)
			cap *= 2;
		p = realloc(st->cpus, cap * sizeof(*p));
		if (!p)
			return NULL;
		st->cpus = p;
		st->cpus_cap = cap;
	}
	if (cpu >= st->ncpus) {
		memset(st->cpus + st->ncpus, 0, (cpu + 1 - st->ncpus) * sizeof(*st->cpus));
		for (int i = st->ncpus; i <= cpu; i++)
			st->cpus[i].idle_cur = EA_IDLE_NONE;
		st->ncpus = cpu + 1;
	}
	return &st->cpus[cpu];
}

static int add_freq_time(struct ea_cpu_stats *c, uint32_t freq, uint64_t ns)
{
	int i;

	for (i = 0; i < c->nfreqs && c->freqs[i].freq_khz < freq; i++)
		;
	if (i == c->nfreqs || c->freqs[i].freq_khz != freq) {
		struct ea_freq_time *p = realloc(c->freqs, (c->nfreqs + 1) * sizeof(*p));

		if (!p)
			return -1;
		c->freqs = p;
		memmove(p + i + 1, p + i, (c->nfreqs - i) * sizeof(*p));
		p[i].freq_khz = freq;
		p[i].ns = 0;
		c->nfreqs++;
	}
	c->freqs[i].ns += ns;
	c->freq_last = i;
	return 0;
}

/* ea_state_clip() and ea_state_in_window() on the bounds on_change() kept */
static inline uint64_t clip(const struct ea_stats *st, uint64_t *t0,
			    uint64_t *t1)
{
	return ea_clip_to(st->clip_start, st->clip_end, t0, t1);
}

static inline bool in_window(const struct ea_stats *st, uint64_t t)
{
	return t >= st->clip_start && t < st->clip_end;
}

/* Whether the CPU is in a cpuidle state the trace shows (the time
 * idle[k].ns counts), and which. */
static int known_idle(const struct ea_cpu_state *st)
{
	if (st->mode != EA_CPU_IDLE || (st->inferred & EA_INF_UNKNOWN) ||
	    st->idle_state < 0 || st->idle_state >= EA_STATS_MAX_IDLE)
		return EA_IDLE_NONE;
	return st->idle_state;
}

/*
 * A stay in idle state c->idle_cur ends: its residency is the time it
 * added to idle[k].ns (inside the window, known), so that the periods'
 * residencies add up to time_s. It counts when it had such time, or when
 * it is a stay of no length at an instant inside the window.
 */
static void end_idle_period(struct ea_cpu_stats *c)
{
	struct ea_idle_stat *is = &c->idle[c->idle_cur];
	uint64_t len = c->idle_len;

	if (len || c->idle_at_in) {
		if (!is->periods || len < is->min_ns)
			is->min_ns = len;
		if (len > is->max_ns)
			is->max_ns = len;
		is->sum_ns += len;
		is->periods++;
	}
	c->idle_cur = EA_IDLE_NONE;
}

/*
 * A CPU's steady stretch: busy changes at one frequency, freqs[freq_last]'s,
 * whose residency on_change() leaves to busy_ns. Its end adds it: the same
 * lengths summed (uint64_t, modulo 2^64 as before).
 */
static void end_steady(struct ea_cpu_stats *c)
{
	if (!c->steady)
		return;
	c->freqs[c->freq_last].ns += c->busy_ns - c->steady_busy;
	c->steady = false;
}

/* After a general change: a stretch begins when no idle stay is open and
 * the CPU has a frequency's residency to add to. */
static void begin_steady(struct ea_cpu_stats *c)
{
	if (c->idle_cur != EA_IDLE_NONE || c->freq_last < 0 ||
	    c->freq_last >= c->nfreqs)
		return;
	c->steady = true;
	c->steady_freq = c->freqs[c->freq_last].freq_khz;
	c->steady_busy = c->busy_ns;
}

static void change(struct ea_stats *st, struct ea_cpu_stats *c,
		   const struct ea_state *s, int cpu, uint64_t since,
		   uint64_t now, const struct ea_cpu_state *old,
		   const struct ea_cpu_state *new)
{
	uint64_t t0 = since, t1 = now;
	uint64_t len;
	int k, knew;

	if (!st->clip_known) {	/* fixed from the first change on */
		ea_state_clip_bounds(s, &st->clip_start, &st->clip_end);
		st->clip_known = true;
	}
	len = clip(st, &t0, &t1);
	if (old->mode == EA_CPU_SUSPENDED) {
		c->suspended_ns += len;
	} else if (old->mode == EA_CPU_OFFLINE) {
		c->offline_ns += len;
	} else if (old->inferred & EA_INF_UNKNOWN) {
		c->unknown_ns += len;
		if (old->mode == EA_CPU_IDLE)
			c->unknown_idle_ns += len;
	} else if (old->mode == EA_CPU_IDLE) {
		c->idle_ns += len;
	} else {
		c->busy_ns += len;
	}
	if (old->mode == EA_CPU_IDLE && !(old->inferred & EA_INF_UNKNOWN) &&
	    old->idle_state >= 0 &&
	    old->idle_state < EA_STATS_MAX_IDLE) {
		c->idle[old->idle_state].ns += len;
		if (old->idle_state >= c->nidle)
			c->nidle = old->idle_state + 1;
	}
	if (old->inferred) {
		c->inferred_ns += len;
	} else if (!new) {
		/* After the CPU's last event, up to the trace's end. */
		uint64_t a = ea_state_cpu_last_ts(s, cpu), b = now;

		if (a < since)
			a = since;
		c->inferred_end_ns += clip(st, &a, &b);
		c->inferred_ns += b > a ? b - a : 0;
	}
	if (old->inferred & EA_INF_START)
		c->inferred_start_ns += len;
	if (old->inferred & EA_INF_SWAPPER)
		c->inferred_swapper_ns += len;
	if (old->inferred & EA_INF_LOST)
		c->inferred_lost_ns += len;
	if (old->inferred & EA_INF_RESYNC)
		c->inferred_resync_ns += len;
	/* frequency residency: of the powered time only */
	if (len && old->mode <= EA_CPU_IDLE &&
	    add_freq_time(c, old->freq_khz, len))
		snprintf(st->error, sizeof(st->error), "out of memory");

	/*
	 * Idle periods: one per stay in one idle state the trace shows,
	 * made of the very intervals idle[k].ns adds (unknown time is no
	 * one's stay: it ends one).
	 */
	k = known_idle(old);
	if (k != EA_IDLE_NONE) {
		if (c->idle_cur != k) {	/* the CPU's first interval */
			if (c->idle_cur != EA_IDLE_NONE)
				end_idle_period(c);
			c->idle_cur = k;
			c->idle_len = 0;
			c->idle_at_in = in_window(st, since);
		}
		c->idle_len += len;
	}
	knew = new ? known_idle(new) : EA_IDLE_NONE;
	if (c->idle_cur != EA_IDLE_NONE && knew != c->idle_cur)
		end_idle_period(c);
	if (!new)
		return;
	if (knew != EA_IDLE_NONE && c->idle_cur == EA_IDLE_NONE) {
		c->idle_cur = knew;
		c->idle_len = 0;
		c->idle_at_in = in_window(st, now);
		if (c->idle_at_in)	/* entered in the window */
			c->idle[knew].entries++;
		if (knew >= c->nidle)
			c->nidle = knew + 1;
	}
	if (old->mode == EA_CPU_IDLE && new->mode == EA_CPU_BUSY &&
	    in_window(st, now))
		c->idle_exits++;
}

static __attribute__((noinline)) void
general_change(struct ea_stats *st, const struct ea_state *s, int cpu,
	       uint64_t since, uint64_t now, const struct ea_cpu_state *old,
	       const struct ea_cpu_state *new)
{
	struct ea_cpu_stats *c = cpu_stats(st, cpu);

	if (!c) {
		snprintf(st->error, sizeof(st->error), "out of memory");
		return;
	}
	end_steady(c);
	change(st, c, s, cpu, since, now, old, new);
	begin_steady(c);
	c->quick = new && c->steady && new->mode == EA_CPU_BUSY &&
		   !new->inferred && new->freq_khz == c->steady_freq;
}

static void on_change(void *ctx, const struct ea_state *s, int cpu,
		      uint64_t since, uint64_t now,
		      const struct ea_cpu_state *old,
		      const struct ea_cpu_state *new)
{
	struct ea_stats *st = ctx;

	/*
	 * The common change, a task switch: busy before and after, nothing
	 * inferred, inside the window, in a steady stretch (no idle stay
	 * open) at the frequency before. What general_change() does of it:
	 * the busy time, and the frequency's, which the stretch's end adds.
	 */
	if (new && (unsigned int)cpu < (unsigned int)st->ncpus) {
		struct ea_cpu_stats *c = &st->cpus[cpu];

		if (c->steady && old->freq_khz == c->steady_freq &&
		    old->mode == EA_CPU_BUSY && !old->inferred &&
		    new->mode == EA_CPU_BUSY && now > since &&
		    since >= st->clip_start && now <= st->clip_end) {
			c->busy_ns += now - since;
			c->quick = !new->inferred &&
				   new->freq_khz == c->steady_freq;
			return;
		}
	}
	general_change(st, s, cpu, since, now, old, new);
}

/*
 * A task switch (ea_state_ops.task_switch): the CPU's state before is the
 * state after its last change, busy with nothing inferred, and after it
 * the same but for the task. on_change()'s common change when that state
 * is busy at the stretch's frequency (quick: the stretch and the state
 * after the CPU's last change, which every change of it sets), else
 * on_change() of the two states.
 */
__attribute__((noinline)) void
ea_stats_switch_change(struct ea_stats *st, const struct ea_state *s,
		       int cpu, uint64_t since, uint64_t now, int32_t pid)
{
	struct ea_cpu_state old = *ea_state_cpu(s, cpu), new = old;

	new.pid = pid;
	on_change(st, s, cpu, since, now, &old, &new);
}

static void stats_task_switch(void *ctx, const struct ea_state *s, int cpu,
			      uint64_t since, uint64_t now, int32_t pid)
{
	if (!ea_stats_quick_switch(ctx, cpu, since, now))
		ea_stats_switch_change(ctx, s, cpu, since, now, pid);
}

static void on_event(void *ctx, const struct ea_state *s,
		     const struct ea_event *ev)
{
	struct ea_stats *st = ctx;
	double err;
	uint32_t ours;

	if (ev->type != EA_EV_UTIL_CFS || ev->util.cpu >= ea_state_ncpus(s) ||
	    !ea_state_in_window(s, ev->ts))
		return;
	ours = ea_state_cpu_util_at(s, ev->util.cpu, ev->ts);
	err = (double)ours - (double)ev->util.util;
	if (err < 0)
		err = -err;
	st->pelt.samples++;
	st->pelt.sum_abs_err += err;
	if (err > st->pelt.max_abs_err)
		st->pelt.max_abs_err = err;
	if (ev->ts >= ea_state_first_ts(s) + PELT_WARMUP_NS) {
		st->pelt.samples_warm++;
		st->pelt.sum_abs_err_warm += err;
		if (err > st->pelt.max_abs_err_warm)
			st->pelt.max_abs_err_warm = err;
	}
}

const struct ea_state_ops ea_stats_ops = {
	.cpu_change = on_change,
	.task_switch = stats_task_switch,
	.event = on_event,
	.event_types = EA_STATS_EVENT_TYPES,
};

int ea_stats_done(struct ea_stats *st, const struct ea_state *s)
{
	int n = ea_state_ncpus(s);

	if (n > 0 && !cpu_stats(st, n - 1))
		return -1;
	st->state = s;
	st->first_ts = ea_state_first_ts(s);
	st->last_ts = ea_state_last_ts(s);
	ea_state_window(s, &st->win_start, &st->win_end);
	st->counts = *ea_state_counts(s);
	st->unknown_idle_state = ea_state_config(s)->unknown_idle_state;
	for (int i = 0; i < st->ncpus; i++) {
		struct ea_cpu_stats *c = &st->cpus[i];

		end_steady(c);
		if (i < n) {
			c->has_cpuidle = ea_state_cpu_has_cpuidle(s, i);
			ea_state_cpu_util_stats(s, i, &c->util_mean, &c->util_max);
		}
	}
	return st->error[0] ? -1 : 0;
}
