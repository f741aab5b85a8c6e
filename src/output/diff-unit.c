// SPDX-License-Identifier: GPL-2.0-only
/*
 * The diff's figures in the unit shown (--unit) and its work in capacity x
 * s, as every other output names them (include/eatrace/diff.h,
 * eatrace/unit.h). Every figure of a run in energy units is scaled here,
 * once, before the sides are compared: a new one must be too.
 */
#include <stdio.h>

#include "eatrace/diff.h"

/* The diff's work_cap_s counts seconds of a 1024-capacity CPU. */
#define CAP_SCALE 1024.0

void ea_diff_in_unit(struct ea_diff *d)
{
	for (int s = 0; s < 2; s++) {
		struct ea_diff_side *side = &d->side[s];
		double k = side->unit.energy[0] ? ea_eu_double(&side->unit, 1.0)
						: 1.0;
		/* normalised by work: per capacity x s, 1/1024 of before */
		double kv = d->norm == EA_NORM_WORK ? k / CAP_SCALE : k;

		for (int i = 0; i < side->n; i++) {
			struct ea_diff_run *r = &side->runs[i];

			r->energy *= k;
			r->busy *= k;
			r->idle *= k;
			r->wakeup *= k;
			r->value *= kv;
			/* value = energy / norm still */
			if (d->norm == EA_NORM_WORK)
				r->norm *= CAP_SCALE;
			for (int c = 0; c < EA_DIFF_MAX_CLUSTERS; c++)
				r->cluster_energy[c] *= kv;
			for (size_t t = 0; t < r->ntasks; t++)
				r->tasks[t].energy *= kv;
		}
	}
}

const struct ea_energy_unit *ea_diff_unit(const struct ea_diff *d,
					  struct ea_energy_unit *tmp)
{
	const struct ea_diff_side *b = &d->side[0];

	return ea_energy_unit_or(b->unit.energy[0] ? &b->unit : NULL,
				 b->model->power_unit, tmp);
}

const char *ea_diff_value_unit(const struct ea_diff *d, char *buf, size_t n)
{
	struct ea_energy_unit ut;
	const struct ea_energy_unit *u = ea_diff_unit(d, &ut);

	if (d->norm == EA_NORM_TIME)
		snprintf(buf, n, "%s", u->power);
	else if (d->norm == EA_NORM_WORK)
		snprintf(buf, n, "%s per %s", u->energy, EA_WORK_UNIT);
	else
		snprintf(buf, n, "%s", u->energy);
	return buf;
}
