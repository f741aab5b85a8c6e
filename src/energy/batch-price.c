// SPDX-License-Identifier: GPL-2.0-only
/* One batch row: a whole trace priced with a model (include/eatrace/batch.h). */
#include <stdio.h>
#include <string.h>

#include "eatrace/batch.h"
#include "eatrace/pipeline.h"

int ea_batch_price(struct ea_batch_row *row, const struct ea_model *m)
{
	struct ea_acct_config acfg = { .no_tasks = true };
	struct ea_state_config cfg = { .ncpus = -1 };
	struct ea_consumer cons;
	struct ea_acct acct;
	struct ea_run run;
	struct ea_err err;
	int rc = -1;

	snprintf(row->power_unit, sizeof(row->power_unit), "%s", m->power_unit);
	if (ea_acct_init(&acct, m, &acfg, &err))
		goto fail;
	ea_acct_state_config(&acct, &cfg);
	cfg.ncpus = -1;
	cons = (struct ea_consumer){ &ea_acct_ops, &acct };
	if (ea_run(&run, row->path, &cfg, &cons, 1, &err))
		goto fail_acct;
	if (ea_acct_done(&acct, run.state, &err)) {
		/* same form as `eatrace report`'s message */
		char msg[EA_ERR_MAX];

		snprintf(msg, sizeof(msg), "%s", err.msg);
		ea_err_set(&err, "%s: %s", row->path, msg);
		goto fail_run;
	}
	row->duration_ns = acct.win_end - acct.win_start;
	row->total = ea_energy_total(&acct.total);
	row->busy = ea_energy_busy(&acct.total);
	row->idle = ea_energy_idle(&acct.total);
	row->wakeup = ea_energy_wakeup(&acct.total);
	rc = 0;
fail_run:
	ea_run_free(&run);
fail_acct:
	ea_acct_free(&acct);
fail:
	if (rc) {
		row->failed = true;
		snprintf(row->error, sizeof(row->error), "%s", err.msg);
	}
	return rc;
}
