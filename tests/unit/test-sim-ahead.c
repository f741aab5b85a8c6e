// SPDX-License-Identifier: GPL-2.0-only
/*
 * The arrivals merged ahead on a thread of their own (src/replay/
 * sim-ahead.c): a run must deliver the very events, and end with the very
 * metrics (latencies, waits, migrations, placements, end), that the
 * simulator merging them itself gives; with chunks of 1 and 3 arrivals
 * (a hand-over per arrival or few, the ring full most of the time) and
 * the default; alone and with the sink on a thread too (sim-apart.c), as
 * replay runs it. Expected values are the simulator's own run on one
 * thread (the reference), not figures of this file. Stopped early (a run
 * that fails, or sim_free() after a few arrivals), the thread must end
 * and the tournament come back: a rewound run then gives the reference.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "replay-events.h"
#include "replay/policy.h"
#include "replay/sim.h"

static struct ea_model *tc2;

static struct ea_workload *workload(const char *path, struct ea_run *run)
{
	struct ea_workload_config wcfg = {.model = tc2,
					  .source_capacity = 1024};

	return workload_of(path, &wcfg, run);
}

struct result {
	struct digest dg;
	struct sim_metrics m;
	uint64_t lat_sum; /* the latencies' p50 .. max summed */
};

static void init(struct sim *s, const struct ea_workload *w, const char *pol,
		 struct digest *dg)
{
	assert_int_equal(sim_init(s, w, tc2, rp_policy_get(pol),
				  RP_GOV_SCHEDUTIL, RP_IDLE_MENU, false, 0),
			 0);
	*dg = (struct digest)DIGEST_INIT;
	s->sink = digest_event;
	s->sink_ctx = dg;
}

static void finish(struct sim *s, struct result *r)
{
	uint64_t q[4];

	sim_get_metrics(s, &r->m);
	r->lat_sum = 0;
	if (r->m.lat) {
		sim_lats_percentiles(r->m.lat, q);
		r->lat_sum = q[0] + q[1] + q[2] + q[3];
	}
}

/* One run of pol on w: chunk 0 merges here, else ahead in chunks of it. */
static void one_run(const struct ea_workload *w, const char *pol, size_t chunk,
		    bool apart, struct result *r)
{
	struct sim s;

	init(&s, w, pol, &r->dg);
	if (apart)
		assert_int_equal(sim_apart_start(&s), 0);
	if (chunk) {
		assert_int_equal(sim_ahead_start(&s, chunk), 0);
		assert_non_null(s.ahead);
		assert_null(s.tour.heap); /* the thread's */
	}
	assert_int_equal(sim_run(&s), 0);
	assert_null(s.ahead); /* ended with the run */
	finish(&s, r);
	assert_int_equal(r->m.events, r->dg.n);
	sim_free(&s);
}

static void same_result(const struct result *a, const struct result *b)
{
	assert_int_equal(a->dg.n, b->dg.n);
	assert_true(a->dg.h == b->dg.h);
	assert_int_equal(a->m.nlat, b->m.nlat);
	assert_int_equal(a->m.wait_ns, b->m.wait_ns);
	assert_int_equal(a->m.late, b->m.late);
	assert_int_equal(a->m.overutil_ns, b->m.overutil_ns);
	assert_int_equal(a->m.migrations, b->m.migrations);
	assert_int_equal(a->m.placements, b->m.placements);
	assert_int_equal(a->m.floor_wait_ns, b->m.floor_wait_ns);
	assert_int_equal(a->m.end_ns, b->m.end_ns);
	assert_int_equal(a->lat_sum, b->lat_sum);
}

static void load(void **state)
{
	struct ea_err err;

	(void)state;
	if (!tc2 && ea_model_load(&tc2, "tc2", &err))
		fail_msg("%s", err.msg);
}

/* Every policy, both bundled traces, three chunk sizes, with the sink
 * on the simulator's thread or its own. */
