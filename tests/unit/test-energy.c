// SPDX-License-Identifier: GPL-2.0-only
/*
 * The accountant on hand-written fixtures, priced with
 * tests/fixtures/energy/two-cpu*.json (one cluster, CPUs 0-1):
 *   1 GHz: core 100, cluster 50      2 GHz: core 300, cluster 80   (mW)
 *   WFI:   core 10, cluster 20, wakeups core 0.5, cluster 2       (mW, mW s)
 *   OFF:   core 0,  cluster 5,  wakeups core 1,   cluster 4
 * Expected energies are worked out by hand below from the fixtures'
 * timelines (the headers of the fixtures in tests/fixtures/state). E_US(p, us) is p mW for
 * us microseconds, in the accountant's 1e-18 mW s units.
 */
#include <string.h>

#include "harness.h"

#define FIX "tests/fixtures/"
#define E_US(p, us) ((ea_energy_t)(p) * (us) * 1000000000000LL)
#define E_MILLI(m) ((ea_energy_t)(m) * 1000000000000000LL)	/* m x 1e-3 mW s */

static ea_energy_t sum_cpus(const struct ea_acct *a)
{
	ea_energy_t s = 0;

	for (int i = 0; i < a->trace_ncpus; i++)
		s += ea_energy_total(&a->cpus[i].e);
	return s;
}

static ea_energy_t sum_tasks(const struct ea_acct *a)
{
	ea_energy_t s = 0;

	for (size_t i = 0; i < a->ntasks; i++)
		s += ea_energy_total(&a->tasks[i].e);
	return s;
}

static ea_energy_t sum_states(const struct ea_acct *a)
{
	const struct ea_model *m = a->model;
	ea_energy_t s = 0;

	for (int i = 0; i < a->trace_ncpus; i++) {
		const struct ea_cluster *cl = &m->clusters[m->cpu_cluster[i]];

		for (int k = 0; k < cl->ncaps; k++)
			s += a->cpus[i].pstates[k].energy;
		for (int k = 0; k < cl->nidles; k++)
			s += a->cpus[i].cstates[k].energy;
	}
	return s;
}

static ea_energy_t sum_windows(const struct ea_acct *a)
{
	ea_energy_t s = 0;

	for (size_t i = 0; i < a->nwindows; i++)
		s += ea_energy_total(&a->windows[i]);
	return s;
}

static const struct ea_task_acct *task(const struct ea_acct *a, int pid)
{
	for (size_t i = 0; i < a->ntasks; i++)
		if (a->tasks[i].pid == pid)
			return &a->tasks[i];
	return NULL;
}

/*
 * swapper-idle.txt (no cpu_idle: idle = pid 0 in WFI; no cpu_frequency:
 * the highest OPP, 2 GHz, is assumed):
 *   CPU0 busy [0,300], idle [300,1000]; CPU1 idle [0,400], busy [400,1000]
 *   core busy    300 x 300 + 300 x 600 us
 *   core idle    10 x 700 + 10 x 400 us
 *   cluster busy 80 x 900 us (some CPU busy in [0,300] and [400,1000])
 *   cluster idle 20 x 100 us ([300,400], both in WFI)
 *   wakeups      CPU0 leaves idle at 0, CPU1 at 400, both times with the
 *                whole cluster idle: 2 x (0.5 + 2)
 */
