// SPDX-License-Identifier: GPL-2.0-only
/*
 * The replay policies' energy estimates on the bundled tc2 model, against
 * values worked out by hand (integer division truncates, as in the RFC).
 *
 * tc2, lowest OPPs: A7 cap 358 core 187 cluster 2967, next 410/275/2792;
 * A15 cap 840 core 2021 cluster 7920. Idle (deepest state): A7 core 0,
 * cluster 10; A15 core 0, cluster 25. RFC wakeup energies (x1024 per
 * wakeup): A7 core 0 cluster 6, A15 core 5 cluster 210.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "replay-events.h"
#include "replay/policy.h"
#include "replay/sim.h"

static struct ea_model *tc2;

struct scen {
	uint32_t util[5];
	int cap[5], nr[5];
	struct rp_env env;
};

static struct rp_env *env(struct scen *s, bool over)
{
	s->env = (struct rp_env){ .model = tc2, .ncpus = 5, .util = s->util,
				  .cap_idx = s->cap, .nr = s->nr,
				  .overutilised = over,
				  .asymmetric = rp_asymmetric(tc2) };
	return &s->env;
}

static void load(void **state)
{
	struct ea_err err;

	if (!tc2 && ea_model_load(&tc2, "tc2", &err))
		fail_msg("%s", err.msg);
}

/*
 * util 100 on idle A7 CPU 2 (all CPUs at util 0, lowest OPP):
 *  CPU level: +100 x 187 / 358 = 52; unused 358 -> 258 at idle power 0
 *  cluster:   -358 x 10 / 358 = -10, +100 x 2967 / 358 = 828,
 *             +258 x 10 / 358 = 7                       => 877
 */
static void diff_idle_cpu(void **state)
{
	struct scen s = { 0 };

	load(state);
	assert_int_equal(rp_energy_diff_util(env(&s, false), 2, 100, 0), 877);
}

/*
 * util 100 on A7 CPU 2 already at 200 (358 still fits 300):
 *  CPU:     -200 x 187 / 358 = -104, +300 x 187 / 358 = 156       => 52
 *  cluster: -200 x 2967 / 358 = -1657, -158 x 10 / 358 = -4,
 *           +300 x 2967 / 358 = 2486, +58 x 10 / 358 = 1         => 878
 */
static void diff_busy_cpu(void **state)
{
	struct scen s = { .util = { 0, 0, 200 } };

	load(state);
	assert_int_equal(rp_energy_diff_util(env(&s, false), 2, 100, 0), 878);
}

/*
 * util 100 on A7 CPU 2 at 300: 400 > 358, so the OPP rises to cap 410
 * (core 275, cluster 2792):
 *  CPU:     -300 x 187 / 358 = -156, +400 x 275 / 410 = 268        => 112
 *  cluster: -300 x 2967 / 358 = -2486, -58 x 10 / 358 = -1,
 *           +400 x 2792 / 410 = 2723, +10 x 10 / 410 = 0          => 348
 */
static void diff_crosses_opp(void **state)
{
	struct scen s = { .util = { 0, 0, 300 } };

	load(state);
	assert_int_equal(rp_energy_diff_util(env(&s, false), 2, 100, 0), 348);
}

/* 1000 + 100 exceeds the A7's top capacity, 1024: "can't handle it". */
static void diff_overutilised(void **state)
{
	struct scen s = { .util = { 0, 0, 1000 } };

	load(state);
	assert_true(rp_energy_diff_util(env(&s, false), 2, 100, 0) == LONG_MAX);
}

/*
 * Wakeup energy, util 10 with wakeups 2048 (two per window) on A15 CPU 0:
 * core part (2048 x 5 >> 10) = 10, cluster part (2048 x 210 >> 10) = 420,
 * each x unused / 840.
 *  mostly idle (util 0): CPU 10 x 2021 / 840 = 24, + 10 x 830 / 840 = 9;
 *    cluster -25 + 94 + 830 x 25 / 840 = 24, + 420 x 830 / 840 = 415
 *    => 33 + 508 = 541 (424 of it wakeups);
 *  mostly busy (util 700): CPU -1684 + 1708 + 10 x 130 / 840 = 1 => 25;
 *    cluster -6600 - 140 x 25 / 840 (4) + 6694 + 3 + 420 x 130 / 840 (65)
 *    => 158; total 183 (66 of it wakeups).
 */
static void diff_wakeups(void **state)
{
	struct scen idle = { 0 }, busy = { .util = { 700 } };

	load(state);
	assert_int_equal(rp_energy_diff_util(env(&idle, false), 0, 10, 2048), 541);
	assert_int_equal(rp_energy_diff_util(env(&busy, false), 0, 10, 2048), 183);
	/* without wakeups, the difference is only busy/idle power */
	assert_int_equal(rp_energy_diff_util(env(&idle, false), 0, 10, 0), 117);
}

/*
 * feec, task util 50, nothing else running. em_cpu_energy: power per CPU is
 * core + cluster / CPUs; 1.25 x 50 = 62 fits the lowest OPPs, but those are
 * inefficient (EM_PERF_STATE_INEFFICIENT): cost per capacity, power x
 * fmax / freq, from the top down:
 *   A7:  1000 MHz (1024 + 4905 / 3) = 2659, cost 2659;
 *        900: 761 + 1305.7 = 2066.7 x 10 / 9 = 2296 (< 2659, efficient);
 *        800: 549 + 949 = 1498 x 10 / 8 = 1872 (efficient);
 *        700: 447 + 973 = 1420 x 10 / 7 = 2029 >= 1872: inefficient, and
 *        so are 600 (2242), 500 (2541), 400 (3014), 350 (3360);
 *   A15: 1200 MHz 6997 + 7600 = 14597; 1100: 5177 + 5713 = 10890 x 12 / 11
 *        = 11880; 1000: 3846 + 4223 = 8069 x 1.2 = 9683; 900: 3524 +
 *        4132.5 = 7656.5 x 12 / 9 = 10209 >= 9683: inefficient, and so are
 *        800 (10834), 700 (11729), 600 (12789), 500 (14354).
 * So the A7s run at 800 MHz (cap 819), the A15s at 1000 MHz (cap 1679):
 * the task costs 1498 x 50 / 819 = 91 on an A7, 8069 x 50 / 1679 = 240 on
 * an A15.
 *  - prev on A7 CPU 2: the other A7s have no more spare capacity than
 *    prev, so only the A15 is a candidate, and it costs more: prev kept;
 *  - prev on A15 CPU 0: the A7 with the most spare capacity (CPU 2, the
 *    first of equals) saves 240 - 91: big-to-little move;
 *  - overutilised: feec is not used; mainline's select_idle_sibling()
 *    from the busy prev CPU 0: select_idle_capacity() takes the first idle
 *    CPU after it where 50 fits, CPU 1, although an A7 would be cheaper.
 */
