// SPDX-License-Identifier: GPL-2.0-only
/* Sums and exact formatting of integer energies. */
#include <stdio.h>
#include <string.h>

#include "eatrace/energy.h"
#include "eatrace/input.h"

ea_energy_t ea_energy_busy(const struct ea_energy *e)
{
	return e->core_busy + e->cluster_busy;
}

ea_energy_t ea_energy_idle(const struct ea_energy *e)
{
	return e->core_idle + e->cluster_idle;
}

ea_energy_t ea_energy_wakeup(const struct ea_energy *e)
{
	return e->core_wakeup + e->cluster_wakeup;
}

ea_energy_t ea_energy_total(const struct ea_energy *e)
{
	return ea_energy_busy(e) + ea_energy_idle(e) + ea_energy_wakeup(e) +
	       e->suspended + e->offline;
}

void ea_energy_add(struct ea_energy *d, const struct ea_energy *s)
{
	d->core_busy += s->core_busy;
	d->cluster_busy += s->cluster_busy;
	d->core_idle += s->core_idle;
	d->cluster_idle += s->cluster_idle;
	d->core_wakeup += s->core_wakeup;
	d->cluster_wakeup += s->cluster_wakeup;
	d->suspended += s->suspended;
	d->offline += s->offline;
}

/* 1e-18 units -> "123.000000000000000456" with trailing zeros trimmed. */
const char *ea_energy_fmt(char *buf, ea_energy_t e)
{
	unsigned __int128 v = e < 0 ? (unsigned __int128)-e : (unsigned __int128)e;
	unsigned __int128 ip = v / EA_ENERGY_PER_UNIT;
	unsigned long long fp = (unsigned long long)(v % EA_ENERGY_PER_UNIT);
	char digits[48];
	int n = 0, len;

	do {
		digits[n++] = (char)('0' + (int)(ip % 10));
		ip /= 10;
	} while (ip);
	len = 0;
	if (e < 0)
		buf[len++] = '-';
	while (n)
		buf[len++] = digits[--n];
	if (fp) {
		len += sprintf(buf + len, ".%018llu", fp);
		while (buf[len - 1] == '0')
			len--;
	}
	buf[len] = 0;
	return buf;
}

double ea_energy_to_double(ea_energy_t e)
{
	return (double)e / (double)EA_ENERGY_PER_UNIT;
}

int ea_topology_check(const struct ea_model *m, const struct ea_input_info *info,
		      char *msg, size_t n)
{
	const uint8_t *t = info->topo_cluster;

	if (!info->topo_ncpus)
		return -1;
	for (int i = 0; i < info->topo_ncpus; i++) {
		if (!t[i])
			continue;
		if (i >= m->ncpus || m->cpu_cluster[i] < 0) {
			snprintf(msg, n, "the trace's topology header lists CPU %d, which model '%s' does not describe",
				 i, m->name);
			return 0;
		}
		for (int j = i + 1; j < info->topo_ncpus; j++) {
			bool same_t, same_m;

			if (!t[j] || j >= m->ncpus || m->cpu_cluster[j] < 0)
				continue;
			same_t = t[i] == t[j];
			same_m = m->cpu_cluster[i] == m->cpu_cluster[j];
			if (same_t != same_m) {
				snprintf(msg, n, "the trace's topology header puts CPUs %d and %d in %s, model '%s' in %s: the model's clusters are used",
					 i, j, same_t ? "one cluster" : "different clusters",
					 m->name, same_m ? "one" : "different ones");
				return 0;
			}
		}
	}
	snprintf(msg, n, "the trace's topology header (%d clusters) groups its CPUs as model '%s' does",
		 info->topo_nclusters, m->name);
	return 1;
}
