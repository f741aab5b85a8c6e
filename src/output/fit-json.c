// SPDX-License-Identifier: GPL-2.0-only
/*
 * `eatrace model fit -f json` ("eatrace_model_fit": 1) and `model check
 * --measured -f json` ("eatrace_model_check_measured": 1); the keys are
 * documented in docs/json.md "model fit".
 */
#include <math.h>
#include <string.h>

#include "eatrace/fit-report.h"
#include "eatrace/output.h"
#include "eatrace/unit.h"

static void err_obj(struct ea_json *j, const char *key,
		    const struct ea_fit_err *e)
{
	ea_json_obj(j, key);
	ea_json_num(j, "estimate", e->estimate);
	ea_json_num(j, "total_error_pct", e->total_pct);
	ea_json_num(j, "mae", e->mae);
	ea_json_num(j, "mae_pct", e->mae_pct);
	ea_json_num(j, "max_window_error_pct", e->max_abs_pct);
	ea_json_obj_end(j);
}

static void errs(struct ea_json *j, const struct ea_fit_report *r,
		 const struct ea_fit_err *before,
		 const struct ea_fit_err *after)
{
	if (r->fit->fitted_ok) {
		err_obj(j, "initial", before);
		err_obj(j, "fitted", after);
	} else {
		err_obj(j, "estimate", before);
	}
}

static void rails(struct ea_json *j, const struct ea_fit_report *r)
{
	const struct ea_fit *fit = r->fit;

	ea_json_arr(j, "rails");
	for (int k = 0; k < fit->nrails; k++) {
		const struct ea_fit_rail *rl = &fit->rails[k];

		ea_json_obj(j, NULL);
		ea_json_str(j, "name", rl->name);
		ea_json_arr(j, "clusters");
		for (int i = 0; i < fit->initial->nclusters; i++)
			if (rl->feeds[i])
				ea_json_str(j, NULL,
					    fit->initial->clusters[i].name);
		ea_json_arr_end(j);
		ea_json_str(j, "mapped_by", rl->mapped_by);
		ea_json_uint(j, "windows", rl->nwin);
		ea_json_num(j, "measured", rl->measured);
		errs(j, r, &rl->before, &rl->after);
		ea_json_obj_end(j);
	}
	ea_json_arr_end(j);
	ea_json_obj(j, "all");
	ea_json_uint(j, "windows", fit->nrows);
	ea_json_num(j, "measured", fit->all_measured);
	errs(j, r, &fit->all_before, &fit->all_after);
	ea_json_obj_end(j);
}

static void coefficients(struct ea_json *j, const struct ea_fit_report *r)
{
	const struct ea_fit *fit = r->fit;
	const struct ea_model *m = fit->initial;

	ea_json_arr(j, "coefficients");
	for (int i = 0; i < fit->coefs.n; i++) {
		const struct ea_coef *c = &fit->coefs.c[i];
		const struct ea_fit_coef *fc = &fit->coef[i];
		bool held = fc->status == EA_COEF_HELD;

		ea_json_obj(j, NULL);
		ea_json_str(j, "key", c->key);
		if (c->cluster >= 0)
			ea_json_str(j, "cluster", m->clusters[c->cluster].name);
		else
			ea_json_raw(j, "cluster", "null");
		ea_json_str(j, "member", ea_coef_member(c->kind));
		if (c->kind == EA_CK_CORE_BUSY || c->kind == EA_CK_CLUSTER_BUSY)
			ea_json_uint(j, "freq_khz",
				     m->clusters[c->cluster]
					     .caps[c->state]
					     .freq_khz);
		else
			ea_json_raw(j, "freq_khz", "null");
		if (c->cluster >= 0 && c->kind >= EA_CK_CORE_IDLE &&
		    c->kind <= EA_CK_CLUSTER_WAKEUP)
			ea_json_str(
				j, "idle_state",
				m->clusters[c->cluster].idles[c->state].name);
		else
			ea_json_raw(j, "idle_state", "null");
		ea_json_num(j, "initial", c->initial);
		ea_json_num(j, "fitted", fc->value);
		ea_json_num(j, "change_pct",
			    c->initial > 0 ? (fc->value - c->initial) /
						     c->initial * 100
					   : NAN);
		ea_json_num(j, "se", fc->se);
		ea_json_num(j, "ci_low", fc->ci_low);
		ea_json_num(j, "ci_high", fc->ci_high);
		ea_json_num(j, "interval_pct",
			    fc->value > 0 && !isnan(fc->ci_low)
				    ? (fc->ci_high - fc->ci_low) / 2 /
					      fc->value * 100
				    : NAN);
		ea_json_bool(j, "held", held);
		if (held)
			ea_json_str(j, "reason", fc->reason);
		else
			ea_json_raw(j, "reason", "null");
		ea_json_bool(j, "at_bound", fc->at_bound);
		ea_json_obj_end(j);
	}
	ea_json_arr_end(j);
	ea_json_arr(j, "held");
	for (int i = 0; i < fit->coefs.n; i++)
		if (fit->coef[i].status == EA_COEF_HELD)
			ea_json_str(j, NULL, fit->coefs.c[i].key);
	ea_json_arr_end(j);
	ea_json_obj(j, "constraints");
	ea_json_int(j, "kept", fit->nconstraints);
	ea_json_arr(j, "active");
	for (int i = 0; i < fit->nactive; i++)
		ea_json_str(j, NULL, fit->active[i]);
	ea_json_arr_end(j);
	ea_json_obj_end(j);
}

