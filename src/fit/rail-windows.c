// SPDX-License-Identifier: GPL-2.0-only
/*
 * Measurement windows from a Perfetto trace's power rails
 * (docs/perfetto.md "Power rails", docs/model-fit.md): each rail's
 * counter (energy since boot, uWs) read at consecutive samples; the
 * difference over [sample i, sample i + 1) is a window's energy, converted
 * to the model's power_unit x s. No interpolation: the windows are the
 * sample intervals themselves (--window merges them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eatrace/fit.h"
#include "eatrace/rails.h"

int ea_meas_from_rails(struct ea_meas **out, const char *trace,
		       const struct ea_rails *rs, const bool *use_rail,
		       double uws_per_unit, struct ea_err *err)
{
	struct ea_meas *m = calloc(1, sizeof(*m));
	size_t nw = 0;
	int nr = 0;

	*out = NULL;
	for (size_t i = 0; rs && i < rs->n; i++)
		if (use_rail[i]) {
			nr++;
			nw += rs->r[i].n ? rs->r[i].n - 1 : 0;
		}
	if (!m || !(m->source = strdup(trace)) ||
	    !(m->rails = calloc((size_t)nr + 1, sizeof(*m->rails))) ||
	    !(m->subsys = calloc((size_t)nr + 1, sizeof(*m->subsys))) ||
	    !(m->rail_line = calloc((size_t)nr + 1, sizeof(*m->rail_line))) ||
	    !(m->w = calloc(nw + 1, sizeof(*m->w)))) {
		ea_meas_free(m);
		return ea_err_set(err, "out of memory");
	}
	m->from_rails = true;
	for (size_t i = 0; rs && i < rs->n; i++) {
		const struct ea_rail *r = &rs->r[i];
		int k = m->nrails;

		if (!use_rail[i])
			continue;
		snprintf(m->rails[k], EA_FIT_RAIL_LEN, "%s", r->name);
		snprintf(m->subsys[k], EA_FIT_RAIL_LEN, "%s", r->subsys);
		m->rail_line[k] = 1;
		m->nrails++;
		for (size_t s = 1; s < r->n; s++) {
			const struct ea_rail_sample *a = &r->s[s - 1],
						    *b = &r->s[s];

			if (b->ts == a->ts)
				continue; /* two samples at one instant */
			if (b->uws < a->uws) {
				m->dropped++; /* the counter was reset */
				continue;
			}
			m->w[m->n++] = (struct ea_meas_win){
				a->ts, b->ts, k,
				(double)(b->uws - a->uws) / uws_per_unit,
				(uint32_t)s};
		}
	}
	*out = m;
	return 0;
}
