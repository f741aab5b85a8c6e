/* SPDX-License-Identifier: GPL-2.0-only */
/* The parts of an energy (struct ea_energy) the accountant charges, by offset.
 */
#ifndef EATRACE_ENERGY_PART_H
#define EATRACE_ENERGY_PART_H

#include <stddef.h>

#include "eatrace/energy.h"

enum part {
	CORE_BUSY = offsetof(struct ea_energy, core_busy),
	CLUSTER_BUSY = offsetof(struct ea_energy, cluster_busy),
	CORE_IDLE = offsetof(struct ea_energy, core_idle),
	CLUSTER_IDLE = offsetof(struct ea_energy, cluster_idle),
	CORE_WAKEUP = offsetof(struct ea_energy, core_wakeup),
	CLUSTER_WAKEUP = offsetof(struct ea_energy, cluster_wakeup),
	SUSPENDED = offsetof(struct ea_energy, suspended),
	OFFLINE = offsetof(struct ea_energy, offline),
};

static inline void add(struct ea_energy *e, enum part part, ea_energy_t v)
{
	*(ea_energy_t *)((char *)e + part) += v;
}

#endif
