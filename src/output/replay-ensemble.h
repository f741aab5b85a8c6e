/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The ensemble's intervals and the sensitivity to wakeup energy in
 * replay's JSON, text and HTML (replay-ensemble.c; docs/replay.md
 * "Ensemble", "Sensitivity"). Each prints nothing when the report has
 * neither.
 */
#ifndef EATRACE_OUTPUT_REPLAY_ENSEMBLE_H
#define EATRACE_OUTPUT_REPLAY_ENSEMBLE_H

#include <stdio.h>

#include "eatrace/output.h"
#include "eatrace/replay.h"

/* Top-level "baseline" and "ensemble_config" members. */
void rp_out_ensemble_json_head(struct ea_json *j,
			       const struct ea_replay_report *r);
/* Policy i's "ensemble" and "sensitivity" members. */
void rp_out_ensemble_json_policy(struct ea_json *j,
				 const struct ea_replay_report *r, int i);
/* The intervals' table and the sensitivity's, after the policies'. */
void rp_out_ensemble_text(FILE *f, const struct ea_replay_report *r);
/* The same as an HTML section. */
void rp_out_ensemble_html(FILE *f, const struct ea_replay_report *r);

#endif