static void feec_scenarios(void **state)
{
	struct scen s = { 0 };
	struct rp_wakee p = { .util = 50, .prev_cpu = 2, .rec_cpu = 2 };

	load(state);
	assert_int_equal(rp_em_efficient(&tc2->clusters[1], 0), 5);
	assert_int_equal(rp_em_efficient(&tc2->clusters[1], 6), 6);
	assert_int_equal(rp_em_efficient(&tc2->clusters[0], 0), 5);
	assert_int_equal(rp_em_efficient(&tc2->clusters[0], 7), 7);
	assert_int_equal(rp_feec_compute_energy(env(&s, false), 1, 50, 2) / 1000000, 91);
	assert_int_equal(rp_feec_compute_energy(env(&s, false), 0, 50, 0) / 1000000, 240);
	assert_int_equal(rp_policy_feec.select_cpu(env(&s, false), &p), 2);
	p.prev_cpu = 0;
	assert_int_equal(rp_policy_feec.select_cpu(env(&s, false), &p), 2);
	s.nr[0] = 1;
	assert_int_equal(rp_policy_feec.select_cpu(env(&s, true), &p), 1);
}

/*
 * feec with an energy model using every OPP, where a higher OPP is cheaper
 * per unit of capacity (tc2's A7: per-CPU
 * power / cap = (187 + 2967 / 3) / 358 = 3.28 at OPP 0, (275 + 2792 / 3) /
 * 410 = 2.94 at OPP 1). A7 CPU 2 (prev) at util 280, the task 20:
 *  - without the task: 1.25 x 280 = 350 <= 358, OPP 0:
 *    base = 1176 x 280 / 358 = 919.8;
 *  - with it on prev: 1.25 x 300 = 375 > 358, OPP 1:
 *    1205.7 x 300 / 410 = 882.2 < base.
 * Mainline ("CPU utilization has changed") returns prev_cpu there. The
 * unsigned prev delta wrapped instead, so the A7 CPU 3 (delta 1176 x 20 /
 * 358 = 65.7, below the A15's 5981 x 20 / 840 = 142.4) won.
 */
static void feec_energy_drop_keeps_prev(void **state)
{
	struct scen s = { .util = { 0, 0, 280 } };
	struct rp_wakee p = { .util = 20, .prev_cpu = 2, .rec_cpu = 2 };

	load(state);
	/* an energy model that uses every OPP (no skipping of inefficient
	 * ones, as without EM_PERF_DOMAIN_SKIP_INEFFICIENCIES) */
	env(&s, false)->em_all_opps = true;
	assert_true(rp_feec_compute_energy(&s.env, 1, 20, 2) <
		    rp_feec_compute_energy(&s.env, 1, 0, -1));
	assert_int_equal(rp_policy_feec.select_cpu(&s.env, &p), 2);
	/* skipping them, both OPPs are 800 MHz: no drop, prev (delta
	 * 1498 x 20 / 819 = 36.6) and CPU 3 (the same) tie: prev kept */
	env(&s, false);
	assert_true(rp_feec_compute_energy(&s.env, 1, 20, 2) >
		    rp_feec_compute_energy(&s.env, 1, 0, -1));
	assert_int_equal(rp_policy_feec.select_cpu(&s.env, &p), 2);
}

/*
 * feec reads util_est: a task whose util_avg decayed to 100 over a long
 * sleep but whose util_est is 900 does not fit an A7 (900 x 1.25 = 1125 >
 * 1024, util_fits_cpu()), so from prev A7 CPU 2 it goes to an A15 (the
 * first of equals, CPU 0), where without util_est it stayed (a 100 task
 * fits the A7s, and prev is no worse than the other A7s). CPUs' own
 * util_est counts too: A7s at util_avg 0 but util_est 1000 leave no room.
 */
static void feec_util_est(void **state)
{
	struct scen s = { 0 };
	uint32_t ue[5] = { 0 };
	struct rp_wakee p = { .util = 100, .prev_cpu = 2, .rec_cpu = 2 };

	load(state);
	assert_int_equal(rp_policy_feec.select_cpu(env(&s, false), &p), 2);
	p.util_est = 900;
	assert_int_equal(rp_policy_feec.select_cpu(env(&s, false), &p), 0);
	p.util_est = 0;
	ue[2] = ue[3] = ue[4] = 1000;
	env(&s, false)->util_est = ue;
	assert_int_equal(rp_policy_feec.select_cpu(&s.env, &p), 0);
}

/* pack and spread are heuristics (issue 14): their summaries say so. */
static void pack_spread_not_bounds(void **state)
{
	assert_null(strstr(rp_policy_pack.summary, "bound"));
	assert_null(strstr(rp_policy_spread.summary, "bound"));
	assert_non_null(strstr(rp_policy_pack.summary, "heuristic"));
	assert_non_null(strstr(rp_policy_spread.summary, "heuristic"));
}

