// SPDX-License-Identifier: GPL-2.0-only
/*
 * Each CPU's state as a consumer is told of its changes
 * (src/output/timeline-cpus.h, which src/output/timeline-acct.c keeps so
 * that a task switch has the state it ends without ea_state_cpu()).
 *
 * Expected values: the state stage's own, ea_state_cpu(s, cpu), which
 * is the state before the change during every call
 * (include/eatrace/state.h), and cpu_change()'s old: a source
 * independent of the kept copy. A consumer keeps the copy exactly as
 * timeline-acct.c does (read from the state stage when not known, then
 * each change's new and each switch's pid) and compares it at every call
 * where it is known, on traces of several shapes (switch-heavy, forks,
 * periodic, VM, text), as the only consumer (the state gives task
 * switches as such, src/state/cpu.c's enter_pid()) and as the second of
 * two (enter_as()'s tell()). The copy must be known at most of the
 * switches (the saving depends on it) and never differ. The test fails
 * when the copy forgets a switch's pid (checked: a run with the switch
 * not applied finds differences on every trace with switches).
 *
 * And the helpers on a hand-made sequence: not known (-1) at first; read
 * gives the state and cluster; a switch changes the pid alone; a change
 * gives its new state, the trace's end (NULL) forgets it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "eatrace/pipeline.h"
#include "eatrace/state.h"
#include "output/timeline-cpus.h"

#define MAXCPUS 64

static const char *const traces[] = {
	"traces/cfs/fork-loaded.dat",
	"traces/cfs/mixed.dat",
	"traces/cfs/pingpong-loaded.dat",
	"traces/cfs/periodic.dat",
	"traces/demo/tc2-seven-tasks.txt",
	"traces/replay/seven-periodic.txt",
	"traces/replay/five-busy.txt",
	"traces/vm/wl-busy.dat",
	"traces/vm/vm-v7.dat",
	"traces/diff/heavy-1.dat",
};

struct kept {
	struct tl_cpu_seen c[MAXCPUS];
	bool skip_switch; /* the broken copy: a switch's pid not kept */
	long switches, known, differ;
};

static bool same(const struct ea_cpu_state *a, const struct ea_cpu_state *b)
{
	return a->mode == b->mode && a->inferred == b->inferred &&
	       a->idle_state == b->idle_state && a->pid == b->pid &&
	       a->freq_khz == b->freq_khz;
}

static void kept_change(void *ctx, const struct ea_state *s, int cpu,
			uint64_t since, uint64_t now,
			const struct ea_cpu_state *old,
			const struct ea_cpu_state *new)
{
	struct kept *k = ctx;

	assert_true(cpu >= 0 && cpu < MAXCPUS);
	assert_true(same(old, ea_state_cpu(s, cpu)));
	if (k->c[cpu].ci >= 0 && !same(&k->c[cpu].st, old))
		k->differ++;
	tl_cpu_seen_change(&k->c[cpu], new, 0);
}

static void kept_switch(void *ctx, const struct ea_state *s, int cpu,
			uint64_t since, uint64_t now, int32_t pid)
{
	struct kept *k = ctx;
	const struct ea_cpu_state *st = ea_state_cpu(s, cpu);

	assert_true(cpu >= 0 && cpu < MAXCPUS);
	k->switches++;
	if (k->c[cpu].ci < 0) {
		tl_cpu_seen_read(&k->c[cpu], st, 0);
	} else {
		k->known++;
		if (!same(&k->c[cpu].st, st))
			k->differ++;
	}
	if (!k->skip_switch)
		tl_cpu_seen_switch(&k->c[cpu], pid);
}

static const struct ea_state_ops kept_ops = {
	.cpu_change = kept_change,
	.task_switch = kept_switch,
};

/* a first consumer that takes every change as cpu_change() */
static void other_change(void *ctx, const struct ea_state *s, int cpu,
			 uint64_t since, uint64_t now,
			 const struct ea_cpu_state *old,
			 const struct ea_cpu_state *new)
{
}

static const struct ea_state_ops other_ops = {
	.cpu_change = other_change,
};

static void run_kept(const char *trace, bool second, bool skip_switch,
		     struct kept *k)
{
	struct ea_state_config cfg = {.ncpus = -1};
	struct ea_consumer cons[2];
	struct ea_run run;
	struct ea_err err;
	int other = 0;

	memset(k, 0, sizeof(*k));
	k->skip_switch = skip_switch;
	for (int i = 0; i < MAXCPUS; i++)
		tl_cpu_seen_forget(&k->c[i]);
	cons[0] = (struct ea_consumer){&other_ops, &other};
	cons[second] = (struct ea_consumer){&kept_ops, k};
	if (ea_run(&run, trace, &cfg, cons, second ? 2 : 1, &err))
		fail_msg("%s: %s", trace, err.msg);
	ea_run_free(&run);
}

static void test_kept_as_told(void **state)
{
	long switches = 0, known = 0;

	for (size_t i = 0; i < sizeof(traces) / sizeof(traces[0]); i++) {
		for (int second = 0; second < 2; second++) {
			struct kept k;

			run_kept(traces[i], second, false, &k);
			if (k.differ)
				fail_msg("%s (%s consumer): %ld switches of %ld "
					 "differ",
					 traces[i], second ? "second" : "only",
					 k.differ, k.known);
			/* known at all but each CPU's first switches */
			assert_true(k.known + MAXCPUS >= k.switches);
			switches += k.switches;
			known += k.known;
		}
	}
	/* the traces have switches, and the copy served most */
	assert_true(switches > 10000);
	assert_true(known * 10 > switches * 9);
}

/* The check can fail: the copy without the switches' pids differs. */
static void test_switch_pid_needed(void **state)
{
	for (size_t i = 0; i < sizeof(traces) / sizeof(traces[0]); i++) {
		struct kept k;

		run_kept(traces[i], false, true, &k);
		if (k.switches > 2 * MAXCPUS)
			assert_true(k.differ > 0);
	}
}

static void test_helpers(void **state)
{
	struct tl_cpu_seen c;
	struct ea_cpu_state a = {.mode = EA_CPU_BUSY,
				 .inferred = 0,
				 .idle_state = EA_IDLE_NONE,
				 .pid = 42,
				 .freq_khz = 1000000};
	struct ea_cpu_state b = {.mode = EA_CPU_IDLE,
				 .inferred = 1,
				 .idle_state = 2,
				 .pid = 0,
				 .freq_khz = 500000};

	tl_cpu_seen_forget(&c);
	assert_int_equal(c.ci, -1);
	tl_cpu_seen_read(&c, &a, 3);
	assert_int_equal(c.ci, 3);
	assert_true(same(&c.st, &a));
	tl_cpu_seen_switch(&c, 7);
	/* a with pid 7: mode busy, freq 1 GHz, idle state none */
	assert_int_equal(c.st.pid, 7);
	assert_int_equal(c.st.mode, EA_CPU_BUSY);
	assert_int_equal(c.st.freq_khz, 1000000);
	assert_int_equal(c.st.idle_state, EA_IDLE_NONE);
	assert_int_equal(c.ci, 3);
	tl_cpu_seen_change(&c, &b, 1);
	assert_true(same(&c.st, &b));
	assert_int_equal(c.ci, 1);
	tl_cpu_seen_change(&c, NULL, 1);
	assert_int_equal(c.ci, -1);
	/* a CPU in no cluster stays not known (-1) even when read */
	tl_cpu_seen_read(&c, &a, -1);
	assert_int_equal(c.ci, -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_helpers),
		cmocka_unit_test(test_kept_as_told),
		cmocka_unit_test(test_switch_pid_needed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
