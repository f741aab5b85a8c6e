// SPDX-License-Identifier: GPL-2.0-only
/*
 * replay's ensemble intervals and sensitivity to wakeup energy, in JSON,
 * text and HTML (replay-ensemble.h; docs/replay.md "Ensemble",
 * "Sensitivity", docs/json.md).
 */
#include <math.h>

#include "eatrace/escape.h"
#include "eatrace/unit.h"
#include "output/html-common.h"
#include "output/replay-ensemble.h"

/* The policies' unit, as replay-json.c's ea_replay_unit() (not called:
 * it calls this file). */
static const struct ea_energy_unit *unit_of(const struct ea_replay_report *r,
					    struct ea_energy_unit *tmp)
{
	return ea_energy_unit_or(r->unit, r->target->power_unit, tmp);
}

/* The report's energy of policy i (power_unit x s). */
static double energy_of(const struct ea_replay_report *r, int i)
{
	return ea_energy_to_double(ea_energy_total(&r->results[i].acct.total));
}

/* Policy i's single-replay ratio to the baseline; NaN: none. */
static double single_ratio(const struct ea_replay_report *r, int i)
{
	int b = r->ensemble	 ? r->ensemble->cfg.baseline
		: r->sensitivity ? r->sensitivity->baseline
				 : -1;

	if (b < 0 || b >= r->nresults || !(energy_of(r, b) > 0))
		return NAN;
	return energy_of(r, i) / energy_of(r, b);
}

static void json_pair(struct ea_json *j, const char *key, double lo, double hi)
{
	if (!isfinite(lo) || !isfinite(hi)) {
		ea_json_raw(j, key, "null");
		return;
	}
	ea_json_arr(j, key);
	ea_json_num(j, NULL, lo);
	ea_json_num(j, NULL, hi);
	ea_json_arr_end(j);
}

void rp_out_ensemble_json_head(struct ea_json *j,
			       const struct ea_replay_report *r)
{
	const struct ea_ensemble *e = r->ensemble;

	if (!e && !r->sensitivity)
		return;
	if (r->baseline)
		ea_json_str(j, "baseline", r->baseline);
	else
		ea_json_raw(j, "baseline", "null");
	if (!e)
		return;
	ea_json_obj(j, "ensemble_config");
	ea_json_int(j, "n", e->cfg.n);
	ea_json_uint(j, "seed", e->cfg.seed);
	ea_json_ns_as_s(j, "cut_max_s", e->cut_range_ns);
	ea_json_ns_as_s(j, "jitter_s", e->cfg.jitter_ns);
	ea_json_num(j, "confidence", e->cfg.confidence);
	ea_json_obj_end(j);
}

void rp_out_ensemble_json_policy(struct ea_json *j,
				 const struct ea_replay_report *r, int i)
{
	const struct ea_ensemble *e = r->ensemble;
	const struct ea_sensitivity *s = r->sensitivity;
	struct ea_energy_unit ut;
	const struct ea_energy_unit *u = unit_of(r, &ut);

	if (e && i < e->npol) {
		const struct ea_ensemble_policy *p = &e->pol[i];
		const char *v = ea_ensemble_verdict_name(p->verdict);

		ea_json_obj(j, "ensemble");
		ea_json_int(j, "n", e->cfg.n);
		ea_json_num(j, "energy_mean", ea_eu_double(u, p->energy_mean));
		json_pair(j, "energy_ci", ea_eu_double(u, p->energy_lo),
			  ea_eu_double(u, p->energy_hi));
		ea_json_num(j, "vs_baseline_mean", p->ratio_mean);
		json_pair(j, "vs_baseline_ci", p->ratio_lo, p->ratio_hi);
		if (v)
			ea_json_str(j, "verdict", v);
		else
			ea_json_raw(j, "verdict", "null");
		ea_json_obj_end(j);
	}
	if (s && i < s->npol) {
		const struct ea_sensitivity_policy *p = &s->pol[i];

		ea_json_obj(j, "sensitivity");
		ea_json_num(j, "wakeup_share", p->wakeup_share);
		ea_json_num(j, "vs_baseline", single_ratio(r, i));
		ea_json_num(j, "vs_baseline_no_wakeups", p->ratio_repriced);
		ea_json_num(j, "energy_resimulated",
			    ea_eu_double(u, p->energy_resimulated));
		ea_json_num(j, "vs_baseline_no_wakeups_resimulated",
			    p->ratio_resimulated);
		ea_json_obj_end(j);
	}
}

/* "0.504", or "-" for NaN. */
static const char *num3(char *b, size_t n, double v)
{
	if (isfinite(v))
		snprintf(b, n, "%.3f", v);
	else
		snprintf(b, n, "-");
	return b;
}

