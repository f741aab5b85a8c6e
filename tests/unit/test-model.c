// SPDX-License-Identifier: GPL-2.0-only
/*
 * Energy model loader, checks, writer and lookups. The bundled models are
 * checked against the numbers of their sources, typed in again here: the
 * 2014 RFC's TC2 patch, idlestat's energy_model_TC2, the Juno r0 mainline
 * energy model (shared/traces/README.md) and juno-sched-energy.dtsi.
 */
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "eatrace/model.h"

static char root[PATH_MAX];

/* The source tree: the current directory under make, else from argv[0]. */
static void find_root(void)
{
	char exe[PATH_MAX];
	ssize_t n;

	if (access("models/tc2.json", R_OK) == 0) {
		strcpy(root, ".");
		return;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		/* ROOT/build/tests/test-model */
		for (int i = 0; i < 3; i++) {
			char *s = strrchr(exe, '/');

			if (s)
				*s = '\0';
		}
		snprintf(root, sizeof(root), "%s", exe);
	}
}

static struct ea_model *load(const char *rel)
{
	char path[PATH_MAX + 64];
	struct ea_model *m = NULL;
	struct ea_err err = { "" };

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (ea_model_load(&m, path, &err))
		fail_msg("%s: %s", path, err.msg);
	return m;
}

static double rfc_wakeup(int w)
{
	return w * 47742.0 / (1024 * 1000);
}

struct row {
	uint32_t khz, cap;
	double core, cluster;
};

static void assert_caps(const struct ea_cluster *cl, const struct row *r, int n)
{
	assert_int_equal(cl->ncaps, n);
	for (int i = 0; i < n; i++) {
		assert_int_equal(cl->caps[i].freq_khz, r[i].khz);
		assert_int_equal(cl->caps[i].cap, r[i].cap);
		assert_true(cl->caps[i].core_power == r[i].core);
		assert_true(cl->caps[i].cluster_power == r[i].cluster);
		assert_int_equal(cl->caps[i].core_power_u, llround(r[i].core * 1e6));
		assert_int_equal(cl->caps[i].cluster_power_u,
				 llround(r[i].cluster * 1e6));
	}
}

static void assert_cpus(const struct ea_cluster *cl, const int *cpus, int n)
{
	assert_int_equal(cl->ncpus, n);
	for (int i = 0; i < n; i++)
		assert_int_equal(cl->cpus[i], cpus[i]);
}

static void assert_idle(const struct ea_idle_state *is, const char *name,
			double core, double cluster, double core_w,
			double cluster_w, uint32_t residency)
{
	assert_string_equal(is->name, name);
	assert_true(is->core_power == core);
	assert_true(is->cluster_power == cluster);
	assert_true(is->core_wakeup == core_w);
	assert_true(is->cluster_wakeup == cluster_w);
	assert_int_equal(is->core_power_u, llround(core * 1e6));
	assert_int_equal(is->cluster_power_u, llround(cluster * 1e6));
	assert_int_equal(is->core_wakeup_u, llround(core_w * 1e6));
	assert_int_equal(is->cluster_wakeup_u, llround(cluster_w * 1e6));
	assert_int_equal(is->target_residency_us, residency);
}

/* RFC patch 06/16: cap_states_core_a15 / cap_states_cluster_a15. */
static const struct row tc2_a15[] = {
	{ 500000, 840, 2021, 7920 },	{ 600000, 1008, 2312, 8165 },
	{ 700000, 1176, 2756, 8172 },	{ 800000, 1343, 3125, 8195 },
	{ 900000, 1511, 3524, 8265 },	{ 1000000, 1679, 3846, 8446 },
	{ 1100000, 1847, 5177, 11426 }, { 1200000, 2015, 6997, 15200 },
};

static const struct row tc2_a7[] = {
	{ 350000, 358, 187, 2967 },	{ 400000, 410, 275, 2792 },
	{ 500000, 512, 334, 2810 },	{ 600000, 614, 407, 2815 },
	{ 700000, 717, 447, 2919 },	{ 800000, 819, 549, 2847 },
	{ 900000, 922, 761, 3917 },	{ 1000000, 1024, 1024, 4905 },
};

