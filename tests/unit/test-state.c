// SPDX-License-Identifier: GPL-2.0-only
/*
 * State reconstruction on hand-written fixtures (tests/fixtures/state/):
 * each inference rule, with the expected times worked out in the fixture's
 * header comment and repeated here.
 */
#include <string.h>

#include "harness.h"
#include "state/lookahead-common.h"
#include "state/pelt.h"
#include "state/state-internal.h"

#define FIX "tests/fixtures/state/"

static const struct ea_task *task(const struct fixture_run *f, int pid)
{
	return ea_state_task(f->run.state, pid);
}

/* Idle from pid 0 time; state before the first and after the last event. */
static void test_swapper_idle(void **unused)
{
	struct fixture_run f;
	const struct ea_cpu_stats *c0, *c1;

	fixture_run(&f, FIX "swapper-idle.txt", NULL, NULL);
	assert_int_equal(f.st.ncpus, 2);
	c0 = &f.st.cpus[0];
	c1 = &f.st.cpus[1];
	/* CPU0: a runs [0,300] us, pid 0 [300,1000]. */
	assert_int_equal(c0->busy_ns, 300 * US);
	assert_int_equal(c0->idle_ns, 700 * US);
	assert_int_equal(c0->inferred_ns, 700 * US);
	assert_int_equal(c0->inferred_swapper_ns, 700 * US);
	assert_false(c0->has_cpuidle);
	/* CPU1: pid 0 [0,400] before its first event, b runs [400,1000]. */
	assert_int_equal(c1->busy_ns, 600 * US);
	assert_int_equal(c1->idle_ns, 400 * US);
	assert_int_equal(c1->inferred_ns, 400 * US);
	assert_int_equal(c1->inferred_start_ns, 400 * US);
	/* Idle time is in the assumed state 0. */
	assert_int_equal(c0->idle[0].ns, 700 * US);
	assert_int_equal(task(&f, 10)->runtime_ns, 300 * US);
	assert_int_equal(task(&f, 20)->runtime_ns, 600 * US);
	assert_int_equal(f.st.counts.by_type[EA_EV_SWITCH], 4);
	fixture_free(&f);
}

/* cpu_idle with two states; residencies; CPU1's tail after its last event. */
static void test_cpuidle_residency(void **unused)
{
	struct fixture_run f;
	const struct ea_cpu_stats *c0, *c1;

	fixture_run(&f, FIX "cpuidle-freq.txt", NULL, NULL);
	c0 = &f.st.cpus[0];
	c1 = &f.st.cpus[1];
	assert_true(c0->has_cpuidle && c1->has_cpuidle);
	/* CPU0 busy [100,500] + [800,1000] = 600 us; OFF [0,100] + [500,800]. */
	assert_int_equal(c0->busy_ns, 600 * US);
	assert_int_equal(c0->idle[1].ns, 400 * US);
	assert_int_equal(c0->idle[1].entries, 2);
	assert_int_equal(c0->idle[1].min_ns, 100 * US);
	assert_int_equal(c0->idle[1].max_ns, 300 * US);
	assert_int_equal(c0->idle[1].sum_ns / c0->idle[1].periods, 200 * US);
	/* CPU0 exits idle at 100 and 800. */
	assert_int_equal(c0->idle_exits, 2);
	/* CPU1: WFI [0,200], busy [200,400], OFF [400,1000] (inferred tail). */
	assert_int_equal(c1->idle[0].ns, 200 * US);
	assert_int_equal(c1->busy_ns, 200 * US);
	assert_int_equal(c1->idle[1].ns, 600 * US);
	assert_int_equal(c1->inferred_end_ns, 600 * US);
	assert_int_equal(c1->inferred_ns, 600 * US);
	/* Frequencies: CPU0 1 GHz for [0,300], 2 GHz for [300,1000]. */
	assert_int_equal(c0->nfreqs, 2);
	assert_int_equal(c0->freqs[0].freq_khz, 1000000);
	assert_int_equal(c0->freqs[0].ns, 300 * US);
	assert_int_equal(c0->freqs[1].ns, 700 * US);
	fixture_free(&f);
}

/* A lost switch-in is resynchronised at the task's wakeup; a switch-in with
 * no wakeup infers one. */
