/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The statistics collector's task switch (src/stats/collect.c), for a
 * consumer that calls it directly (src/stats/with-acct.c).
 */
#ifndef EATRACE_STATS_COLLECT_H
#define EATRACE_STATS_COLLECT_H

#include "eatrace/stats.h"

/* The event types ea_stats_ops.event takes */
#define EA_STATS_EVENT_TYPES (1u << EA_EV_UTIL_CFS)

/* ea_stats_ops.task_switch's common case: the busy time added, true; or
 * false, nothing done (then ea_stats_switch_change()). */
static inline bool ea_stats_quick_switch(struct ea_stats *st, int cpu,
					 uint64_t since, uint64_t now)
{
	struct ea_cpu_stats *c;

	if ((unsigned int)cpu >= (unsigned int)st->ncpus)
		return false;
	c = &st->cpus[cpu];
	if (!c->quick || now <= since || since < st->clip_start ||
	    now > st->clip_end)
		return false;
	c->busy_ns += now - since;
	return true;
}

/* ea_stats_ops.task_switch's other cases: cpu_change() of the CPU's state
 * and the same with pid */
void ea_stats_switch_change(struct ea_stats *st, const struct ea_state *s,
			    int cpu, uint64_t since, uint64_t now, int32_t pid);

#endif
