// SPDX-License-Identifier: GPL-2.0-only
/*
 * `cfs` as mainline's select_task_rq_fair() (v6.18, docs/cfs-reference.md):
 * wake_wide(), wake_affine() (idle and weight), select_idle_sibling()
 * (target, prev, the per-CPU kthread, recent_used_cpu, select_idle_cpu()
 * with SIS_UTIL's limit), select_idle_capacity() and the idlest-group
 * search of forks, each placement derived by hand from the kernel's rules
 * beside it.
 *
 * Platforms: tests/fixtures/models/vm-2cpu.json (CPUs 0 and 1, one LLC,
 * capacity 1024: symmetric) and tc2 (A15 CPUs 0-1 capacity 2015, one LLC;
 * A7 CPUs 2-4 capacity 1024, another: asymmetric). A task fits a CPU when
 * util x 1280 < capacity x 1024 (util_fits_cpu()'s 80%).
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "replay/policy.h"

static struct ea_model *vm, *tc2;
static struct rp_topo *vm_topo, *tc2_topo;

struct scen {
	uint32_t util[5], load[5];
	int cap[5], nr[5], scan[5];
	uint64_t stamp[5];
	struct rp_env env;
};

static int setup(void **state)
{
	struct ea_err err;

	if (ea_model_load(&vm, "tests/fixtures/models/vm-2cpu.json", &err) ||
	    ea_model_load(&tc2, "tc2", &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	vm_topo = rp_topo_new(vm, 2);
	tc2_topo = rp_topo_new(tc2, 5);
	return vm_topo && tc2_topo ? 0 : -1;
}

static int teardown(void **state)
{
	rp_topo_free(vm_topo);
	rp_topo_free(tc2_topo);
	ea_model_free(vm);
	ea_model_free(tc2);
	return 0;
}

static struct rp_env *env(struct scen *s, bool on_tc2)
{
	const struct ea_model *m = on_tc2 ? tc2 : vm;

	s->env = (struct rp_env){.model = m,
				 .ncpus = on_tc2 ? 5 : 2,
				 .util = s->util,
				 .cap_idx = s->cap,
				 .nr = s->nr,
				 .asymmetric = rp_asymmetric(m),
				 .topo = on_tc2 ? tc2_topo : vm_topo,
				 .load = s->load,
				 .idle_stamp = s->stamp,
				 .nr_idle_scan = s->scan};
	return &s->env;
}

/* The domains from the models: vm one LLC of 2; tc2 the A15s and the A7s,
 * asymmetric. */
static void topology(void **state)
{
	assert_int_equal(vm_topo->nllc, 1);
	assert_int_equal(vm_topo->llc_size[0], 2);
	assert_false(vm_topo->asym);
	assert_int_equal(tc2_topo->nllc, 2);
	assert_int_equal(tc2_topo->llc[1], 0);
	assert_int_equal(tc2_topo->llc[2], 1);
	assert_int_equal(tc2_topo->llc_size[1], 3);
	assert_int_equal(tc2_topo->llc_first[1], 2);
	assert_true(tc2_topo->asym);
}

/*
 * vm, prev 0 busy, CPU 1 idle (every LLC may scan its 2 CPUs).
 *  a. woken from CPU 1 (an interrupt there): not wake_wide (no flips);
 *     wake_affine_idle(): this_cpu 1 idle and shares prev's LLC, prev not
 *     idle: this_cpu; select_idle_sibling(): target 1 idle: 1.
 *  b. woken from CPU 0 (= prev): no wake_affine; target 0 busy, prev =
 *     target, no recent CPU; select_idle_cpu() from 0 + 1: CPU 1 idle: 1.
 *  c. as b, SIS_UTIL's nr_idle_scan 0 (a busy LLC): no scan: target 0.
 *  d. as a, wake_wide(): the wakee flips 2 >= the LLC's 2 CPUs and the
 *     waker's 4 >= 2 x 2: no wake_affine, target prev 0; busy; the scan
 *     is off (c): 0.
 */
