/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * PELT as the kernel computes it (kernel/sched/pelt.c): 1024 us periods,
 * y^32 = 0.5, LOAD_AVG_MAX 47742, util scaled by the capacity the CPU ran at
 * (frequency and CPU invariance), util_avg = util_sum / divider.
 */
#ifndef EATRACE_STATE_PELT_H
#define EATRACE_STATE_PELT_H

#include <stdbool.h>
#include <stdint.h>

#include "eatrace/state.h"

#define EA_PELT_LOAD_AVG_MAX 47742
#define EA_PELT_PERIOD_US 1024

/*
 * Advance *p to now_ns: the entity ran (running) at capacity cap (0..1024)
 * since the last update, else it was not running. Returns util_avg.
 */
uint32_t ea_pelt_update(struct ea_pelt *p, uint64_t now_ns, bool running,
			uint32_t cap);
/* Decay a raw sum by n periods, as decay_load(). */
uint64_t ea_pelt_decay(uint64_t val, uint64_t n);
/* Move a task's contribution between two signals (migration). */
void ea_pelt_detach(struct ea_pelt *cpu, const struct ea_pelt *task);
void ea_pelt_attach(struct ea_pelt *cpu, const struct ea_pelt *task);

#endif
