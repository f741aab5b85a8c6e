// SPDX-License-Identifier: GPL-2.0-only
/*
 * `eatrace report`: each power rail's measured energy beside the estimate
 * for the clusters it feeds (eatrace/rails.h, docs/perfetto.md; JSON keys
 * in docs/json.md).
 */
#include <stdio.h>
#include <string.h>

#include "eatrace/escape.h"
#include "eatrace/output.h"
#include "eatrace/rails.h"
#include "eatrace/report.h"

/* "A53+A57" (or "-"): the clusters c feeds. */
static void feeds(const struct ea_model *m, const struct ea_rail_cmp *c,
		  char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < m->nclusters && len < n; i++)
		if (c->feeds[i])
			len += (size_t)snprintf(buf + len, n - len, "%s%s",
						len ? "+" : "",
						m->clusters[i].name);
	if (!buf[0])
		snprintf(buf, n, "-");
}

void ea_report_rails_text(FILE *f, const struct ea_report *r)
{
	const struct ea_model *m = r->acct->model;
	char b1[32], b2[32], t1[4 * EA_RAIL_NAME_LEN + 1], t2[4 * 256 + 1];
	char cl[256];
	struct ea_energy_unit ut;
	const struct ea_energy_unit *u = ea_report_unit(r, &ut);

	if (!r->nrails)
		return;
	fprintf(f, "\nMeasured energy (power rails) over the same window, in %s:\n",
		ea_esc_term_buf(t2, sizeof(t2), u->energy));
	fprintf(f, "%-24s %-16s %14s %14s %9s\n", "rail", "clusters",
		"measured", "estimate", "diff");
	for (size_t i = 0; i < r->nrails; i++) {
		const struct ea_rail_cmp *c = &r->rails[i];
		char meas[32], est[32], diff[32];

		feeds(m, c, cl, sizeof(cl));
		if (!c->measured)
			snprintf(meas, sizeof(meas), "no samples");
		else if (!c->convertible)
			snprintf(meas, sizeof(meas), "%.0f uWs", c->uws);
		else
			snprintf(meas, sizeof(meas), "%.6f", ea_eu_double(u, c->energy));
		if (c->nfeeds)
			snprintf(est, sizeof(est), "%.6f", ea_eu_energy(u, c->estimate));
		else
			snprintf(est, sizeof(est), "-");
		if (c->has_diff)
			snprintf(diff, sizeof(diff), "%+.1f%%", c->diff_pct);
		else
			snprintf(diff, sizeof(diff), "-");
		fprintf(f, "%-24s %-16s %14s %14s %9s\n",
			ea_esc_term_buf(t1, sizeof(t1), c->rail->name),
			ea_esc_term_buf(t2, sizeof(t2), cl), meas, est, diff);
		if (c->measured && !c->covers)
			fprintf(f,
				"  (samples cover only %s s to %s s of the "
				"window)\n",
				ea_fmt_s(b1, c->from), ea_fmt_s(b2, c->to));
	}
	if (r->nrails && !r->rails[0].convertible)
		fprintf(f,
			"  (power_unit %s is not W, mW, uW or nW: no "
			"difference)\n",
			ea_esc_term_buf(t2, sizeof(t2), m->power_unit));
}

/* A measured energy as the text shows it (%.6f), trailing zeros cut. */
static void measured_fmt(char *buf, size_t n, double v)
{
	size_t len;

	snprintf(buf, n, "%.6f", v);
	len = strlen(buf);
	while (len > 1 && buf[len - 1] == '0')
		buf[--len] = '\0';
	if (len && buf[len - 1] == '.')
		buf[--len] = '\0';
	if (!strcmp(buf, "-0"))
		snprintf(buf, n, "0");
}

/*
 * CSV rows (report-csv.c's columns), two per rail:
 *   rail,INDEX,NAME,,COVERED_S,MEASURED,,,,FROM_S,ENERGY_UNIT
 *   rail_estimate,INDEX,CLUSTERS,,WINDOW_S,TOTAL,BUSY,IDLE,WAKEUP,,ENERGY_UNIT
 * MEASURED in the report's unit (power_unit x s, or --unit's) (empty: no sample in the window, or a
 * power_unit that is no unit of power), over COVERED_S from FROM_S (the
 * window, or the part of it the samples cover); the estimate row, for a
 * rail that feeds clusters only, sums their cluster rows.
 */
