// SPDX-License-Identifier: GPL-2.0-only
/*
 * A stats collector and the timeline with its accountant as one consumer
 * (ea_timeline_stats_ops, eatrace/html.h): each change given to the
 * collector, then to the timeline's pair (timeline-acct.c), as the state
 * stage gives it to two consumers in turn. With one consumer the state
 * gives a task switch with one call and does not build the new state
 * (src/state/cpu.c, enter_pid()); the collector's common case inline, as
 * src/stats/with-acct.c has it with the accountant alone.
 */
#include "eatrace/html.h"
#include "output/timeline-priv.h"
#include "stats/collect.h"

/* both_task_switch() past the collector's common case (out of line, as
 * src/stats/with-acct.c has it: the common case then saves no registers
 * and its call of the timeline's pair is a jump) */
static __attribute__((noinline)) void
both_switch_change(const struct ea_timeline_stats *p, const struct ea_state *s,
		   int cpu, uint64_t since, uint64_t now, int32_t pid)
{
	ea_stats_switch_change(p->st, s, cpu, since, now, pid);
	tl_acct_switch(p->tl, s, cpu, since, now, pid);
}

static void both_task_switch(void *ctx, const struct ea_state *s, int cpu,
			     uint64_t since, uint64_t now, int32_t pid)
{
	const struct ea_timeline_stats *p = ctx;

	if (!ea_stats_quick_switch(p->st, cpu, since, now))
		return both_switch_change(p, s, cpu, since, now, pid);
	tl_acct_switch(p->tl, s, cpu, since, now, pid);
}

static void both_change(void *ctx, const struct ea_state *s, int cpu,
			uint64_t since, uint64_t now,
			const struct ea_cpu_state *old,
			const struct ea_cpu_state *new)
{
	const struct ea_timeline_stats *p = ctx;

	ea_stats_ops.cpu_change(p->st, s, cpu, since, now, old, new);
	tl_acct_change(p->tl, s, cpu, since, now, old, new);
}

/* the collector's (the timeline and the accountant take none) */
static void both_event(void *ctx, const struct ea_state *s,
		       const struct ea_event *ev)
{
	const struct ea_timeline_stats *p = ctx;

	ea_stats_ops.event(p->st, s, ev);
}

const struct ea_state_ops ea_timeline_stats_ops = {
	.cpu_change = both_change,
	.task_switch = both_task_switch,
	.event = both_event,
	.event_types = EA_STATS_EVENT_TYPES,
};