static void test_tc2(void **state)
{
	struct ea_model *m = load("models/tc2.json");
	static const int a15[] = { 0, 1 }, a7[] = { 2, 3, 4 };
	static const int owner[] = { 0, 0, 1, 1, 1 };

	assert_string_equal(m->name, "ARM TC2");
	assert_string_equal(m->power_unit, "bogo");
	assert_non_null(strstr(m->source, "RFC"));
	assert_int_equal(m->nclusters, 2);
	assert_int_equal(m->ncpus, 5);
	for (int c = 0; c < 5; c++)
		assert_int_equal(m->cpu_cluster[c], owner[c]);

	assert_string_equal(m->clusters[0].name, "A15");
	assert_cpus(&m->clusters[0], a15, 2);
	assert_true(m->clusters[0].freq_domain);
	assert_caps(&m->clusters[0], tc2_a15, 8);
	assert_int_equal(m->clusters[0].nidles, 2);
	assert_false(m->clusters[0].idle_implicit);
	/* idle_power 25 (cluster power-down), 0 (core); wakeup 210 and 5 */
	assert_idle(&m->clusters[0].idles[0], "WFI", 0, 25, rfc_wakeup(5),
		    rfc_wakeup(210), 1);
	assert_idle(&m->clusters[0].idles[1], "C1", 0, 25, rfc_wakeup(5),
		    rfc_wakeup(210), 2000);

	assert_string_equal(m->clusters[1].name, "A7");
	assert_cpus(&m->clusters[1], a7, 3);
	assert_caps(&m->clusters[1], tc2_a7, 8);
	/* idle_power 10, 0; wakeup 6 and 0 */
	assert_idle(&m->clusters[1].idles[0], "WFI", 0, 10, rfc_wakeup(0),
		    rfc_wakeup(6), 1);
	assert_idle(&m->clusters[1].idles[1], "C1", 0, 10, rfc_wakeup(0),
		    rfc_wakeup(6), 2500);

	/* the conversion, spelt out: 5 x 47742 / 1024000 */
	assert_true(m->clusters[0].idles[0].core_wakeup == 0.233115234375);
	assert_int_equal(m->clusters[0].idles[0].core_wakeup_u, 233115);
	assert_int_equal(m->clusters[0].idles[0].cluster_wakeup_u, 9790840);
	ea_model_free(m);
}

static void test_tc2_idlestat(void **state)
{
	struct ea_model *m = load("models/tc2-idlestat.json");
	static const int a[] = { 1, 2 }, b[] = { 0, 3, 4 };
	static const int owner[] = { 1, 0, 0, 1, 1 };

	assert_int_equal(m->ncpus, 5);
	for (int c = 0; c < 5; c++)
		assert_int_equal(m->cpu_cluster[c], owner[c]);
	assert_cpus(&m->clusters[0], a, 2);
	assert_cpus(&m->clusters[1], b, 3);
	/* idlestat's rows are "MHz cluster core": the same numbers */
	assert_caps(&m->clusters[0], tc2_a15, 8);
	assert_caps(&m->clusters[1], tc2_a7, 8);
	/* "wakeup 210 5" and "wakeup 110 0": idlestat's A7 cluster is 110 */
	assert_idle(&m->clusters[0].idles[1], "C1", 0, 25, rfc_wakeup(5),
		    rfc_wakeup(210), 2000);
	assert_idle(&m->clusters[1].idles[1], "C1", 0, 10, 0, rfc_wakeup(110),
		    2500);
	assert_idle(&m->clusters[1].idles[0], "WFI", 0, 10, 0, rfc_wakeup(110),
		    1);
	ea_model_free(m);
}

/* shared/traces/README.md: the mainline EM read by LISA on Juno r0. */
static const struct row juno_a53[] = {
	{ 450000, 236, 42, 0 }, { 575000, 302, 58, 0 }, { 700000, 367, 79, 0 },
	{ 775000, 407, 97, 0 }, { 850000, 446, 119, 0 },
};

static const struct row juno_a57[] = {
	{ 450000, 419, 160, 0 }, { 625000, 582, 239, 0 },
	{ 800000, 745, 343, 0 }, { 950000, 884, 454, 0 },
	{ 1100000, 1024, 583, 0 },
};

static void test_juno(void **state)
{
	struct ea_model *m = load("models/juno-r0.json");
	static const int a53[] = { 0, 3, 4, 5 }, a57[] = { 1, 2 };
	static const int owner[] = { 0, 1, 1, 0, 0, 0 };
	static const char *const idle[] = { "WFI", "cpu-sleep-0", "cluster-sleep-0" };
	static const uint32_t res[] = { 1, 2000, 2500 };

	assert_string_equal(m->power_unit, "mW");
	assert_int_equal(m->ncpus, 6);
	for (int c = 0; c < 6; c++)
		assert_int_equal(m->cpu_cluster[c], owner[c]);
	assert_string_equal(m->clusters[0].name, "A53");
	assert_cpus(&m->clusters[0], a53, 4);
	assert_caps(&m->clusters[0], juno_a53, 5);
	assert_string_equal(m->clusters[1].name, "A57");
	assert_cpus(&m->clusters[1], a57, 2);
	assert_caps(&m->clusters[1], juno_a57, 5);
	for (int i = 0; i < 2; i++) {
		assert_true(m->clusters[i].freq_domain);
		assert_int_equal(m->clusters[i].nidles, 3);
		for (int k = 0; k < 3; k++)
			assert_idle(&m->clusters[i].idles[k], idle[k], 0, 0, 0,
				    0, res[k]);
	}
	ea_model_free(m);
}