static void test_resync_and_missing_wakeup(void **unused)
{
	struct fixture_run f;
	const struct ea_cpu_stats *c1;

	fixture_run(&f, FIX "resync.txt", NULL, NULL);
	c1 = &f.st.cpus[1];
	assert_int_equal(f.st.counts.resyncs, 1);
	assert_int_equal(f.st.counts.resync_from_wakeup, 1);
	/* a [0,100] + b [400,600] + a [800,900]; treating CPU1 as idle until
	 * b's switch-out would give 200 us, busy since 100 us 700 us. b's
	 * switch-in is lost, but its [400,600] is proven: the idle task
	 * recorded b's wakeup on CPU1 (it never runs while a task is queued
	 * there) and nothing else is recorded on CPU1 before b's own record
	 * at 600 us. Busy, not unknown; still inferred (resync). */
	assert_int_equal(f.st.counts.resync_proven, 1);
	assert_int_equal(f.st.counts.resync_after_prev, 0);
	assert_int_equal(c1->busy_ns, 400 * US);
	assert_int_equal(c1->unknown_ns, 0);
	assert_int_equal(c1->unknown_idle_ns, 0);
	assert_int_equal(c1->idle_ns, 600 * US);
	assert_int_equal(c1->inferred_resync_ns, 200 * US);
	assert_int_equal(task(&f, 20)->runtime_ns, 200 * US);
	assert_int_equal(task(&f, 20)->wakeups, 1);
	assert_int_equal(task(&f, 20)->wait_ns, 0);
	assert_int_equal(task(&f, 10)->runtime_ns, 200 * US);
	assert_int_equal(task(&f, 10)->wakeups_inferred, 1);
	assert_int_equal(task(&f, 10)->activations, 1);
	assert_int_equal(f.st.counts.wakeups_inferred, 1);
	/* CPU0 idle from pid 0 before its first event at 1000 us. */
	assert_int_equal(f.st.cpus[0].idle_ns, 1000 * US);
	assert_int_equal(f.st.cpus[0].inferred_start_ns, 1000 * US);
	fixture_free(&f);
}

/* Two wakeups in one interrupt of the idle task, then the first woken task
 * runs with its switch-in lost (tests/fixtures/state/two-wakeups.txt). */
static void test_resync_after_prev_record(void **unused)
{
	struct fixture_run f;
	const struct ea_cpu_stats *c1;

	fixture_run(&f, FIX "two-wakeups.txt", NULL, NULL);
	c1 = &f.st.cpus[1];
	assert_int_equal(f.st.counts.resyncs, 1);
	assert_int_equal(f.st.counts.resync_from_wakeup, 1);
	/* moved from b's wakeup (1000 us) past c's (1001 us) */
	assert_int_equal(f.st.counts.resync_after_prev, 1);
	assert_int_equal(f.st.counts.resync_proven, 1);
	/* no record names another task than the resync placed */
	assert_int_equal(f.st.counts.records_overruled, 0);
	/* b [1001,3000] = 1999 us + c [3000,4000] = 1000 us */
	assert_int_equal(c1->busy_ns, 2999 * US);
	/* [0,1000] + [1000,1001] + [4000,5000] */
	assert_int_equal(c1->idle_ns, 2001 * US);
	assert_int_equal(c1->unknown_ns, 0);
	assert_int_equal(c1->inferred_resync_ns, 1999 * US);
	assert_int_equal(task(&f, 11)->runtime_ns, 1999 * US);
	assert_int_equal(task(&f, 12)->runtime_ns, 1000 * US);
	/* CPU0: d throughout */
	assert_int_equal(f.st.cpus[0].busy_ns, 5000 * US);
	assert_int_equal(task(&f, 20)->runtime_ns, 5000 * US);
	fixture_free(&f);
}

/*
 * PELT, worked by hand with the kernel's formulas: running at full capacity
 * for exactly 32 periods from zero, accumulate_sum() adds
 *   c1 = decay(1024, 32) = 512
 *   c2 = LOAD_AVG_MAX - decay(LOAD_AVG_MAX, 32) - 1024 = 47742 - 23870 - 1024
 *      = 22848
 *   c3 = 0
 * so util_sum = 23360 x 1024 and util_avg = util_sum / (47742 - 1024 + 0)
 * = 23920640 / 46718 = 512 (integer division). After 1 s it saturates within
 * 1% of 1024; 32 periods of sleep then halve it (y^32 = 1/2).
 */
static void test_pelt(void **unused)
{
	struct ea_pelt p = { 0 };
	uint32_t u;

	ea_pelt_update(&p, 1000000, false, 1024);
	u = ea_pelt_update(&p, 1000000 + 32 * 1024 * 1024ull, true, 1024);
	assert_int_equal(u, 512);
	u = ea_pelt_update(&p, 1000000000ull, true, 1024);
	assert_in_range(u, 1014, 1024);
	u = ea_pelt_update(&p, 1000000000ull + 32 * 1024 * 1024ull, false, 1024);
	assert_in_range(u, 507, 515);
	/* Half capacity halves what running adds. */
	memset(&p, 0, sizeof(p));
	ea_pelt_update(&p, 0, false, 512);
	u = ea_pelt_update(&p, 1000000000ull, true, 512);
	assert_in_range(u, 507, 512);
	assert_int_equal(ea_pelt_decay(47742, 32), 23870);	/* y^32 = 0.5 */
}

/* ---- the look-ahead lets events go early on sorted input: same output ---- */

struct digest {
	uint64_t h, changes, events;
	bool skip_util;		/* leave the utilisation out */
};

static void mix(struct digest *d, uint64_t v)
{
	d->h = (d->h ^ v) * 0x100000001b3ull;	/* FNV-1a, 64-bit words */
}

