// SPDX-License-Identifier: GPL-2.0-only
/*
 * ea_run() with cfg.util_if_kernel_util (what `eatrace report` sets): PELT
 * is reconstructed only when the input may hold sched_load_cfs_rq events,
 * the kernel's util that the report's notes check it against. Everything
 * else (energy, CPU states, tasks, counts) is the same either way.
 */
#include <string.h>

#include "harness.h"

#define MODEL "tests/fixtures/energy/two-cpu.json"

struct util_run {
	struct ea_run run;
	struct ea_stats st;
	struct ea_acct acct;
	struct ea_model *model;
};

/* trace through statistics and accountant, as a report runs it */
static void util_run(struct util_run *u, const char *trace, const char *model,
		     bool util_if_kernel_util)
{
	struct ea_state_config cfg = { .ncpus = -1 };
	struct ea_acct_config acfg = { 0 };
	struct ea_consumer cons[2];
	struct ea_err err;

	memset(u, 0, sizeof(*u));
	ea_stats_init(&u->st);
	if (ea_model_load(&u->model, model, &err) ||
	    ea_acct_init(&u->acct, u->model, &acfg, &err))
		fail_msg("%s", err.msg);
	ea_acct_state_config(&u->acct, &cfg);
	cfg.ncpus = -1;
	cfg.util_if_kernel_util = util_if_kernel_util;
	cons[0] = (struct ea_consumer){ &ea_stats_ops, &u->st };
	cons[1] = (struct ea_consumer){ &ea_acct_ops, &u->acct };
	if (ea_run(&u->run, trace, &cfg, cons, 2, &err))
		fail_msg("%s", err.msg);
	if (ea_stats_done(&u->st, u->run.state))
		fail_msg("stats: %s", u->st.error);
	if (ea_acct_done(&u->acct, u->run.state, &err))
		fail_msg("%s", err.msg);
}

static void util_free(struct util_run *u)
{
	ea_stats_free(&u->st);
	ea_acct_free(&u->acct);
	ea_model_free(u->model);
	ea_run_free(&u->run);
}

static uint32_t util_sum(const struct util_run *u)
{
	uint32_t sum = 0;

	for (int i = 0; i < ea_state_ncpus(u->run.state); i++)
		sum += ea_state_cpu_util(u->run.state, i);
	return sum;
}

/* The same energy, events and tasks. */
static void assert_same_report(const struct util_run *a, const struct util_run *b)
{
	const struct ea_state_counts *ca = ea_state_counts(a->run.state);
	const struct ea_state_counts *cb = ea_state_counts(b->run.state);

	assert_memory_equal(&a->acct.total, &b->acct.total, sizeof(a->acct.total));
	assert_int_equal(a->acct.ntasks, b->acct.ntasks);
	for (size_t i = 0; i < a->acct.ntasks; i++) {
		assert_int_equal(a->acct.tasks[i].pid, b->acct.tasks[i].pid);
		assert_memory_equal(&a->acct.tasks[i].e, &b->acct.tasks[i].e,
				    sizeof(a->acct.tasks[i].e));
	}
	assert_int_equal(ca->events, cb->events);
	assert_int_equal(ca->resyncs, cb->resyncs);
	assert_int_equal(ca->wakeups_inferred, cb->wakeups_inferred);
	assert_int_equal(ea_state_ntasks(a->run.state),
			 ea_state_ntasks(b->run.state));
}

/*
 * wl-busy.dat (traces/vm/: a 2-vCPU VM running a busy loop) has no
 * sched_load_cfs_rq format (`trace-cmd report --events` lists none): no
 * PELT with the flag (every CPU's util 0), some without (a CPU busy for
 * seconds has util far above 0), and the same report.
 */
static void test_no_kernel_util_no_pelt(void **unused)
{
	struct util_run with, without;

	util_run(&without, "traces/vm/wl-busy.dat", MODEL, false);
	util_run(&with, "traces/vm/wl-busy.dat", MODEL, true);
	assert_true(util_sum(&without) > 0);
	assert_int_equal(util_sum(&with), 0);
	assert_int_equal(with.st.pelt.samples, 0);
	assert_same_report(&with, &without);
	util_free(&with);
	util_free(&without);
}

/*
 * report-raw.txt (tests/fixtures/text/) has one root sched_load_cfs_rq
 * line (cpu=2 path=/ ... util=345; the autogroup one is not the root):
 * text may hold any event, so PELT is kept and the check is the same as
 * without the flag, on one sample.
 */
static void test_kernel_util_kept(void **unused)
{
	struct util_run with, without;

	util_run(&without, "tests/fixtures/text/report-raw.txt", "juno-r0", false);
	util_run(&with, "tests/fixtures/text/report-raw.txt", "juno-r0", true);
	assert_int_equal(with.st.pelt.samples, 1);
	assert_int_equal(without.st.pelt.samples, 1);
	assert_true(util_sum(&with) > 0);
	assert_int_equal(util_sum(&with), util_sum(&without));
	assert_true(with.st.pelt.sum_abs_err == without.st.pelt.sum_abs_err);
	assert_same_report(&with, &without);
	util_free(&with);
	util_free(&without);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_kernel_util_no_pelt),
		cmocka_unit_test(test_kernel_util_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
