// SPDX-License-Identifier: GPL-2.0-only
/*
 * The accountant and the timeline as one consumer (ea_timeline_acct_ops,
 * src/output/timeline-acct.c, which defers the timeline's reading of the
 * accountant's figures while changes stay in the near bucket) against the
 * two as consumers of their own (ea_acct_ops then ea_timeline_ops, which
 * read the figures after every change): the same buckets (count, width,
 * every column's energy) and the same recorded changes, on traces of
 * several shapes, with models of one, two and several clusters, automatic
 * and fixed bucket widths, and a window that clips (so that changes are
 * clipped, and some lie outside it).
 *
 * The state gives the task switches to ea_timeline_acct_ops as such
 * (its task_switch()), so the accountant defers their energies between
 * the timeline's readings (src/energy/acct-defer.h, ea_acct_sync()):
 * test_switch_sync checks on task switches of odd energies at odd gaps,
 * with bucket edges between them, that the deferral happens and gives
 * the live path's buckets, with the stats collector before it, as
 * another consumer and as one consumer with it (ea_timeline_stats_ops,
 * src/output/timeline-stats.c, as `eatrace report` has it): the
 * collector's figures the same too.
 *
 * With the timeline's back half on a thread of its own
 * (ea_timeline_use_thread()), the caller sees the near bucket through
 * src/output/timeline-near.c and hands the deferred changes' growth over
 * as flushes: the same buckets and record again, every trace, model and
 * shape, and changes deferred there too (test_switch_sync).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "eatrace/energy.h"
#include "eatrace/html.h"
#include "eatrace/pipeline.h"
#include "eatrace/stats.h"

static const char *const traces[] = {
	"traces/cfs/fork-loaded.dat",
	"traces/cfs/mixed.dat",
	"traces/demo/tc2-seven-tasks.txt",
	"traces/replay/seven-periodic.txt",
	"traces/vm/wl-periodic.dat",
	"traces/vm/wl-pingpong.dat",
	"traces/diff/heavy-1.dat",
};

static const char *const models[] = {
	"models/tc2.json",
	"models/juno-r0.json",
	"tests/fixtures/energy/two-cpu.json",
};

/* What one way of running gives. */
struct outcome {
	bool ok; /* the run and the timeline done */
	size_t nbuckets;
	uint64_t width, start, end;
	int stride;
	ea_energy_t *e; /* nbuckets x stride */
	struct ea_tl_change *ch;
	size_t nch;
	/* the collector's (every way has one, before the timeline) */
	int st_ncpus;
	uint64_t st_busy[8], st_idle[8], st_exits[8], st_inferred[8];
	int st_nfreqs[8];
};

/* What run_way() allocated in o. */
static void outcome_free(struct outcome *o)
{
	free(o->e);
	free(o->ch);
}

/* Task switches after which the accountant deferred energies. */
static long deferring;

/* ea_timeline_acct_ops, counting deferring */
static void count_change(void *ctx, const struct ea_state *s, int cpu,
			 uint64_t since, uint64_t now,
			 const struct ea_cpu_state *old,
			 const struct ea_cpu_state *new)
{
	ea_timeline_acct_ops.cpu_change(ctx, s, cpu, since, now, old, new);
}

static void count_switch(void *ctx, const struct ea_state *s, int cpu,
			 uint64_t since, uint64_t now, int32_t pid)
{
	const struct ea_timeline *t = ctx;

	ea_timeline_acct_ops.task_switch(ctx, s, cpu, since, now, pid);
	deferring += t->acct->lz_ndefer > 0;
}

static const struct ea_state_ops counting_ops = {
	.cpu_change = count_change,
	.task_switch = count_switch,
};

/* How the timeline is fed. */
enum way {
	LIVE,		/* after the accountant, ea_acct_live_ops */
	TOGETHER,	/* ea_timeline_acct_ops, the only consumer */
	WITH_STATS,	/* ea_stats_ops, then counting_ops */
	ONE,		/* ea_timeline_stats_ops (as report) */
	ONE_THREAD,	/* the same, the back half on its thread */
	WITH_STATS_THREAD, /* WITH_STATS, the back half on its thread */
};

/*
 * trace priced with model, the timeline (width_ns, at most max buckets,
 * changes recorded) fed as one consumer with the accountant (together) or
 * after it; win: a window of the trace's second quarter.
 */
