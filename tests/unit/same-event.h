/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Two decoded events equal in the fields a reader sets for the event's
 * type (the rest is left as it was), field by field: the structs' padding
 * (after sw.prev_state, at their ends) holds whatever the memory held, and
 * differs between reads. For the reader tests that compare two ways of
 * reading one file (test-dat-par.c, test-dat-run.c).
 */
#ifndef EATRACE_TESTS_SAME_EVENT_H
#define EATRACE_TESTS_SAME_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "eatrace/event.h"

#define SAME_COMM(x, y) (!strncmp((x), (y), sizeof(x)))

static bool same_event(const struct ea_event *a, const struct ea_event *b)
{
	if (a->ts != b->ts || a->cpu != b->cpu || a->cur_pid != b->cur_pid ||
	    a->type != b->type || a->flags != b->flags)
		return false;
	switch (a->type) {
	case EA_EV_SWITCH:
		return a->sw.prev_pid == b->sw.prev_pid &&
		       a->sw.next_pid == b->sw.next_pid &&
		       a->sw.prev_prio == b->sw.prev_prio &&
		       a->sw.next_prio == b->sw.next_prio &&
		       a->sw.prev_state == b->sw.prev_state &&
		       SAME_COMM(a->sw.prev_comm, b->sw.prev_comm) &&
		       SAME_COMM(a->sw.next_comm, b->sw.next_comm);
	case EA_EV_WAKEUP:
	case EA_EV_WAKING:
	case EA_EV_WAKEUP_NEW:
		return a->wake.pid == b->wake.pid &&
		       a->wake.prio == b->wake.prio &&
		       a->wake.target_cpu == b->wake.target_cpu &&
		       SAME_COMM(a->wake.comm, b->wake.comm);
	case EA_EV_MIGRATE:
		return a->migrate.pid == b->migrate.pid &&
		       a->migrate.orig_cpu == b->migrate.orig_cpu &&
		       a->migrate.dest_cpu == b->migrate.dest_cpu &&
		       SAME_COMM(a->migrate.comm, b->migrate.comm);
	case EA_EV_FREQ:
		return !memcmp(&a->freq, &b->freq, sizeof(a->freq));
	case EA_EV_IDLE:
		return !memcmp(&a->idle, &b->idle, sizeof(a->idle));
	case EA_EV_LOST:
		return a->lost.count == b->lost.count;
	case EA_EV_UTIL_CFS:
	case EA_EV_UTIL_SE:
		return !memcmp(&a->util, &b->util, sizeof(a->util));
	case EA_EV_MARKER:
		return !strcmp(a->marker.text, b->marker.text);
	case EA_EV_SUSPEND:
		return a->suspend.val == b->suspend.val &&
		       a->suspend.begin == b->suspend.begin;
	case EA_EV_HOTPLUG:
		return !memcmp(&a->hotplug, &b->hotplug,
			       offsetof(struct ea_event, hotplug.enter) -
				       offsetof(struct ea_event, hotplug) + 1);
	default:
		return false;
	}
}

#endif