/*
 * Governors on tc2 (cluster 0 A15: 500..1200 MHz, cap 840..2015; cluster 1
 * A7: 350..1000 MHz, cap 358..1024).
 *
 * schedutil with every OPP (schedutil:all_opps, CPUFREQ_RELATION_L):
 *  - A15 util 672: 672 + 672 / 4 = 840; get_next_freq():
 *    1200000 x 840 / 2015 = 500248 kHz > 500000, so 600000 (index 1),
 *    although the capacity 840 of 500 MHz equals 840;
 *  - A15 util 671: 671 + 167 = 838, 1200000 x 838 / 2015 = 499057 kHz:
 *    500000 (index 0);
 *  - A7 util 300: 375, 1000000 x 375 / 1024 = 366210 kHz: 400000 (1);
 *  - util above the capacity is capped: A7 util 5000 -> 1000000 (7).
 *
 * schedutil as mainline since 5.16 (CPUFREQ_RELATION_LE), skipping the
 * OPPs the energy model marks inefficient: cost = power x fmax / f not
 * below that of some higher OPP; the energy model's power per CPU is
 * core + cluster / CPUs (feec's). A15 (2 CPUs), OPP: power, cost:
 *   500: 2021 + 3960   = 5981.0 x 1200/500  = 14354
 *   600: 2312 + 4082.5 = 6394.5 x 1200/600  = 12789
 *   700: 2756 + 4086   = 6842.0 x 1200/700  = 11729
 *   800: 3125 + 4097.5 = 7222.5 x 1200/800  = 10834
 *   900: 3524 + 4132.5 = 7656.5 x 1200/900  = 10209
 *  1000: 3846 + 4223   = 8069.0 x 1200/1000 =  9683
 *  1100: 5177 + 5713   = 10890  x 1200/1100 = 11880
 *  1200: 6997 + 7600   = 14597  x 1         = 14597
 * from the top: 1200, 1100 and 1000 MHz each cheaper than all above,
 * 900 MHz and below not below 9683: inefficient. A7 (3 CPUs):
 *   350: 187 + 989    = 1176.0 x 1000/350 = 3360
 *   400: 275 + 930.7  = 1205.7 x 2.5      = 3014
 *   500: 334 + 936.7  = 1270.7 x 2        = 2541
 *   600: 407 + 938.3  = 1345.3 x 1000/600 = 2242
 *   700: 447 + 973    = 1420.0 x 1000/700 = 2029
 *   800: 549 + 949    = 1498.0 x 1.25     = 1873
 *   900: 761 + 1305.7 = 2066.7 x 1000/900 = 2296
 *  1000: 1024 + 1635  = 2659.0            = 2659
 * 800 MHz and up efficient, 700 MHz and below not (>= 1873). So:
 *  - A15 util 672 (600 MHz above) -> 1000 MHz (5); 671 too;
 *  - A15 util 1300: 1625, 1200000 x 1625 / 2015 = 967742 kHz: 1000 MHz
 *    (5), efficient; util 1400: 1750, 1042184 kHz: 1100 MHz (6);
 *  - A7 util 300 (400 MHz above) -> 800 MHz (5); A7 util 700: 875,
 *    1000000 x 875 / 1024 = 854492 kHz: 900 MHz (6), efficient.
 * The same with the model's cached table (rp_cl_cache_new()).
 *
 * fixed:A15=600000,A7=1000000: indices 1 and 7 whatever the util.
 */
static void governors(void **state)
{
	struct rp_gov_spec g;
	struct rp_cl_cache *clc;
	char msg[200];

	load(state);
	clc = rp_cl_cache_new(tc2);
	assert_non_null(clc);
	rp_gov_spec_default(&g, RP_GOV_SCHEDUTIL);
	assert_int_equal(g.rate_limit_us, 1000);
	assert_false(g.all_opps);
	for (int c = 0; c < 2; c++) {
		const struct rp_cl_cache *cc = c ? clc : NULL;

		assert_int_equal(rp_gov_cap_idx(&g, 0, &tc2->clusters[0], cc, 672), 5);
		assert_int_equal(rp_gov_cap_idx(&g, 0, &tc2->clusters[0], cc, 671), 5);
		assert_int_equal(rp_gov_cap_idx(&g, 0, &tc2->clusters[0], cc, 1300), 5);
		assert_int_equal(rp_gov_cap_idx(&g, 0, &tc2->clusters[0], cc, 1400), 6);
		assert_int_equal(rp_gov_cap_idx(&g, 1, &tc2->clusters[1], cc, 300), 5);
		assert_int_equal(rp_gov_cap_idx(&g, 1, &tc2->clusters[1], cc, 700), 6);
		assert_int_equal(rp_gov_cap_idx(&g, 1, &tc2->clusters[1], cc, 5000), 7);
	}
	assert_int_equal(rp_gov_spec_parse(&g, "schedutil:all_opps", tc2, msg,
					   sizeof(msg)), 0);
	assert_true(g.all_opps);
	assert_int_equal(g.rate_limit_us, 1000);
	for (int c = 0; c < 2; c++) {
		const struct rp_cl_cache *cc = c ? clc : NULL;

		assert_int_equal(rp_gov_cap_idx(&g, 0, &tc2->clusters[0], cc, 672), 1);
		assert_int_equal(rp_gov_cap_idx(&g, 0, &tc2->clusters[0], cc, 671), 0);
		assert_int_equal(rp_gov_cap_idx(&g, 1, &tc2->clusters[1], cc, 300), 1);
		assert_int_equal(rp_gov_cap_idx(&g, 1, &tc2->clusters[1], cc, 5000), 7);
	}
	rp_cl_cache_free(clc);
	assert_int_equal(rp_gov_spec_parse(&g, "fixed:A15=600000,A7=1000000",
					   tc2, msg, sizeof(msg)), 0);
	assert_int_equal(g.kind, RP_GOV_FIXED);
	assert_int_equal(rp_gov_cap_idx(&g, 0, &tc2->clusters[0], NULL, 0), 1);
	assert_int_equal(rp_gov_cap_idx(&g, 1, &tc2->clusters[1], NULL, 1000), 7);
	rp_gov_spec_free(&g);
	assert_int_equal(rp_gov_spec_parse(&g, "schedutil:rate_limit_us=2500",
					   tc2, msg, sizeof(msg)), 0);
	assert_int_equal(g.rate_limit_us, 2500);
	assert_false(g.all_opps);
	assert_int_equal(rp_gov_spec_parse(&g, "schedutil:rate_limit_us=500,all_opps",
					   tc2, msg, sizeof(msg)), 0);
	assert_int_equal(g.rate_limit_us, 500);
	assert_true(g.all_opps);
	assert_int_equal(rp_gov_spec_parse(&g, "schedutil:fast", tc2, msg,
					   sizeof(msg)), -1);
	assert_non_null(strstr(msg, "'fast' is not rate_limit_us=N or all_opps"));
	assert_int_equal(rp_gov_spec_parse(&g, "schedutil:", tc2, msg,
					   sizeof(msg)), -1);
	/* errors: unknown cluster, frequency not an OPP, cluster missing */
	assert_int_equal(rp_gov_spec_parse(&g, "fixed:A57=600000,A7=1000000",
					   tc2, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "no cluster 'A57'"));
	assert_int_equal(rp_gov_spec_parse(&g, "fixed:A15=650000,A7=1000000",
					   tc2, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "650000 kHz is not an OPP"));
	assert_int_equal(rp_gov_spec_parse(&g, "fixed:A15=600000", tc2, msg,
					   sizeof(msg)), -1);
	assert_non_null(strstr(msg, "no frequency for cluster 'A7'"));
	assert_int_equal(rp_gov_parse("fixed:A15=600000"), RP_GOV_FIXED);
	assert_int_equal(rp_gov_parse("fixed"), -1);
	assert_int_equal(rp_gov_parse("performance:x"), -1);
}