/* What policy p's interval says, for people: "saves 49.6% (48.1-51.0%)". */
static const char *verdict_text(char *b, size_t n,
				const struct ea_ensemble_policy *p)
{
	switch (p->verdict) {
	case EA_ENSEMBLE_BASELINE:
		snprintf(b, n, "baseline");
		break;
	case EA_ENSEMBLE_SAVES:
		snprintf(b, n, "saves %.1f%% (%.1f-%.1f%%)",
			 (1 - p->ratio_mean) * 100, (1 - p->ratio_hi) * 100,
			 (1 - p->ratio_lo) * 100);
		break;
	case EA_ENSEMBLE_COSTS:
		snprintf(b, n, "costs %.1f%% more (%.1f-%.1f%%)",
			 (p->ratio_mean - 1) * 100, (p->ratio_lo - 1) * 100,
			 (p->ratio_hi - 1) * 100);
		break;
	case EA_ENSEMBLE_INCONCLUSIVE:
		snprintf(b, n, "inconclusive: the interval includes no change");
		break;
	default:
		snprintf(b, n, "-");
		break;
	}
	return b;
}

static void ensemble_text(FILE *f, const struct ea_replay_report *r)
{
	const struct ea_ensemble *e = r->ensemble;
	struct ea_energy_unit ut;
	const struct ea_energy_unit *u = unit_of(r, &ut);
	char t[4 * EA_NAME_LEN + 1], vs[4 * EA_NAME_LEN + 8];
	char b1[32], b2[32], b3[32], b4[96];

	fprintf(f,
		"\nensemble: %d replays of each policy on perturbed copies "
		"(start cut 0-%.3f ms, each wakeup 0-%.0f us later, seed "
		"%llu); mean and %.0f%% interval",
		e->cfg.n, (double)e->cut_range_ns / 1e6,
		(double)e->cfg.jitter_ns / 1e3, (unsigned long long)e->cfg.seed,
		e->cfg.confidence * 100);
	if (r->baseline)
		fprintf(f, "; ratios to %s paired by copy\n",
			ea_esc_term_buf(t, sizeof(t), r->baseline));
	else
		fputs("\n", f);
	snprintf(vs, sizeof(vs), "vs %.20s",
		 r->baseline ? ea_esc_term_buf(t, sizeof(t), r->baseline)
			     : "baseline");
	fprintf(f, "%-10s %14s %31s %8s %17s  %s\n", "policy", "energy_mean",
		"energy interval", vs, "interval", "verdict");
	for (int i = 0; i < e->npol && i < r->nresults; i++) {
		const struct ea_ensemble_policy *p = &e->pol[i];
		char iv[80], rv[80], em[48];

		if (isfinite(p->energy_lo))
			snprintf(iv, sizeof(iv), "[%.3f, %.3f]",
				 ea_eu_double(u, p->energy_lo),
				 ea_eu_double(u, p->energy_hi));
		else
			snprintf(iv, sizeof(iv), "-");
		if (isfinite(p->ratio_lo) && p->verdict != EA_ENSEMBLE_BASELINE)
			snprintf(rv, sizeof(rv), "[%s, %s]",
				 num3(b2, sizeof(b2), p->ratio_lo),
				 num3(b3, sizeof(b3), p->ratio_hi));
		else
			snprintf(rv, sizeof(rv), "-");
		if (isfinite(p->energy_mean))
			snprintf(em, sizeof(em), "%.6f",
				 ea_eu_double(u, p->energy_mean));
		else
			snprintf(em, sizeof(em), "-");
		fprintf(f, "%-10s %14s %31s %8s %17s  %s\n",
			ea_esc_term_buf(t, sizeof(t), r->results[i].policy), em,
			iv, num3(b1, sizeof(b1), p->ratio_mean), rv,
			verdict_text(b4, sizeof(b4), p));
	}
}

static void sensitivity_text(FILE *f, const struct ea_replay_report *r)
{
	const struct ea_sensitivity *s = r->sensitivity;
	char t[4 * EA_NAME_LEN + 1], b1[32], b2[32], b3[32];

	fprintf(f,
		"\nwakeup energy: its share of each policy's energy; ratio to "
		"%s as replayed, repriced without wakeup energy, and replayed "
		"again with the model's wakeup energies at zero\n",
		r->baseline ? ea_esc_term_buf(t, sizeof(t), r->baseline)
			    : "the baseline (none)");
	fprintf(f, "%-10s %8s %10s %10s %12s\n", "policy", "wakeup%", "ratio",
		"repriced", "resimulated");
	for (int i = 0; i < s->npol && i < r->nresults; i++) {
		const struct ea_sensitivity_policy *p = &s->pol[i];
		char share[32];

		if (isfinite(p->wakeup_share))
			snprintf(share, sizeof(share), "%.2f",
				 p->wakeup_share * 100);
		else
			snprintf(share, sizeof(share), "-");
		fprintf(f, "%-10s %8s %10s %10s %12s\n",
			ea_esc_term_buf(t, sizeof(t), r->results[i].policy),
			share, num3(b1, sizeof(b1), single_ratio(r, i)),
			num3(b2, sizeof(b2), p->ratio_repriced),
			num3(b3, sizeof(b3), p->ratio_resimulated));
	}
}