static void test_swapper_idle_energy(void **unused)
{
	struct fixture_run f;
	const struct ea_acct *a = &f.acct;

	fixture_run(&f, FIX "state/swapper-idle.txt",
		    FIX "energy/two-cpu-shared.json", NULL);
	assert_true(a->total.core_busy == E_US(300, 300) + E_US(300, 600));
	assert_true(a->total.core_idle == E_US(10, 700) + E_US(10, 400));
	assert_true(a->total.cluster_busy == E_US(80, 900));
	assert_true(a->total.cluster_idle == E_US(20, 100));
	assert_true(a->total.core_wakeup == E_MILLI(1000));
	assert_true(a->total.cluster_wakeup == E_MILLI(4000));
	assert_int_equal(a->cpus[0].assumed_freq_ns, 300000);
	/* Task a pays its core, the whole cluster while alone, its wakeups. */
	assert_true(ea_energy_total(&task(a, 10)->e) ==
		    E_US(300, 300) + E_US(80, 300) + E_MILLI(2500));
	assert_true(ea_energy_total(&task(a, 20)->e) ==
		    E_US(300, 600) + E_US(80, 600) + E_MILLI(2500));
	/* Idle energy, core and cluster, goes to the idle task. */
	assert_true(ea_energy_total(&task(a, 0)->e) ==
		    E_US(10, 1100) + E_US(20, 100));
	assert_true(sum_cpus(a) == ea_energy_total(&a->total));
	assert_true(sum_tasks(a) == ea_energy_total(&a->total));
	assert_true(sum_states(a) == ea_energy_total(&a->total));
	fixture_free(&f);
}

/*
 * cpuidle-freq.txt, independent frequencies (two-cpu.json):
 *   CPU0 OFF [0,100], 1 GHz [100,300], 2 GHz [300,500], OFF [500,800],
 *        2 GHz [800,1000]
 *   CPU1 WFI [0,200], 2 GHz [200,400], OFF [400,1000]
 *   core busy    100 x 200 + 300 x 200 + 300 x 200 (CPU0) + 300 x 200 (CPU1)
 *   core idle    10 x 200 (CPU1 in WFI; OFF draws 0)
 *   cluster      [0,100] idle, shallowest WFI: 20 x 100
 *                [100,200] CPU0 at 1 GHz: 50 x 100
 *                [200,500] fastest busy CPU at 2 GHz: 80 x 300
 *                [500,800] both OFF: 5 x 300
 *                [800,1000] 2 GHz: 80 x 200
 *   wakeups      100: CPU0 leaves OFF (1), cluster was idle in WFI (2)
 *                200: CPU1 leaves WFI (0.5), cluster busy already
 *                800: CPU0 leaves OFF (1), cluster was idle in OFF (4)
 */
static void test_cpuidle_freq_energy(void **unused)
{
	struct fixture_run f;
	const struct ea_acct *a = &f.acct;
	ea_energy_t total;

	fixture_run(&f, FIX "state/cpuidle-freq.txt", FIX "energy/two-cpu.json", NULL);
	assert_true(a->total.core_busy ==
		    E_US(100, 200) + E_US(300, 400) + E_US(300, 200));
	assert_true(a->total.core_idle == E_US(10, 200));
	assert_true(a->total.cluster_busy ==
		    E_US(50, 100) + E_US(80, 300) + E_US(80, 200));
	assert_true(a->total.cluster_idle == E_US(20, 100) + E_US(5, 300));
	assert_true(a->total.core_wakeup == E_MILLI(2500));
	assert_true(a->total.cluster_wakeup == E_MILLI(6000));
	/* P-state time of the cluster: 1 GHz 100 us, 2 GHz 500 us. */
	assert_int_equal(a->clusters[0].pstates[0].ns, 100000);
	assert_int_equal(a->clusters[0].pstates[1].ns, 500000);
	/* C-states: cluster idle in WFI 100 us, OFF 300 us. */
	assert_int_equal(a->clusters[0].cstates[0].ns, 100000);
	assert_int_equal(a->clusters[0].cstates[1].ns, 300000);
	assert_int_equal(a->clusters[0].wakeups, 2);
	assert_int_equal(a->cpus[0].wakeups, 2);
	assert_int_equal(a->cpus[1].wakeups, 1);
	total = ea_energy_total(&a->total);
	assert_true(sum_cpus(a) == total);
	assert_true(sum_tasks(a) == total);
	assert_true(sum_states(a) == total);
	fixture_free(&f);
}