/* eas-rfc: a small task on an idle A15 goes to the A7 cluster. */
static void eas_rfc_big_to_little(void **state)
{
	struct scen s = { 0 };
	struct rp_wakee p = { .util = 50, .wakeups = 1024, .prev_cpu = 0 };
	int cpu;

	load(state);
	cpu = rp_policy_eas_rfc.select_cpu(env(&s, false), &p);
	assert_true(cpu >= 2 && cpu <= 4);
}

/*
 * eas-rfc's wakeup takes 3.15's balance path only. A7 CPU 2 (prev) busy at
 * util 200, CPUs 3 and 4 idle, task util 100, no wakeups:
 *  - top level: the local A7 probe (least loaded, CPU 3) costs 877
 *    (diff_idle_cpu); the A15 probe CPU 0 costs CPU 100 x 2021 / 840 = 240,
 *    cluster -25 + 100 x 7920 / 840 (942) + 740 x 25 / 840 (22) = 939:
 *    1179 > 877, no remote group;
 *  - cluster level: prev costs 878 (diff_busy_cpu), CPUs 3 and 4 877 each:
 *    the first, CPU 3.
 * The energy-aware select_idle_sibling() after it would have gone on to
 * the idle CPU 4 (877 <= 877); the balance path returns CPU 3.
 */
static void eas_rfc_balance_path(void **state)
{
	struct scen s = { .util = { 0, 0, 200 }, .nr = { 0, 0, 1 } };
	struct rp_wakee p = { .util = 100, .prev_cpu = 2 };

	load(state);
	assert_int_equal(rp_energy_diff_util(env(&s, false), 0, 100, 0), 1179);
	assert_int_equal(rp_policy_eas_rfc.select_cpu(env(&s, false), &p), 3);
}

/*
 * The RFC's curr_capacity (seed 006): freq x 1024 / max freq, matched to
 * the cap states: A15 at 600 MHz -> 512 -> 500 MHz state (cap 840, index
 * 0); at 1 GHz -> 853 -> 1008 (index 1); A7 at 1 GHz -> 1024 -> index 7; at
 * 350 MHz -> 358 -> index 0.
 */
static void rfc_curr_capacity(void **state)
{
	load(state);
	assert_int_equal(rp_rfc_curr_idx(&tc2->clusters[0], 1), 0);
	assert_int_equal(rp_rfc_curr_idx(&tc2->clusters[0], 5), 1);
	assert_int_equal(rp_rfc_curr_idx(&tc2->clusters[1], 7), 7);
	assert_int_equal(rp_rfc_curr_idx(&tc2->clusters[1], 0), 0);
}

/*
 * Recorded CPUs onto tc2 by capacity rank. tc2 ranked by (top capacity,
 * id): 2, 3, 4 (A7, 1024), 0, 1 (A15, 2015); the A7-first copy: 0, 1, 2,
 * 3, 4. Two equal recorded CPUs (ranks 0, 1 of 2) go to target ranks
 * floor(0 x 5 / 2) = 0 and floor(1 x 5 / 2) = 2: CPUs 2 and 4 on tc2,
 * 0 and 2 on the copy (A7s both times). tc2 onto the copy: rank for rank,
 * A7 2, 3, 4 -> 0, 1, 2 and A15 0, 1 -> 3, 4. On the recorded platform:
 * the identity.
 */
static void cpu_map(void **state)
{
	struct ea_model *a7;
	struct ea_err err;
	int *m;

	load(state);
	if (ea_model_load(&a7, "tests/fixtures/models/tc2-a7-first.json", &err))
		fail_msg("%s", err.msg);
	m = rp_cpu_map_new(NULL, 2, tc2, 5, false);
	assert_int_equal(m[0], 2);
	assert_int_equal(m[1], 4);
	free(m);
	m = rp_cpu_map_new(NULL, 2, a7, 5, false);
	assert_int_equal(m[0], 0);
	assert_int_equal(m[1], 2);
	free(m);
	m = rp_cpu_map_new(tc2, 5, a7, 5, false);
	assert_int_equal(m[0], 3);
	assert_int_equal(m[1], 4);
	assert_int_equal(m[2], 0);
	assert_int_equal(m[3], 1);
	assert_int_equal(m[4], 2);
	free(m);
	m = rp_cpu_map_new(tc2, 5, tc2, 5, true);
	for (int i = 0; i < 5; i++)
		assert_int_equal(m[i], i);
	free(m);
	ea_model_free(a7);
}

/* Per-CPU kthreads by name; the unbound kworker pool is not bound. */
static void kthread_pins(void **state)
{
	uint64_t mask[EA_PIN_WORDS];

	assert_int_equal(rp_kthread_cpu("ksoftirqd/3"), 3);
	assert_int_equal(rp_kthread_cpu("kworker/1:2H"), 1);
	assert_int_equal(rp_kthread_cpu("kworker/u8:1"), -1);
	assert_int_equal(rp_kthread_cpu("migration/12"), 12);
	assert_int_equal(rp_kthread_cpu("cpuhp/0"), 0);
	assert_int_equal(rp_kthread_cpu("rcuc/5"), 5);
	assert_int_equal(rp_kthread_cpu("rcu_preempt"), -1);
	assert_int_equal(rp_kthread_cpu("task1"), -1);
	assert_int_equal(ea_cpulist_parse("0-2,4", mask, 8), 4);
	assert_true(mask[0] == 0x17);
	assert_int_equal(ea_cpulist_parse("2-1", mask, 8), -1);
	assert_int_equal(ea_cpulist_parse("8", mask, 8), -1);
	assert_int_equal(ea_cpulist_parse("1,", mask, 8), -1);
	assert_int_equal(ea_cpulist_parse("", mask, 8), -1);
}