static void test_juno_eas(void **state)
{
	struct ea_model *m = load("models/juno-r0-eas.json");
	/* CPU_COST_A57 / CLUSTER_COST_A57 busy-cost-data */
	static const struct row a57[] = {
		{ 450000, 417, 168, 24 }, { 625000, 579, 251, 32 },
		{ 800000, 744, 359, 43 }, { 950000, 883, 479, 49 },
		{ 1100000, 1024, 616, 64 },
	};
	static const struct row a53[] = {
		{ 450000, 235, 33, 26 }, { 575000, 302, 46, 30 },
		{ 700000, 368, 61, 39 }, { 775000, 406, 76, 47 },
		{ 850000, 447, 93, 57 },
	};

	assert_caps(&m->clusters[0], a53, 5);
	assert_caps(&m->clusters[1], a57, 5);
	/* idle-cost-data minus its first (arch_cpu_idle) entry */
	assert_idle(&m->clusters[0].idles[0], "WFI", 6, 56, 0, 0, 1);
	assert_idle(&m->clusters[0].idles[1], "cpu-sleep-0", 0, 56, 0, 0, 2000);
	assert_idle(&m->clusters[0].idles[2], "cluster-sleep-0", 0, 17, 0, 0, 2500);
	assert_idle(&m->clusters[1].idles[0], "WFI", 15, 65, 0, 0, 1);
	assert_idle(&m->clusters[1].idles[2], "cluster-sleep-0", 0, 24, 0, 0, 2500);
	ea_model_free(m);
}

static void test_cap_index(void **state)
{
	struct ea_model *m = load("models/tc2.json");
	const struct ea_cluster *a7 = &m->clusters[1];

	assert_int_equal(ea_model_cap_index(a7, 350000), 0);
	assert_int_equal(ea_model_cap_index(a7, 500000), 2);
	assert_int_equal(ea_model_cap_index(a7, 1000000), 7);
	assert_int_equal(ea_model_cap_index(a7, 450000), -1);
	assert_int_equal(ea_model_cap_index(a7, 0), -1);
	assert_int_equal(ea_model_cap_index(a7, 2000000), -1);
	assert_int_equal(ea_model_cap_index_nearest(a7, 500000), 2);
	assert_int_equal(ea_model_cap_index_nearest(a7, 450000), 2);
	assert_int_equal(ea_model_cap_index_nearest(a7, 100000), 0);
	assert_int_equal(ea_model_cap_index_nearest(a7, 2000000), 7);
	assert_ptr_equal(ea_model_cpu_cluster(m, 0), &m->clusters[0]);
	assert_ptr_equal(ea_model_cpu_cluster(m, 4), &m->clusters[1]);
	assert_null(ea_model_cpu_cluster(m, 5));
	assert_null(ea_model_cpu_cluster(m, -1));
	ea_model_free(m);
}