/* Zero wakeup energy, and 100 us windows that add up to the total. */
static void test_windows_and_no_wakeups(void **unused)
{
	struct ea_acct_config cfg = { .zero_wakeups = true, .interval_ns = 100000 };
	struct fixture_run f;
	const struct ea_acct *a = &f.acct;

	fixture_run(&f, FIX "state/cpuidle-freq.txt", FIX "energy/two-cpu.json", &cfg);
	assert_true(ea_energy_wakeup(&a->total) == 0);
	assert_int_equal(a->nwindows, 10);
	assert_true(sum_windows(a) == ea_energy_total(&a->total));
	/* Window [100,200]: CPU0 busy at 1 GHz (100), CPU1 WFI (10),
	 * cluster at 1 GHz (50), all for 100 us. */
	assert_true(ea_energy_total(&a->windows[1]) == E_US(160, 100));
	fixture_free(&f);
}

/*
 * wakeup-payer.txt on two-cpu-shared.json (CPU1 absent from the trace: the
 * cluster is CPU0 alone). No cpu_frequency until the end: 2 GHz assumed.
 *   a:     core 300 x 200 us + cluster 80 x 200 us, and the wakeup at
 *          100 us that it ran after: core 0.5 + cluster 2
 *   idle:  WFI core 10 x (100 + 200 + 400) us, cluster 20 x 700 us,
 *          pid 0 busy [500,600]: core 300 x 100, cluster 80 x 100, and the
 *          wakeup at 500 us after which no task ran: 0.5 + 2
 */
static void test_wakeup_payer(void **unused)
{
	struct fixture_run f;
	const struct ea_acct *a = &f.acct;

	fixture_run(&f, FIX "state/wakeup-payer.txt",
		    FIX "energy/two-cpu-shared.json", NULL);
	assert_true(ea_energy_total(&task(a, 10)->e) ==
		    E_US(300, 200) + E_US(80, 200) + E_MILLI(2500));
	assert_true(ea_energy_total(&task(a, 0)->e) ==
		    E_US(10, 700) + E_US(20, 700) + E_US(300, 100) +
		    E_US(80, 100) + E_MILLI(2500));
	assert_true(sum_tasks(a) == ea_energy_total(&a->total));
	fixture_free(&f);
}

/*
 * switches.txt (two-cpu.json, wakeups at 0): both CPUs busy over [0,1000]
 * us, CPU0 at 1 GHz, CPU1 at 2 GHz; most changes are task switches, which
 * the accountant prices on its fast path. By hand:
 *   core       CPU0 100 x 1000 us, CPU1 300 x 1000 us
 *   cluster    2 GHz (the faster busy CPU): 80 x 1000 us, half to each
 *              CPU, in its 2 GHz P-state's energy
 *   tasks      CPU0's (core 100 + share 40): a 250 us, b 150, c 600;
 *              CPU1's (core 300 + share 40): d 850 us, e 150
 * With time windows (one of 10 s) every change takes the general path:
 * every figure must be the same, the tasks' entries in the same order.
 */
