// SPDX-License-Identifier: GPL-2.0-only
/* The unit energies are shown in: the model's power_unit x s, or joules
 * (--unit), by a shift of the decimal point (include/eatrace/unit.h). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "eatrace/unit.h"

/* Units of power the model may be in, and their power of ten in W. */
static const struct {
	const char *name;
	int exp10;
} powers[] = {{"W", 0}, {"mW", -3}, {"uW", -6}, {"\xc2\xb5W", -6}, {"nW", -9}};

/* What --unit offers, the power shown beside each, their power of ten. */
static const struct {
	const char *energy, *power;
	int exp10;
} joules[] = {{"J", "W", 0}, {"mJ", "mW", -3}, {"uJ", "uW", -6}};

void ea_energy_unit_native(struct ea_energy_unit *u, const char *power_unit)
{
	snprintf(u->energy, sizeof(u->energy), "%s x s", power_unit);
	snprintf(u->power, sizeof(u->power), "%s", power_unit);
	u->exp10 = 0;
}

int ea_energy_unit_parse(struct ea_energy_unit *u, const char *name,
			 const char *power_unit, const char *model,
			 struct ea_err *err)
{
	size_t i, k;

	ea_energy_unit_native(u, power_unit);
	if (!name)
		return 0;
	for (k = 0; k < sizeof(joules) / sizeof(joules[0]); k++)
		if (!strcmp(name, joules[k].energy))
			break;
	if (k == sizeof(joules) / sizeof(joules[0]))
		return ea_err_set(err, "--unit: '%s' is not J, mJ or uJ", name);
	for (i = 0; i < sizeof(powers) / sizeof(powers[0]); i++)
		if (!strcmp(power_unit, powers[i].name))
			break;
	if (i == sizeof(powers) / sizeof(powers[0]))
		return ea_err_set(err,
				  "--unit %s: model %s's power_unit '%s' is "
				  "not a unit of power (W, mW, uW or nW): its "
				  "energies cannot be converted",
				  name, model, power_unit);
	snprintf(u->energy, sizeof(u->energy), "%s", joules[k].energy);
	snprintf(u->power, sizeof(u->power), "%s", joules[k].power);
	/* x mW = x 10^-3 W = x 10^(-3 - exp10(unit)) of the unit */
	u->exp10 = powers[i].exp10 - joules[k].exp10;
	return 0;
}

const struct ea_energy_unit *ea_energy_unit_or(const struct ea_energy_unit *u,
					       const char *power_unit,
					       struct ea_energy_unit *tmp)
{
	if (u)
		return u;
	ea_energy_unit_native(tmp, power_unit);
	return tmp;
}

double ea_eu_double(const struct ea_energy_unit *u, double v)
{
	static const double p10[] = {1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3,
				     1e-2, 1e-1, 1,    1e1,  1e2,  1e3,	 1e4,
				     1e5,  1e6,	 1e7,  1e8,  1e9};

	/* exp10 is in [-9, 6] (nW to J, W to uJ) */
	return u->exp10 ? v * p10[u->exp10 + 9] : v;
}

double ea_eu_energy(const struct ea_energy_unit *u, ea_energy_t e)
{
	return ea_eu_double(u, ea_energy_to_double(e));
}

const char *ea_eu_fmt(char *buf, const struct ea_energy_unit *u, ea_energy_t e)
{
	char s[64], digits[64];
	const char *dot, *p = s;
	int nd = 0, point, len = 0, nz = 0, last;

	ea_energy_fmt(s, e);
	if (!u->exp10) {
		snprintf(buf, EA_EU_BUF, "%s", s);
		return buf;
	}
	if (*p == '-')
		buf[len++] = *p++;
	/* the digits without the point, and where the point goes: the
	 * number is 0.d[0]d[1]... x 10^point, d[i] = '0' outside [0, nd) */
	dot = strchr(p, '.');
	point = (int)(dot ? dot - p : (ptrdiff_t)strlen(p)) + u->exp10;
	for (; *p; p++)
		if (*p != '.')
			digits[nd++] = *p;
	while (nz < nd && digits[nz] == '0')
		nz++;
	last = nd - 1;
	while (last >= 0 && digits[last] == '0')
		last--;
	/* the integer part from its first nonzero digit (at least one
	 * digit), the fraction up to its last nonzero one */
	for (int i = nz < nd && nz < point - 1 ? nz : point - 1; i < point; i++)
		buf[len++] = i >= 0 && i < nd ? digits[i] : '0';
	if (last >= 0 && last >= point) {
		buf[len++] = '.';
		for (int i = point; i <= last; i++)
			buf[len++] = i >= 0 && i < nd ? digits[i] : '0';
	}
	buf[len] = 0;
	return buf;
}