void rp_out_ensemble_text(FILE *f, const struct ea_replay_report *r)
{
	if (r->ensemble)
		ensemble_text(f, r);
	if (r->sensitivity)
		sensitivity_text(f, r);
}

void rp_out_ensemble_html(FILE *f, const struct ea_replay_report *r)
{
	const struct ea_ensemble *e = r->ensemble;
	const struct ea_sensitivity *s = r->sensitivity;
	struct ea_energy_unit ut;
	const struct ea_energy_unit *u = unit_of(r, &ut);
	char b1[32], b2[32], b3[32], b4[96];

	if (e) {
		fprintf(f,
			"<h2>Uncertainty</h2>\n<p class=\"note\">Each policy "
			"replayed %d times on perturbed copies of the "
			"workload (start cut 0-%.3f ms, each wakeup "
			"0-%.0f µs later, seed %llu); mean and %.0f%% "
			"interval, energy in %s. Ratios to <code>",
			e->cfg.n, (double)e->cut_range_ns / 1e6,
			(double)e->cfg.jitter_ns / 1e3,
			(unsigned long long)e->cfg.seed,
			e->cfg.confidence * 100, u->energy);
		svg_esc(f, r->baseline ? r->baseline : "(none)");
		fputs("</code>, paired by copy. A saving whose interval "
		      "includes no change is inconclusive.</p>\n"
		      "<table data-table=\"ensemble\">\n<tr><th>policy</th>"
		      "<th>energy mean</th><th>interval</th><th>vs "
		      "baseline</th>"
		      "<th>interval</th><th>verdict</th></tr>\n",
		      f);
		for (int i = 0; i < e->npol && i < r->nresults; i++) {
			const struct ea_ensemble_policy *p = &e->pol[i];

			fputs("<tr><td>", f);
			svg_esc(f, r->results[i].policy);
			fprintf(f, "</td><td>%s</td>",
				svg_num(b1, ea_eu_double(u, p->energy_mean)));
			fprintf(f, "<td>%s - %s</td>",
				svg_num(b2, ea_eu_double(u, p->energy_lo)),
				svg_num(b3, ea_eu_double(u, p->energy_hi)));
			fprintf(f, "<td>%s</td>",
				num3(b1, sizeof(b1), p->ratio_mean));
			if (p->verdict == EA_ENSEMBLE_BASELINE ||
			    !isfinite(p->ratio_lo))
				fputs("<td></td>", f);
			else
				fprintf(f, "<td>%s - %s</td>",
					num3(b2, sizeof(b2), p->ratio_lo),
					num3(b3, sizeof(b3), p->ratio_hi));
			fprintf(f, "<td class=\"%s\">%s</td></tr>\n",
				p->verdict == EA_ENSEMBLE_SAVES	  ? "better"
				: p->verdict == EA_ENSEMBLE_COSTS ? "worse"
								  : "",
				verdict_text(b4, sizeof(b4), p));
		}
		fputs("</table>\n", f);
	}
	if (s) {
		fputs("<h2>Sensitivity to wakeup energy</h2>\n<p "
		      "class=\"note\">"
		      "Share of each policy's energy that is wakeup energy; "
		      "ratio to the baseline as replayed, repriced without "
		      "wakeup energy, and replayed again on the model with "
		      "its wakeup energies at zero.</p>\n"
		      "<table data-table=\"sensitivity\">\n<tr><th>policy</th>"
		      "<th>wakeup share</th><th>vs baseline</th>"
		      "<th>repriced</th><th>resimulated</th></tr>\n",
		      f);
		for (int i = 0; i < s->npol && i < r->nresults; i++) {
			const struct ea_sensitivity_policy *p = &s->pol[i];

			fputs("<tr><td>", f);
			svg_esc(f, r->results[i].policy);
			if (isfinite(p->wakeup_share))
				fprintf(f, "</td><td>%.2f%%</td>",
					p->wakeup_share * 100);
			else
				fputs("</td><td>-</td>", f);
			fprintf(f, "<td>%s</td><td>%s</td><td>%s</td></tr>\n",
				num3(b1, sizeof(b1), single_ratio(r, i)),
				num3(b2, sizeof(b2), p->ratio_repriced),
				num3(b3, sizeof(b3), p->ratio_resimulated));
		}
		fputs("</table>\n", f);
	}
}