static void test_switch_fast_path(void **unused)
{
	struct ea_acct_config fast_cfg = { .zero_wakeups = true };
	struct ea_acct_config slow_cfg = { .zero_wakeups = true,
					   .interval_ns = 10000000000ull };
	static const struct { int pid; int power_mw, us; } want[] = {
		{ 10, 140, 250 }, { 20, 140, 150 }, { 30, 140, 600 },
		{ 40, 340, 850 }, { 50, 340, 150 },
	};
	struct fixture_run f, g;
	const struct ea_acct *a = &f.acct, *b = &g.acct;

	fixture_run(&f, FIX "state/switches.txt", FIX "energy/two-cpu.json",
		    &fast_cfg);
	fixture_run(&g, FIX "state/switches.txt", FIX "energy/two-cpu.json",
		    &slow_cfg);
	assert_true(a->cpus[0].e.core_busy == E_US(100, 1000));
	assert_true(a->cpus[1].e.core_busy == E_US(300, 1000));
	assert_true(a->cpus[0].e.cluster_busy == E_US(40, 1000));
	assert_true(a->cpus[1].e.cluster_busy == E_US(40, 1000));
	assert_true(a->total.cluster_busy == E_US(80, 1000));
	assert_int_equal(a->cpus[0].pstates[0].ns, 1000000);
	/* a CPU's P-states: its core at its own, its share of the cluster's
	 * at the cluster's (2 GHz) */
	assert_true(a->cpus[0].pstates[0].energy == E_US(100, 1000));
	assert_true(a->cpus[0].pstates[1].energy == E_US(40, 1000));
	assert_true(a->cpus[1].pstates[1].energy == E_US(340, 1000));
	assert_int_equal(a->cpus[0].work, 1000000ull * 512);
	assert_int_equal(a->clusters[0].pstates[1].ns, 1000000);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct ea_task_acct *t = task(a, want[i].pid);

		assert_non_null(t);
		assert_true(ea_energy_total(&t->e) ==
			    E_US(want[i].power_mw, want[i].us));
		assert_int_equal(t->runtime_ns, want[i].us * 1000ull);
	}
	assert_true(sum_tasks(a) == ea_energy_total(&a->total));
	/* the statistics' switches: busy time at each CPU's frequency */
	assert_int_equal(f.st.cpus[0].busy_ns, 1000000);
	assert_int_equal(f.st.cpus[0].nfreqs, 1);
	assert_int_equal(f.st.cpus[0].freqs[0].ns, 1000000);
	assert_int_equal(f.st.cpus[1].freqs[0].freq_khz, 2000000);

	/* the general path's figures, field by field */
	assert_true(memcmp(&a->total, &b->total, sizeof(a->total)) == 0);
	for (int i = 0; i < 2; i++) {
		const struct ea_cpu_acct *x = &a->cpus[i], *y = &b->cpus[i];

		assert_true(memcmp(&x->e, &y->e, sizeof(x->e)) == 0);
		assert_int_equal(x->busy_ns, y->busy_ns);
		assert_int_equal(x->idle_ns, y->idle_ns);
		assert_int_equal(x->work, y->work);
		assert_true(x->assumed_freq_energy == y->assumed_freq_energy);
		assert_true(x->unmodelled_freq_energy == y->unmodelled_freq_energy);
		for (int k = 0; k < 2; k++) {
			assert_int_equal(x->pstates[k].ns, y->pstates[k].ns);
			assert_true(x->pstates[k].energy == y->pstates[k].energy);
		}
		assert_int_equal(f.st.cpus[i].busy_ns, g.st.cpus[i].busy_ns);
	}
	assert_true(memcmp(&a->clusters[0].e, &b->clusters[0].e,
			   sizeof(a->clusters[0].e)) == 0);
	assert_int_equal(a->clusters[0].busy_ns, b->clusters[0].busy_ns);
	assert_int_equal(a->ntasks, b->ntasks);
	for (size_t i = 0; i < a->ntasks; i++) {
		assert_int_equal(a->tasks[i].pid, b->tasks[i].pid);
		assert_true(memcmp(&a->tasks[i].e, &b->tasks[i].e,
				   sizeof(a->tasks[i].e)) == 0);
		assert_int_equal(a->tasks[i].runtime_ns, b->tasks[i].runtime_ns);
	}
	fixture_free(&f);
	fixture_free(&g);
}

/* Every figure of two accountants on the same trace and model alike, the
 * tasks' entries in the same order. */