static void dg_change(void *ctx, const struct ea_state *s, int cpu,
		      uint64_t since, uint64_t now,
		      const struct ea_cpu_state *old,
		      const struct ea_cpu_state *new)
{
	struct digest *d = ctx;
	const struct ea_cpu_state *st[2] = { old, new };

	d->changes++;
	mix(d, (uint64_t)cpu);
	mix(d, since);
	mix(d, now);
	if (!d->skip_util)
		mix(d, ea_state_cpu_util_at(s, cpu, now));
	for (int i = 0; i < 2; i++) {
		if (!st[i]) {
			mix(d, ~0ull);
			continue;
		}
		mix(d, st[i]->mode | st[i]->inferred << 8 |
		       (uint64_t)(uint16_t)st[i]->idle_state << 16);
		mix(d, (uint64_t)(uint32_t)st[i]->pid << 32 | st[i]->freq_khz);
	}
}

static void dg_event(void *ctx, const struct ea_state *s,
		     const struct ea_event *ev)
{
	struct digest *d = ctx;

	d->events++;
	mix(d, ev->ts);
	mix(d, (uint64_t)(uint32_t)ev->cpu << 32 | (uint32_t)ev->cur_pid);
	mix(d, ev->type | ev->flags << 8);
	if (ev->type == EA_EV_SWITCH)
		mix(d, (uint64_t)(uint32_t)ev->sw.prev_pid << 32 |
		       (uint32_t)ev->sw.next_pid);
	mix(d, ea_state_ntasks(s));
}

static const struct ea_state_ops dg_ops = {
	.cpu_change = dg_change,
	.event = dg_event,
};

static uint32_t rnd(uint64_t *x)
{
	*x = *x * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(*x >> 33);
}

/*
 * A stream that contradicts itself often: switches whose prev_pid is not
 * the CPU's task, records from tasks not switched in, lost events, equal
 * timestamps, wakeups onto CPUs that stay busy for long (so that resyncs
 * reach back to the look-ahead's edge), a CPU first seen late.
 */
static void make_event(uint64_t *x, uint64_t i, uint64_t *ts, int32_t *run,
		       struct ea_event *ev)
{
	uint32_t r = rnd(x), k = r % 100;
	int cpu = rnd(x) % 3;

	if (i > 50000 && rnd(x) % 8 == 0)
		cpu = 3;	/* a CPU the trace brings in late */
	if (cpu == 2 && rnd(x) % 4)
		cpu = rnd(x) % 2;	/* CPU 2 is rare: long stretches */
	*ts += rnd(x) % 4;	/* equal timestamps often */
	memset(ev, 0, sizeof(*ev));
	ev->ts = *ts;
	ev->cpu = cpu;
	ev->cur_pid = rnd(x) % 50 ? run[cpu] : (int32_t)(rnd(x) % 12);
	if (k < 35) {
		ev->type = EA_EV_SWITCH;
		ev->sw.prev_pid = rnd(x) % 40 ? run[cpu] :
				  (int32_t)(rnd(x) % 12);
		ev->sw.next_pid = (int32_t)(rnd(x) % 12);
		ev->sw.prev_prio = ev->sw.next_prio = 120;
		ev->sw.prev_state = rnd(x) % 3 ? EA_PREV_BLOCKED :
				    rnd(x) % 50 ? EA_PREV_RUNNABLE :
				    EA_PREV_DEAD;
		run[cpu] = ev->sw.next_pid;
		if (cpu == 2 && rnd(x) % 2)	/* a switch-in lost */
			run[cpu] = (int32_t)(rnd(x) % 12);
	} else if (k < 85) {
		ev->type = k < 60 ? EA_EV_WAKING : k < 84 ? EA_EV_WAKEUP :
			   EA_EV_WAKEUP_NEW;
		ev->wake.pid = (int32_t)(rnd(x) % 12);
		ev->wake.prio = 120;
		ev->wake.target_cpu = rnd(x) % 20 ? (int32_t)(rnd(x) % 4) : -1;
	} else if (k < 93) {
		ev->type = EA_EV_IDLE;
		ev->idle.cpu = cpu;
		ev->idle.state = rnd(x) % 2 ? EA_IDLE_EXIT :
				 (int32_t)(rnd(x) % 3);
	} else if (k < 97) {
		ev->type = EA_EV_FREQ;
		ev->freq.cpu = cpu;
		ev->freq.freq_khz = 500000 + 100000 * (rnd(x) % 8);
	} else if (k < 98) {
		ev->type = EA_EV_LOST;
		ev->lost.count = rnd(x) % 5;
	} else {
		ev->type = EA_EV_MIGRATE;
		ev->migrate.pid = (int32_t)(rnd(x) % 12);
		ev->migrate.orig_cpu = cpu;
		ev->migrate.dest_cpu = (int32_t)(rnd(x) % 4);
	}
}

/*
 * A consistent, switch-heavy stream like bench-data's rec.dat: on CPUs 0
 * and 1, two tasks each wake each other on their own CPU (sched_waking,
 * sched_wakeup, then the switch), now and then a task that never runs is
 * woken onto the other CPU; CPU 2 comes in after 40000 events, so that
 * the look-ahead holds back for a CPU the state does not have yet
 * (hold_seq) while the others' events let go at once. run[0..2]: each
 * CPU's task; run[4..6]: its next step (waking, wakeup, switch).
 */
static void make_pingpong(uint64_t *x, uint64_t i, uint64_t *ts, int32_t *run,
			  struct ea_event *ev)
{
	int cpu = rnd(x) % 2;
	int32_t a, other;

