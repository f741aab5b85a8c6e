/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared helpers for unit tests: run a fixture through the pipeline. */
#ifndef EATRACE_TEST_HARNESS_H
#define EATRACE_TEST_HARNESS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "eatrace/energy.h"
#include "eatrace/pipeline.h"
#include "eatrace/stats.h"

#define US 1000ull		/* ns per us */
#define ENERGY(x) ((ea_energy_t)((x) * 1e9) * 1000000000)	/* x: power_unit x s, 1e-9 exact */

struct fixture_run {
	struct ea_run run;
	struct ea_stats st;
	struct ea_acct acct;
	struct ea_model *model;
};

/* Run trace (and price it with model if non-NULL); asserts success. */
static inline void fixture_run(struct fixture_run *f, const char *trace,
			       const char *model, const struct ea_acct_config *acfg)
{
	struct ea_state_config cfg = { .ncpus = -1 };
	struct ea_consumer cons[2];
	struct ea_err err;
	int n = 1;

	memset(f, 0, sizeof(*f));
	ea_stats_init(&f->st);
	cons[0] = (struct ea_consumer){ &ea_stats_ops, &f->st };
	if (model) {
		struct ea_acct_config def = { 0 };

		if (ea_model_load(&f->model, model, &err))
			fail_msg("%s", err.msg);
		if (ea_acct_init(&f->acct, f->model, acfg ? acfg : &def, &err))
			fail_msg("%s", err.msg);
		ea_acct_state_config(&f->acct, &cfg);
		cons[n++] = (struct ea_consumer){ &ea_acct_ops, &f->acct };
	}
	if (ea_run(&f->run, trace, &cfg, cons, n, &err))
		fail_msg("%s", err.msg);
	if (ea_stats_done(&f->st, f->run.state))
		fail_msg("stats: %s", f->st.error);
	if (model && ea_acct_done(&f->acct, f->run.state, &err))
		fail_msg("%s", err.msg);
}

static inline void fixture_free(struct fixture_run *f)
{
	ea_stats_free(&f->st);
	if (f->model) {
		ea_acct_free(&f->acct);
		ea_model_free(f->model);
	}
	ea_run_free(&f->run);
}

#endif