static void assert_same_acct(const struct ea_acct *a, const struct ea_acct *b)
{
	const struct ea_model *m = a->model;

	assert_true(memcmp(&a->total, &b->total, sizeof(a->total)) == 0);
	for (int i = 0; i < m->ncpus; i++) {
		const struct ea_cpu_acct *x = &a->cpus[i], *y = &b->cpus[i];
		const struct ea_cluster *cl = &m->clusters[m->cpu_cluster[i]];

		assert_true(memcmp(&x->e, &y->e, sizeof(x->e)) == 0);
		assert_int_equal(x->busy_ns, y->busy_ns);
		assert_int_equal(x->idle_ns, y->idle_ns);
		assert_int_equal(x->inferred_ns, y->inferred_ns);
		assert_int_equal(x->unknown_ns, y->unknown_ns);
		assert_true(x->unknown_energy == y->unknown_energy);
		assert_int_equal(x->wakeups, y->wakeups);
		assert_int_equal(x->assumed_freq_ns, y->assumed_freq_ns);
		assert_int_equal(x->unmodelled_freq_ns, y->unmodelled_freq_ns);
		assert_true(x->assumed_freq_energy == y->assumed_freq_energy);
		assert_true(x->unmodelled_freq_energy == y->unmodelled_freq_energy);
		assert_int_equal(x->work, y->work);
		for (int k = 0; k <= cl->ncaps; k++) {
			assert_int_equal(x->pstates[k].ns, y->pstates[k].ns);
			assert_true(x->pstates[k].energy == y->pstates[k].energy);
		}
		assert_true(memcmp(x->cstates, y->cstates,
				   (cl->nidles + 1) * sizeof(*x->cstates)) == 0);
	}
	for (int c = 0; c < m->nclusters; c++) {
		const struct ea_cluster_acct *x = &a->clusters[c];
		const struct ea_cluster_acct *y = &b->clusters[c];
		const struct ea_cluster *cl = &m->clusters[c];

		assert_true(memcmp(&x->e, &y->e, sizeof(x->e)) == 0);
		assert_int_equal(x->busy_ns, y->busy_ns);
		assert_int_equal(x->idle_ns, y->idle_ns);
		assert_int_equal(x->wakeups, y->wakeups);
		assert_true(memcmp(x->pstates, y->pstates,
				   (cl->ncaps + 1) * sizeof(*x->pstates)) == 0);
		assert_true(memcmp(x->cstates, y->cstates,
				   (cl->nidles + 1) * sizeof(*x->cstates)) == 0);
	}
	assert_int_equal(a->ntasks, b->ntasks);
	for (size_t i = 0; i < a->ntasks; i++) {
		assert_int_equal(a->tasks[i].pid, b->tasks[i].pid);
		assert_string_equal(a->tasks[i].comm, b->tasks[i].comm);
		assert_true(memcmp(&a->tasks[i].e, &b->tasks[i].e,
				   sizeof(a->tasks[i].e)) == 0);
		assert_int_equal(a->tasks[i].runtime_ns, b->tasks[i].runtime_ns);
	}
}

/*
 * stretches.txt (two-cpu.json): stretches of task switches, whose figures
 * the accountant defers (src/energy/acct-lazy.h), between changes of every
 * other kind (an idle CPU, a wakeup its next task pays, one busy CPU, new
 * tasks, a frequency the model lacks, one never reported). With time
 * windows (one of 10 s) every change takes the general path: every figure
 * must be the same, the tasks' entries in the same order; with and without
 * the per-task attribution.
 */