	if (i > 40000 && rnd(x) % 4 == 0)
		cpu = 2;
	a = 10 + 2 * cpu;
	if (!run[cpu])
		run[cpu] = a;
	other = run[cpu] == a ? a + 1 : a;
	*ts += rnd(x) % 3;	/* equal timestamps now and then */
	memset(ev, 0, sizeof(*ev));
	ev->ts = *ts;
	ev->cpu = cpu;
	ev->cur_pid = run[cpu];
	if (run[4 + cpu] < 2) {
		ev->type = run[4 + cpu] ? EA_EV_WAKEUP : EA_EV_WAKING;
		ev->wake.pid = other;
		ev->wake.prio = 120;
		ev->wake.target_cpu = cpu;
		if (rnd(x) % 50 == 0) {	/* never runs: stays queued */
			ev->wake.pid = 30 + (int32_t)(rnd(x) % 4);
			ev->wake.target_cpu = !cpu;
		}
		run[4 + cpu]++;
		return;
	}
	ev->type = EA_EV_SWITCH;
	ev->sw.prev_pid = run[cpu];
	ev->sw.next_pid = other;
	ev->sw.prev_prio = ev->sw.next_prio = 120;
	ev->sw.prev_state = EA_PREV_BLOCKED;
	run[cpu] = other;
	run[4 + cpu] = 0;
}

typedef void make_fn(uint64_t *x, uint64_t i, uint64_t *ts, int32_t *run,
		     struct ea_event *ev);

/* A task switch as a consumer with task_switch() takes it (the
 * accountant's and the statistics' way, for run_stream_as()). */
static void dg_task_switch(void *ctx, const struct ea_state *s, int cpu,
			   uint64_t since, uint64_t now, int32_t pid)
{
	struct digest *d = ctx;

	d->changes++;
	mix(d, (uint64_t)cpu << 32 | (uint32_t)pid);
	mix(d, since);
	mix(d, now);
}

static const struct ea_state_ops dg_switch_ops = {
	.cpu_change = dg_change,
	.task_switch = dg_task_switch,
	.event = dg_event,
};

/*
 * The events of make_event() fed to the state, one at a time
 * (ea_state_feed()) when blk is 0, else blk at a time
 * (state_feed_block(), as the pipeline feeds a trace.dat) from one
 * buffer written over for each block. no_util: without utilisation, to a
 * consumer with task_switch() (as report's consumers).
 */
/* run_stream_as()'s last state: whether it was fed a derived event on
 * the per-type feeds' path (s->derived_in: state.c's second loop) */
static bool last_derived_in;

static void run_stream_as(uint64_t seed, uint64_t n, unsigned lookahead,
			  bool sorted, size_t blk, bool no_util, make_fn *make,
			  struct digest *d, struct ea_state_counts *counts)
{
	struct ea_state_config cfg = { .ncpus = -1, .lookahead = lookahead };
	struct ea_event evs[64], ev;
	struct ea_state *s;
	struct ea_err err;
	uint64_t x = seed, ts = 1000;
	int32_t run[8] = { 0 };
	size_t at, k = 0;

	assert_true(blk <= 64);
	cfg.no_util = no_util;
	memset(d, 0, sizeof(*d));
	d->h = 0xcbf29ce484222325ull;
	d->skip_util = no_util;
	assert_int_equal(ea_state_new(&s, &cfg,
				      no_util ? &dg_switch_ops : &dg_ops, d), 0);
	if (sorted)
		state_input_sorted(s);
	for (uint64_t i = 0; i < n; i++) {
		make(&x, i, &ts, run, blk ? &evs[k] : &ev);
		if (!blk) {
			assert_int_equal(ea_state_feed(s, &ev, &err), 0);
			continue;
		}
		if (++k == blk || i + 1 == n) {
			/* as run.c's feed_blocks() chooses */
			assert_int_equal(state_fed_derived(s) ?
					 state_feed_block_derived(s, evs, k,
								  &at, &err) :
					 state_feed_block(s, evs, k, &at, &err),
					 0);
			k = 0;
		}
	}
	/* the look-ahead's ring_ts full grown: the per-type feeds ran */
	if (n > 2 * EA_LOOKAHEAD)
		assert_true(la_ts_grown(&s->la));
	assert_int_equal(ea_state_finish(s, &err), 0);
	*counts = *ea_state_counts(s);
	for (size_t i = 0; i < ea_state_ntasks(s); i++) {
		const struct ea_task *t = ea_state_task_at(s, i);

		mix(d, (uint64_t)t->pid << 32 | t->run);
		mix(d, t->runtime_ns);
		mix(d, t->wait_ns);
		mix(d, t->activations << 32 | t->wakeups);
		mix(d, t->pelt.util_sum);
	}
	last_derived_in = s->derived_in;
	ea_state_free(s);
}

static void run_stream(uint64_t seed, uint64_t n, unsigned lookahead,
		       bool sorted, struct digest *d,
		       struct ea_state_counts *counts)
{
	run_stream_as(seed, n, lookahead, sorted, 0, false, make_event, d,
		      counts);
}