static void worst(struct ea_json *j, const struct ea_fit_report *r)
{
	const struct ea_fit *fit = r->fit;

	ea_json_arr(j, "worst_windows");
	for (int i = 0; i < fit->nworst; i++) {
		const struct ea_fit_row *w = &fit->rows[fit->worst[i]];
		double est = ea_fit_row_estimate(r, w);

		ea_json_obj(j, NULL);
		ea_json_str(j, "trace", r->cfg->in[w->input].trace);
		ea_json_str(j, "rail", fit->rails[w->rail].name);
		ea_json_uint(j, "line", w->line);
		ea_json_ns_as_s(j, "start_s", w->t0);
		ea_json_ns_as_s(j, "end_s", w->t1);
		ea_json_num(j, "measured", w->measured);
		if (fit->fitted_ok) {
			ea_json_num(j, "initial", w->before);
			ea_json_num(j, "fitted", w->after);
		} else {
			ea_json_num(j, "estimate", w->before);
		}
		ea_json_num(j, "error_pct",
			    w->measured > 0
				    ? (est - w->measured) / w->measured * 100
				    : NAN);
		ea_json_obj_end(j);
	}
	ea_json_arr_end(j);
}

void ea_fit_render_json(FILE *f, const struct ea_fit_report *r)
{
	const struct ea_fit *fit = r->fit;
	const struct ea_fit_config *cfg = r->cfg;
	const struct ea_model *m = fit->initial;
	struct ea_energy_unit u;
	struct ea_json j;

	ea_json_begin(&j, f);
	ea_json_obj(&j, NULL);
	ea_json_int(&j,
		    r->check ? "eatrace_model_check_measured"
			     : "eatrace_model_fit",
		    1);
	ea_json_str(&j, "model", m->path ? m->path : "");
	ea_json_str(&j, "name", m->name);
	ea_json_str(&j, "power_unit", m->power_unit);
	/* as every output names it (docs/json.md "Units") */
	ea_energy_unit_native(&u, m->power_unit);
	ea_json_str(&j, "energy_unit", u.energy);
	if (!r->check) {
		if (r->output)
			ea_json_str(&j, "fitted_model", r->output);
		else
			ea_json_raw(&j, "fitted_model", "null");
		ea_json_str(&j, "fitted_name",
			    fit->fitted ? fit->fitted->name : "");
	}
	ea_json_arr(&j, "inputs");
	for (int i = 0; i < cfg->nin; i++) {
		ea_json_obj(&j, NULL);
		ea_json_str(&j, "trace", cfg->in[i].trace);
		if (cfg->in[i].measured)
			ea_json_str(&j, "measured", cfg->in[i].measured);
		else
			ea_json_raw(&j, "measured", "null");
		ea_json_uint(&j, "windows", fit->input_rows[i]);
		ea_json_uint(&j, "dropped", fit->input_dropped[i]);
		ea_json_obj_end(&j);
	}
	ea_json_arr_end(&j);
	ea_json_uint(&j, "windows", fit->nrows);
	ea_json_num(&j, "window_ms", (double)cfg->window_ns / 1e6);
	rails(&j, r);
	if (fit->fitted_ok) {
		ea_json_num(&j, "confidence", fit->confidence);
		ea_json_str(&j, "weights",
			    fit->relative ? "relative" : "equal");
		ea_json_num(&j, "residual_sd", fit->sigma);
		ea_json_int(&j, "dof", fit->dof);
		ea_json_num(&j, "t_quantile", fit->t_quantile);
		ea_json_int(&j, "coefficients_fitted", fit->nfitted);
		ea_json_int(&j, "coefficients_held", fit->nheld);
		coefficients(&j, r);
	}
	ea_json_obj(&j, "check");
	ea_json_int(&j, "errors", r->errors);
	ea_json_int(&j, "warnings", r->warnings);
	ea_json_arr(&j, "findings");
	for (int i = 0; i < r->nfindings; i++) {
		if (r->quiet && r->findings[i].sev != EA_SEV_ERROR)
			continue;
		ea_json_obj(&j, NULL);
		ea_json_str(&j, "severity",
			    r->findings[i].sev == EA_SEV_ERROR ? "error"
							       : "warning");
		ea_json_str(&j, "message", r->findings[i].msg);
		ea_json_obj_end(&j);
	}
	ea_json_arr_end(&j);
	ea_json_obj_end(&j);
	worst(&j, r);
	if (r->check) {
		ea_json_obj(&j, "gate");
		ea_json_num(&j, "max_error_pct", r->max_error_pct);
		ea_json_num(&j, "max_window_error_pct",
			    r->max_window_error_pct);
		ea_json_int(&j, "failures", r->gate_failures);
		ea_json_obj_end(&j);
	}
	ea_json_obj_end(&j);
	ea_json_end(&j);
}