static void test_stretches(void **unused)
{
	for (int no_tasks = 0; no_tasks < 2; no_tasks++) {
		struct ea_acct_config fast_cfg = { .no_tasks = no_tasks };
		struct ea_acct_config slow_cfg = { .no_tasks = no_tasks,
						   .interval_ns = 10000000000ull };
		struct fixture_run f, g;

		fixture_run(&f, FIX "energy/stretches.txt",
			    FIX "energy/two-cpu.json", &fast_cfg);
		fixture_run(&g, FIX "energy/stretches.txt",
			    FIX "energy/two-cpu.json", &slow_cfg);
		assert_same_acct(&f.acct, &g.acct);
		assert_int_equal(f.acct.ntasks, no_tasks ? 0 : 8);
		if (!no_tasks)	/* a paid the OFF wakeup, f the WFI one */
			assert_true(sum_tasks(&f.acct) ==
				    ea_energy_total(&f.acct.total));
		assert_true(f.acct.cpus[1].assumed_freq_energy > 0);
		assert_true(f.acct.cpus[0].unmodelled_freq_energy > 0);
		fixture_free(&f);
		fixture_free(&g);
	}
}

/* fixture_run()'s start: the statistics, the model and the accountant
 * made ready for a run configured by cfg. */
static void fixture_begin(struct fixture_run *f, const char *model,
			  struct ea_state_config *cfg)
{
	struct ea_acct_config acfg = { 0 };
	struct ea_err err;

	memset(f, 0, sizeof(*f));
	ea_stats_init(&f->st);
	if (ea_model_load(&f->model, model, &err) ||
	    ea_acct_init(&f->acct, f->model, &acfg, &err))
		fail_msg("%s", err.msg);
	ea_acct_state_config(&f->acct, cfg);
}

/* fixture_run()'s end: trace run through the n consumers, then the
 * accountant's and the statistics' figures completed. */
static void fixture_end(struct fixture_run *f, const char *trace,
			struct ea_state_config *cfg,
			const struct ea_consumer *cons, int n)
{
	struct ea_err err;

	if (ea_run(&f->run, trace, cfg, cons, n, &err) ||
	    ea_acct_done(&f->acct, f->run.state, &err))
		fail_msg("%s", err.msg);
	if (ea_stats_done(&f->st, f->run.state))
		fail_msg("stats: %s", f->st.error);
}

/* fixture_run() with the statistics' and the accountant's ops without
 * task_switch(): the state stage gives them every change through
 * cpu_change(), as to a timeline (the accountant's figures kept live). */
static void fixture_run_changes(struct fixture_run *f, const char *trace,
				const char *model)
{
	struct ea_state_config cfg = { .ncpus = -1 };
	struct ea_state_ops so = ea_stats_ops, ao = ea_acct_ops;
	struct ea_consumer cons[2];

	so.task_switch = NULL;
	ao.task_switch = NULL;
	fixture_begin(f, model, &cfg);
	cons[0] = (struct ea_consumer){ &so, &f->st };
	cons[1] = (struct ea_consumer){ &ao, &f->acct };
	fixture_end(f, trace, &cfg, cons, 2);
}

/* fixture_run() with the statistics and the accountant as one consumer
 * (ea_stats_acct_ops, as `eatrace report` without pictures). */
static void fixture_run_both(struct fixture_run *f, const char *trace,
			     const char *model)
{
	struct ea_state_config cfg = { .ncpus = -1 };
	struct ea_stats_acct both = { &f->st, &f->acct };
	struct ea_consumer cons;

	fixture_begin(f, model, &cfg);
	cons = (struct ea_consumer){ &ea_stats_acct_ops, &both };
	fixture_end(f, trace, &cfg, &cons, 1);
}

/* The statistics' CPU figures of two runs alike. */
static void assert_same_stats(const struct ea_stats *a, const struct ea_stats *b)
{
	assert_int_equal(a->ncpus, b->ncpus);
	for (int i = 0; i < a->ncpus; i++) {
		const struct ea_cpu_stats *x = &a->cpus[i], *y = &b->cpus[i];

		assert_int_equal(x->busy_ns, y->busy_ns);
		assert_int_equal(x->idle_ns, y->idle_ns);
		assert_int_equal(x->inferred_ns, y->inferred_ns);
		assert_int_equal(x->unknown_ns, y->unknown_ns);
		assert_int_equal(x->idle_exits, y->idle_exits);
		assert_int_equal(x->nfreqs, y->nfreqs);
		assert_true(memcmp(x->freqs, y->freqs,
				   x->nfreqs * sizeof(*x->freqs)) == 0);
		assert_int_equal(x->nidle, y->nidle);
		assert_true(memcmp(x->idle, y->idle, sizeof(x->idle)) == 0);
	}
}