/* Every malformed fixture: the message names the file, the line, the cause. */
static void test_bad_fixtures(void **state)
{
	static const struct {
		const char *file;
		int line;
		const char *msg;
	} bad[] = {
		{ "bad-missing-field.json", 11, "clusters[0].cap_states[0]: missing member 'core_power'" },
		{ "bad-unsorted-caps.json", 12, "clusters[0].cap_states[1].cap: capacities must be strictly ascending: 150 after 200" },
		{ "bad-unsorted-freqs.json", 12, "clusters[0].cap_states[1].freq_khz: frequencies must be strictly ascending: 400000 kHz after 500000 kHz" },
		{ "bad-negative-power.json", 12, "clusters[0].cap_states[1].core_power: -110 is negative" },
		{ "bad-nan-power.json", 12, "clusters[0].cap_states[1].core_power: nan is not a finite number" },
		{ "bad-inf-power.json", 12, "clusters[0].cap_states[1].core_power: inf is not a finite number" },
		{ "bad-absurd-power.json", 12, "core_power: 2000000000 is beyond the sanity limit 1e9" },
		{ "bad-absurd-freq.json", 12, "freq_khz: 200000000 is out of range (1..100000000 kHz)" },
		{ "bad-cpu-4096.json", 21, "clusters[1].cpus[1]: CPU id 4096 is out of range (0..4095)" },
		{ "bad-cpu-negative.json", 9, "clusters[0].cpus[1]: CPU id -1 is out of range (0..4095)" },
		{ "bad-duplicate-cpu.json", 21, "clusters[1].cpus[0]: CPU 1 is also in cluster 'little' (clusters[0])" },
		{ "bad-version.json", 3, "eatrace_model: unsupported format version 2 (this eatrace reads version 1)" },
		{ "bad-syntax.json", 6, "JSON syntax error: object value separator ',' expected" },
		{ "bad-wrong-type.json", 10, "clusters[0].cap_states[0].cap: expected an integer, got a string" },
		{ "bad-unknown-member.json", 12, "clusters[0].cap_states[0].core_pwr: unknown member" },
		{ "bad-duplicate-key.json", 10, "member 'core_power' given twice in one object" },
		{ "bad-no-cpus.json", 8, "clusters[0].cpus: a cluster needs at least one CPU" },
		{ "bad-no-cap-states.json", 9, "clusters[0].cap_states: a cluster needs at least one cap state" },
		{ "bad-unterminated-comment.json", 3, "unterminated /* comment" },
		{ "bad-eof.json", 8, "JSON syntax error: unexpected end of file" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char path[PATH_MAX + 64], where[PATH_MAX + 96];
		struct ea_model *m = NULL;
		struct ea_err err = { "" };

		snprintf(path, sizeof(path), "%s/tests/fixtures/models/%s", root,
			 bad[i].file);
		snprintf(where, sizeof(where), "%s:%d: ", path, bad[i].line);
		if (ea_model_load(&m, path, &err) != -1)
			fail_msg("%s: loaded", bad[i].file);
		assert_null(m);
		if (strncmp(err.msg, where, strlen(where)) || !strstr(err.msg, bad[i].msg))
			fail_msg("%s: got '%s', expected '%s%s'", bad[i].file,
				 err.msg, where, bad[i].msg);
	}
}

#define MINI(CLUSTER) \
	"{ \"eatrace_model\": 1, \"name\": \"t\", \"power_unit\": \"mW\",\n" \
	"  \"clusters\": [ " CLUSTER " ] }"
#define CAP1 "{ \"freq_khz\": 1000, \"cap\": 10, \"core_power\": 1, \"cluster_power\": 0 }"

static void test_buffer_refusals(void **state)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "{\"eatrace_model\": 1,\n\"name\": \"a\0b\"}", "t.json:2: NUL byte" },
		{ "", "t.json:1: empty model file" },
		{ "  // nothing\n", "t.json:2: empty model file" },
		{ "[]", "t.json:1: a model file is one JSON object" },
		{ "{ \"name\": \"x\" }", "t.json:1: missing member 'eatrace_model'" },
		{ "{ \"eatrace_model\": 1.0 }", "t.json:1: eatrace_model: expected the format version (an integer), got a fractional number" },
		{ "{ \"eatrace_model\": 1 } x", "t.json:1: JSON syntax error: text after the model's closing '}'" },
		{ "{ \"eatrace_model\": 1, \"name\": \"t\", \"power_unit\": \"mW\", \"clusters\": [] }",
		  "t.json:1: clusters: a model needs at least one cluster" },
		{ "{ \"eatrace_model\": 1, \"name\": \"\", \"power_unit\": \"mW\", \"clusters\": [] }",
		  "t.json:1: name: empty model name" },
		{ "{ \"eatrace_model\": 1, \"name\": \"0123456789012345678901234567890123456789012345678901234567890123\" }",
		  "t.json:1: name: too long (at most 63 characters)" },
		{ "{ \"eatrace_model\": 1, \"name\": \"t\", \"power_unit\": \"milliwatts-per-core\" }",
		  "t.json:1: power_unit: too long (at most 15 characters)" },
		{ MINI("{ \"name\": \"a\", \"cpus\": [0.5], \"cap_states\": [" CAP1 "] }"),
		  "t.json:2: clusters[0].cpus[0]: expected a CPU id (an integer), got a fractional number" },
		{ MINI("{ \"name\": \"a\", \"cpus\": [0], \"freq_domain\": 1, \"cap_states\": [" CAP1 "] }"),
		  "t.json:2: clusters[0].freq_domain: expected true or false, got an integer" },
		{ MINI("{ \"name\": \"a\", \"cpus\": [0], \"cap_states\": [" CAP1 "] },\n"
		       "{ \"name\": \"a\", \"cpus\": [1], \"cap_states\": [" CAP1 "] }"),
		  "t.json:3: clusters[1].name: duplicate cluster name 'a' (also clusters[0])" },
		{ MINI("{ \"name\": \"a\", \"cpus\": [0, 0], \"cap_states\": [" CAP1 "] }"),
		  "t.json:2: clusters[0].cpus[1]: CPU 0 is listed twice in this cluster" },
		{ MINI("{ \"name\": \"a\", \"cpus\": [0], \"cap_states\": [" CAP1 "],\n"
		       "  \"idle_states\": [ { \"name\": \"x\", \"core_power\": 0, \"cluster_power\": 0 },\n"
		       "                   { \"name\": \"x\", \"core_power\": 0, \"cluster_power\": 0 } ] }"),
		  "t.json:4: clusters[0].idle_states[1].name: duplicate idle state name 'x' (also idle_states[0])" },
		{ MINI("{ \"name\": \"a\", \"cpus\": [0], \"cap_states\": [" CAP1 "],\n"
		       "  \"idle_states\": [ { \"name\": \"x\", \"core_power\": 0, \"cluster_power\": 0,\n"
		       "    \"core_wakeup\": -1 } ] }"),
		  "t.json:4: clusters[0].idle_states[0].core_wakeup: -1 is negative" },
		{ MINI("{ \"name\": \"a\", \"cpus\": [0], \"cap_states\": [" CAP1 "],\n"
		       "  \"idle_states\": [ { \"name\": \"x\", \"core_power\": 0, \"cluster_power\": 0,\n"
		       "    \"target_residency_us\": 100000001 } ] }"),
		  "t.json:4: clusters[0].idle_states[0].target_residency_us: 100000001 is out of range (0..100000000 us)" },
		{ MINI("{ \"name\": \"a\", \"cpus\": [0], \"cap_states\": [\n"
		       "{ \"freq_khz\": 1000, \"cap\": 4097, \"core_power\": 1, \"cluster_power\": 0 } ] }"),
		  "t.json:3: clusters[0].cap_states[0].cap: 4097 is out of range (1..4096)" },
		{ MINI("{ \"name\": \"a\", \"cpus\": [0], \"cap_states\": [\n"
		       "{ \"freq_khz\": 0, \"cap\": 1, \"core_power\": 1, \"cluster_power\": 0 } ] }"),
		  "t.json:3: clusters[0].cap_states[0].freq_khz: 0 is out of range (1..100000000 kHz)" },
		{ MINI("{ \"name\": \"a\", \"cpus\": [0], \"cap_states\": {} }"),
		  "t.json:2: clusters[0].cap_states: expected an array, got an object" },
		{ MINI("7"), "t.json:2: clusters[0]: expected an object, got an integer" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ea_model *m = NULL;
		struct ea_err err = { "" };
		size_t len = strlen(bad[i].text);

		if (i == 0)	/* the NUL byte: count it in */
			len += 4;
		if (ea_model_load_buffer(&m, bad[i].text, len, "t.json", &err) != -1)
			fail_msg("case %zu: loaded", i);
		if (!strstr(err.msg, bad[i].msg))
			fail_msg("case %zu: got '%s', expected '%s'", i, err.msg,
				 bad[i].msg);
	}
}