static void rfc_wakeup_energy(void **state)
{
	assert_int_equal(rp_rfc_wakeup_energy(0.233115234375), 5);
	assert_int_equal(rp_rfc_wakeup_energy(9.79083984375), 210);
	assert_int_equal(rp_rfc_wakeup_energy(0.27973828125), 6);
}

/*
 * The simulator hands the policies the model's figures precomputed
 * (rp_env.clc): every policy must decide exactly as without them, and the
 * estimates must be the same, over a grid of CPU states and tasks.
 */
static void cache_same_decisions(void **state)
{
	const struct rp_policy *pols[] = { &rp_policy_eas_rfc, &rp_policy_feec,
					   &rp_policy_cfs, &rp_policy_pack,
					   &rp_policy_spread };
	struct rp_cl_cache *clc;
	struct scen s = { 0 };
	uint32_t seed = 1;
	int n = 0;

	load(state);
	clc = rp_cl_cache_new(tc2);
	assert_non_null(clc);
	for (int round = 0; round < 4000; round++) {
		struct rp_wakee p;
		struct rp_env plain, cached;
		bool over = round % 7 == 0;

		for (int i = 0; i < 5; i++) {
			seed = seed * 1103515245 + 12345;
			s.util[i] = (seed >> 8) % (round % 3 ? 400 : 1100);
			s.nr[i] = (seed >> 20) % 3;
			s.cap[i] = (int)((seed >> 4) % (i < 2 ? 5 : 8));
		}
		seed = seed * 1103515245 + 12345;
		p = (struct rp_wakee){ .util = (seed >> 8) % 600,
				       .wakeups = (seed >> 12) % 40000,
				       .prev_cpu = (int)((seed >> 4) % 5),
				       .rec_cpu = (int)((seed >> 24) % 5) };
		plain = *env(&s, over);
		cached = plain;
		cached.clc = clc;
		for (size_t k = 0; k < sizeof(pols) / sizeof(pols[0]); k++) {
			assert_int_equal(pols[k]->select_cpu(&plain, &p),
					 pols[k]->select_cpu(&cached, &p));
			n++;
		}
		for (int cpu = 0; cpu < 5; cpu++) {
			int ci = tc2->cpu_cluster[cpu];

			assert_true(rp_energy_diff_util(&plain, cpu, p.util,
							p.wakeups) ==
				    rp_energy_diff_util(&cached, cpu, p.util,
							p.wakeups));
			assert_true(rp_feec_compute_energy(&plain, ci, p.util,
							   cpu) ==
				    rp_feec_compute_energy(&cached, ci, p.util,
							   cpu));
		}
	}
	assert_int_equal(n, 20000);
	rp_cl_cache_free(clc);
}

/*
 * Arrivals come from a heap of each task's next one (their own are in
 * order) or, failing that, from one sorted array: both must give the same
 * simulation, event for event, for every policy.
 */
static void arrivals_heap_equals_sort(void **state)
{
	const char *traces[] = { "traces/demo/tc2-seven-tasks.txt",
				 "traces/vm/wl-pingpong.dat" };
	const char *pols[] = { "recorded", "eas-rfc", "feec", "cfs", "pack",
			       "spread" };

	load(state);
	for (size_t ti = 0; ti < sizeof(traces) / sizeof(traces[0]); ti++) {
		struct ea_workload_config wcfg = { .model = tc2,
						   .source_capacity = 1024 };
		struct ea_run run;
		struct ea_workload *w = workload_of(traces[ti], &wcfg, &run);

		for (size_t k = 0; k < sizeof(pols) / sizeof(pols[0]); k++) {
			struct digest d[2] = { DIGEST_INIT, DIGEST_INIT };
			struct sim s[2];

			for (int j = 0; j < 2; j++) {
				assert_int_equal(sim_init(&s[j], w, tc2,
							  rp_policy_get(pols[k]),
							  RP_GOV_SCHEDUTIL,
							  RP_IDLE_MENU, false, 0), 0);
				assert_non_null(s[j].tour.heap);
				if (j)
					assert_int_equal(sim_sort_arrivals(&s[j]), 0);
				s[j].sink = digest_event;
				s[j].sink_ctx = &d[j];
				assert_int_equal(sim_run(&s[j]), 0);
			}
			assert_null(s[1].tour.heap);
			assert_true(s[1].narr > 0);
			assert_true(d[0].n > 0);
			assert_int_equal(d[0].n, d[1].n);
			assert_true(d[0].h == d[1].h);
			assert_int_equal(s[0].nlat, s[1].nlat);
			assert_int_equal(s[0].lat.n, s[0].nlat);
			assert_int_equal(s[0].lat.nb, s[1].lat.nb);
			for (size_t h = 0; h < s[0].lat.nb; h++) {
				assert_int_equal(s[0].lat.b[h].n,
						 s[1].lat.b[h].n);
				if (s[0].lat.b[h].n)
					assert_memory_equal(
						s[0].lat.b[h].lo,
						s[1].lat.b[h].lo,
						s[0].lat.b[h].n *
							sizeof(uint32_t));
			}
			assert_true(s[0].wait_ns == s[1].wait_ns &&
				    s[0].migrations == s[1].migrations &&
				    s[0].late == s[1].late);
			sim_free(&s[0]);
			sim_free(&s[1]);
		}
		ea_run_free(&run);
		ea_workload_free(w);
	}
}

/* The workload of path on tc2 (--source-capacity 1024); *run kept. */
static struct ea_workload *tc2_workload(const char *path, bool no_segments,
					struct ea_run *run)
{
	struct ea_workload_config wcfg = { .model = tc2, .source_capacity = 1024,
					   .no_segments = no_segments };

	return workload_of(path, &wcfg, run);
}

/*
 * A workload extracted without segments (no policy following the
 * recording will run) keeps none, and every other policy simulates it
 * event for event as the full one; `recorded` refuses it.
 */
