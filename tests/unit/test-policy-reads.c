// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a policy says it reads (rp_policy.reads_load, .reads_util_est,
 * .reads_idle): the simulator gathers those inputs only for the policies
 * that say so and passes NULL to the others. A policy that does not say
 * so must choose the same CPU whatever those inputs hold: NULL, or
 * arbitrary figures. Checked on tc2 (5 CPUs, two clusters) over many
 * pseudo-random CPU states, for wakeups and forks.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "replay/policy.h"

#define NCPUS 5

static struct ea_model *tc2;
static struct rp_topo *topo;
static struct rp_cl_cache *clc;

static int setup(void **state)
{
	struct ea_err err;

	if (ea_model_load(&tc2, "tc2", &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	topo = rp_topo_new(tc2, NCPUS);
	clc = rp_cl_cache_new(tc2);
	return topo && clc ? 0 : -1;
}

static int teardown(void **state)
{
	rp_cl_cache_free(clc);
	rp_topo_free(topo);
	ea_model_free(tc2);
	return 0;
}

/* splitmix64: the scenarios' figures */
static uint64_t next(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The inputs a policy may say it does not read, filled (or NULL). */
struct extra {
	uint32_t load[NCPUS], runnable[NCPUS], ue[NCPUS];
	int idle_state[NCPUS];
	uint64_t idle_stamp[NCPUS];
};

static void fill(struct extra *x, uint64_t *rng)
{
	for (int c = 0; c < NCPUS; c++) {
		x->load[c] = (uint32_t)(next(rng) % 2048);
		x->runnable[c] = (uint32_t)(next(rng) % 2048);
		x->ue[c] = (uint32_t)(next(rng) % 1024);
		x->idle_state[c] = (int)(next(rng) % 3) - 1;
		x->idle_stamp[c] = next(rng) % 1000000;
	}
}

/* The policy's choice with the scenario's env and wakee, the inputs it
 * does not read from x (NULL: none). */
static int choose(const struct rp_policy *pol, const struct rp_env *base,
		  const struct rp_wakee *pbase, const struct extra *x)
{
	struct rp_env e = *base;
	struct rp_wakee p = *pbase;
	int recent = pbase->prev_cpu;

	if (!pol->reads_load) {
		e.load = x ? x->load : NULL;
		e.runnable = x ? x->runnable : NULL;
		p.load = x ? x->load[0] : 0;
		p.waker_load = x ? x->load[1] : 0;
	}
	if (!pol->reads_util_est)
		e.util_est = x ? x->ue : NULL;
	if (!pol->reads_idle) {
		e.idle_state = x ? x->idle_state : NULL;
		e.idle_stamp = x ? x->idle_stamp : NULL;
	}
	p.recent_used_cpu = &recent;
	if (p.fork && pol->select_fork)
		return pol->select_fork(&e, &p);
	return pol->select_cpu(&e, &p);
}

static void unread_inputs_change_nothing(void **state)
{
	static const char *const names[] = {"recorded", "eas-rfc", "feec",
					    "cfs", "pack", "spread"};
	uint64_t rng = 31;
	int checked = 0;

	for (int n = 0; n < 400; n++) {
		uint32_t util[NCPUS], load[NCPUS], ue[NCPUS];
		int cap[NCPUS], nr[NCPUS], scan[NCPUS], st[NCPUS];
		uint64_t stamp[NCPUS];
		struct extra a, b;
		struct rp_env e;
		struct rp_wakee p = {0};

		for (int c = 0; c < NCPUS; c++) {
			const struct ea_cluster *cl =
				&tc2->clusters[tc2->cpu_cluster[c]];

			nr[c] = (int)(next(&rng) % 3);
			util[c] = nr[c] ? (uint32_t)(next(&rng) % 1200) : 0;
			cap[c] = (int)(next(&rng) % cl->ncaps);
			load[c] = util[c];
			ue[c] = util[c];
			st[c] = nr[c] ? -1 : 0;
			stamp[c] = c;
			scan[c] = NCPUS;
		}
		e = (struct rp_env){.model = tc2,
				    .ncpus = NCPUS,
				    .util = util,
				    .cap_idx = cap,
				    .nr = nr,
				    .overutilised = n % 3 == 0,
				    .asymmetric = rp_asymmetric(tc2),
				    .clc = clc,
				    .util_est = ue,
				    .topo = topo,
				    .load = load,
				    .runnable = load,
				    .idle_state = st,
				    .idle_stamp = stamp,
				    .nr_idle_scan = scan};
		p.util = (uint32_t)(next(&rng) % 800);
		p.util_est = p.util;
		p.wakeups = (uint32_t)(next(&rng) % 4096);
		p.prev_cpu = (int)(next(&rng) % NCPUS);
		p.rec_cpu = (int)(next(&rng) % NCPUS);
		p.waker_cpu = (int)(next(&rng) % (NCPUS + 1)) - 1;
		p.fork = n % 5 == 0;
		p.load = p.util;
		p.load_cpu = p.prev_cpu;
		p.sync = n % 2;
		p.waker_flips = (uint32_t)(next(&rng) % 16);
		p.wakee_flips = (uint32_t)(next(&rng) % 16);
		fill(&a, &rng);
		fill(&b, &rng);
		for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
			const struct rp_policy *pol = rp_policy_get(names[k]);
			int c0;

			assert_non_null(pol);
			c0 = choose(pol, &e, &p, NULL);
			assert_int_equal(choose(pol, &e, &p, &a), c0);
			assert_int_equal(choose(pol, &e, &p, &b), c0);
			checked++;
		}
	}
	assert_int_equal(checked, 400 * 6);
}

/* The policies that read those inputs say so; the others do not. */
static void flags(void **state)
{
	assert_true(rp_policy_get("cfs")->reads_load);
	assert_true(rp_policy_get("feec")->reads_load);
	assert_true(rp_policy_get("cfs")->reads_util_est);
	assert_true(rp_policy_get("feec")->reads_idle);
	assert_false(rp_policy_get("eas-rfc")->reads_load);
	assert_false(rp_policy_get("eas-rfc")->reads_util_est);
	assert_false(rp_policy_get("pack")->reads_idle);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(unread_inputs_change_nothing),
		cmocka_unit_test(flags),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