void ea_report_rails_csv(FILE *f, const struct ea_report *r)
{
	const struct ea_acct *a = r->acct;
	const struct ea_model *m = a->model;
	char b[EA_EU_BUF], b2[64], b3[64], cl[256];
	struct ea_energy_unit ut;
	const struct ea_energy_unit *u = ea_report_unit(r, &ut);
	char eu[4 * sizeof(u->energy) + 8];

	ea_esc_csv_buf(eu, sizeof(eu), u->energy);
	for (size_t i = 0; i < r->nrails; i++) {
		const struct ea_rail_cmp *c = &r->rails[i];
		struct ea_energy e = { 0 };

		fprintf(f, "rail,%u,", c->rail->index);
		ea_esc_csv(f, c->rail->name);
		b2[0] = '\0';
		if (c->measured && c->convertible)
			measured_fmt(b2, sizeof(b2), ea_eu_double(u, c->energy));
		if (c->measured)
			fprintf(f, ",,%s,%s,,,,%s,%s\n", ea_fmt_s(b, c->to - c->from),
				b2, ea_fmt_s(b3, c->from), eu);
		else
			fprintf(f, ",,,,,,,,%s\n", eu);
		if (!c->nfeeds)
			continue;
		for (int k = 0; k < m->nclusters; k++)
			if (c->feeds[k])
				ea_energy_add(&e, &a->clusters[k].e);
		feeds(m, c, cl, sizeof(cl));
		fprintf(f, "rail_estimate,%u,", c->rail->index);
		ea_esc_csv(f, cl);
		fprintf(f, ",,%s", ea_fmt_s(b, a->win_end - a->win_start));
		fprintf(f, ",%s", ea_eu_fmt(b, u, ea_energy_total(&e)));
		fprintf(f, ",%s", ea_eu_fmt(b, u, ea_energy_busy(&e)));
		fprintf(f, ",%s", ea_eu_fmt(b, u, ea_energy_idle(&e)));
		fprintf(f, ",%s,,%s\n", ea_eu_fmt(b, u, ea_energy_wakeup(&e)), eu);
	}
}

void ea_report_rails_json(struct ea_json *j, const struct ea_report *r)
{
	const struct ea_model *m = r->acct->model;
	char b[EA_EU_BUF];
	struct ea_energy_unit ut;
	const struct ea_energy_unit *u = ea_report_unit(r, &ut);

	if (!r->nrails)
		return;
	ea_json_arr(j, "rails");
	for (size_t i = 0; i < r->nrails; i++) {
		const struct ea_rail_cmp *c = &r->rails[i];

		ea_json_obj(j, NULL);
		ea_json_str(j, "name", c->rail->name);
		ea_json_str(j, "subsys", c->rail->subsys);
		ea_json_uint(j, "index", c->rail->index);
		ea_json_uint(j, "samples", c->rail->n);
		ea_json_str(j, "mapped_by", c->mapped_by);
		ea_json_arr(j, "clusters");
		for (int k = 0; k < m->nclusters; k++)
			if (c->feeds[k])
				ea_json_str(j, NULL, m->clusters[k].name);
		ea_json_arr_end(j);
		ea_json_bool(j, "covers_window", c->measured && c->covers);
		if (c->measured) {
			ea_json_ns_as_s(j, "from_s", c->from);
			ea_json_ns_as_s(j, "to_s", c->to);
			ea_json_num(j, "measured_uws", c->uws);
		} else {
			ea_json_raw(j, "from_s", "null");
			ea_json_raw(j, "to_s", "null");
			ea_json_raw(j, "measured_uws", "null");
		}
		if (c->measured && c->convertible)
			ea_json_num(j, "measured", ea_eu_double(u, c->energy));
		else
			ea_json_raw(j, "measured", "null");
		if (c->nfeeds)
			ea_json_raw(j, "estimate", ea_eu_fmt(b, u, c->estimate));
		else
			ea_json_raw(j, "estimate", "null");
		if (c->has_diff)
			ea_json_num(j, "difference_pct", c->diff_pct);
		else
			ea_json_raw(j, "difference_pct", "null");
		ea_json_obj_end(j);
	}
	ea_json_arr_end(j);
}