/* Short look-aheads put resyncs at the edge of what is still held back. */
static void test_sorted_early_pop(void **unused)
{
	static const unsigned la[] = { 0, 1, 7, 64 };

	for (uint64_t seed = 1; seed <= 12; seed++) {
		struct ea_state_counts ca, cb;
		struct digest a, b;
		uint64_t n = seed % 3 ? 1000 + seed * 7919 : 120000;

		run_stream(seed, n, la[seed % 4], false, &a, &ca);
		run_stream(seed, n, la[seed % 4], true, &b, &cb);
		assert_true(ca.resyncs > 0);
		assert_int_equal(a.changes, b.changes);
		assert_int_equal(a.events, b.events);
		assert_int_equal(a.h, b.h);
		assert_memory_equal(&ca, &cb, sizeof(ca));
	}
}

/*
 * Sorted input fed a block at a time (state_feed_block()): past its first
 * EA_LOOKAHEAD events (ring_ts grown) the look-ahead's common scan and
 * the per-type feeds take the switches and wakeups (feed-type.h), and
 * let the held-back ones go by type (state.c's go_typed()), the event
 * just scanned without the ring when all before it go and it may go too.
 * The reference is the general path: the same stream one event at a time
 * (ea_state_feed()), which never takes them. Every change, event, count
 * and task must be the same, whether the block is one event, a few, or
 * many; with a look-ahead of its default depth, cut to 7 or 64; with
 * utilisation, and without to a task_switch() consumer; on the stream
 * full of contradictions (make_event(): resyncs, synthetic events among
 * the held-back ones) and on the consistent pingpong (make_pingpong():
 * most events let go at once, a late CPU's events held back).
 */
static void test_block_feed_typed(void **unused)
{
	static const unsigned la[] = { 0, 7, 64 };
	static const size_t blk[] = { 1, 5, 64 };

	for (uint64_t seed = 1; seed <= 12; seed++) {
		make_fn *make = seed % 4 ? make_event : make_pingpong;
		bool no_util = seed % 2 == 0;
		struct ea_state_counts ca, cb;
		struct digest a, b;
		uint64_t n = 80000;

		run_stream_as(seed, n, la[seed % 3], true, 0, no_util, make,
			      &a, &ca);
		run_stream_as(seed, n, la[seed % 3], true, blk[seed / 3 % 3],
			      no_util, make, &b, &cb);
		assert_false(last_derived_in);	/* the recorded loop only */
		assert_true(make == make_pingpong ? ca.resyncs == 0 :
						    ca.resyncs > 0);
		assert_true(a.changes > 0);
		assert_int_equal(a.changes, b.changes);
		assert_int_equal(a.events, b.events);
		assert_int_equal(a.h, b.h);
		assert_memory_equal(&ca, &cb, sizeof(ca));
	}
}

/*
 * make_event()'s and make_pingpong()'s streams as a Perfetto trace's
 * compact_sched gives them: the switches and the sched_wakings flagged
 * EA_EVF_DERIVED (a switch's prev task, a waking's current task are the
 * reader's, from the CPU's previous switch).
 */
static void make_event_derived(uint64_t *x, uint64_t i, uint64_t *ts,
			       int32_t *run, struct ea_event *ev)
{
	make_event(x, i, ts, run, ev);
	if (ev->type == EA_EV_SWITCH || ev->type == EA_EV_WAKING)
		ev->flags |= EA_EVF_DERIVED;
}

static void make_pingpong_derived(uint64_t *x, uint64_t i, uint64_t *ts,
				  int32_t *run, struct ea_event *ev)
{
	make_pingpong(x, i, ts, run, ev);
	if (ev->type == EA_EV_SWITCH || ev->type == EA_EV_WAKING)
		ev->flags |= EA_EVF_DERIVED;
}

/*
 * test_block_feed_typed() on derived events: the per-type feeds take
 * them too (feed-derived.h's feed_derived(), la_try_switch_derived(),
 * la_try_wake_derived()), and must do what the
 * general path (one event at a time: lookahead.c's scan_common(), which
 * neither marks pend_min stale for them nor takes a derived waking as a
 * record of its CPU; state.c's go_scanned()) does, change for change.
 */
/*
 * Twelve streams (make_event's shape for seeds not a multiple of 4, else
 * make_pingpong's), each fed one event at a time and in blocks: every
 * change, event and count the same. `turns`: the block run must have
 * switched the state to the loop for derived events, the single-event
 * one not.
 */
static void block_feed_same(make_fn *make_event_like, make_fn *make_pp_like,
			    bool turns)
{
	static const unsigned la[] = { 0, 7, 64 };
	static const size_t blk[] = { 1, 5, 64 };

	for (uint64_t seed = 1; seed <= 12; seed++) {
		make_fn *make = seed % 4 ? make_event_like : make_pp_like;
		bool no_util = seed % 2 == 0;
		struct ea_state_counts ca, cb;
		struct digest a, b;
		uint64_t n = 80000;

		run_stream_as(seed, n, la[seed % 3], true, 0, no_util, make,
			      &a, &ca);
		if (turns)
			assert_false(last_derived_in); /* one at a time */
		run_stream_as(seed, n, la[seed % 3], true, blk[seed / 3 % 3],
			      no_util, make, &b, &cb);
		if (turns)
			assert_true(last_derived_in);
		assert_true(a.changes > 0);
		assert_int_equal(a.changes, b.changes);
		assert_int_equal(a.events, b.events);
		assert_int_equal(a.h, b.h);
		assert_memory_equal(&ca, &cb, sizeof(ca));
	}
}