static void test_buffer_accepts(void **state)
{
	static const char text[] =
		"// comment before\n"
		"{ \"eatrace_model\": 1, \"name\": \"t\", \"power_unit\": \"mW\",\n"
		"  \"source\": \"http://example.org/a//b /* not a comment */\",\n"
		"  /* comment */ \"clusters\": [ { \"name\": \"a\", \"cpus\": [3, 1],\n"
		"    \"freq_domain\": false, \"cap_states\": [ " CAP1 " ] } ] }\n"
		"// comment after, no newline";
	struct ea_model *m = NULL;
	struct ea_err err = { "" };

	if (ea_model_load_buffer(&m, text, strlen(text), "t.json", &err))
		fail_msg("%s", err.msg);
	assert_string_equal(m->source, "http://example.org/a//b /* not a comment */");
	assert_string_equal(m->path, "t.json");
	assert_int_equal(m->ncpus, 4);
	assert_int_equal(m->cpu_cluster[0], -1);
	assert_int_equal(m->cpu_cluster[1], 0);
	assert_int_equal(m->cpu_cluster[2], -1);
	assert_int_equal(m->cpu_cluster[3], 0);
	assert_false(m->clusters[0].freq_domain);
	/* no idle_states: one implicit state drawing nothing */
	assert_true(m->clusters[0].idle_implicit);
	assert_int_equal(m->clusters[0].nidles, 1);
	assert_idle(&m->clusters[0].idles[0], "idle", 0, 0, 0, 0, 0);
	ea_model_free(m);
}

