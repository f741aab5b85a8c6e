/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The unit every output names its energies in (docs/json.md "Units"): the
 * model's power_unit x s ("mW x s", "bogo x s" for a unitless model), or,
 * with --unit, joules ("J", "mJ", "uJ") when the model's power_unit is a
 * unit of power (W, mW, uW, nW). Powers shown beside them are in the
 * matching unit (power_unit, or W, mW, uW), so energy = power x s holds
 * in every output. A conversion is a shift of the decimal point: exact
 * decimals stay exact (src/energy/unit.c).
 */
#ifndef EATRACE_UNIT_H
#define EATRACE_UNIT_H

#include <stddef.h>

#include "eatrace/energy.h"
#include "eatrace/error.h"

#define EA_EU_NAME_LEN 24	/* a power_unit (15) + " x s" + NUL fits */

struct ea_energy_unit {
	char energy[EA_EU_NAME_LEN]; /* "mW x s", "bogo x s", "J", "mJ", "uJ" */
	char power[16]; /* "mW", "bogo", "W", "mW", "uW" */
	int exp10; /* shown = value in power_unit (x s) x 10^exp10 */
};

/* Work, everywhere: capacity x s, 1024 being the model's biggest CPU at
 * its highest OPP (a CPU at capacity C for T s does C x T). */
#define EA_WORK_UNIT "capacity x s"

/* The model's own unit: power_unit x s, nothing converted. */
void ea_energy_unit_native(struct ea_energy_unit *u, const char *power_unit);

/*
 * --unit NAME (J, mJ or uJ; NULL: the native unit) for a model whose power
 * unit is power_unit, named model in the message. Returns 0, or -1 with
 * err: "--unit: 'kJ' is not J, mJ or uJ", or "--unit J: model NAME's
 * power_unit 'bogo' is not a unit of power (W, mW, uW or nW): its energies
 * cannot be converted".
 */
int ea_energy_unit_parse(struct ea_energy_unit *u, const char *name,
			 const char *power_unit, const char *model,
			 struct ea_err *err);

/* u, or the native unit of power_unit in *tmp when u is NULL. */
const struct ea_energy_unit *ea_energy_unit_or(const struct ea_energy_unit *u,
					       const char *power_unit,
					       struct ea_energy_unit *tmp);

/* An energy (or power) in power_unit as a double in u. */
double ea_eu_double(const struct ea_energy_unit *u, double v);
/* ea_energy_to_double() of e, in u. */
double ea_eu_energy(const struct ea_energy_unit *u, ea_energy_t e);
/* The exact decimal of e in u (ea_energy_fmt(), the point shifted);
 * buf >= EA_EU_BUF bytes. */
#define EA_EU_BUF 80
const char *ea_eu_fmt(char *buf, const struct ea_energy_unit *u, ea_energy_t e);

#endif