static void test_block_feed_typed_derived(void **unused)
{
	block_feed_same(make_event_derived, make_pingpong_derived, false);
}

/*
 * make_event()'s and make_pingpong()'s streams with derived events only
 * in turns of 3 000 events (the flag as make_event_derived() sets it),
 * the first turn recorded: state.c's block loop for recorded events meets
 * the first derived one (feed_derived(), after feed_type() refused it),
 * the later blocks go through the loop for derived events
 * (feed-derived.h's feed_any_type()), which must take the recorded
 * events of the later turns as the recorded loop takes them.
 */
static void make_event_turns(uint64_t *x, uint64_t i, uint64_t *ts,
			     int32_t *run, struct ea_event *ev)
{
	make_event(x, i, ts, run, ev);
	if (i / 3000 % 2 &&
	    (ev->type == EA_EV_SWITCH || ev->type == EA_EV_WAKING))
		ev->flags |= EA_EVF_DERIVED;
}

static void make_pingpong_turns(uint64_t *x, uint64_t i, uint64_t *ts,
				int32_t *run, struct ea_event *ev)
{
	make_pingpong(x, i, ts, run, ev);
	if (i / 3000 % 2 &&
	    (ev->type == EA_EV_SWITCH || ev->type == EA_EV_WAKING))
		ev->flags |= EA_EVF_DERIVED;
}

/*
 * Blocks of recorded and derived events in turns against the same stream
 * one event at a time (the general path, which has no per-type feeds):
 * every change, event, count and task the same; and the state was
 * switched to the loop for derived events (it was not in
 * test_block_feed_typed(), whose events are all recorded).
 */
static void test_block_feed_turns(void **unused)
{
	block_feed_same(make_event_turns, make_pingpong_turns, true);
}

/*
 * A consistent stream (every record's current task is the one its CPU was
 * switched to, nothing lost, every CPU known at the start), as the replay
 * simulator feeds: a one-event look-ahead gives what the default gives.
 */
static void make_consistent(uint64_t *x, uint64_t *ts, int32_t *run,
			    struct ea_event *ev)
{
	uint32_t k = rnd(x) % 100;
	int cpu = rnd(x) % 4;

	*ts += rnd(x) % 3;
	memset(ev, 0, sizeof(*ev));
	ev->ts = *ts;
	ev->cpu = cpu;
	ev->cur_pid = run[cpu];
	if (k < 40) {
		ev->type = EA_EV_SWITCH;
		ev->sw.prev_pid = run[cpu];
		ev->sw.next_pid = rnd(x) % 3 ? (int32_t)(1 + rnd(x) % 12) : 0;
		ev->sw.prev_prio = ev->sw.next_prio = 120;
		ev->sw.prev_state = rnd(x) % 3 ? EA_PREV_BLOCKED :
				    EA_PREV_RUNNABLE;
		run[cpu] = ev->sw.next_pid;
	} else if (k < 85) {
		ev->type = k < 60 ? EA_EV_WAKING : EA_EV_WAKEUP;
		ev->wake.pid = (int32_t)(1 + rnd(x) % 12);
		ev->wake.prio = 120;
		ev->wake.target_cpu = (int32_t)(rnd(x) % 4);
		/* a running task's wakeup names the CPU it runs on (else
		 * the stream would show its switch-out lost) */
		for (int c = 0; c < 4; c++)
			if (run[c] == ev->wake.pid)
				ev->wake.target_cpu = c;
	} else if (k < 95) {
		ev->type = EA_EV_IDLE;
		ev->idle.cpu = cpu;
		ev->idle.state = rnd(x) % 2 ? EA_IDLE_EXIT :
				 (int32_t)(rnd(x) % 3);
	} else {
		ev->type = EA_EV_FREQ;
		ev->freq.cpu = cpu;
		ev->freq.freq_khz = 500000 + 100000 * (rnd(x) % 8);
	}
}

/* no_util: configure the state so; d->skip_util: digest no utilisation. */
static void run_consistent_util(uint64_t seed, uint64_t n, unsigned lookahead,
				bool no_util, struct digest *d,
				struct ea_state_counts *counts)
{
	struct ea_state_config cfg = { .ncpus = 4, .lookahead = lookahead };
	bool skip_util = d->skip_util || no_util;
	struct ea_state *s;
	struct ea_event ev;
	struct ea_err err;
	uint64_t x = seed, ts = 1000;
	int32_t run[4] = { 0 };