static void idle_sibling(void **state)
{
	struct scen s = {.nr = {1, 0}, .util = {300, 0}, .scan = {2}};
	struct rp_wakee p = {
		.util = 100, .prev_cpu = 0, .waker_cpu = 1, .load_cpu = 0};

	assert_int_equal(rp_policy_cfs.select_cpu(env(&s, false), &p), 1);
	p.waker_cpu = 0;
	assert_int_equal(rp_policy_cfs.select_cpu(env(&s, false), &p), 1);
	s.scan[0] = 0;
	assert_int_equal(rp_policy_cfs.select_cpu(env(&s, false), &p), 0);
	p.waker_cpu = 1;
	p.waker_flips = 4;
	p.wakee_flips = 2;
	assert_int_equal(rp_policy_cfs.select_cpu(env(&s, false), &p), 0);
	p.waker_flips = 3; /* 3 < 2 x 2: not wide: a's answer, 1 */
	assert_int_equal(rp_policy_cfs.select_cpu(env(&s, false), &p), 1);
}

/*
 * vm, both CPUs busy, the task's prev 0, woken from CPU 1, no scan left.
 *  a. sync, the waker alone on CPU 1: wake_affine_idle() answers
 *     this_cpu; nothing idle: target 1.
 *  b. not sync: wake_affine_weight(), task load 100: this_eff = (load[1]
 *     + 100) x 100 x cap(prev) 1024, prev_eff = (load[0] - 100) x (100 +
 *     17 / 2 = 108) x 1024. load 800 / 200: 30,720,000 < 77,414,400:
 *     CPU 1. load 800 / 700: 81,920,000 >= 77,414,400: prev 0.
 *  c. sync with the waker's load 400 of CPU 1's 700: 700 - 400 + 100 =
 *     400 x 100 x 1024 = 40,960,000 < 77,414,400 + 1: CPU 1.
 */
static void affine(void **state)
{
	struct scen s = {.nr = {1, 1},
			 .util = {300, 300},
			 .load = {800, 200},
			 .scan = {0}};
	struct rp_wakee p = {.util = 100,
			     .prev_cpu = 0,
			     .waker_cpu = 1,
			     .load = 100,
			     .load_cpu = 0,
			     .sync = true,
			     .waker_load = 100};
	struct rp_why why = {0};

	s.load[1] = 700;
	assert_int_equal(rp_policy_cfs.select_cpu(env(&s, false), &p), 1);
	p.sync = false;
	s.load[1] = 200;
	p.why = &why;
	assert_int_equal(rp_policy_cfs.select_cpu(env(&s, false), &p), 1);
	assert_string_equal(why.affine, "affine:weight");
	assert_true(why.compared);
	s.load[1] = 700;
	assert_int_equal(rp_policy_cfs.select_cpu(env(&s, false), &p), 0);
	p.sync = true;
	p.waker_load = 400;
	s.nr[1] = 2; /* not alone: wake_affine_idle() has no opinion */
	assert_int_equal(rp_policy_cfs.select_cpu(env(&s, false), &p), 1);
}

/*
 * vm, prev 0 busy, woken from CPU 0, CPU 1 idle, scan allowed.
 *  a. the waker a per-CPU kthread on prev, alone there (nr 1): prev 0,
 *     though CPU 1 is idle;
 *  b. p->recent_used_cpu 1 (not prev, not target, same LLC, idle): 1,
 *     "sis:recent", and recent_used_cpu becomes prev 0.
 */
