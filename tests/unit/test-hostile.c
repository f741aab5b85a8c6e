// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hostile inputs to the library entry points, each with the exact error
 * expected (docs/robustness.md). The CLI side (exit codes, one stderr
 * line, output files) is tests/e2e/hostile.sh.
 *
 *  - models with NaN, negative, zero and absurd values, duplicate and
 *    out-of-range CPUs, control characters in names and keys (which would
 *    break the one-line error and 'model check' formats), and a file far
 *    larger than any real model;
 *  - text traces fed through ea_input_open/ea_input_next from a memfd:
 *    binary garbage, an overlong line, lines cut mid-field, timestamps going
 *    backwards beyond the reorder window, CPU ids of 2^31.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "eatrace/input.h"
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
			    "m.json:1: na?me: unknown member (expected one of: eatrace_model, name, source, power_unit, clusters, suspend_power)");
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

/* ---- text traces through the input interface ---- */

#define L_SWITCH_IN "          <idle>-0     [002]    50.123456789: sched_switch: prev_comm=swapper/2 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=cat next_pid=42 next_prio=120\n"
#define L_FREQ "             cat-42    [002]    50.123457000: cpu_frequency: state=998400 cpu_id=2\n"
#define L_SWITCH_OUT "             cat-42    [002]    50.200000001: sched_switch: prev_comm=cat prev_pid=42 prev_prio=120 prev_state=Z ==> next_comm=swapper/2 next_pid=0 next_prio=120\n"
#define HEAD "# tracer: nop\n#\n"

static char path[64];
static int memfd = -1;

static const char *put(const void *data, size_t len)
{
	if (memfd < 0) {
		memfd = memfd_create("hostile", MFD_CLOEXEC);
		assert_true(memfd >= 0);
		snprintf(path, sizeof(path), "/proc/self/fd/%d", memfd);
	}
	assert_int_equal(ftruncate(memfd, 0), 0);
	assert_int_equal(pwrite(memfd, data, len, 0), (ssize_t)len);
	return path;
}

/* Reads the whole trace: returns the number of events, or -1 with err. */
static long read_all(const void *data, size_t len, struct ea_err *err)
{
	struct ea_input *in;
	struct ea_event ev;
	long n = 0;
	int rc;

	if (ea_input_open(&in, put(data, len), err))
		return -1;
	while ((rc = ea_input_next(in, &ev, err)) > 0)
		n++;
	ea_input_close(in);
	return rc < 0 ? -1 : n;
}

/* err must be "PATH:POS: cause" with this POS and cause. */
static void expect_err(const struct ea_err *err, const char *pos_cause)
{
	char want[EA_ERR_MAX];

	snprintf(want, sizeof(want), "%s:%s", path, pos_cause);
	assert_string_equal(err->msg, want);
}

static void expect_text_error(const char *text, const char *pos_cause)
{
	struct ea_err err = { "" };

	assert_int_equal(read_all(text, strlen(text), &err), -1);
	expect_err(&err, pos_cause);
}

static void test_text_ok(void **state)
{
	static const char text[] = HEAD L_SWITCH_IN L_FREQ L_SWITCH_OUT;
	struct ea_err err;

	assert_int_equal(read_all(text, strlen(text), &err), 3);
}

static void test_text_empty(void **state)
{
	struct ea_err err;
	char want[128];

	assert_int_equal(read_all("", 0, &err), -1);
	snprintf(want, sizeof(want), "%s: empty file", path);
	assert_string_equal(err.msg, want);
}

static void test_text_garbage(void **state)
{
	char buf[1024];
	size_t n = 0;

	n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s", HEAD L_SWITCH_IN);
	for (int i = 0; i < 200; i++)	/* deterministic binary noise */
		buf[n++] = (char)(0x80 + (i * 37) % 120);
	n += (size_t)snprintf(buf + n, sizeof(buf) - n, "\n%s", L_SWITCH_OUT);
	{
		struct ea_err err = { "" };

		assert_int_equal(read_all(buf, n, &err), -1);
		expect_err(&err, "line 4: binary data in text trace");
	}
}