static void workload_without_segments(void **state)
{
	const char *traces[] = { "traces/demo/tc2-seven-tasks.txt",
				 "traces/vm/wl-pingpong.dat" };
	const char *pols[] = { "eas-rfc", "feec", "cfs", "pack", "spread" };

	load(state);
	assert_true(ea_replay_policy_follows("recorded"));
	assert_false(ea_replay_policy_follows("feec"));
	assert_false(ea_replay_policy_follows("nope"));
	for (size_t ti = 0; ti < sizeof(traces) / sizeof(traces[0]); ti++) {
		struct ea_run run[2];
		struct ea_workload *w[2];
		struct ea_replay_config cfg = { .model = tc2, .policy = "recorded",
						.governor = "schedutil",
						.idle = "menu" };
		struct ea_replay_result r;
		struct ea_err err;
		size_t nsegs[2] = { 0, 0 };

		for (int j = 0; j < 2; j++) {
			w[j] = tc2_workload(traces[ti], j == 1, &run[j]);
			for (size_t i = 0; i < w[j]->ntasks; i++)
				for (size_t k = 0; k < w[j]->tasks[i].nacts; k++)
					nsegs[j] += rp_task_nseg(&w[j]->tasks[i], k);
		}
		assert_true(nsegs[0] > 0);
		assert_int_equal(nsegs[1], 0);
		assert_int_equal(ea_replay_run(w[1], &cfg, &r, &err), -1);
		assert_non_null(strstr(err.msg, "segments"));
		for (size_t k = 0; k < sizeof(pols) / sizeof(pols[0]); k++) {
			struct digest d[2] = { DIGEST_INIT, DIGEST_INIT };
			struct sim s[2];

			for (int j = 0; j < 2; j++) {
				assert_int_equal(sim_init(&s[j], w[j], tc2,
							  rp_policy_get(pols[k]),
							  RP_GOV_SCHEDUTIL,
							  RP_IDLE_MENU, false, 0), 0);
				s[j].sink = digest_event;
				s[j].sink_ctx = &d[j];
				assert_int_equal(sim_run(&s[j]), 0);
			}
			assert_true(d[0].n > 0);
			assert_int_equal(d[0].n, d[1].n);
			assert_true(d[0].h == d[1].h);
			assert_int_equal(s[0].nlat, s[1].nlat);
			assert_true(s[0].wait_ns == s[1].wait_ns &&
				    s[0].migrations == s[1].migrations);
			sim_free(&s[0]);
			sim_free(&s[1]);
		}
		for (int j = 0; j < 2; j++) {
			ea_run_free(&run[j]);
			ea_workload_free(w[j]);
		}
	}
}

/*
 * The workload's counts, now made as each activation closes (see the
 * fixture's header): c runs on CPU0 from the trace start (no wakeup: its
 * release is the first instant, at_start), is preempted, and the state
 * has it on CPU1 from the start too until it blocks at 300 us: one
 * activation on two CPUs (split); migration/0 (prio 0: RT) runs 100 to
 * 120 us, d 900 to 1000 us: one activation each, blocked. 3 tasks, 3
 * activations, none open, all ran; migration/0 pinned as a per-CPU
 * kthread, and RT.
 */
static void workload_counts(void **state)
{
	const struct ea_workload_counts *c;
	struct ea_workload *w;
	struct ea_run run;

	load(state);
	w = tc2_workload("tests/fixtures/replay/overlap-start.txt", true, &run);
	c = ea_workload_counts(w);
	assert_int_equal(c->tasks, 3);
	assert_int_equal(c->activations, 3);
	assert_int_equal(c->at_start, 1);
	assert_int_equal(c->open, 0);
	assert_int_equal(c->never_ran, 0);
	assert_int_equal(c->split, 1);
	assert_int_equal(c->pinned_tasks, 1);
	assert_int_equal(c->rt_tasks, 1);
	ea_run_free(&run);
	ea_workload_free(w);
}

/*
 * menu's idle state: rp_menu_state() skips the prediction when the
 * shortest and longest periods map to one state, since the prediction
 * (a mean of some of them, or the shortest) lies between them. On tc2's
 * clusters, for histories of 1 to 8 periods drawn around their target
 * residencies (a fixed LCG), it is the state of the prediction itself.
 */
static void menu_state_skips_prediction(void **state)
{
	uint64_t x = 12345, hist[RP_MENU_HIST];

	load(state);
	for (int ci = 0; ci < tc2->nclusters; ci++) {
		const struct ea_cluster *cl = &tc2->clusters[ci];
		uint64_t top = (uint64_t)cl->idles[cl->nidles - 1].target_residency_us *
			       2000 + 1;

		for (int round = 0; round < 20000; round++) {
			int n = 1 + round % RP_MENU_HIST;
			uint64_t p, lo = UINT64_MAX, hi = 0;

			for (int i = 0; i < n; i++) {
				x = x * 6364136223846793005ull + 1442695040888963407ull;
				/* a third of the rounds: all close together */
				hist[i] = round % 3 ? (x >> 33) % top :
					  top / 3 + (x >> 33) % 1000;
				lo = hist[i] < lo ? hist[i] : lo;
				hi = hist[i] > hi ? hist[i] : hi;
			}
			p = rp_menu_predict(hist, n);
			assert_true(p >= lo && p <= hi);
			assert_int_equal(rp_menu_state(cl, hist, n),
					 rp_idle_state_for(cl, p));
		}
	}
}

/*
 * An activation keeps its recorded event positions in 48 bits: a workload
 * past RP_SEQ_MAX events is refused, not wrapped (started just below the
 * limit here; backdated.txt has 6 events).
 */
static void workload_seq_limit(void **state)
{
	struct ea_workload_config wcfg = { .model = tc2, .source_capacity = 1024 };
	struct ea_state_config cfg = { .ncpus = -1 };
	const char *path = "tests/fixtures/replay/backdated.txt";
	struct ea_workload *w;
	struct ea_consumer cons;
	struct ea_run run;
	struct ea_err err;

	load(state);
	/* 56: ran_ns, the CPU time of its work, for demands (sim-act.c) */
	assert_int_equal(sizeof(struct rp_act), 56);
	assert_int_equal(ea_workload_new(&w, &wcfg), 0);
	w->seq = RP_SEQ_MAX - 2;
	cons = (struct ea_consumer){ &ea_workload_ops, w };
	assert_int_equal(ea_run(&run, path, &cfg, &cons, 1, &err), 0);
	assert_int_equal(ea_workload_done(w, run.state, &err), -1);
	assert_non_null(strstr(err.msg, "2^48"));
	ea_run_free(&run);
	ea_workload_free(w);
}