static void run_way(const char *trace, const char *model, enum way way,
		    uint64_t width_ns, size_t max, bool win, struct outcome *o)
{
	bool thread = way == ONE_THREAD || way == WITH_STATS_THREAD;
	bool together;
	struct ea_stats st;
	struct ea_consumer cons[3];
	int ncons = 2;

	struct ea_state_config cfg = {.ncpus = -1};
	struct ea_acct_config acfg = {0};
	struct ea_timeline tl;
	struct ea_timeline_stats ts = {&st, &tl};
	struct ea_tl_reader *r;
	struct ea_tl_change c;
	struct ea_model *m;
	struct ea_acct acct;
	struct ea_run run;
	struct ea_err err;
	size_t cap = 0;

	if (thread)
		way = way == ONE_THREAD ? ONE : WITH_STATS;
	together = way != LIVE;
	memset(o, 0, sizeof(*o));
	if (ea_model_load(&m, model, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(ea_acct_init(&acct, m, &acfg, &err), 0);
	ea_acct_state_config(&acct, &cfg);
	cfg.ncpus = -1;
	if (win) { /* relative to the trace's start */
		cfg.win_start = 50 * 1000 * 1000;
		cfg.win_end = 150 * 1000 * 1000;
		cfg.win_relative = true;
	}
	assert_int_equal(ea_timeline_init(&tl, &acct, width_ns, max, true), 0);
	if (thread)
		assert_int_equal(ea_timeline_use_thread(&tl), 0);
	ea_stats_init(&st);
	if (way == WITH_STATS) {
		cons[0] = (struct ea_consumer){&ea_stats_ops, &st};
		cons[1] = (struct ea_consumer){&counting_ops, &tl};
	} else if (way == ONE) {
		cons[0] = (struct ea_consumer){&ea_timeline_stats_ops, &ts};
		ncons = 1;
	} else if (together) {
		cons[0] = (struct ea_consumer){&ea_stats_ops, &st};
		cons[1] = (struct ea_consumer){&ea_timeline_acct_ops, &tl};
	} else {
		/* the timeline reads the accountant after every change */
		cons[0] = (struct ea_consumer){&ea_stats_ops, &st};
		cons[1] = (struct ea_consumer){&ea_acct_live_ops, &acct};
		cons[2] = (struct ea_consumer){&ea_timeline_ops, &tl};
		ncons = 3;
	}
	if (ea_run(&run, trace, &cfg, cons, ncons, &err))
		goto out; /* e.g. a CPU the model lacks: both the same */
	if (ea_acct_done(&acct, run.state, &err) ||
	    ea_stats_done(&st, run.state) ||
	    ea_timeline_done(&tl, run.state, &err)) {
		ea_run_free(&run);
		goto out;
	}
	o->ok = true;
	o->st_ncpus = st.ncpus;
	for (int i = 0; i < st.ncpus && i < 8; i++) {
		o->st_busy[i] = st.cpus[i].busy_ns;
		o->st_idle[i] = st.cpus[i].idle_ns;
		o->st_exits[i] = st.cpus[i].idle_exits;
		o->st_inferred[i] = st.cpus[i].inferred_ns;
		o->st_nfreqs[i] = st.cpus[i].nfreqs;
	}
	o->nbuckets = tl.nbuckets;
	o->width = tl.width;
	o->start = tl.start;
	o->end = tl.end;
	o->stride = tl.stride;
	o->e = malloc(tl.nbuckets * (size_t)tl.stride * sizeof(*o->e) + 1);
	assert_non_null(o->e);
	memcpy(o->e, tl.e, tl.nbuckets * (size_t)tl.stride * sizeof(*o->e));
	r = ea_tl_reader_new(&tl);
	assert_non_null(r);
	while (ea_tl_reader_next(r, &c)) {
		if (o->nch == cap) {
			cap = cap ? 2 * cap : 1024;
			o->ch = realloc(o->ch, cap * sizeof(*o->ch));
			assert_non_null(o->ch);
		}
		o->ch[o->nch++] = c;
	}
	ea_tl_reader_free(r);
	ea_run_free(&run);
out:
	ea_timeline_free(&tl);
	ea_stats_free(&st);
	ea_acct_free(&acct);
	ea_model_free(m);
}

static bool same_change(const struct ea_tl_change *a,
			const struct ea_tl_change *b)
{
	return a->t0 == b->t0 && a->t1 == b->t1 && a->pid == b->pid &&
	       a->freq_khz == b->freq_khz && a->idle_state == b->idle_state &&
	       a->mode == b->mode && a->cpu == b->cpu;
}

static void assert_same_outcome(const struct outcome *a,
				const struct outcome *b, uint64_t width)
{
	assert_true(a->ok && b->ok);
	assert_int_equal(a->nbuckets, b->nbuckets);
	assert_int_equal(a->width, b->width);
	assert_int_equal(a->start, b->start);
	assert_int_equal(a->end, b->end);
	assert_int_equal(a->stride, b->stride);
	if (memcmp(a->e, b->e, a->nbuckets * (size_t)a->stride * sizeof(*a->e)))
		fail_msg("width %llu: buckets differ", (unsigned long long)width);
	assert_int_equal(a->nch, b->nch);
	for (size_t i = 0; i < a->nch; i++)
		if (!same_change(&a->ch[i], &b->ch[i]))
			fail_msg("width %llu: change %zu differs",
				 (unsigned long long)width, i);
	assert_int_equal(a->st_ncpus, b->st_ncpus);
	for (int i = 0; i < a->st_ncpus && i < 8; i++) {
		assert_int_equal(a->st_busy[i], b->st_busy[i]);
		assert_int_equal(a->st_idle[i], b->st_idle[i]);
		assert_int_equal(a->st_exits[i], b->st_exits[i]);
		assert_int_equal(a->st_inferred[i], b->st_inferred[i]);
		assert_int_equal(a->st_nfreqs[i], b->st_nfreqs[i]);
	}
}

static void test_same_timeline(void **state)
{
	static const struct {
		uint64_t width;
		size_t max;
		bool win;
	} shapes[] = {
		{0, 20000, false}, /* --perfetto's */
		{0, 400, false}, /* --html's */
		{0, 2, false}, /* merging at every bucket */
		{7 * 1000 * 1000, 0, false}, /* --interval 7 */
		{0, 20000, true},
		{333333, 0, true},
		/* 1 us in a window: the text traces' changes (at whole us)
		 * end on bucket edges, their wakeups in the bucket after
		 * their stretches' */
		{1000, 0, true},
	};
	int compared = 0;

	(void)state;
	for (size_t k = 0; k < sizeof(traces) / sizeof(traces[0]); k++) {
		for (size_t mi = 0; mi < sizeof(models) / sizeof(models[0]);
		     mi++) {
			for (size_t h = 0; h < sizeof(shapes) / sizeof(shapes[0]);
			     h++) {
				struct outcome a, b, c, d;

				run_way(traces[k], models[mi], LIVE,
					shapes[h].width, shapes[h].max,
					shapes[h].win, &a);
				run_way(traces[k], models[mi], TOGETHER,
					shapes[h].width, shapes[h].max,
					shapes[h].win, &b);
				run_way(traces[k], models[mi], ONE,
					shapes[h].width, shapes[h].max,
					shapes[h].win, &c);
				run_way(traces[k], models[mi], ONE_THREAD,
					shapes[h].width, shapes[h].max,
					shapes[h].win, &d);
				if (a.ok != b.ok || a.ok != c.ok || a.ok != d.ok)
					fail_msg("%s %s shape %zu: one way failed",
						 traces[k], models[mi], h);
				if (a.ok) {
					compared++;
					assert_same_outcome(&a, &b, shapes[h].width);
					assert_same_outcome(&a, &c, shapes[h].width);
					assert_same_outcome(&a, &d, shapes[h].width);
				}
				outcome_free(&a);
				outcome_free(&b);
				outcome_free(&c);
				outcome_free(&d);
			}
		}
	}
	/* most runs price: the comparison is not vacuous */
	assert_true(compared > 40);
}

/*
 * tests/fixtures/energy/odd-switches.txt (162 task switches on two CPUs,
 * 24.8 us, at odd gaps of ns) with two-cpu-odd.json (odd busy powers:
 * cluster energies split between the two CPUs are odd, so the deferral's
 * odd count matters, acct-defer.h): buckets of 1 ns (an edge between
 * every two switches: the deferral synced at each), 7 ns and 333 ns
 * (edges inside stretches of switches), automatic ones; in a window too.
 * The reference is the live path (ea_acct_live_ops, then ea_timeline_ops
 * reading the figures after every change, no deferral at all). Not
 * vacuous: with the collector first, as in report, task switches leave
 * the accountant deferring, and the timeline's buckets sum, column by
 * column (CPUs and the cluster), to the accountant's figures at the end.
 */
static void test_switch_sync(void **state)
{
	static const char trace[] = "tests/fixtures/energy/odd-switches.txt";
	static const char model[] = "tests/fixtures/energy/two-cpu-odd.json";
	static const struct {
		uint64_t width;
		size_t max;
		bool win;
	} shapes[] = {
		{1, 0, false}, {7, 0, false}, {333, 0, false},
		{0, 20000, false}, {0, 400, false}, {0, 2, false},
		{1, 0, true}, {0, 20000, true},
	};

	long threaded = 0;

	(void)state;
	deferring = 0;
	for (size_t h = 0; h < sizeof(shapes) / sizeof(shapes[0]); h++) {
		struct outcome a, b, c, d, e;
		long before;

		run_way(trace, model, LIVE, shapes[h].width, shapes[h].max,
			shapes[h].win, &a);
		run_way(trace, model, TOGETHER, shapes[h].width, shapes[h].max,
			shapes[h].win, &b);
		run_way(trace, model, WITH_STATS, shapes[h].width,
			shapes[h].max, shapes[h].win, &c);
		run_way(trace, model, ONE, shapes[h].width, shapes[h].max,
			shapes[h].win, &d);
		before = deferring;
		run_way(trace, model, WITH_STATS_THREAD, shapes[h].width,
			shapes[h].max, shapes[h].win, &e);
		threaded += deferring - before;
		assert_same_outcome(&a, &e, shapes[h].width);
		assert_same_outcome(&a, &b, shapes[h].width);
		assert_same_outcome(&a, &c, shapes[h].width);
		assert_same_outcome(&a, &d, shapes[h].width);
		/* the collector saw the switches (the window, 50 ms on, has
		 * none of the 24.8 us) */
		if (!shapes[h].win)
			assert_true(a.st_busy[0] > 0 && a.st_busy[1] > 0);
		outcome_free(&a);
		outcome_free(&b);
		outcome_free(&c);
		outcome_free(&d);
		outcome_free(&e);
	}
	assert_true(deferring - threaded > 100);
	/* with the thread too */
	assert_true(threaded > 100);
}

/* The buckets of odd-switches.txt's timeline (task switches, deferred,
 * synced at bucket edges) add up, per column, to the accountant's
 * figures at the end: each CPU's and the cluster's whole energy. */
static void test_switch_sync_sums(void **state)
{
	struct ea_state_config cfg = {.ncpus = -1};
	struct ea_acct_config acfg = {0};
	struct ea_consumer cons[1];
	struct ea_timeline tl;
	struct ea_model *m;
	struct ea_acct acct;
	struct ea_stats st;
	struct ea_timeline_stats ts = {&st, &tl};
	struct ea_run run;
	struct ea_err err;

	(void)state;
	if (ea_model_load(&m, "tests/fixtures/energy/two-cpu-odd.json", &err))
		fail_msg("%s", err.msg);
	assert_int_equal(ea_acct_init(&acct, m, &acfg, &err), 0);
	ea_acct_state_config(&acct, &cfg);
	cfg.ncpus = -1;
	assert_int_equal(ea_timeline_init(&tl, &acct, 5, 0, false), 0);
	ea_stats_init(&st);
	cons[0] = (struct ea_consumer){&ea_timeline_stats_ops, &ts};
	assert_int_equal(ea_run(&run, "tests/fixtures/energy/odd-switches.txt",
				&cfg, cons, 1, &err), 0);
	assert_int_equal(ea_acct_done(&acct, run.state, &err), 0);
	assert_int_equal(ea_timeline_done(&tl, run.state, &err), 0);
	assert_true(tl.nbuckets > 1000);	/* 24.8 us in 5 ns buckets */
	for (int col = 0; col < tl.ncols; col++) {
		/* columns: the CPUs, then the cluster */
		const struct ea_energy *e = col < tl.ncpus ?
			&acct.cpus[col].e : &acct.clusters[col - tl.ncpus].e;
		ea_energy_t sum = 0;

		for (size_t b = 0; b < tl.nbuckets; b++)
			sum += tl.e[b * (size_t)tl.stride + col];
		assert_true(sum == ea_energy_total(e));
	}
	ea_run_free(&run);
	ea_timeline_free(&tl);
	ea_stats_free(&st);
	ea_acct_free(&acct);
	ea_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_timeline),
		cmocka_unit_test(test_switch_sync),
		cmocka_unit_test(test_switch_sync_sums),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
