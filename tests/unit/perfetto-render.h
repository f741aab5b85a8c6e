/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A --perfetto file rendered in memory, with an encoder ahead or without
 * (the tests of the encoders ahead: test-perfetto-ahead.c, protobuf, and
 * test-perfetto-json-ahead.c, JSON): perfetto_render() prices trace with
 * tc2 (the timeline reads the accountant after every change: its live ops,
 * as ea_acct_ops defers a steady stretch's energies), writes the file in
 * format fmt capped at cap bytes (0: none), with an encoder ahead of
 * format ahead_fmt holding at most max bytes (use AHEAD_USED; *taken, when
 * taken is not NULL: whether the file took it), or none, and returns its
 * bytes (malloc'd, *len of them). The other uses free the encoder on the
 * error paths and return NULL.
 */
#ifndef EATRACE_TESTS_PERFETTO_RENDER_H
#define EATRACE_TESTS_PERFETTO_RENDER_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "eatrace/energy.h"
#include "eatrace/html.h"
#include "eatrace/perfetto.h"
#include "eatrace/pipeline.h"

/* What a run does to the encoder ahead. */
enum use { AHEAD_NONE, AHEAD_USED, AHEAD_FREED_FIRST, AHEAD_UNSEALED };

static char *perfetto_render(const char *trace,
			     enum ea_perfetto_format ahead_fmt,
			     enum ea_perfetto_format fmt, enum use use,
			     long long max, long long cap, size_t *len,
			     bool *taken)
{
	struct ea_state_config cfg = {.ncpus = -1};
	struct ea_acct_config acfg = {0};
	struct ea_perfetto_ahead *a = NULL;
	struct ea_timeline tl;
	struct ea_consumer cons[2];
	struct ea_perfetto *pf;
	struct ea_model *m;
	struct ea_acct acct;
	struct ea_run run;
	struct ea_err err;
	char *buf = NULL;
	FILE *f;

	if (ea_model_load(&m, "models/tc2.json", &err))
		fail_msg("%s", err.msg);
	assert_int_equal(ea_acct_init(&acct, m, &acfg, &err), 0);
	ea_acct_state_config(&acct, &cfg);
	cfg.ncpus = -1;
	assert_int_equal(ea_timeline_init(&tl, &acct, 0, 20000, true), 0);
	if (use != AHEAD_NONE) {
		a = ea_perfetto_ahead_start_as(&tl, ahead_fmt, max);
		assert_non_null(a);
	}
	if (use == AHEAD_FREED_FIRST) { /* a failure before the run */
		ea_perfetto_ahead_free(a);
		goto out;
	}
	cons[0] = (struct ea_consumer){&ea_acct_live_ops, &acct};
	cons[1] = (struct ea_consumer){&ea_timeline_ops, &tl};
	if (ea_run(&run, trace, &cfg, cons, 2, &err))
		fail_msg("%s: %s", trace, err.msg);
	if (use == AHEAD_UNSEALED) { /* a failure after it: never done */
		ea_perfetto_ahead_free(a);
		ea_run_free(&run);
		goto out;
	}
	assert_int_equal(ea_acct_done(&acct, run.state, &err), 0);
	assert_int_equal(ea_timeline_done(&tl, run.state, &err), 0);
	f = tmpfile();
	assert_non_null(f);
	assert_int_equal(ea_perfetto_begin_as(&pf, f, fmt), 0);
	ea_perfetto_cap(pf, cap);
	if (a)
		ea_perfetto_use_ahead(pf, a);
	ea_perfetto_process(pf, "actual", &tl, run.state, 0);
	assert_int_equal(ea_perfetto_end(pf), 0);
	if (taken)
		*taken = ea_perfetto_ahead_taken(a);
	ea_perfetto_ahead_free(a);
	ea_run_free(&run);
	*len = (size_t)ftell(f);
	buf = malloc(*len + 1);
	assert_non_null(buf);
	rewind(f);
	assert_int_equal(fread(buf, 1, *len, f), *len);
	fclose(f);
out:
	ea_timeline_free(&tl);
	ea_acct_free(&acct);
	ea_model_free(m);
	return buf;
}

#endif