/*
 * The workload of tests/fixtures/replay/util-est-sticky.txt (see its
 * header) on tc2 (--source-capacity 1024), h pinned to the A7 CPU 3, and
 * a simulator of it under feec at fixed frequencies (A15 600 MHz, A7
 * 1 GHz: the A7s run at capacity 1024); *run is kept for the workload.
 */
static struct ea_workload *sticky_workload(struct ea_run *run, struct sim *s)
{
	static struct ea_pin pin = { .pattern = "h", .cpus = { 1ull << 3 } };
	struct ea_workload_config wcfg = { .model = tc2, .source_capacity = 1024,
					   .pins = &pin, .npins = 1 };
	struct ea_workload *w =
		workload_of("tests/fixtures/replay/util-est-sticky.txt", &wcfg, run);

	assert_int_equal(sim_init(s, w, tc2, &rp_policy_feec, RP_GOV_FIXED,
				  RP_IDLE_MENU, false, 0), 0);
	assert_int_equal(rp_gov_spec_parse(&s->gspec, "fixed:A15=600000,A7=1000000",
					   tc2, NULL, 0), 0);
	s->sink = digest_event;
	return w;
}

static int task_of(const struct sim *s, int32_t pid)
{
	for (size_t i = 0; i < s->ntasks; i++)
		if (s->tasks[i].w->pid == pid)
			return (int)i;
	fail_msg("no task %d", pid);
	return -1;
}

/*
 * util_est at a sleep, as mainline's util_est_update() (v6.9+;
 * UTIL_EST_MARGIN = 1024 / 100 = 10, UTIL_EST_WEIGHT_SHIFT 2):
 *  - up at once: ewma 100, dequeued 300 -> 300; equal: 300 -> 300;
 *  - down by a quarter: ewma 736, dequeued 22: diff 714,
 *    (736 x 4 - 714) >> 2 = 2230 >> 2 = 557;
 *  - within the margin: ewma 500, dequeued 491: diff 9 < 10 -> 500;
 *    dequeued 490: diff 10, (2000 - 10) >> 2 = 497;
 *  - dequeued above the CPU's capacity (no idle time granted): ewma 1000,
 *    dequeued 900 on capacity 512 -> 1000; dequeued 500 there: diff 500,
 *    (4000 - 500) >> 2 = 875.
 *
 * The simulator applies it at each sleep (tests/fixtures/replay/
 * util-est-sticky.txt): a runs 60 ms on the A7 CPU 2 at capacity 1024
 * from util 0, PELT with a half-life of 32 periods of 1.024 ms. util_avg
 * moves at period ends only, so at the sleep it is as of up to one period
 * before: 1024 x (1 - 0.5^(59 / 32.768)) = 730 to 1024 x (1 - 0.5^(60 /
 * 32.768)) = 736, within 1% for PELT's divider (LOAD_AVG_MAX - 1024 +
 * the period's part): util_est 722..744 (up at once). After 539 ms asleep
 * its util is 736 x 0.5^(539 / 32.768) = 0.01 -> 0; its 1 ms run adds at
 * most 1024 x (1 - 0.5^(1 / 32.768)) = 21.4: dequeued D in 0..22, so the
 * second util_est is (4 x U - (U - D)) >> 2 with U the first: from
 * U - ceil(U / 4) (D = 0) to U - ceil((U - 22) / 4). Without the update
 * util_est stays 0; set to the dequeued util it is 0..22; never lowered
 * it stays U. At every sleep of every task the new util_est is also
 * checked against the rule as written out here, from the util at
 * dequeue.
 */
static void feec_util_est_sleep(void **state)
{
	struct ea_workload *w;
	struct ea_run run;
	struct sim s;
	uint32_t seen[2] = { 0 }, last[3] = { 0 };
	bool was[3] = { false };
	int ta, nsleep = 0, pids[3] = { 30, 31, 32 }, ti[3];

	load(state);
	assert_int_equal(rp_util_est_update(100, 300, 1024), 300);
	assert_int_equal(rp_util_est_update(300, 300, 1024), 300);
	assert_int_equal(rp_util_est_update(736, 22, 1024), 557);
	assert_int_equal(rp_util_est_update(500, 491, 1024), 500);
	assert_int_equal(rp_util_est_update(500, 490, 1024), 497);
	assert_int_equal(rp_util_est_update(1000, 900, 512), 1000);
	assert_int_equal(rp_util_est_update(1000, 500, 512), 875);

	w = sticky_workload(&run, &s);
	ta = task_of(&s, 30);
	for (int k = 0; k < 3; k++)
		ti[k] = task_of(&s, pids[k]);
	while (sim_step(&s)) {
		for (int k = 0; k < 3; k++) {
			struct sim_task *t = &s.tasks[ti[k]];
			uint32_t dq = t->pelt.util_avg, old = last[k], want;

			if (was[k] && !t->runnable) {
				/* asleep since this step: pelt is as of it */
				uint32_t cap = s.cpus[t->cpu].cap_orig;

				want = old <= dq ? dq :
				       old - dq < 10 || dq > cap ? old :
				       ((old << 2) - (old - dq)) >> 2;
				assert_int_equal(t->ue_ewma, want);
				if (ti[k] == ta && nsleep < 2)
					seen[nsleep++] = t->ue_ewma;
			}
			was[k] = t->runnable;
			last[k] = t->ue_ewma;
		}
	}
	assert_int_equal(nsleep, 2);
	assert_in_range(seen[0], 722, 744);
	assert_in_range(seen[1], seen[0] - (seen[0] + 3) / 4,
			seen[0] - (seen[0] - 22 + 3) / 4);
	rp_gov_spec_free(&s.gspec);	/* fixed_k: not the simulator's */
	sim_free(&s);
	ea_run_free(&run);
	ea_workload_free(w);
}

