// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kept-trace calls (eatrace/trace.h, src/output/api-trace.c and
 * friends) in C, so that they also run under the sanitizers (the Python
 * tests cannot): the same bytes as the one-call API, a CPU's share and the
 * intervals by hand, options checked, ea_diff_json().
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "eatrace/eatrace.h"

#define UNUSED __attribute__((unused))
#define FIVE "traces/replay/five-busy.txt"
#define DEMO "traces/demo/tc2-seven-tasks.txt"
#define TC2 "models/tc2.json"
#define JUNO "models/juno-r0.json"

static struct ea_trace *open_ok(const char *path)
{
	struct ea_trace *t = NULL;
	char *err = NULL;

	if (ea_trace_open(&t, path, &err))
		fail_msg("%s", err);
	return t;
}

/* The number after "key": in json (the first occurrence). */
static double num_after(const char *json, const char *key)
{
	const char *p = strstr(json, key);

	assert_non_null(p);
	return strtod(p + strlen(key), NULL);
}

/* Kept or read from the file: the same bytes, for each trace. */
static void test_same_as_one_call(void **state UNUSED)
{
	const char *traces[] = {FIVE, DEMO, "traces/diff/light-1.dat",
				"traces/vm/vm-v7-compressed.dat"};

	for (size_t i = 0; i < sizeof(traces) / sizeof(traces[0]); i++) {
		struct ea_trace_opts o = {.interval_ns = 10000000};
		struct ea_replay_request rq = {.model = TC2,
					       .policies = "feec,recorded"};
		struct ea_trace *t = open_ok(traces[i]);
		char *a = NULL, *b = NULL, *err = NULL;

		assert_int_equal(ea_trace_report_json(t, TC2, &o, &a, &err), 0);
		assert_int_equal(ea_report_json_interval(traces[i], TC2,
							 10000000, &b, &err),
				 0);
		assert_string_equal(a, b);
		free(a);
		free(b);
		assert_int_equal(ea_trace_stats_json(t, NULL, NULL, &a, &err),
				 0);
		assert_int_equal(ea_stats_json(traces[i], &b, &err), 0);
		assert_string_equal(a, b);
		free(a);
		free(b);
		assert_int_equal(ea_trace_replay_json(t, &rq, &a, &err), 0);
		assert_int_equal(ea_replay_json(traces[i], &rq, &b, &err), 0);
		assert_string_equal(a, b);
		free(a);
		free(b);
		ea_trace_free(t);
	}
}

/*
 * five-busy.txt on tc2 without wakeups (python/tests/test_trace.py has the
 * derivation): CPU 0's share 3846 + 8446 / 2 = 8069; CPUs 2-4, 3 x 1024 +
 * 4905 = 7977.
 */
static void test_cpu_share(void **state UNUSED)
{
	struct ea_trace_opts o = {.no_wakeups = true, .cpus = "0"};
	struct ea_trace *t = open_ok(FIVE);
	char *json = NULL, *err = NULL;

	assert_int_equal(ea_trace_report_json(t, TC2, &o, &json, &err), 0);
	assert_true(num_after(json, "\"energy\": {\n    \"total\": ") == 8069);
	assert_non_null(strstr(json, "\"cpu_filter\": [\n    0\n  ]"));
	assert_null(strstr(json, "\"cpu\": 1,"));
	assert_null(strstr(json, "\"name\": \"A7\""));
	free(json);
	o.cpus = "2-4";
	assert_int_equal(ea_trace_report_json(t, TC2, &o, &json, &err), 0);
	assert_true(num_after(json, "\"energy\": {\n    \"total\": ") == 7977);
	free(json);
	o.cpus = "2,x";
	assert_int_equal(ea_trace_report_json(t, TC2, &o, &json, &err), -1);
	assert_string_equal(err,
			    "cpus: '2,x' is not a list of CPUs (as 0,2-3)");
	free(err);
	o.cpus = "7";
	assert_int_equal(ea_trace_report_json(t, TC2, &o, &json, &err), -1);
	assert_string_equal(
		err, "cpus: CPU 7 is not in model ARM TC2 (CPUs 0 to 4)");
	free(err);
	ea_trace_free(t);
}

/* five-busy on juno-r0: one busy stretch per CPU over [100, 101) s, the
 * core's power at the OPP charged: 119 mW (A53s 0, 3, 4), 583 mW (A57s). */
