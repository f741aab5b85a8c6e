/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The whole pipeline on a trace file, as 'eatrace report' runs it: reader,
 * state reconstruction, statistics collector and energy accountant on a
 * small two-cluster model, then a renderer into /dev/null. Shared by the
 * text and trace.dat targets.
 */
#ifndef EATRACE_FUZZ_PIPELINE_H
#define EATRACE_FUZZ_PIPELINE_H

#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/resource.h>

#include "eatrace/energy.h"
#include "eatrace/input.h"
#include "eatrace/model.h"
#include "eatrace/pipeline.h"
#include "eatrace/rails.h"
#include "eatrace/report.h"
#include "eatrace/stats.h"
#include "fuzz.h"

/*
 * dat-guard.c rehearses each open in a forked child, because libtracecmd
 * crashes on some corrupt headers. That child is a copy of the fuzzer:
 * without this, a crash it survives by design would make libFuzzer's
 * handlers, inherited by the child, write a crash artifact. In the child,
 * a sanitizer error or fatal signal just ends the child, which the parent
 * reports as "libtracecmd crashed on it" -- exactly what happens outside
 * the fuzzer.
 */
void __sanitizer_set_death_callback(void (*callback)(void))
	__attribute__((weak));

static void fuzz_child_died(void)
{
	_exit(97);
}

static void fuzz_in_child(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL,
				    SIGALRM };

	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(fuzz_child_died);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
}

/* This process's threads (its /proc/self/task entries); 0: cannot tell. */
static int fuzz_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

/*
 * Before the first input. dat-guard.c forks that child only while the
 * process runs no other thread (a fork then can find the sanitizer's
 * allocator locked forever by another thread); with one it opens the file
 * unguarded, and a crash of libtracecmd is the fuzzer's. libFuzzer runs
 * one for its RSS limit (-rss_limit_mb, 2048 by default): the targets
 * calling fuzz_pipeline() or fuzz_reader() run with -rss_limit_mb=0 (their
 * tests/fuzz/T.options) and check their peak RSS themselves
 * (fuzz_rss_check()). Started with another thread, such a target stops at
 * its first input, saying why, instead of fuzzing without the guard.
 *
 * libtracecmd can spend seconds in tracecmd_close() on a corrupt header
 * (docs/robustness.md): a known limitation, not what the targets look
 * for, and it starves the fuzzer (the guard's own limits, 10 s of CPU
 * time, reach past run.sh's -timeout=10 on a loaded machine). The child
 * gets 2 s of CPU time and 5 s of wall-clock time (EATRACE_REHEARSE, the
 * guard's limits for tests), past which the parent reports a loop or a
 * stall. (An alarm(2) in fuzz_in_child() did not hold: the guard's child
 * sets its own alarm after the fork.)
 */
static void fuzz_guard_forks(void)
{
	static bool done;
	int n;

	if (done)
		return;
	n = fuzz_threads();
	if (n != 1) {
		fprintf(stderr,
			"fuzz: %d threads at the first input (0: unknown): "
			"dat-guard.c would open trace.dat files without its "
			"rehearsal child, and libtracecmd's crashes on "
			"corrupt files would crash this target; run it with "
			"-rss_limit_mb=0 (tests/fuzz/*.options)\n",
			n);
		_exit(2);
	}
	if (setenv("EATRACE_REHEARSE", "2:5:0", 1) ||
	    pthread_atfork(NULL, NULL, fuzz_in_child))
		abort();
	done = true;
}

/*
 * libFuzzer's -rss_limit_mb without its thread (see fuzz_guard_forks()):
 * after each input, the process's peak RSS (ru_maxrss, as libFuzzer's
 * thread reads it) over FUZZ_RSS_LIMIT_MB aborts, which makes the input a
 * crash artifact, as libFuzzer's "out-of-memory" would. Checked once an
 * input is done, not every second: within one input, -timeout bounds
 * it, and each allocation -malloc_limit_mb (libFuzzer checks it with leak
 * detection on) or ASan's max_allocation_size_mb (fuzz-dat.c).
 */
#define FUZZ_RSS_LIMIT_MB 2048

static void fuzz_rss_check(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return;
	if (ru.ru_maxrss / 1024 > FUZZ_RSS_LIMIT_MB) {
		fprintf(stderr,
			"fuzz: out-of-memory: peak RSS %ld MB over %d MB\n",
			ru.ru_maxrss / 1024, FUZZ_RSS_LIMIT_MB);
		abort();
	}
}