/*
 * Sticky overutilised (feec: rp_balance.sticky_over, with balancing gated
 * on it): set at the step where some CPU's util reaches 80% of its
 * capacity (util x 1280 >= cap x 1024: from 820 on an A7 of capacity
 * 1024, 1048576 / 1280 = 819.2; from 1612 on an A15 of 2015,
 * 2063360 / 1280 = 1612), cleared only at a tick (every 4 ms from the
 * trace start, the simulator's periodic balance) at which no CPU is over.
 *
 * tests/fixtures/replay/util-est-sticky.txt: h, pinned to the A7 CPU 3,
 * runs 200 ms from 100.5 ms at capacity 1024: its CPU's util reaches 820
 * when 1 - 0.5^(t / 32.768) = 820 / 1024, t = 32.768 x log2(1024 / 204)
 * = 76.3 ms, at 176.8 ms (+-1 ms for PELT's periods); nothing else runs
 * then, so the simulator's next step is the tick at 180 ms. At h's sleep
 * (300.5 ms) the util is 1024 x (1 - 0.5^(200 / 32.768)) = 1009, below
 * 820 after 32.768 x log2(1009 / 820) = 9.8 ms, at 310.3 ms (a band of
 * 305..315 ms). b's runs every 1 ms, 0.3 ms after each ms, make steps
 * between ticks: the step that finds no CPU over is not a tick, and the
 * flag must outlive it until the next tick. Without the stickiness the
 * flag would fall with the util there.
 */
static void feec_sticky_overutilised(void **state)
{
	struct ea_workload *w;
	struct ea_run run;
	struct sim s;
	uint64_t t0, first_over = 0, last_over = 0, cleared = 0;
	bool window = false, pending = false;

	load(state);
	assert_true(rp_policy_feec.balance.sticky_over);
	assert_true(rp_policy_feec.balance.over_gated);
	w = sticky_workload(&run, &s);
	assert_int_equal(s.cpus[3].over_util, 820);
	assert_int_equal(s.cpus[0].over_util, 1612);
	t0 = s.now;
	while (sim_step(&s)) {
		bool over = false, tick = (s.now - t0) % 4000000 == 0;

		for (int i = 0; i < s.ncpus; i++)
			if ((uint64_t)s.cpus[i].pelt.util_avg * 1280 >=
			    (uint64_t)s.cpus[i].cap_orig * 1024)
				over = true;
		if (over) {
			/* set as soon as a CPU is over, tick or not */
			assert_true(s.over_sticky);
			if (!first_over)
				first_over = s.now;
			last_over = s.now;
			pending = true;
		} else if (pending && !tick) {
			/* none over, no tick yet since: still set */
			assert_true(s.over_sticky);
			window = true;
		} else {
			/* never set yet, or cleared at this tick */
			assert_false(s.over_sticky);
			if (pending)
				cleared = s.now;
			pending = false;
		}
	}
	assert_int_equal(first_over - t0, 180000000);
	assert_in_range((last_over - t0) / 1000000, 305, 315);
	assert_true(window);
	/* cleared at the first tick after the last step with a CPU over */
	assert_true(cleared > last_over);
	assert_true(cleared - last_over <= 4000000);
	assert_int_equal((cleared - t0) % 4000000, 0);
	rp_gov_spec_free(&s.gspec);	/* fixed_k: not the simulator's */
	sim_free(&s);
	ea_run_free(&run);
	ea_workload_free(w);
}

static int teardown(void **state)
{
	ea_model_free(tc2);
	tc2 = NULL;
	return 0;
}

/*
 * rp_div() against the processor's divide: every divisor up to 70000 (model
 * capacities are up to 1024; a margin well past it) and some up to 2^32 - 1,
 * numerators at and around multiples of d, at the top of the range (up to
 * LONG_MAX), pseudo-random ones of every size, and negative ones.
 */
static void div_by_constant(void **state)
{
	static const uint32_t big[] = { 65535, 65536, 65537, 1u << 20, 999983,
					1u << 31, (1u << 31) + 1, 4294967295u };
	uint64_t x = 88172645463325252ull;	/* xorshift64 */

	(void)state;
	for (uint32_t i = 0; i < 70000 + sizeof(big) / sizeof(big[0]); i++) {
		long d = i < 70000 ? (long)i + 1 : (long)big[i - 70000];
		long ns[] = { 0, 1, 2, d - 1, d, d + 1, 2 * d - 1, 2 * d,
			      1024 * d - 1, 1024 * d + 1, LONG_MAX, LONG_MAX - 1,
			      LONG_MAX - d, LONG_MAX / d * d, LONG_MAX / d * d - 1,
			      -1, -d, -d - 1, LONG_MIN + 1, 0, 0, 0, 0 };
		struct rp_div q;
		size_t n = sizeof(ns) / sizeof(ns[0]);

		for (size_t k = n - 4; k < n; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			/* sizes from 1 to 63 bits */
			ns[k] = (long)((x >> 1) >> (x % 63));
		}
		rp_div_init(&q, (uint32_t)d);
		for (size_t k = 0; k < n; k++)
			if (rp_div(ns[k], &q, d) != ns[k] / d)
				fail_msg("%ld / %ld: %ld, not %ld", ns[k], d,
					 rp_div(ns[k], &q, d), ns[k] / d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(div_by_constant),
		cmocka_unit_test(diff_idle_cpu),
		cmocka_unit_test(diff_busy_cpu),
		cmocka_unit_test(diff_crosses_opp),
		cmocka_unit_test(diff_overutilised),
		cmocka_unit_test(diff_wakeups),
		cmocka_unit_test(feec_scenarios),
		cmocka_unit_test(feec_energy_drop_keeps_prev),
		cmocka_unit_test(pack_spread_not_bounds),
		cmocka_unit_test(feec_util_est),
		cmocka_unit_test(eas_rfc_balance_path),
		cmocka_unit_test(rfc_curr_capacity),
		cmocka_unit_test(cpu_map),
		cmocka_unit_test(kthread_pins),
		cmocka_unit_test(governors),
		cmocka_unit_test(eas_rfc_big_to_little),
		cmocka_unit_test(rfc_wakeup_energy),
		cmocka_unit_test(cache_same_decisions),
		cmocka_unit_test(arrivals_heap_equals_sort),
		cmocka_unit_test(workload_without_segments),
		cmocka_unit_test(workload_counts),
		cmocka_unit_test(workload_seq_limit),
		cmocka_unit_test(menu_state_skips_prediction),
		cmocka_unit_test(feec_util_est_sleep),
		cmocka_unit_test(feec_sticky_overutilised),
	};

	return cmocka_run_group_tests(tests, NULL, teardown);
}