static void assert_same_model(const struct ea_model *a, const struct ea_model *b)
{
	assert_string_equal(a->name, b->name);
	assert_string_equal(a->source, b->source);
	assert_string_equal(a->power_unit, b->power_unit);
	assert_int_equal(a->nclusters, b->nclusters);
	assert_int_equal(a->ncpus, b->ncpus);
	for (int c = 0; c < a->ncpus; c++)
		assert_int_equal(a->cpu_cluster[c], b->cpu_cluster[c]);
	for (int i = 0; i < a->nclusters; i++) {
		const struct ea_cluster *x = &a->clusters[i], *y = &b->clusters[i];

		assert_string_equal(x->name, y->name);
		assert_int_equal(x->freq_domain, y->freq_domain);
		assert_int_equal(x->idle_implicit, y->idle_implicit);
		assert_int_equal(x->ncpus, y->ncpus);
		assert_memory_equal(x->cpus, y->cpus, x->ncpus * sizeof(int));
		assert_int_equal(x->ncaps, y->ncaps);
		assert_memory_equal(x->caps, y->caps, x->ncaps * sizeof(*x->caps));
		assert_int_equal(x->nidles, y->nidles);
		assert_memory_equal(x->idles, y->idles, x->nidles * sizeof(*x->idles));
	}
}

/* write then read back: the same model, to the bit. */
static void test_write_roundtrip(void **state)
{
	static const char *const files[] = {
		"models/tc2.json", "models/tc2-idlestat.json",
		"models/juno-r0.json", "models/juno-r0-eas.json",
		"tests/fixtures/models/ok-small.json",
	};

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct ea_model *a = load(files[i]), *b = NULL;
		struct ea_err err = { "" };
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		assert_non_null(f);
		assert_int_equal(ea_model_write_json(a, f), 0);
		fclose(f);
		if (ea_model_load_buffer(&b, buf, len, a->path, &err))
			fail_msg("%s: written model does not load: %s\n%s",
				 files[i], err.msg, buf);
		assert_same_model(a, b);
		ea_model_free(a);
		ea_model_free(b);
		free(buf);
	}
}

static void test_write_escapes(void **state)
{
	struct ea_model *a = load("tests/fixtures/models/ok-small.json"), *b;
	struct ea_err err = { "" };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	free(a->source);
	a->source = strdup("quote \" backslash \\ tab \t newline \n bell \a");
	a->clusters[0].caps[1].core_power = 0.1;
	a->clusters[0].idles[0].core_wakeup = 1.0 / 3;
	assert_int_equal(ea_model_write_json(a, f), 0);
	fclose(f);
	if (ea_model_load_buffer(&b, buf, len, "w.json", &err))
		fail_msg("%s\n%s", err.msg, buf);
	assert_string_equal(b->source, a->source);
	assert_true(b->clusters[0].caps[1].core_power == 0.1);
	assert_true(b->clusters[0].idles[0].core_wakeup == 1.0 / 3);
	assert_non_null(strstr(buf, "\"core_power\": 0.1,"));
	ea_model_free(a);
	ea_model_free(b);
	free(buf);
}

static void test_fmt_num(void **state)
{
	char buf[40];

	assert_string_equal(ea_model_fmt_num(7920, buf, sizeof(buf)), "7920");
	assert_string_equal(ea_model_fmt_num(0.233115234375, buf, sizeof(buf)),
			    "0.233115234375");
	assert_string_equal(ea_model_fmt_num(0.1, buf, sizeof(buf)), "0.1");
	assert_string_equal(ea_model_fmt_num(-0.0, buf, sizeof(buf)), "0");
	assert_string_equal(ea_model_fmt_num(1e20, buf, sizeof(buf)), "1e+20");
	assert_string_equal(ea_model_fmt_num(NAN, buf, sizeof(buf)), "nan");
	assert_string_equal(ea_model_fmt_num(-INFINITY, buf, sizeof(buf)), "-inf");
}