static const char fuzz_model_json[] =
	"{ \"eatrace_model\": 1, \"name\": \"fuzz\", \"power_unit\": \"mW\",\n"
	"  \"clusters\": [\n"
	"    { \"name\": \"little\", \"cpus\": [0, 1, 2],\n"
	"      \"cap_states\": [\n"
	"        { \"freq_khz\": 500000, \"cap\": 200, \"core_power\": 50, \"cluster_power\": 10 },\n"
	"        { \"freq_khz\": 1000000, \"cap\": 400, \"core_power\": 110, \"cluster_power\": 20 } ],\n"
	"      \"idle_states\": [\n"
	"        { \"name\": \"WFI\", \"core_power\": 5, \"cluster_power\": 8 },\n"
	"        { \"name\": \"off\", \"core_power\": 0, \"cluster_power\": 2 } ] },\n"
	"    { \"name\": \"big\", \"cpus\": [3, 4, 5],\n"
	"      \"cap_states\": [\n"
	"        { \"freq_khz\": 800000, \"cap\": 1024, \"core_power\": 400, \"cluster_power\": 40 } ] } ] }\n";

static struct ea_model *fuzz_model(void)
{
	static struct ea_model *m;
	struct ea_err err;

	if (!m && ea_model_load_buffer(&m, fuzz_model_json,
				       sizeof(fuzz_model_json) - 1,
				       "fuzz-model.json", &err)) {
		fprintf(stderr, "fuzz model: %s\n", err.msg);
		abort();
	}
	return m;
}

/* Plain reader loop, then the pipeline; variant picks options/renderers. */
static inline void fuzz_pipeline(const char *path, unsigned variant)
{
	struct ea_state_config cfg = { .ncpus = -1 };
	struct ea_acct_config acfg = { 0 };
	struct ea_consumer cons[2];
	struct ea_report rep;
	struct ea_stats st;
	struct ea_acct acct;
	struct ea_run run;
	struct ea_err err;

	fuzz_guard_forks();
	/*
	 * --interval is left out: the accountant keeps one entry per window
	 * from the trace's start, so a trace with a timestamp jump of days
	 * allocates gigabytes (docs/robustness.md, known limitations).
	 */
	if (variant & 2)
		acfg.assumed_khz = 700000;
	if (ea_acct_init(&acct, fuzz_model(), &acfg, &err))
		abort();
	ea_stats_init(&st);
	ea_acct_state_config(&acct, &cfg);
	cfg.ncpus = -1;
	cons[0] = (struct ea_consumer){ &ea_stats_ops, &st };
	cons[1] = (struct ea_consumer){ &ea_acct_ops, &acct };
	if (ea_run(&run, path, &cfg, cons, 2, &err) == 0) {
		struct ea_rail_cmp *rails = NULL;
		size_t nrails = 0;

		if (!ea_acct_done(&acct, run.state, &err) &&
		    !ea_stats_done(&st, run.state) &&
		    !ea_rails_compare(run.info.rails, &acct, NULL, 0, &rails,
				      &nrails, &err)) {
			/* power rails and processes (Perfetto) rendered too */
			rep = (struct ea_report){ path, &run.info, &acct, &st,
						  true, 0, rails, nrails, NULL };
			switch (variant % 3) {
			case 0:
				ea_report_render_json(fuzz_devnull(), &rep);
				ea_stats_render_json(fuzz_devnull(), &st, &run.info);
				break;
			case 1:
				ea_report_render_text(fuzz_devnull(), &rep);
				ea_stats_render_text(fuzz_devnull(), &st, &run.info, path);
				break;
			default:
				ea_report_render_csv(fuzz_devnull(), &rep);
				ea_stats_render_csv(fuzz_devnull(), &st, &run.info);
				break;
			}
		}
		ea_rails_cmp_free(rails, nrails);
		ea_run_free(&run);
	} else if (!memchr(err.msg, '\0', sizeof(err.msg)) ||
		   strchr(err.msg, '\n')) {
		abort();	/* errors are one line */
	}
	ea_stats_free(&st);
	ea_acct_free(&acct);
	fuzz_rss_check();
}

/* ea_input_open / ea_input_next alone, as 'eatrace dump' uses them. */
static inline void fuzz_reader(const char *path)
{
	struct ea_input *in;
	struct ea_event ev;
	struct ea_err err;
	char where[64];

	fuzz_guard_forks();
	if (ea_input_open(&in, path, &err))
		return;
	while (ea_input_next(in, &ev, &err) > 0)
		ea_input_where(in, where, sizeof(where));
	ea_input_close(in);
}

#endif