	cfg.no_util = no_util;
	memset(d, 0, sizeof(*d));
	d->h = 0xcbf29ce484222325ull;
	d->skip_util = skip_util;
	assert_int_equal(ea_state_new(&s, &cfg, &dg_ops, d), 0);
	for (uint64_t i = 0; i < n; i++) {
		make_consistent(&x, &ts, run, &ev);
		assert_int_equal(ea_state_feed(s, &ev, &err), 0);
	}
	assert_int_equal(ea_state_finish(s, &err), 0);
	*counts = *ea_state_counts(s);
	/* what the tasks add up to, utilisation apart */
	for (size_t i = 0; i < ea_state_ntasks(s); i++) {
		const struct ea_task *t = ea_state_task_at(s, i);

		mix(d, (uint64_t)(uint32_t)t->pid << 32 | (uint32_t)t->wakeups);
		mix(d, t->runtime_ns);
		if (no_util)
			assert_int_equal(t->pelt.util_avg, 0);
	}
	for (int i = 0; no_util && i < ea_state_ncpus(s); i++)
		assert_int_equal(ea_state_cpu_util(s, i), 0);
	ea_state_free(s);
}

static void run_consistent(uint64_t seed, uint64_t n, unsigned lookahead,
			   struct digest *d, struct ea_state_counts *counts)
{
	d->skip_util = false;
	run_consistent_util(seed, n, lookahead, false, d, counts);
}

static void test_short_lookahead_consistent(void **unused)
{
	for (uint64_t seed = 1; seed <= 4; seed++) {
		struct ea_state_counts ca, cb;
		struct digest a, b;
		uint64_t n = seed % 2 ? 50000 : 3000;

		run_consistent(seed, n, 0, &a, &ca);
		run_consistent(seed, n, 1, &b, &cb);
		assert_int_equal(ca.resyncs, 0);
		assert_int_equal(a.changes, b.changes);
		assert_int_equal(a.events, b.events);
		assert_int_equal(a.h, b.h);
		assert_memory_equal(&ca, &cb, sizeof(ca));
	}
}

/* Without utilisation, every CPU state, event and task is the same. */
static void test_no_util(void **unused)
{
	for (uint64_t seed = 1; seed <= 4; seed++) {
		struct ea_state_counts ca, cb;
		struct digest a, b;
		uint64_t n = seed % 2 ? 50000 : 3000;

		a.skip_util = true;	/* digested without utilisation */
		run_consistent_util(seed, n, 1, false, &a, &ca);
		b.skip_util = true;
		run_consistent_util(seed, n, 1, true, &b, &cb);
		assert_int_equal(a.changes, b.changes);
		assert_int_equal(a.events, b.events);
		assert_int_equal(a.h, b.h);
		assert_memory_equal(&ca, &cb, sizeof(ca));
	}
}

/* When pid 5 is first seen running on CPU 0 (cpu_change), 0: never. */
struct first_run {
	uint64_t at;
};

static void fr_change(void *ctx, const struct ea_state *s, int cpu,
		      uint64_t since, uint64_t now,
		      const struct ea_cpu_state *old,
		      const struct ea_cpu_state *new)
{
	struct first_run *fr = ctx;

	if (new && new->pid == 5 && !fr->at)
		fr->at = now;
}

static const struct ea_state_ops fr_ops = { .cpu_change = fr_change };

/*
 * A lost switch-in with a one-event look-ahead: pid 1 runs on CPU 0 (a
 * switch at 1000 ns, then 40000 cpu_frequency records 1000 ns apart, more
 * than EA_LOOKAHEAD, so the state has started and holds one event back);
 * pid 5 is woken onto CPU 0 at T + 1000, then a record at T + 2000 says
 * pid 5 is current there. Its wakeup was already applied when that record
 * is scanned, so the switch to pid 5 goes at T + 2000, not back at its
 * wakeup (which the full look-ahead, still holding the wakeup, picks).
 */
/* Feed ev at ts on CPU 0 with current task cur: a frequency record, or a
 * wakeup of pid (wake_pid > 0). */
static void feed_at(struct ea_state *s, uint64_t ts, int32_t cur,
		    int32_t wake_pid)
{
	struct ea_event ev;
	struct ea_err err;

	memset(&ev, 0, sizeof(ev));
	ev.ts = ts;
	ev.cur_pid = cur;
	if (wake_pid > 0) {
		ev.type = EA_EV_WAKEUP;
		ev.wake.pid = wake_pid;
		ev.wake.prio = 120;
	} else {
		ev.type = EA_EV_FREQ;
		ev.freq.freq_khz = 1000000;
	}
	assert_int_equal(ea_state_feed(s, &ev, &err), 0);
}

static uint64_t resync_at(unsigned lookahead)
{
	struct ea_state_config cfg = { .ncpus = 1, .lookahead = lookahead };
	struct first_run fr = { 0 };
	struct ea_state *s;
	struct ea_event ev;
	struct ea_err err;
	uint64_t t = 1000;

	assert_int_equal(ea_state_new(&s, &cfg, &fr_ops, &fr), 0);
	state_input_sorted(s);
	memset(&ev, 0, sizeof(ev));
	ev.ts = t;
	ev.type = EA_EV_SWITCH;
	ev.sw.next_pid = 1;
	ev.sw.prev_prio = ev.sw.next_prio = 120;
	assert_int_equal(ea_state_feed(s, &ev, &err), 0);
	for (int i = 0; i < 40000; i++)
		feed_at(s, t += 1000, 1, 0);
	feed_at(s, t += 1000, 1, 5);	/* pid 5 woken */
	feed_at(s, t += 1000, 5, 0);	/* pid 5 current: its switch-in lost */
	assert_int_equal(ea_state_finish(s, &err), 0);
	assert_int_equal(ea_state_counts(s)->resyncs, 1);
	ea_state_free(s);
	return fr.at;
}

