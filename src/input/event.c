// SPDX-License-Identifier: GPL-2.0-only
#include <string.h>

#include "eatrace/event.h"

static const char *const type_names[EA_EV_NR] = {
	[EA_EV_SWITCH] = "sched_switch",
	[EA_EV_WAKEUP] = "sched_wakeup",
	[EA_EV_WAKING] = "sched_waking",
	[EA_EV_WAKEUP_NEW] = "sched_wakeup_new",
	[EA_EV_MIGRATE] = "sched_migrate_task",
	[EA_EV_FREQ] = "cpu_frequency",
	[EA_EV_IDLE] = "cpu_idle",
	[EA_EV_LOST] = "lost_events",
	[EA_EV_UTIL_CFS] = "sched_load_cfs_rq",
	[EA_EV_UTIL_SE] = "sched_load_se",
	[EA_EV_MARKER] = "print",
	[EA_EV_SUSPEND] = "suspend_resume",
	[EA_EV_HOTPLUG] = "cpuhp",
};

const char *ea_event_type_name(enum ea_event_type type)
{
	if ((unsigned)type < EA_EV_NR)
		return type_names[type];
	return "?";
}

bool ea_suspend_action_keep(const char *action, size_t n)
{
	return n == 15 && !memcmp(action, "machine_suspend", 15);
}