static void test_intervals(void **state UNUSED)
{
	static const double power[] = {119, 583, 583, 119, 119};
	struct ea_trace *t = open_ok(FIVE);
	struct ea_trace_opts o = {.start_ns = 250000000,
				  .end_ns = 500000000,
				  .has_end = true,
				  .cpus = "1"};
	struct ea_interval *iv = NULL;
	char *err = NULL;
	size_t n = 0;

	assert_int_equal(ea_trace_intervals(t, JUNO, NULL, &iv, &n, &err), 0);
	assert_int_equal(n, 5);
	for (int i = 0; i < 5; i++) {
		assert_int_equal(iv[i].cpu, i);
		assert_int_equal(iv[i].start_ns, 100000000000ull);
		assert_int_equal(iv[i].end_ns, 101000000000ull);
		assert_int_equal(iv[i].state, EA_IV_BUSY);
		assert_int_equal(iv[i].pid, 2001 + i);
		assert_int_equal(iv[i].freq_khz, 1000000);
		assert_int_equal(iv[i].idle_state, -1);
		assert_true(iv[i].power == power[i]);
		assert_int_equal(iv[i].comm[0], 'b');
	}
	free(iv);
	/* a window, one CPU, no model (no power) */
	assert_int_equal(ea_trace_intervals(t, NULL, &o, &iv, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(iv[0].start_ns, 100250000000ull);
	assert_int_equal(iv[0].end_ns, 100500000000ull);
	assert_true(isnan(iv[0].power));
	free(iv);
	/* outside the trace: report's message */
	o.start_ns = 5000000000ull;
	o.end_ns = 6000000000ull;
	assert_int_equal(ea_trace_intervals(t, NULL, &o, &iv, &n, &err), -1);
	assert_non_null(
		strstr(err, "the window (--start/--end) is outside the trace"));
	free(err);
	ea_trace_free(t);
}

/* The CLI's checks, its words. */
static void test_option_errors(void **state UNUSED)
{
	struct ea_trace *t = open_ok(FIVE), *none = NULL;
	struct ea_trace_opts o = {.idle_state = 64};
	char *json = NULL, *err = NULL;

	assert_int_equal(ea_trace_report_json(t, TC2, &o, &json, &err), -1);
	assert_string_equal(
		err, "--idle-state: '64' is not an idle state index (0-63)");
	free(err);
	o = (struct ea_trace_opts){.start_ns = 5, .end_ns = 3, .has_end = true};
	assert_int_equal(ea_trace_report_json(t, TC2, &o, &json, &err), -1);
	assert_string_equal(err, "--end must be after --start");
	free(err);
	o = (struct ea_trace_opts){.assume_khz = 5000000};
	assert_int_equal(ea_trace_report_json(t, TC2, &o, &json, &err), -1);
	assert_string_equal(
		err,
		"--assume-opp: 5000000 kHz is above every OPP of model ARM TC2 "
		"(the highest is 1200000 kHz)");
	free(err);
	assert_int_equal(ea_trace_open(&none, "no-such-trace.txt", &err), -1);
	assert_null(none);
	assert_non_null(strstr(err, "no-such-trace.txt"));
	free(err);
	assert_int_equal(ea_trace_open(&none, "README.md", &err), -1);
	assert_string_equal(
		err,
		"README.md: not a trace.dat, Perfetto trace, ftrace text or "
		"systrace file");
	free(err);
	ea_trace_free(t);
}

/* light-1 against heavy-1 and -2 on juno-r0: a verdict and its status. */
static void test_diff(void **state UNUSED)
{
	const char *base[] = {"traces/diff/light-1.dat",
			      "traces/diff/light-2.dat"};
	const char *news[] = {"traces/diff/heavy-1.dat",
			      "traces/diff/heavy-2.dat"};
	struct ea_diff_request rq = {.model = JUNO,
				     .base = base,
				     .nbase = 2,
				     .news = news,
				     .nnew = 2,
				     .max_increase_pct = 1,
				     .confidence = 0.95};
	char *json = NULL, *err = NULL;
	int status = -1;

	assert_int_equal(ea_diff_json(&rq, &json, &status, &err), 0);
	assert_non_null(strstr(json, "\"eatrace_diff\": 1"));
	/* the verdict in the JSON and the status agree */
	if (strstr(json, "\"verdict\": \"pass\""))
		assert_int_equal(status, 0);
	else if (strstr(json, "\"verdict\": \"fail\""))
		assert_int_equal(status, 1);
	else
		assert_int_equal(status, 3);
	free(json);
	rq.nnew = 0;
	assert_int_equal(ea_diff_json(&rq, &json, &status, &err), -1);
	assert_string_equal(err, "diff: the new side has no traces (usage: "
				 "--base BASE... --new NEW...)");
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_as_one_call),
		cmocka_unit_test(test_cpu_share),
		cmocka_unit_test(test_intervals),
		cmocka_unit_test(test_option_errors),
		cmocka_unit_test(test_diff),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
