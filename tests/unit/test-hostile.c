// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hostile inputs to the library entry points, each with the exact error
 * expected (docs/robustness.md). The CLI side (exit codes, one stderr
 * line, output files) is tests/e2e/hostile.sh.
 *
 *  - models with NaN, negative, zero and absurd values, duplicate and
 *    out-of-range CPUs, control characters in names and keys (which would
 *    break the one-line error and 'model check' formats), and a file far
 *    larger than any real model.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "eatrace/model.h"

/* ---- models ---- */

static const char model_tmpl[] =
	"{ \"eatrace_model\": 1, \"name\": \"%s\", \"power_unit\": \"mW\",\n"
	"  \"clusters\": [ { \"name\": \"%s\", \"cpus\": [%s],\n"
	"    \"cap_states\": [ { \"freq_khz\": %s, \"cap\": %s, \"core_power\": %s, \"cluster_power\": 1 } ],\n"
	"    \"idle_states\": [ { \"name\": \"%s\", \"core_power\": 0, \"cluster_power\": 0 } ] } ] }\n";

struct model_case {
	const char *name, *cluster, *cpus, *freq, *cap, *power, *idle;
	const char *error;	/* NULL: loads */
};

static const struct model_case model_cases[] = {
	{ "m", "c", "0", "1000", "100", "10", "WFI", NULL },
	{ "m", "c", "0", "1000", "100", "NaN", "WFI",
	  "m.json:3: clusters[0].cap_states[0].core_power: nan is not a finite number" },
	{ "m", "c", "0", "1000", "100", "-5", "WFI",
	  "m.json:3: clusters[0].cap_states[0].core_power: -5 is negative" },
	{ "m", "c", "0", "0", "100", "10", "WFI",
	  "m.json:3: clusters[0].cap_states[0].freq_khz: 0 is out of range (1..100000000 kHz)" },
	{ "m", "c", "0", "1000", "0", "10", "WFI",
	  "m.json:3: clusters[0].cap_states[0].cap: 0 is out of range (1..4096)" },
	{ "m", "c", "0", "1000", "100", "1e300", "WFI",
	  "m.json:3: clusters[0].cap_states[0].core_power: 1e+300 is beyond the sanity limit 1e9 (a unit mistake?)" },
	{ "m", "c", "0", "4294967296", "100", "10", "WFI",
	  "m.json:3: clusters[0].cap_states[0].freq_khz: 4294967296 is out of range (1..100000000 kHz)" },
	{ "m", "c", "0, 0", "1000", "100", "10", "WFI",
	  "m.json:2: clusters[0].cpus[1]: CPU 0 is listed twice in this cluster" },
	{ "m", "c", "2147483648", "1000", "100", "10", "WFI",
	  "m.json:2: clusters[0].cpus[0]: CPU id 2147483648 is out of range (0..4095)" },
	{ "m", "c", "-2147483648", "1000", "100", "10", "WFI",
	  "m.json:2: clusters[0].cpus[0]: CPU id -2147483648 is out of range (0..4095)" },
	/* Escaped control characters are valid JSON, but not in names. */
	{ "m", "little\\nerror: x", "0", "1000", "100", "10", "WFI",
	  "m.json:2: clusters[0].name: control character in cluster name" },
	{ "m", "c", "0", "1000", "100", "10", "W\\u001bFI",
	  "m.json:4: clusters[0].idle_states[0].name: control character in idle state name" },
	{ "a\\tb", "c", "0", "1000", "100", "10", "WFI",
	  "m.json:1: name: control character in model name" },
};

static void test_model_values(void **state)
{
	for (size_t i = 0; i < sizeof(model_cases) / sizeof(model_cases[0]); i++) {
		const struct model_case *c = &model_cases[i];
		struct ea_model *m = NULL;
		struct ea_err err = { "" };
		char buf[2048];
		int rc;

		snprintf(buf, sizeof(buf), model_tmpl, c->name, c->cluster,
			 c->cpus, c->freq, c->cap, c->power, c->idle);
		rc = ea_model_load_buffer(&m, buf, strlen(buf), "m.json", &err);
		if (!c->error) {
			assert_int_equal(rc, 0);
			ea_model_free(m);
			continue;
		}
		if (rc == 0 || strcmp(err.msg, c->error))
			fail_msg("case %zu: rc %d, '%s', expected '%s'", i, rc,
				 err.msg, c->error);
	}
}

/* The same CPU in two clusters. */
static void test_model_duplicate_cpu(void **state)
{
	static const char text[] =
		"{ \"eatrace_model\": 1, \"name\": \"m\", \"power_unit\": \"mW\",\n"
		"  \"clusters\": [\n"
		"    { \"name\": \"a\", \"cpus\": [0, 1], \"cap_states\": [ { \"freq_khz\": 1, \"cap\": 1, \"core_power\": 1, \"cluster_power\": 1 } ] },\n"
		"    { \"name\": \"b\", \"cpus\": [1], \"cap_states\": [ { \"freq_khz\": 1, \"cap\": 1, \"core_power\": 1, \"cluster_power\": 1 } ] } ] }\n";
	struct ea_model *m = NULL;
	struct ea_err err;

	assert_int_equal(ea_model_load_buffer(&m, text, sizeof(text) - 1,
					      "m.json", &err), -1);
	assert_string_equal(err.msg,
			    "m.json:4: clusters[1].cpus[0]: CPU 1 is also in cluster 'a' (clusters[0]): a CPU belongs to one cluster");
}

/* A raw newline inside a key (found by fuzzing): still one line. */
static void test_model_newline_in_key(void **state)
{
	static const char text[] =
		"{ \"eatrace_model\": 1, \"na\nme\": \"m\" }";
	struct ea_model *m = NULL;
	struct ea_err err;

	assert_int_equal(ea_model_load_buffer(&m, text, sizeof(text) - 1,
					      "m.json", &err), -1);
	assert_null(strchr(err.msg, '\n'));
	assert_string_equal(err.msg,
			    "m.json:1: na?me: unknown member (expected one of: eatrace_model, name, source, power_unit, clusters)");
}

/* Far larger than any real model (16 MiB): refused before parsing. */
static void test_model_huge(void **state)
{
	size_t len = (size_t)EA_MODEL_MAX_FILE + 1;
	char *buf = malloc(len);
	struct ea_model *m = NULL;
	struct ea_err err;

	assert_non_null(buf);
	memset(buf, ' ', len);
	buf[0] = '{';
	buf[len - 1] = '}';
	assert_int_equal(ea_model_load_buffer(&m, buf, len, "huge.json", &err), -1);
	assert_string_equal(err.msg, "huge.json: larger than 16 MiB: not a model file");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_values),
		cmocka_unit_test(test_model_duplicate_cpu),
		cmocka_unit_test(test_model_newline_in_key),
		cmocka_unit_test(test_model_huge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
