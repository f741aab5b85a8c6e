// SPDX-License-Identifier: GPL-2.0-only
/*
 * A stats collector and an accountant as one consumer (ea_stats_acct_ops,
 * eatrace/stats.h): each change given to the collector, then to the
 * accountant, as the state stage gives it to two consumers in turn; a
 * task switch with one call from the state, the collector's common case
 * inline and the accountant's entry called directly.
 */
#include "eatrace/energy.h"
#include "stats/collect.h"

/* pair_task_switch() past the collector's common case (out of line: the
 * common case then saves no registers) */
static __attribute__((noinline)) void
pair_switch_change(const struct ea_stats_acct *p, const struct ea_state *s,
		   int cpu, uint64_t since, uint64_t now, int32_t pid)
{
	ea_stats_switch_change(p->st, s, cpu, since, now, pid);
	ea_acct_task_switch(p->acct, s, cpu, since, now, pid);
}

static void pair_task_switch(void *ctx, const struct ea_state *s, int cpu,
			     uint64_t since, uint64_t now, int32_t pid)
{
	const struct ea_stats_acct *p = ctx;

	if (!ea_stats_quick_switch(p->st, cpu, since, now)) {
		pair_switch_change(p, s, cpu, since, now, pid);
		return;
	}
	ea_acct_task_switch(p->acct, s, cpu, since, now, pid);
}

static void pair_change(void *ctx, const struct ea_state *s, int cpu,
			uint64_t since, uint64_t now,
			const struct ea_cpu_state *old,
			const struct ea_cpu_state *new)
{
	const struct ea_stats_acct *p = ctx;

	ea_stats_ops.cpu_change(p->st, s, cpu, since, now, old, new);
	ea_acct_ops.cpu_change(p->acct, s, cpu, since, now, old, new);
}

/* the collector's (the accountant takes none) */
static void pair_event(void *ctx, const struct ea_state *s,
		       const struct ea_event *ev)
{
	const struct ea_stats_acct *p = ctx;

	ea_stats_ops.event(p->st, s, ev);
}

const struct ea_state_ops ea_stats_acct_ops = {
	.cpu_change = pair_change,
	.task_switch = pair_task_switch,
	.event = pair_event,
	.event_types = EA_STATS_EVENT_TYPES,
};
