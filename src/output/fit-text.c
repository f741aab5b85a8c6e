// SPDX-License-Identifier: GPL-2.0-only
/*
 * `eatrace model fit` and `model check --measured` as text
 * (docs/model-fit.md shows a worked example): the inputs, the error per
 * rail before and after, each coefficient's change and interval, the
 * held coefficients and why, the active constraints, `model check` of
 * the result, the worst windows.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "eatrace/fit-report.h"
#include "eatrace/unit.h"

/* The model's energy unit as every output names it ("mW x s"). */
static const char *energy_unit(const struct ea_model *m,
			       struct ea_energy_unit *u)
{
	ea_energy_unit_native(u, m->power_unit);
	return u->energy;
}

static const char *pct(char *buf, double v)
{
	if (isnan(v))
		snprintf(buf, 16, "-");
	else
		snprintf(buf, 16, "%+.2f%%", v);
	return buf;
}

static const char *upct(char *buf, double v)
{
	if (isnan(v))
		snprintf(buf, 16, "-");
	else
		snprintf(buf, 16, "%.2f%%", v);
	return buf;
}

static const char *num(char *buf, double v)
{
	if (isnan(v))
		snprintf(buf, 24, "-");
	else
		snprintf(buf, 24, "%.6g", v);
	return buf;
}

static void clusters_of(char *buf, size_t n, const struct ea_model *m,
			const struct ea_fit_rail *rl)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < m->nclusters && len < n; i++)
		if (rl->feeds[i])
			len += (size_t)snprintf(buf + len, n - len, "%s%s",
						len ? "+" : "",
						m->clusters[i].name);
}

static void inputs(FILE *f, const struct ea_fit_report *r)
{
	const struct ea_fit_config *cfg = r->cfg;

	fprintf(f, "\n%-40s %-32s %8s %8s\n", "trace", "measured by", "windows",
		"dropped");
	for (int i = 0; i < cfg->nin; i++)
		fprintf(f, "%-40s %-32s %8zu %8zu\n", cfg->in[i].trace,
			cfg->in[i].measured ? cfg->in[i].measured
					    : "(power rails)",
			r->fit->input_rows[i], r->fit->input_dropped[i]);
}

static void err_cols(FILE *f, const struct ea_fit_err *e)
{
	char a[16], b[16], c[16], d[24];

	fprintf(f, " %13s %9s %9s %9s", num(d, e->estimate),
		pct(a, e->total_pct), upct(b, e->mae_pct),
		upct(c, e->max_abs_pct));
}

static void errors(FILE *f, const struct ea_fit_report *r)
{
	const struct ea_fit *fit = r->fit;
	bool two = fit->fitted_ok;
	char cl[128], mbuf[24];

	fprintf(f, "\nerror per rail: total = (sum estimated - sum measured) / "
		   "sum measured;\n"
		   "MAE = mean |estimated - measured| per window / mean "
		   "measured; max = worst window\n");
	fprintf(f, "%-20s %-16s %7s %13s  %-43s", "", "", "", "",
		two ? "--------------- initial ----------------"
		    : "--------------- estimate ---------------");
	if (two)
		fprintf(f, " %s", "---------------- fitted ----------------");
	fputc('\n', f);
	fprintf(f, "%-20s %-16s %7s %13s %13s %9s %9s %9s", "rail", "clusters",
		"windows", "measured", "estimated", "total", "MAE", "max");
	if (two)
		fprintf(f, " %13s %9s %9s %9s", "estimated", "total", "MAE",
			"max");
	fputc('\n', f);
	for (int k = 0; k < fit->nrails; k++) {
		const struct ea_fit_rail *rl = &fit->rails[k];

		clusters_of(cl, sizeof(cl), fit->initial, rl);
		fprintf(f, "%-20s %-16s %7zu %13s", rl->name, cl, rl->nwin,
			num(mbuf, rl->measured));
		err_cols(f, &rl->before);
		if (two)
			err_cols(f, &rl->after);
		fputc('\n', f);
	}
	if (fit->nrails > 1) {
		fprintf(f, "%-20s %-16s %7zu %13s", "all", "", fit->nrows,
			num(mbuf, fit->all_measured));
		err_cols(f, &fit->all_before);
		if (two)
			err_cols(f, &fit->all_after);
		fputc('\n', f);
	}
}

/* An interval wider than +-25% of the value: the data barely determine it. */
static bool wide(const struct ea_fit_coef *fc)
{
	return !isnan(fc->ci_low) &&
	       !((fc->ci_high - fc->ci_low) / 2 <= 0.25 * fabs(fc->value));
}

