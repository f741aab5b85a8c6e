// SPDX-License-Identifier: GPL-2.0-only
/* `recorded`: the CPU the recording ran the activation on. */
#include "replay/policy.h"

static int select_recorded(const struct rp_env *e, const struct rp_wakee *p)
{
	return p->rec_cpu >= 0 ? p->rec_cpu : p->prev_cpu;
}

const struct rp_policy rp_policy_recorded = {
	.name = "recorded",
	.summary = "the CPU the trace used",
	.balance = { .off = true },
	.follow_segments = true,
	.select_cpu = select_recorded,
};
