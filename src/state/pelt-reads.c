// SPDX-License-Identifier: GPL-2.0-only
/*
 * A PELT signal brought up to date after reads that were skipped
 * (pelt-reads.h): the update at the last instant read, within its period,
 * then the real one.
 */
#include "state/pelt-reads.h"

uint32_t ea_pelt_update_read(struct ea_pelt *p, uint64_t read_ns,
			     uint64_t now_ns, bool running, uint32_t cap)
{
	/*
	 * Within the period by the caller's rule (a read at or past
	 * ea_pelt_next_period() updated it); read_ns before the last update
	 * is 0 us after it, which changes nothing.
	 */
	if (read_ns < now_ns)
		ea_pelt_update_within(p, read_ns, running, cap);
	return ea_pelt_update(p, now_ns, running, cap);
}