static void coefficients(FILE *f, const struct ea_fit_report *r)
{
	const struct ea_fit *fit = r->fit;
	const struct ea_model *m = fit->initial;
	struct ea_energy_unit eu, *u = &eu;
	char a[24], b[24], c[24], d[24], e[16];

	fprintf(f,
		"\ncoefficients fitted (%d): powers in %s, wakeups in %s "
		"per wakeup;\n",
		fit->nfitted, m->power_unit, energy_unit(m, u));
	if (isnan(fit->t_quantile))
		fprintf(f,
			"no intervals: no degrees of freedom left (%zu windows "
			"for %d coefficients)\n",
			fit->nrows, fit->nfitted);
	else
		fprintf(f,
			"%.0f%% intervals from the residuals (t = %.4g, %d "
			"degrees of freedom)\n",
			fit->confidence * 100, fit->t_quantile, fit->dof);
	fprintf(f, "%-40s %12s %12s %9s %27s\n", "key", "initial", "fitted",
		"change", "interval");
	for (int i = 0; i < fit->coefs.n; i++) {
		const struct ea_coef *co = &fit->coefs.c[i];
		const struct ea_fit_coef *fc = &fit->coef[i];
		char iv[64];

		if (fc->status != EA_COEF_FITTED)
			continue;
		if (isnan(fc->ci_low))
			snprintf(iv, sizeof(iv), "-");
		else
			snprintf(iv, sizeof(iv), "[%s, %s]", num(c, fc->ci_low),
				 num(d, fc->ci_high));
		fprintf(f, "%-40s %12s %12s %9s %27s%s%s\n", co->key,
			num(a, co->initial), num(b, fc->value),
			co->initial > 0 ? pct(e, (fc->value - co->initial) /
							 co->initial * 100)
					: "-",
			iv, fc->at_bound ? "  at a constraint" : "",
			wide(fc) ? "  wide: barely determined" : "");
	}
	fprintf(f, "\nheld at the initial value (%d):\n", fit->nheld);
	for (int i = 0; i < fit->coefs.n; i++) {
		const struct ea_fit_coef *fc = &fit->coef[i];

		if (fc->status == EA_COEF_HELD)
			fprintf(f, "  %-40s %12s  %s\n", fit->coefs.c[i].key,
				num(a, fc->value), fc->reason);
	}
	fprintf(f,
		"\nconstraints kept: %d (those the initial table satisfies); "
		"active: %d\n",
		fit->nconstraints, fit->nactive);
	for (int i = 0; i < fit->nactive; i++)
		fprintf(f, "  %s\n", fit->active[i]);
	if (fit->relative)
		fprintf(f,
			"residual standard deviation: %.3g%% of a window's "
			"measured energy (relative weights)\n",
			fit->sigma * 100);
	else
		fprintf(f,
			"residual standard deviation: %s %s per window "
			"(equal weights)\n",
			num(a, fit->sigma), energy_unit(m, u));
}

static void findings(FILE *f, const struct ea_fit_report *r)
{
	fprintf(f, "\nmodel check of the %smodel: %d error%s, %d warning%s\n",
		r->check ? "" : "fitted ", r->errors, r->errors == 1 ? "" : "s",
		r->warnings, r->warnings == 1 ? "" : "s");
	for (int i = 0; i < r->nfindings; i++)
		if (!r->quiet || r->findings[i].sev == EA_SEV_ERROR)
			fprintf(f, "  %s: %s\n",
				r->findings[i].sev == EA_SEV_ERROR ? "error"
								   : "warning",
				r->findings[i].msg);
}

static void worst(FILE *f, const struct ea_fit_report *r)
{
	const struct ea_fit *fit = r->fit;
	char a[24], b[24], c[24], d[16];

	if (!fit->nworst)
		return;
	fprintf(f, "\nworst windows (%s):\n",
		fit->fitted_ok ? "fitted" : "estimate");
	fprintf(f, "%-32s %-16s %20s %20s %12s %12s", "trace", "rail",
		"start_s", "end_s", "measured",
		fit->fitted_ok ? "initial" : "estimated");
	if (fit->fitted_ok)
		fprintf(f, " %12s", "fitted");
	fprintf(f, " %9s\n", "error");
	for (int i = 0; i < fit->nworst; i++) {
		const struct ea_fit_row *w = &fit->rows[fit->worst[i]];
		double est = ea_fit_row_estimate(r, w);
		const char *t = r->cfg->in[w->input].trace,
			   *s = strrchr(t, '/');

		fprintf(f, "%-32s %-16s %10llu.%09llu %10llu.%09llu %12s %12s",
			s ? s + 1 : t, fit->rails[w->rail].name,
			(unsigned long long)(w->t0 / 1000000000u),
			(unsigned long long)(w->t0 % 1000000000u),
			(unsigned long long)(w->t1 / 1000000000u),
			(unsigned long long)(w->t1 % 1000000000u),
			num(a, w->measured), num(b, w->before));
		if (fit->fitted_ok)
			fprintf(f, " %12s", num(c, w->after));
		fprintf(f, " %9s\n",
			w->measured > 0 ? pct(d, (est - w->measured) /
							 w->measured * 100)
					: "-");
	}
}

void ea_fit_render_text(FILE *f, const struct ea_fit_report *r)
{
	const struct ea_fit *fit = r->fit;
	const struct ea_model *m = fit->initial;
	struct ea_energy_unit u;

	fprintf(f, "%s: %s (%s), energies in %s\n",
		r->check ? "eatrace model check --measured"
			 : "eatrace model fit",
		m->name, m->path ? m->path : "", energy_unit(m, &u));
	if (!r->check)
		fprintf(f, "fitted model: %s\n",
			r->output ? r->output : "not written (no -o FILE)");
	inputs(f, r);
	errors(f, r);
	if (fit->fitted_ok)
		coefficients(f, r);
	findings(f, r);
	worst(f, r);
	if (r->check &&
	    (!isnan(r->max_error_pct) || !isnan(r->max_window_error_pct))) {
		char a[32] = "any", b[32] = "any";

		if (!isnan(r->max_error_pct))
			snprintf(a, sizeof(a), "%g%%", r->max_error_pct);
		if (!isnan(r->max_window_error_pct))
			snprintf(b, sizeof(b), "%g%%", r->max_window_error_pct);
		fprintf(f,
			"\ngate: %s (per rail: |total error| at most %s, MAE "
			"at most %s; %d over)\n",
			r->gate_failures ? "FAILED" : "passed", a, b,
			r->gate_failures);
	}
}