/*
 * odd-switches.txt (two-cpu-odd.json: busy powers odd in the model's
 * 1e-9 quantum, 300.000000003 and 80.000000001 mW at 2 GHz): task
 * switches at odd nanosecond intervals, so that the cluster's energies
 * split between its two busy CPUs are odd, in stretches with two sharers
 * and with one (CPU1 idle), new tasks among them. The accountant and the
 * statistics through the state stage's task_switch() (the accountant's
 * energies deferred, src/energy/acct-defer.h), through cpu_change() only
 * (kept live, as for a timeline) and through the general path (time
 * windows), and through the two as one consumer (ea_stats_acct_ops):
 * every figure alike, the tasks' entries in the same order. By hand: the cluster is busy at 2 GHz throughout (the faster CPU's),
 * CPU1 always at 2 GHz: E = power x busy time, in 1e-18 mW s per ns.
 */
static void test_task_switch_odd(void **unused)
{
	struct ea_acct_config slow_cfg = { .interval_ns = 10000000000ull };
	struct fixture_run f, g, h, k;
	const struct ea_acct *a = &f.acct;

	fixture_run(&f, FIX "energy/odd-switches.txt",
		    FIX "energy/two-cpu-odd.json", NULL);
	fixture_run_changes(&g, FIX "energy/odd-switches.txt",
			    FIX "energy/two-cpu-odd.json");
	fixture_run(&h, FIX "energy/odd-switches.txt",
		    FIX "energy/two-cpu-odd.json", &slow_cfg);
	fixture_run_both(&k, FIX "energy/odd-switches.txt",
			 FIX "energy/two-cpu-odd.json");
	assert_true(a->total.cluster_busy ==
		    (ea_energy_t)80000000001 * a->clusters[0].busy_ns);
	assert_true(a->cpus[1].e.core_busy ==
		    (ea_energy_t)300000000003 * a->cpus[1].busy_ns);
	assert_true(a->cpus[0].e.cluster_busy + a->cpus[1].e.cluster_busy ==
		    a->total.cluster_busy);
	assert_int_equal(a->ntasks, 9);
	assert_true(sum_tasks(a) == ea_energy_total(&a->total));
	assert_same_acct(a, &g.acct);
	assert_same_acct(a, &h.acct);
	assert_same_acct(a, &k.acct);
	assert_same_stats(&f.st, &g.st);
	assert_same_stats(&f.st, &h.st);
	assert_same_stats(&f.st, &k.st);
	fixture_free(&f);
	fixture_free(&g);
	fixture_free(&h);
	fixture_free(&k);
}

/* The exact decimal rendering of energies. */
static void test_energy_format(void **unused)
{
	char b[64];

	assert_string_equal(ea_energy_fmt(b, E_US(300, 300)), "0.09");
	assert_string_equal(ea_energy_fmt(b, E_MILLI(2500)), "2.5");
	assert_string_equal(ea_energy_fmt(b, 1), "0.000000000000000001");
	assert_string_equal(ea_energy_fmt(b, 0), "0");
	assert_string_equal(ea_energy_fmt(b, -E_MILLI(1500)), "-1.5");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_swapper_idle_energy),
		cmocka_unit_test(test_cpuidle_freq_energy),
		cmocka_unit_test(test_windows_and_no_wakeups),
		cmocka_unit_test(test_wakeup_payer),
		cmocka_unit_test(test_switch_fast_path),
		cmocka_unit_test(test_stretches),
		cmocka_unit_test(test_task_switch_odd),
		cmocka_unit_test(test_energy_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
