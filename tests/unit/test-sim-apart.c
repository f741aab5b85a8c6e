// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulator's sink on a thread of its own (src/replay/sim-apart.c):
 * the sink must see the very events the simulator delivering them itself
 * gives, in the same order, with the same comms, on the other thread; a
 * sink that refuses an event must fail the run with the same message,
 * after the same events. Expected values are the simulator's own run on
 * one thread (the reference), not figures of this file.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "replay-events.h"
#include "replay/policy.h"
#include "replay/sim.h"

static struct ea_model *tc2;

struct seen {
	struct digest dg; /* each event and its comm, in order */
	uint64_t fail_at; /* refuse the event of this number (1 = first);
			     0: none */
	uint64_t calls; /* sink calls, the refused one included */
	pthread_t caller; /* thread of the last call */
	unsigned slow; /* sleep 1 ms every `slow` events (0: never) */
};

static int seen_event(void *ctx, const struct ea_event *ev, const char *comm)
{
	struct seen *d = ctx;

	d->calls++;
	d->caller = pthread_self();
	if (d->fail_at && d->calls == d->fail_at)
		return -1;
	digest_add(&d->dg, ev, comm);
	if (d->slow && d->dg.n % d->slow == 0)
		usleep(1000);
	return 0;
}

static struct ea_workload *workload(const char *path, struct ea_run *run)
{
	struct ea_workload_config wcfg = {.model = tc2,
					  .source_capacity = 1024};

	return workload_of(path, &wcfg, run);
}

/*
 * One run of pol on w into d: apart or not; batch: the hand-over size
 * once apart (1 forces a hand-over per instant and the ring full); comms:
 * whether the sink reads them. sim_run()'s result.
 */
static int one_run(const struct ea_workload *w, const char *pol, bool apart,
		   size_t batch, bool comms, struct seen *d, uint64_t *events,
		   char *error)
{
	struct sim s;
	int rc;

	assert_int_equal(sim_init(&s, w, tc2, rp_policy_get(pol),
				  RP_GOV_SCHEDUTIL, RP_IDLE_MENU, false, 0),
			 0);
	d->dg = (struct digest)DIGEST_INIT;
	s.sink = seen_event;
	s.sink_ctx = d;
	s.no_comms = !comms;
	if (apart) {
		assert_int_equal(sim_apart_start(&s), 0);
		assert_non_null(s.apart);
		s.batch = batch;
	}
	rc = sim_run(&s);
	assert_null(s.apart); /* ended with the run */
	*events = s.events;
	snprintf(error, 128, "%s", s.error);
	sim_free(&s);
	return rc;
}

static void load(void **state)
{
	struct ea_err err;

	if (!tc2 && ea_model_load(&tc2, "tc2", &err))
		fail_msg("%s", err.msg);
}

/* Every policy, both bundled traces: the same events in the same order,
 * delivered on another thread. */
static void same_events(void **state)
{
	const char *traces[] = {"traces/demo/tc2-seven-tasks.txt",
				"traces/vm/wl-pingpong.dat"};
	const char *pols[] = {"recorded", "eas-rfc", "feec",
			      "cfs",	  "pack",    "spread"};
	const size_t batches[] = {SIM_APART_BATCH, 1, 7};

	load(state);
	for (size_t ti = 0; ti < sizeof(traces) / sizeof(traces[0]); ti++) {
		struct ea_run run;
		struct ea_workload *w = workload(traces[ti], &run);

		for (size_t k = 0; k < sizeof(pols) / sizeof(pols[0]); k++) {
			for (int comms = 0; comms < 2; comms++) {
				struct seen ref = {0};
				uint64_t ref_events, events;
				char err[128];

				assert_int_equal(one_run(w, pols[k], false, 0,
							 comms, &ref,
							 &ref_events, err),
						 0);
				assert_true(ref.dg.n > 0);
				assert_true(pthread_equal(ref.caller,
							  pthread_self()));
				assert_int_equal(ref_events, ref.dg.n);
				for (size_t b = 0; b < 3; b++) {
					struct seen d = {.slow = b == 2 ? 64
									: 0};

					assert_int_equal(
						one_run(w, pols[k], true,
							batches[b], comms, &d,
							&events, err),
						0);
					assert_int_equal(d.dg.n, ref.dg.n);
					assert_true(d.dg.h == ref.dg.h);
					assert_int_equal(events, ref_events);
					assert_false(pthread_equal(
						d.caller, pthread_self()));
				}
			}
		}
		ea_run_free(&run);
		ea_workload_free(w);
	}
}

/*
 * A sink refusing its 1st, 100th or 1000th event: the run fails with the
 * simulator's message, the events before it delivered, none after.
 */
static void refusal(void **state)
{
	const uint64_t at[] = {1, 100, 1000};
	struct ea_run run;
	struct ea_workload *w;

	load(state);
	w = workload("traces/vm/wl-pingpong.dat", &run);
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		for (int apart = 0; apart < 2; apart++) {
			struct seen d = {.fail_at = at[i]};
			uint64_t events;
			char err[128];

			assert_int_equal(one_run(w, "feec", apart, 16, true, &d,
						 &events, err),
					 -1);
			assert_string_equal(
				err, "cannot write the simulated events");
			assert_int_equal(d.calls, at[i]);
			assert_int_equal(d.dg.n, at[i] - 1);
		}
	}
	ea_run_free(&run);
	ea_workload_free(w);
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
		cmocka_unit_test(same_events),
		cmocka_unit_test(refusal),
	};

	return cmocka_run_group_tests(tests, NULL, teardown);
}