/* An importer builds a model in memory, then ea_model_finish() it. */
static void test_finish(void **state)
{
	struct ea_model *m = calloc(1, sizeof(*m));
	struct ea_cluster *cl;
	struct ea_err err = { "" };

	strcpy(m->name, "imported");
	strcpy(m->power_unit, "uW");
	m->source = strdup("test");
	m->nclusters = 1;
	m->clusters = calloc(1, sizeof(*cl));
	cl = &m->clusters[0];
	strcpy(cl->name, "c");
	cl->ncpus = 2;
	cl->cpus = malloc(2 * sizeof(int));
	cl->cpus[0] = 0;
	cl->cpus[1] = 1;
	cl->ncaps = 2;
	cl->caps = calloc(2, sizeof(*cl->caps));
	cl->caps[0] = (struct ea_cap_state){ .freq_khz = 100, .cap = 10, .core_power = 1.5 };
	cl->caps[1] = (struct ea_cap_state){ .freq_khz = 200, .cap = 10, .core_power = 3 };

	assert_int_equal(ea_model_finish(m, &err), -1);
	assert_string_equal(err.msg, "imported: clusters[0].cap_states[1].cap: capacities must be strictly ascending: 10 after 10");
	cl->caps[1].cap = 20;
	assert_int_equal(ea_model_finish(m, &err), 0);
	assert_int_equal(m->ncpus, 2);
	assert_int_equal(m->cpu_cluster[1], 0);
	assert_int_equal(cl->caps[0].core_power_u, 1500000);
	assert_true(cl->idle_implicit);
	assert_int_equal(cl->nidles, 1);
	/* finishing twice is harmless */
	assert_int_equal(ea_model_finish(m, &err), 0);
	assert_int_equal(cl->nidles, 1);
	ea_model_free(m);
}

struct collected {
	int errors, warnings;
	char text[8192];
};

static void collect(void *ctx, enum ea_severity sev, const char *msg)
{
	struct collected *c = ctx;

	if (sev == EA_SEV_ERROR)
		c->errors++;
	else
		c->warnings++;
	strncat(c->text, msg, sizeof(c->text) - strlen(c->text) - 2);
	strcat(c->text, "\n");
}

