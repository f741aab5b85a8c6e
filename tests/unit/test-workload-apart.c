// SPDX-License-Identifier: GPL-2.0-only
/*
 * The workload's extraction on a thread of its own
 * (src/replay/workload-apart.c): extracted through ea_workload_apart_ops,
 * the workload must be the one ea_workload_ops makes on the reading
 * thread, field for field (tasks, activations, wakers, counts, the
 * per-CPU timelines a replay reads), and replay to the same events. The
 * reference is that extraction itself, not figures of this file. The
 * traces: the demo's text trace and a trace.dat with idle and frequency
 * events (counted alone, as a record's skip count) over many blocks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "replay-events.h"
#include "replay/policy.h"
#include "replay/sim.h"

static struct ea_model *tc2;

static void load(void **state)
{
	struct ea_err err;

	if (!tc2 && ea_model_load(&tc2, "tc2", &err))
		fail_msg("%s", err.msg);
}

/* path's workload on tc2, extracted apart or not; *run kept. */
static struct ea_workload *extract(const char *path, bool apart, bool segments,
				   struct ea_run *run)
{
	struct ea_workload_config wcfg = {.model = tc2,
					  .source_capacity = 1024,
					  .no_segments = !segments};
	struct ea_state_config cfg = {.ncpus = -1};
	struct ea_workload_apart *wa = NULL;
	struct ea_workload *w;
	struct ea_consumer cons;
	struct ea_err err;
	int rc;

	assert_int_equal(ea_workload_new(&w, &wcfg), 0);
	cons = (struct ea_consumer){&ea_workload_ops, w};
	if (apart) {
		assert_int_equal(ea_workload_apart_start(&wa, w), 0);
		assert_non_null(wa);
		cons = (struct ea_consumer){&ea_workload_apart_ops, wa};
	}
	rc = ea_run(run, path, &cfg, &cons, 1, &err);
	ea_workload_apart_end(wa);
	if (rc || ea_workload_done(w, run->state, &err))
		fail_msg("%s: %s", path, err.msg);
	return w;
}

static struct digest replay(const struct ea_workload *w, const char *pol)
{
	struct digest d = DIGEST_INIT;
	struct sim s;

	assert_int_equal(sim_init(&s, w, tc2, rp_policy_get(pol),
				  RP_GOV_SCHEDUTIL, RP_IDLE_MENU, false, 0),
			 0);
	s.sink = digest_event;
	s.sink_ctx = &d;
	assert_int_equal(sim_run(&s), 0);
	sim_free(&s);
	return d;
}

/* path's workload extracted both ways: the same, and replayed alike. */
static void compare(const char *path)
{
	for (int seg = 0; seg < 2; seg++) {
		struct ea_run run[2];
		struct ea_workload *w[2];
		const struct ea_workload_counts *c[2];

		for (int j = 0; j < 2; j++) {
			w[j] = extract(path, j, seg, &run[j]);
			c[j] = ea_workload_counts(w[j]);
		}
		assert_true(c[0]->activations > 100);
		assert_memory_equal(c[0], c[1], sizeof(*c[0]));
		assert_int_equal(w[0]->seq, w[1]->seq);
		assert_int_equal(w[0]->lost, w[1]->lost);
		assert_int_equal(w[0]->ntasks, w[1]->ntasks);
		assert_int_equal(w[0]->ncpus, w[1]->ncpus);
		assert_int_equal(w[0]->nbusy0, w[1]->nbusy0);
		assert_int_equal(w[0]->nfreqs, w[1]->nfreqs);
		assert_int_equal(w[0]->noffs, w[1]->noffs);
		for (size_t i = 0; i < w[0]->ntasks; i++) {
			const struct rp_task *a = &w[0]->tasks[i],
					     *b = &w[1]->tasks[i];

			assert_int_equal(a->pid, b->pid);
			assert_memory_equal(a->comm, b->comm, EA_COMM_LEN);
			assert_int_equal(a->prio, b->prio);
			assert_int_equal(a->nacts, b->nacts);
			for (size_t k = 0; k < a->nacts; k++) {
				struct rp_act x = rp_task_act(a, k),
					      y = rp_task_act(b, k);
				struct rp_waker u = rp_task_waker(a, k),
						v = rp_task_waker(b, k);

				assert_true(
					x.release == y.release &&
					x.eligible == y.eligible &&
					x.end == y.end && x.work == y.work &&
					x.ran_ns == y.ran_ns &&
					x.seq_in == y.seq_in &&
					x.seq_out == y.seq_out &&
					x.cpu == y.cpu && x.flags == y.flags);
				assert_memory_equal(&u, &v, sizeof(u));
			}
		}
		for (int k = 0; k < 3; k++) {
			const char *pol = k == 0   ? "feec"
					  : k == 1 ? "cfs"
						   : "recorded";
			struct digest d0, d1;

			/* recorded follows segments */
			if (!seg && k == 2)
				continue;
			d0 = replay(w[0], pol);
			d1 = replay(w[1], pol);
			assert_true(d0.n > 0);
			assert_int_equal(d0.n, d1.n);
			assert_true(d0.h == d1.h);
		}
		for (int j = 0; j < 2; j++) {
			ea_run_free(&run[j]);
			ea_workload_free(w[j]);
		}
	}
}

static void same_workload(void **state)
{
	load(state);
	compare("traces/demo/tc2-seven-tasks.txt");
	compare("traces/vm/wl-pingpong.dat");
}

/*
 * Runs of events the workload only counts, one after the other (three
 * sched_migrate_task of the woken task to the CPU it wakes on, after each
 * sched_wakeup of the demo trace): they travel as one count, and the
 * workload's event numbers (seq) come out the same.
 */
static void counted_runs(void **state)
{
	char path[] = "/tmp/test-workload-apart-XXXXXX";
	char line[512];
	FILE *in, *out;
	int fd, added = 0;

	load(state);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	out = fdopen(fd, "w");
	in = fopen("traces/demo/tc2-seven-tasks.txt", "r");
	assert_non_null(out);
	assert_non_null(in);
	while (fgets(line, sizeof(line), in)) {
		char head[64], comm[32];
		int pid, prio, cpu;

		fputs(line, out);
		if (sscanf(line,
			   "%63[^:]: sched_wakeup: comm=%31s pid=%d "
			   "prio=%d target_cpu=%d",
			   head, comm, &pid, &prio, &cpu) != 5)
			continue;
		for (int i = 0; i < 3; i++, added++)
			fprintf(out,
				"%s: sched_migrate_task: comm=%s pid=%d "
				"prio=%d orig_cpu=%d dest_cpu=%d\n",
				head, comm, pid, prio, cpu, cpu);
	}
	fclose(in);
	fclose(out);
	assert_true(added > 300);
	compare(path);
	unlink(path);
}

static int teardown(void **state)
{
	ea_model_free(tc2);
	tc2 = NULL;
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_workload),
		cmocka_unit_test(counted_runs),
	};

	return cmocka_run_group_tests(tests, NULL, teardown);
}
