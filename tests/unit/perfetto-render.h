/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A --perfetto file rendered in memory (the tests of the encoders ahead,
 * test-perfetto-ahead.c, protobuf, and test-perfetto-json-ahead.c, JSON;
 * of the JSON record's bound, test-perfetto-json-bound.c, and of the
 * split, test-perfetto-json-split.c): perfetto_render_with() prices trace
 * with tc2 (the timeline reads the accountant after every change: its
 * live ops, as ea_acct_ops defers a steady stretch's energies), writes
 * the file as struct render_opts says (format, cap, encoder ahead, the
 * record bounded, the changes split, a second process) and returns its
 * bytes (malloc'd), what else it showed in struct render_out. The
 * encoder ahead's failure uses (AHEAD_FREED_FIRST, AHEAD_UNSEALED) free
 * the encoder on the error paths and return NULL. perfetto_render() is
 * the encoders ahead's form: the bytes and whether the file took it.
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
#include <string.h>
#include <cmocka.h>

#include "eatrace/energy.h"
#include "eatrace/html.h"
#include "eatrace/perfetto.h"
#include "eatrace/pipeline.h"
#include "output/perfetto-priv.h"

/* What a run does to the encoder ahead. */
enum use { AHEAD_NONE, AHEAD_USED, AHEAD_FREED_FIRST, AHEAD_UNSEALED };

/* How perfetto_render_with() writes the file (zero: no encoder ahead, no
 * bound, no split, one process, no cap; fmt EA_PERFETTO_PROTOBUF). */
struct render_opts {
	enum ea_perfetto_format fmt; /* the file's format */
	long long cap; /* its cap in bytes, 0: none */
	enum use use; /* the encoder ahead, AHEAD_NONE: none */
	enum ea_perfetto_format ahead_fmt; /* its format */
	long long max; /* the bytes it may hold */
	/* the record bounded for the cap (ea_perfetto_json_bound(), before
	 * the encoder ahead starts: refused without a cap) */
	bool bound;
	bool split; /* the changes written by two threads (from 1 on) */
	bool two; /* a second process: the same timeline again */
	/* the file in memory (open_memstream(): no descriptor, so no
	 * writes at an offset), not a temporary file */
	bool memory;
};

/* What the file showed besides its bytes. */
struct render_out {
	size_t len; /* its bytes */
	bool taken; /* the file took the encoder ahead */
	size_t nch; /* the timeline's record's count of changes */
	uint64_t cut; /* where the cap cut it, UINT64_MAX: nowhere */
	size_t split_taken; /* the processes the split wrote */
};

static inline char *perfetto_render_with(const char *trace,
					 const struct render_opts *o,
					 struct render_out *r)
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
	char *buf = NULL, *mem = NULL;
	size_t mem_len = 0;
	FILE *f;

	if (ea_model_load(&m, "models/tc2.json", &err))
		fail_msg("%s", err.msg);
	assert_int_equal(ea_acct_init(&acct, m, &acfg, &err), 0);
	ea_acct_state_config(&acct, &cfg);
	cfg.ncpus = -1;
	assert_int_equal(ea_timeline_init(&tl, &acct, 0, 20000, true), 0);
	if (o->bound)
		assert_int_equal(ea_perfetto_json_bound(&tl, o->cap),
				 o->cap ? 0 : -1);
	if (o->use != AHEAD_NONE) {
		a = ea_perfetto_ahead_start_as(&tl, o->ahead_fmt, o->max);
		assert_non_null(a);
	}
	if (o->use == AHEAD_FREED_FIRST) { /* a failure before the run */
		ea_perfetto_ahead_free(a);
		goto out;
	}
	cons[0] = (struct ea_consumer){&ea_acct_live_ops, &acct};
	cons[1] = (struct ea_consumer){&ea_timeline_ops, &tl};
	if (ea_run(&run, trace, &cfg, cons, 2, &err))
		fail_msg("%s: %s", trace, err.msg);
	if (o->use == AHEAD_UNSEALED) { /* a failure after it: never done */
		ea_perfetto_ahead_free(a);
		ea_run_free(&run);
		goto out;
	}
	assert_int_equal(ea_acct_done(&acct, run.state, &err), 0);
	assert_int_equal(ea_timeline_done(&tl, run.state, &err), 0);
	r->nch = ea_timeline_nchanges(&tl);
	f = o->memory ? open_memstream(&mem, &mem_len) : tmpfile();
	assert_non_null(f);
	assert_int_equal(ea_perfetto_begin_as(&pf, f, o->fmt), 0);
	ea_perfetto_cap(pf, o->cap);
	if (!o->memory)
		ea_perfetto_discardable(pf); /* tmpfile(): nothing left */
	if (a)
		ea_perfetto_use_ahead(pf, a);
	if (o->split)
		ea_perfetto_split(pf, 1);
	ea_perfetto_process(pf, "actual", &tl, run.state, 0);
	if (o->two)
		ea_perfetto_process(pf, "again", &tl, run.state, 12345);
	if (!ea_perfetto_truncated(pf, &r->cut))
		r->cut = UINT64_MAX;
	r->split_taken = pf->split_taken;
	assert_int_equal(ea_perfetto_end(pf), 0);
	r->taken = ea_perfetto_ahead_taken(a);
	ea_perfetto_ahead_free(a);
	ea_run_free(&run);
	r->len = (size_t)ftell(f);
	buf = malloc(r->len + 1);
	assert_non_null(buf);
	if (o->memory) {
		assert_int_equal(fclose(f), 0);
		assert_int_equal(mem_len, r->len);
		memcpy(buf, mem, r->len);
		free(mem);
	} else {
		rewind(f);
		assert_int_equal(fread(buf, 1, r->len, f), r->len);
		fclose(f);
	}
out:
	ea_timeline_free(&tl);
	ea_acct_free(&acct);
	ea_model_free(m);
	return buf;
}

/* The encoders ahead's tests' form of it: one process, no bound, no
 * split. */
static inline char *perfetto_render(const char *trace,
				    enum ea_perfetto_format ahead_fmt,
				    enum ea_perfetto_format fmt, enum use use,
				    long long max, long long cap, size_t *len,
				    bool *taken)
{
	struct render_opts o = {.fmt = fmt,
				.cap = cap,
				.use = use,
				.ahead_fmt = ahead_fmt,
				.max = max};
	struct render_out r = {0};
	char *buf = perfetto_render_with(trace, &o, &r);

	*len = r.len;
	if (taken)
		*taken = r.taken;
	return buf;
}

#endif
