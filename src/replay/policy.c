// SPDX-License-Identifier: GPL-2.0-only
/*
 * The policy table, and the policies by name for the rest of eatrace
 * (ea_replay_policy_*()). Adding a policy is one file defining a struct
 * rp_policy plus one line in `policies` below.
 */
#include <string.h>

#include "eatrace/replay.h"
#include "replay/policy.h"

static const struct rp_policy *const policies[] = {
	&rp_policy_recorded, &rp_policy_eas_rfc, &rp_policy_feec,
	&rp_policy_cfs,	     &rp_policy_pack,	 &rp_policy_spread,
};

#define NPOLICIES ((int)(sizeof(policies) / sizeof(policies[0])))

int ea_replay_policy_count(void)
{
	return NPOLICIES;
}

const char *ea_replay_policy_name(int i)
{
	return i >= 0 && i < NPOLICIES ? policies[i]->name : NULL;
}

const char *ea_replay_policy_summary(int i)
{
	return i >= 0 && i < NPOLICIES ? policies[i]->summary : NULL;
}

int ea_replay_policy_find(const char *name)
{
	for (int i = 0; i < NPOLICIES; i++)
		if (!strcmp(policies[i]->name, name))
			return i;
	return -1;
}

bool ea_replay_policy_follows(const char *name)
{
	int i = ea_replay_policy_find(name);

	return i >= 0 && policies[i]->follow_segments;
}

const struct rp_policy *rp_policy_get(const char *name)
{
	int i = ea_replay_policy_find(name);

	return i < 0 ? NULL : policies[i];
}
