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

/* ea_pelt_update() past its common case (pelt.c). */
uint32_t ea_pelt_update_slow(struct ea_pelt *p, uint64_t now_ns, bool running,
			     uint32_t cap);

/*
 * ea_pelt_update()'s common case: updates are often microseconds apart, and
 * one that stays within the current 1024 us period only moves the clock and
 * adds the running time (no decay, util_avg unchanged). Returns whether it
 * was that case (done); else nothing is changed and ea_pelt_update_slow()
 * must do it, the only update that may change util_avg.
 *
 * The replay simulator's lazy time (src/replay/sim.c, pelt_boundary())
 * relies on this case being additive and on its condition: change one,
 * change the other.
 */
static inline bool ea_pelt_update_within(struct ea_pelt *p, uint64_t now_ns,
					 bool running, uint32_t cap)
{
	uint64_t d;

	if (!p->started)
		return false;
	if (now_ns <= p->last_ns)
		return true;
	d = (now_ns - p->last_ns) >> 10;
	if (d + p->period_contrib >= 1024)
		return false;
	p->last_ns += d << 10;
	p->period_contrib += (uint32_t)d;
	if (running)
		p->util_sum += d * cap;
	return true;
}

/*
 * Advance *p to now_ns: the entity ran (running) at capacity cap (0..1024)
 * since the last update, else it was not running. Returns util_avg.
 */
static inline uint32_t ea_pelt_update(struct ea_pelt *p, uint64_t now_ns,
				      bool running, uint32_t cap)
{
	if (ea_pelt_update_within(p, now_ns, running, cap))
		return p->util_avg;
	return ea_pelt_update_slow(p, now_ns, running, cap);
}
/* Decay a raw sum by n periods, as decay_load(). */
uint64_t ea_pelt_decay(uint64_t val, uint64_t n);
/* Move a task's contribution between two signals (migration). */
void ea_pelt_detach(struct ea_pelt *cpu, const struct ea_pelt *task);
void ea_pelt_attach(struct ea_pelt *cpu, const struct ea_pelt *task);

#endif