static void test_resync_one_event_lookahead(void **unused)
{
	uint64_t wake = 1000 + 40000 * 1000ull + 1000;	/* T + 1000 */

	assert_int_equal(resync_at(0), wake);
	assert_int_equal(resync_at(1), wake + 1000);
}

/*
 * Tasks by pid, whatever the pid: pids below 2^22 (Linux's
 * PID_MAX_LIMIT) are kept in the state's two-level index, the others
 * (only in fabricated traces) in its hash, which grows past its first
 * 1024 slots here (700 such pids, grown at 512). One CPU switches from
 * each task to the next, alternately a small and a large pid: 1400
 * distinct tasks, each found by its own pid, in the order met, with the
 * comm its switch gave it.
 */
static void test_tasks_any_pid(void **unused)
{
	struct ea_state_config cfg = { .ncpus = 1 };
	struct digest d;
	struct ea_state *s;
	struct ea_event ev;
	struct ea_err err;
	int32_t pid[1400];
	int i;

	for (i = 0; i < 700; i++) {
		pid[2 * i] = 100 + i;
		/* from 2^22 up to near INT32_MAX, spread over the hash */
		pid[2 * i + 1] = (1 << 22) + i * 3000000;
	}
	memset(&d, 0, sizeof(d));
	assert_int_equal(ea_state_new(&s, &cfg, &dg_ops, &d), 0);
	state_input_sorted(s);
	for (i = 0; i < 1400; i++) {
		memset(&ev, 0, sizeof(ev));
		ev.ts = 1000 + (uint64_t)i * 10;
		ev.type = EA_EV_SWITCH;
		ev.cur_pid = ev.sw.prev_pid = i ? pid[i - 1] : 0;
		ev.sw.next_pid = pid[i];
		ev.sw.prev_prio = ev.sw.next_prio = 120;
		ev.sw.prev_state = EA_PREV_BLOCKED;
		snprintf(ev.sw.next_comm, sizeof(ev.sw.next_comm), "t%d", i);
		if (i)
			snprintf(ev.sw.prev_comm, sizeof(ev.sw.prev_comm),
				 "t%d", i - 1);
		assert_int_equal(ea_state_feed(s, &ev, &err), 0);
	}
	assert_int_equal(ea_state_finish(s, &err), 0);
	assert_int_equal(ea_state_ntasks(s), 1400);
	for (i = 0; i < 1400; i++) {
		const struct ea_task *t = ea_state_task(s, pid[i]);
		char comm[EA_COMM_LEN];

		assert_non_null(t);
		assert_int_equal(t->pid, pid[i]);
		assert_ptr_equal(ea_state_task_at(s, (size_t)i), t);
		snprintf(comm, sizeof(comm), "t%d", i);
		assert_string_equal(t->comm, comm);
	}
	/* pids never met: none, small or large */
	assert_null(ea_state_task(s, 99));
	assert_null(ea_state_task(s, (1 << 22) + 1));
	assert_null(ea_state_task(s, 2147483647));
	ea_state_free(s);
}

/* A forked task's initial util and its move at sched_migrate_task
 * (fixture fork-migrate.txt works the values out). */
static void test_fork_migrate_pelt(void **unused)
{
	struct fixture_run f;
	uint32_t u0, u1;

	fixture_run(&f, FIX "fork-migrate.txt", NULL, NULL);
	assert_int_equal(task(&f, 50)->pelt.util_avg, 512);
	assert_int_equal(task(&f, 50)->pelt_cpu, 1);
	u0 = ea_state_cpu_util(f.run.state, 0);
	u1 = ea_state_cpu_util(f.run.state, 1);
	/* CPU 0 keeps only sh's 100 us of running (< 3); CPU 1 has the
	 * child's sum: 512 x LOAD_AVG_MAX plus its 100 us of running, 97
	 * PELT "us" (1024 ns) x capacity 1024, over a divider of at least
	 * 47742 - 1024: (512 x 47742 + 97 x 1024) / 46718 = 525.3. */
	assert_true(u0 <= 3);
	assert_true(u1 >= 512 && u1 <= 525);
	fixture_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_swapper_idle),
		cmocka_unit_test(test_cpuidle_residency),
		cmocka_unit_test(test_resync_and_missing_wakeup),
		cmocka_unit_test(test_resync_after_prev_record),
		cmocka_unit_test(test_fork_migrate_pelt),
		cmocka_unit_test(test_pelt),
		cmocka_unit_test(test_sorted_early_pop),
		cmocka_unit_test(test_block_feed_typed),
		cmocka_unit_test(test_block_feed_typed_derived),
		cmocka_unit_test(test_block_feed_turns),
		cmocka_unit_test(test_short_lookahead_consistent),
		cmocka_unit_test(test_no_util),
		cmocka_unit_test(test_resync_one_event_lookahead),
		cmocka_unit_test(test_tasks_any_pid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
