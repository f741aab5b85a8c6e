// SPDX-License-Identifier: GPL-2.0-only
/*
 * feec's OPP for a utilisation as a table (src/replay/em-opp.c): the
 * lowest OPP covering the util, or the lowest efficient one at or above
 * it. Expected values: a cluster worked by hand below, and for the bundled
 * models the search em_cpu_energy() made before the table (the lowest OPP
 * whose capacity covers the util, then rp_em_efficient()).
 */
#include <stdlib.h>

#include "harness.h"
#include "replay/platform.h"

/*
 * By hand: four OPPs at 100, 200, 300 and 400 MHz, capacities 100, 200,
 * 300, 400, powers 100, 300, 330 and 600 (x 1e-6 power_unit, one CPU, no
 * cluster power). The energy model's cost of an OPP is its power x the top
 * frequency / its frequency: 100 x 4 = 400, 300 x 2 = 600, 330 x 4/3 =
 * 440, 600 x 1 = 600. From the top down, an OPP is efficient when it
 * costs less than every higher one: 400 MHz (the top) yes; 300 MHz, 440
 * < 600, yes; 200 MHz, 600 >= 440, no: it maps to 300 MHz; 100 MHz, 400 <
 * 440, yes. So util 0..100 is OPP 0 either way; 101..200 is OPP 1, or 2
 * skipping the inefficient; 201..300 OPP 2; 301..400 OPP 3.
 */
static void by_hand(void **unused)
{
	struct ea_cap_state caps[4] = {
		{.freq_khz = 100000, .cap = 100, .core_power_u = 100},
		{.freq_khz = 200000, .cap = 200, .core_power_u = 300},
		{.freq_khz = 300000, .cap = 300, .core_power_u = 330},
		{.freq_khz = 400000, .cap = 400, .core_power_u = 600},
	};
	int cpus[1] = {0};
	struct ea_cluster cl = {
		.cpus = cpus, .ncpus = 1, .caps = caps, .ncaps = 4};
	uint16_t all[401], eff[401];

	(void)unused;
	assert_int_equal(rp_em_opp_len(&cl), 401);
	rp_em_opp_fill(&cl, false, all);
	rp_em_opp_fill(&cl, true, eff);
	for (int u = 0; u <= 400; u++) {
		int want_all = u <= 100 ? 0 : u <= 200 ? 1 : u <= 300 ? 2 : 3;
		int want_eff = u <= 100 ? 0 : u <= 300 ? 2 : 3;

		assert_int_equal(all[u], want_all);
		assert_int_equal(eff[u], want_eff);
	}
	/* a top capacity past the limit: no table */
	caps[3].cap = RP_EM_OPP_MAX_CAP + 1;
	assert_int_equal(rp_em_opp_len(&cl), 0);
}

/* Every bundled model's clusters: the table against the search. */
static void models(void **unused)
{
	static const char *const names[] = {"tc2",
					    "juno-r0",
					    "juno-r0-eas",
					    "wattson-tensor-g4",
					    "wattson-sm8750",
					    "wattson-mt6897"};

	(void)unused;
	for (size_t n = 0; n < sizeof(names) / sizeof(names[0]); n++) {
		struct ea_model *m;
		struct ea_err err;
		struct rp_cl_cache *cc;

		assert_int_equal(ea_model_load(&m, names[n], &err), 0);
		cc = rp_cl_cache_new(m);
		assert_non_null(cc);
		for (int ci = 0; ci < m->nclusters; ci++) {
			const struct ea_cluster *cl = &m->clusters[ci];
			uint32_t cap = cl->caps[cl->ncaps - 1].cap;

			if (!rp_em_opp_len(cl)) {
				assert_null(cc[ci].em_opp[0]);
				continue;
			}
			assert_non_null(cc[ci].em_opp[0]);
			assert_non_null(cc[ci].em_opp[1]);
			for (uint32_t u = 0; u <= cap; u++) {
				int k;

				for (k = 0; k < cl->ncaps - 1; k++)
					if (cl->caps[k].cap >= u)
						break;
				assert_int_equal(cc[ci].em_opp[0][u], k);
				assert_int_equal(cc[ci].em_opp[1][u],
						 rp_em_efficient(cl, k));
			}
		}
		rp_cl_cache_free(cc);
		ea_model_free(m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(by_hand),
		cmocka_unit_test(models),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