static void test_check(void **state)
{
	static const struct {
		const char *file;
		int errors;
		const char *msg;
	} cases[] = {
		{ "models/tc2.json", 0, "cluster 'A7': cluster_power falls from 2967 at 350000 kHz to 2792 at 400000 kHz" },
		{ "models/tc2-idlestat.json", 0, "cluster 'A7': 400000 kHz is an inefficient OPP: 500000 kHz costs no more" },
		{ "models/juno-r0.json", 0, "" },
		{ "models/juno-r0-eas.json", 0, "cluster 'A57': busy cluster power at 450000 kHz (24) is below idle state 0 'WFI' cluster power (65)" },
		{ "tests/fixtures/models/ok-small.json", 0, "cluster 'big' has no idle states" },
		{ "tests/fixtures/models/check-idle-order.json", 1, "cluster 'little': idle state 1 'off' draws more core power (9) than shallower state 0 'WFI' (5)" },
		{ "tests/fixtures/models/check-cpu-gap.json", 1, "CPU 2 is in no cluster: CPU ids must run from 0 to 4 without gaps" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ea_model *m = load(cases[i].file);
		struct collected c = { 0 };
		int errors = ea_model_check_cb(m, collect, &c);

		assert_int_equal(errors, c.errors);
		if (c.errors != cases[i].errors || !strstr(c.text, cases[i].msg))
			fail_msg("%s: %d errors, expected %d with '%s':\n%s",
				 cases[i].file, c.errors, cases[i].errors,
				 cases[i].msg, c.text);
		ea_model_free(m);
	}
}

static void test_check_struct(void **state)
{
	struct ea_model *m = load("models/tc2.json");
	struct collected c = { 0 };

	/* what the loader would refuse, done behind its back */
	m->clusters[1].cpus[0] = 1;
	m->clusters[1].caps[3].cap = 100;
	m->clusters[0].caps[0].core_power = -1;
	m->clusters[1].caps[0].core_power = 5;	/* below idle: fine, idle is 0 */
	m->clusters[1].idles[1].core_power = 1;
	assert_int_equal(ea_model_check_cb(m, collect, &c), 5);
	assert_int_equal(c.errors, 5);
	assert_non_null(strstr(c.text, "CPU 1 is in cluster 'A15' and again in cluster 'A7'"));
	assert_non_null(strstr(c.text, "CPU 2 is in no cluster"));
	assert_non_null(strstr(c.text, "cluster 'A7': capacities not strictly ascending: 100 at 600000 kHz after 512 at 500000 kHz"));
	assert_non_null(strstr(c.text, "cluster 'A15': 500000 kHz: powers must be finite and not negative"));
	assert_non_null(strstr(c.text, "idle state 1 'C1' draws more core power (1) than shallower state 0 'WFI' (0)"));
	assert_null(strstr(c.text, "busy core power at 350000 kHz"));
	ea_model_free(m);
}

static void test_check_busy_below_idle(void **state)
{
	struct ea_model *m = load("tests/fixtures/models/ok-small.json");
	struct collected c = { 0 };

	/* little's WFI draws 5 per core: a busy core drawing 4 is an error */
	m->clusters[0].caps[0].core_power = 4;
	assert_int_equal(ea_model_check_cb(m, collect, &c), 1);
	assert_non_null(strstr(c.text, "cluster 'little': busy core power at 500000 kHz (4) is below idle state 0 'WFI' core power (5)"));
	ea_model_free(m);
}

static void test_check_print(void **state)
{
	struct ea_model *m = load("tests/fixtures/models/check-idle-order.json");
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(ea_model_check(m, f), 1);
	fclose(f);
	assert_non_null(strstr(buf, "check-idle-order.json: error: cluster 'little': idle state 1 'off'"));
	assert_non_null(strstr(buf, "check-idle-order.json: warning: cluster 'big' has no idle states"));
	free(buf);
	ea_model_free(m);
}

static void test_inefficient(void **state)
{
	struct ea_model *m = load("models/tc2.json");
	static const bool a15_core[] = { 1, 1, 1, 1, 1, 0, 0, 0 };
	static const bool a7_core[] = { 0, 1, 1, 1, 0, 0, 0, 0 };
	static const bool a7_shared[] = { 1, 1, 1, 1, 1, 0, 0, 0 };
	bool x[8];

	assert_int_equal(ea_cluster_inefficient(&m->clusters[0], false, x), 5);
	assert_memory_equal(x, a15_core, sizeof(x));
	assert_int_equal(ea_cluster_inefficient(&m->clusters[1], false, x), 3);
	assert_memory_equal(x, a7_core, sizeof(x));
	assert_int_equal(ea_cluster_inefficient(&m->clusters[1], true, x), 5);
	assert_memory_equal(x, a7_shared, sizeof(x));
	ea_model_free(m);

	m = load("models/juno-r0.json");
	assert_int_equal(ea_cluster_inefficient(&m->clusters[0], false, x), 0);
	assert_int_equal(ea_cluster_inefficient(&m->clusters[1], true, x), 0);
	ea_model_free(m);
}

static void test_find(void **state)
{
	char dir[PATH_MAX + 64], path[PATH_MAX];
	struct ea_model *m = NULL;
	struct ea_err err = { "" };
	char *old = getenv("EATRACE_MODEL_PATH");

	old = old ? strdup(old) : NULL;
	assert_true(ea_model_is_name("tc2"));
	assert_true(ea_model_is_name("juno-r0"));
	assert_false(ea_model_is_name("tc2.json"));
	assert_false(ea_model_is_name("./tc2"));
	assert_false(ea_model_is_name("models/tc2"));
	assert_false(ea_model_is_name(""));

	snprintf(dir, sizeof(dir), "/nonexistent-dir::%s/tests/fixtures/models", root);
	setenv("EATRACE_MODEL_PATH", dir, 1);
	assert_int_equal(ea_model_find("ok-small", path, sizeof(path), &err), 0);
	assert_non_null(strstr(path, "tests/fixtures/models/ok-small.json"));
	if (ea_model_load(&m, "ok-small", &err))
		fail_msg("%s", err.msg);
	assert_string_equal(m->name, "fixture");
	ea_model_free(m);

	assert_int_equal(ea_model_load(&m, "no-such-model", &err), -1);
	assert_null(m);
	assert_non_null(strstr(err.msg, "model 'no-such-model' not found: no no-such-model.json in /nonexistent-dir, "));
	assert_non_null(strstr(err.msg, "tests/fixtures/models, ./models, "));
	assert_non_null(strstr(err.msg, "/models (set EATRACE_MODEL_PATH, or give a path)"));

	/* a path is a path, never searched */
	assert_int_equal(ea_model_load(&m, "ok-small.json", &err), -1);
	assert_string_equal(err.msg, "ok-small.json: No such file or directory");

	if (old) {
		setenv("EATRACE_MODEL_PATH", old, 1);
		free(old);
	} else {
		unsetenv("EATRACE_MODEL_PATH");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tc2),
		cmocka_unit_test(test_tc2_idlestat),
		cmocka_unit_test(test_juno),
		cmocka_unit_test(test_juno_eas),
		cmocka_unit_test(test_cap_index),
		cmocka_unit_test(test_bad_fixtures),
		cmocka_unit_test(test_buffer_refusals),
		cmocka_unit_test(test_buffer_accepts),
		cmocka_unit_test(test_write_roundtrip),
		cmocka_unit_test(test_write_escapes),
		cmocka_unit_test(test_fmt_num),
		cmocka_unit_test(test_finish),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_check_struct),
		cmocka_unit_test(test_check_busy_below_idle),
		cmocka_unit_test(test_check_print),
		cmocka_unit_test(test_inefficient),
		cmocka_unit_test(test_find),
	};

	find_root();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