static void same_runs(void **state)
{
	const char *traces[] = {"traces/demo/tc2-seven-tasks.txt",
				"traces/vm/wl-pingpong.dat"};
	const char *pols[] = {"recorded", "eas-rfc", "feec",
			      "cfs",	  "pack",    "spread"};
	const size_t chunks[] = {1, 3, SIM_AHEAD_CHUNK};

	load(state);
	for (size_t ti = 0; ti < sizeof(traces) / sizeof(traces[0]); ti++) {
		struct ea_run run;
		struct ea_workload *w = workload(traces[ti], &run);

		for (size_t k = 0; k < sizeof(pols) / sizeof(pols[0]); k++) {
			struct result ref, got;

			one_run(w, pols[k], 0, false, &ref);
			assert_true(ref.dg.n > 0);
			assert_true(ref.m.placements > 0);
			for (size_t c = 0; c < 3; c++) {
				for (int apart = 0; apart < 2; apart++) {
					one_run(w, pols[k], chunks[c], apart,
						&got);
					same_result(&got, &ref);
				}
			}
		}
		ea_run_free(&run);
		ea_workload_free(w);
	}
}

static int refuse(void *ctx, const struct ea_event *ev, const char *comm)
{
	(void)ctx;
	(void)ev;
	(void)comm;
	return -1;
}

/*
 * Stopped early: a sink refusing the first event (the run fails, the
 * thread stopped with most arrivals unmerged); sim_free() after a few
 * arrivals; sim_rewind() after a few, then a whole run: the reference.
 */
static void early_end(void **state)
{
	struct ea_run run;
	struct ea_workload *w;
	struct result ref, got;
	struct digest dg;
	struct sim s;

	load(state);
	w = workload("traces/vm/wl-pingpong.dat", &run);
	one_run(w, "feec", 0, false, &ref);

	init(&s, w, "feec", &dg);
	s.sink = refuse;
	assert_int_equal(sim_ahead_start(&s, 3), 0);
	assert_int_equal(sim_run(&s), -1);
	assert_string_equal(s.error, "cannot write the simulated events");
	assert_null(s.ahead);
	assert_non_null(s.tour.heap); /* given back */
	sim_free(&s);

	init(&s, w, "feec", &dg);
	assert_int_equal(sim_ahead_start(&s, 2), 0);
	for (int i = 0; i < 5; i++)
		assert_true(sim_step(&s));
	sim_free(&s); /* the thread ended, nothing leaked (ASan) */

	init(&s, w, "feec", &got.dg);
	assert_int_equal(sim_ahead_start(&s, 1), 0);
	for (int i = 0; i < 50; i++)
		assert_true(sim_step(&s));
	assert_int_equal(sim_rewind(&s), 0);
	assert_null(s.ahead);
	got.dg = (struct digest)DIGEST_INIT;
	assert_int_equal(sim_ahead_start(&s, 1), 0);
	assert_int_equal(sim_run(&s), 0);
	finish(&s, &got);
	same_result(&got, &ref);
	sim_free(&s);

	ea_run_free(&run);
	ea_workload_free(w);
}

/*
 * Sorted arrivals (some task's out of order) are not merged: no thread.
 * ahead_first: the thread started before the sort, which ends it first
 * (its tournament s's again, freed), then sorts. Either way the run reads
 * the sorted arrivals in order and is one_run()'s with no thread.
 */
static void sorted_run(void **state, bool ahead_first)
{
	struct ea_run run;
	struct ea_workload *w;
	struct result ref, got;
	struct sim s;

	load(state);
	w = workload("traces/vm/wl-pingpong.dat", &run);
	one_run(w, "cfs", 0, false, &ref);
	init(&s, w, "cfs", &got.dg);
	if (ahead_first) {
		assert_int_equal(sim_ahead_start(&s, 3), 0);
		assert_non_null(s.ahead);
	}
	assert_int_equal(sim_sort_arrivals(&s), 0);
	assert_null(s.ahead);
	assert_null(s.tour.heap);
	assert_non_null(s.arr);
	assert_int_equal(sim_ahead_start(&s, 0), 0);
	assert_null(s.ahead);
	assert_int_equal(sim_run(&s), 0);
	finish(&s, &got);
	same_result(&got, &ref);
	sim_free(&s);
	ea_run_free(&run);
	ea_workload_free(w);
}

static void sorted_not_ahead(void **state)
{
	sorted_run(state, false);
}

static void sorted_while_ahead(void **state)
{
	sorted_run(state, true);
}

static int teardown(void **state)
{
	(void)state;
	ea_model_free(tc2);
	tc2 = NULL;
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_runs),
		cmocka_unit_test(early_end),
		cmocka_unit_test(sorted_not_ahead),
		cmocka_unit_test(sorted_while_ahead),
	};

	return cmocka_run_group_tests(tests, NULL, teardown);
}
