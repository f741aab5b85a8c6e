/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A PELT signal read at many instants, updated at few of them.
 *
 * Bringing a signal up to date before each read (ea_pelt_update()) is what
 * the kernel does, and what a reader that must give the kernel's figures
 * has to reproduce: an update crossing a period decays the sum, and
 * decaying in two steps rounds differently from decaying once, so which
 * instants a signal was updated at shows in its figures. But an update
 * that stays within the current period (ea_pelt_update_within()) changes
 * no util_avg and adds up: made at t1 then t2 it leaves what one made at t2
 * leaves. So a read that would stay within the period can be skipped,
 * provided the next real update is first made at the last instant read
 * (read_ns) and the signal's inputs (running, cap) have not changed since:
 * the update at read_ns stands for every skipped one, and the crossing
 * update then starts where the eager reader's did. A read at or past
 * ea_pelt_next_period() must be a real update.
 *
 * Used by the replay's load signals (src/replay/sim-load.c), read for all
 * CPUs at every wakeup.
 */
#ifndef EATRACE_STATE_PELT_READS_H
#define EATRACE_STATE_PELT_READS_H

#include "state/pelt.h"

/*
 * The first instant at which an update of p would cross its period (a
 * read then must update it); 0 before its first update (it must be
 * started). Updates within the period keep it.
 */
static inline uint64_t ea_pelt_next_period(const struct ea_pelt *p)
{
	if (!p->started)
		return 0;
	return p->last_ns + ((uint64_t)(1024 - p->period_contrib) << 10);
}

/*
 * ea_pelt_update(p, now_ns, ...) for a signal whose reads since its last
 * update were skipped, the last of them at read_ns (any earlier instant,
 * even one before that update, is fine: it changes nothing). running and
 * cap: as they have been since that update. Returns util_avg.
 */
uint32_t ea_pelt_update_read(struct ea_pelt *p, uint64_t read_ns,
			     uint64_t now_ns, bool running, uint32_t cap);

#endif
