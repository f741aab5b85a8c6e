// SPDX-License-Identifier: GPL-2.0-only
/* The JSON shape of an energy breakdown, shared by report and replay. */
#include "eatrace/output.h"
#include "eatrace/report.h"

void ea_json_energy(struct ea_json *j, const char *key, const struct ea_energy *e,
		    const struct ea_energy_unit *u)
{
	char b[EA_EU_BUF];

	ea_json_obj(j, key);
	ea_json_raw(j, "total", ea_eu_fmt(b, u, ea_energy_total(e)));
	ea_json_raw(j, "busy", ea_eu_fmt(b, u, ea_energy_busy(e)));
	ea_json_raw(j, "idle", ea_eu_fmt(b, u, ea_energy_idle(e)));
	ea_json_raw(j, "wakeup", ea_eu_fmt(b, u, ea_energy_wakeup(e)));
	ea_json_raw(j, "core_busy", ea_eu_fmt(b, u, e->core_busy));
	ea_json_raw(j, "cluster_busy", ea_eu_fmt(b, u, e->cluster_busy));
	ea_json_raw(j, "core_idle", ea_eu_fmt(b, u, e->core_idle));
	ea_json_raw(j, "cluster_idle", ea_eu_fmt(b, u, e->cluster_idle));
	ea_json_raw(j, "core_wakeup", ea_eu_fmt(b, u, e->core_wakeup));
	ea_json_raw(j, "cluster_wakeup", ea_eu_fmt(b, u, e->cluster_wakeup));
	ea_json_raw(j, "suspended", ea_eu_fmt(b, u, e->suspended));
	ea_json_raw(j, "offline", ea_eu_fmt(b, u, e->offline));
	ea_json_obj_end(j);
}
