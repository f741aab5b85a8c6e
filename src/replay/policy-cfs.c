// SPDX-License-Identifier: GPL-2.0-only
/*
 * `cfs`: a non-energy-aware baseline in the spirit of mainline's
 * select_idle_sibling(): the previous CPU if idle, else an idle CPU sharing
 * its cluster, else the least loaded CPU (fewest tasks, then lowest util,
 * then the biggest capacity, then the lowest id).
 */
#include "replay/replay-internal.h"

const struct rp_policy rp_policy_cfs = {
	.name = "cfs",
	.summary = "prev CPU if idle, else an idle sibling, else least loaded",
	.select_cpu = rp_select_cfs,
};