static void test_text_overlong(void **state)
{
	size_t len = 100000, n;
	char *buf = malloc(len + 1024);
	struct ea_err err = { "" };

	assert_non_null(buf);
	n = (size_t)sprintf(buf, "%s", HEAD L_SWITCH_IN);
	memset(buf + n, 'a', len);
	n += len;
	n += (size_t)sprintf(buf + n, "\n%s", L_SWITCH_OUT);
	assert_int_equal(read_all(buf, n, &err), -1);
	expect_err(&err, "line 4: line longer than 65536 bytes");
	free(buf);
}

static void test_text_cut_mid_field(void **state)
{
	expect_text_error(HEAD L_SWITCH_IN
			  "             cat-42    [002]    50.123457000: cpu_frequency: state=99\n"
			  L_SWITCH_OUT,
			  "line 4: malformed cpu_frequency event: 'state=99'");
	expect_text_error(HEAD L_SWITCH_IN
			  "             cat-42    [002]    50.12345700\n"
			  L_SWITCH_OUT,
			  "line 4: bad timestamp in event line: '[002]    50.12345700'");
	expect_text_error(HEAD L_SWITCH_IN
			  "             cat-42    [00\n"
			  L_SWITCH_OUT,
			  "line 4: truncated event line");
	/* A sched_wakeup cut mid-file is an error... */
	expect_text_error(HEAD L_SWITCH_IN
			  "          <idle>-0     [002]    50.123457000: sched_wakeup: comm=t\n"
			  L_SWITCH_OUT,
			  "line 4: malformed sched_wakeup event: 'comm=t'");
}

/* ...but as the last line it was cut while copying: forgiven, counted. */
static void test_text_cut_last_wakeup(void **state)
{
	static const char text[] = HEAD L_SWITCH_IN L_FREQ L_SWITCH_OUT
		"          <idle>-0     [002]    50.300000000: sched_wakeup: comm=t";
	struct ea_input *in;
	struct ea_event ev;
	struct ea_err err;
	int n = 0, rc;

	assert_int_equal(ea_input_open(&in, put(text, strlen(text)), &err), 0);
	while ((rc = ea_input_next(in, &ev, &err)) > 0)
		n++;
	assert_int_equal(rc, 0);
	assert_int_equal(n, 3);
	assert_int_equal(ea_input_info(in)->cut_last_line, 6);
	ea_input_close(in);
}

static void test_text_backwards(void **state)
{
	/*
	 * 52 s pushes the events before 51 s out of the 1 s reorder window;
	 * then 45 s cannot be put back in order.
	 */
	expect_text_error(HEAD L_SWITCH_IN L_FREQ
			  "             cat-42    [002]    52.000000000: cpu_frequency: state=998400 cpu_id=2\n"
			  "             cat-42    [002]    45.000000000: sched_switch: prev_comm=cat prev_pid=42 prev_prio=120 prev_state=Z ==> next_comm=swapper/2 next_pid=0 next_prio=120\n",
			  "line 6: timestamp 45.000000000 goes backwards beyond the reorder window (events up to 50.123457000 already returned)");
}

static void test_text_cpu_2p31(void **state)
{
	expect_text_error(HEAD L_SWITCH_IN
			  "             cat-42    [002]    50.123457000: cpu_frequency: state=998400 cpu_id=2147483648\n",
			  "line 4: malformed cpu_frequency event: 'state=998400 cpu_id=2147483648'");
	expect_text_error(HEAD L_SWITCH_IN
			  "             cat-42    [002]    50.123457000: cpu_idle: state=1 cpu_id=2147483647\n",
			  "line 4: CPU 2147483647 out of range (max 4095)");
	expect_text_error(HEAD L_SWITCH_IN
			  "             cat-42    [2147483648]    50.123457000: cpu_idle: state=1 cpu_id=2\n",
			  "line 4: CPU column [2147483648] out of range");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_values),
		cmocka_unit_test(test_model_duplicate_cpu),
		cmocka_unit_test(test_model_newline_in_key),
		cmocka_unit_test(test_model_huge),
		cmocka_unit_test(test_text_ok),
		cmocka_unit_test(test_text_empty),
		cmocka_unit_test(test_text_garbage),
		cmocka_unit_test(test_text_overlong),
		cmocka_unit_test(test_text_cut_mid_field),
		cmocka_unit_test(test_text_cut_last_wakeup),
		cmocka_unit_test(test_text_backwards),
		cmocka_unit_test(test_text_cpu_2p31),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