static void kthread_recent(void **state)
{
	struct scen s = {.nr = {1, 0}, .util = {300, 0}, .scan = {2}};
	int recent = 1;
	struct rp_why why = {0};
	struct rp_wakee p = {.util = 100,
			     .prev_cpu = 0,
			     .waker_cpu = 0,
			     .waker_kthread = true,
			     .load_cpu = 0};

	assert_int_equal(rp_policy_cfs.select_cpu(env(&s, false), &p), 0);
	p.waker_kthread = false;
	p.recent_used_cpu = &recent;
	p.why = &why;
	assert_int_equal(rp_policy_cfs.select_cpu(env(&s, false), &p), 1);
	assert_string_equal(why.path, "sis:recent");
	assert_false(why.compared);
	assert_int_equal(recent, 0);
}

/*
 * tc2 (asymmetric), prev A7 CPU 2 busy, woken from CPU 2, CPU 3 and A15
 * CPU 0 idle (1, 4 busy). select_idle_capacity() from 2: 2, 3, 4, 0, 1.
 *  a. util 100 fits the A7s (125 < 1024): CPU 3;
 *  b. util 900 does not (1125 > 1024): 3 is the biggest idle so far, then
 *     0 fits (1125 < 2015): CPU 0;
 *  c. as b with CPU 0 busy: none fits, the idle CPU of highest capacity,
 *     3.
 *  d. util 900, prev 2 idle: target 2 is idle but too small; the scan from
 *     2 finds 0 first to fit: CPU 0.
 */
static void idle_capacity(void **state)
{
	struct scen s = {.nr = {0, 1, 1, 0, 1}};
	struct rp_wakee p = {
		.util = 100, .prev_cpu = 2, .waker_cpu = 2, .load_cpu = 2};

	assert_int_equal(rp_policy_cfs.select_cpu(env(&s, true), &p), 3);
	p.util = 900;
	assert_int_equal(rp_policy_cfs.select_cpu(env(&s, true), &p), 0);
	s.nr[0] = 1;
	assert_int_equal(rp_policy_cfs.select_cpu(env(&s, true), &p), 3);
	s.nr[0] = 0;
	s.nr[2] = 0;
	assert_int_equal(rp_policy_cfs.select_cpu(env(&s, true), &p), 0);
}

/*
 * Forks, sched_balance_find_dst_cpu() from the parent's CPU 2 on tc2 (new
 * task: util 0, fits everywhere, so no group is misfit).
 *  a. all idle: PKG: local A7 group has_spare with 3 idle CPUs, the A15
 *     group 2: local kept (3 >= 2). MC in the A7s: CPUs 3 and 4 have 1
 *     idle CPU each as the local 2 does: kept. CPU 2.
 *  b. A7s each running one task (util 300, runnable as util): A7 group
 *     nr 3 = weight, 3 x 1024 x 100 > 900 x 117: has_spare, 0 idle; A15s
 *     has_spare, 2 idle: the A15s (0 < 2). Their idlest CPU: both idle
 *     with no idle state known, the most recent idle_stamp: CPU 1 (stamp
 *     20 > 10). Then MC from CPU 1: CPU 0 has 1 idle CPU as CPU 1: kept.
 *     CPU 1.
 */
static void fork_idlest(void **state)
{
	struct scen s = {0};
	struct rp_wakee p = {
		.prev_cpu = 2, .waker_cpu = 2, .fork = true, .load_cpu = -1};

	assert_int_equal(rp_policy_cfs.select_fork(env(&s, true), &p), 2);
	for (int c = 2; c < 5; c++) {
		s.nr[c] = 1;
		s.util[c] = 300;
		s.load[c] = 300;
	}
	s.stamp[0] = 10;
	s.stamp[1] = 20;
	assert_int_equal(rp_policy_cfs.select_fork(env(&s, true), &p), 1);
	s.stamp[0] = 30;
	assert_int_equal(rp_policy_cfs.select_fork(env(&s, true), &p), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(topology),
		cmocka_unit_test(idle_sibling),
		cmocka_unit_test(affine),
		cmocka_unit_test(kthread_recent),
		cmocka_unit_test(idle_capacity),
		cmocka_unit_test(fork_idlest),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
