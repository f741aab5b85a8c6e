// SPDX-License-Identifier: GPL-2.0-only
/*
 * What is wrong with an event ea_event_ok() refused (event-check.h): the
 * message, out of the readers' hot path.
 */
#include <stdio.h>

#include "input/event-check.h"

static void bad_cpu(long long cpu, int ncpus, char *cause, size_t n)
{
	long long lim = ncpus > 0 ? ncpus : EA_MAX_CPUS;

	snprintf(cause, n, "CPU %lld out of range (%s %lld)", cpu,
		 ncpus > 0 ? "trace has CPUs 0 to" : "max", lim - 1);
}

void ea_event_cause(const struct ea_event *ev, int ncpus, uint64_t last_ts,
		    char *cause, size_t n)
{
	snprintf(cause, n, "implausible event");
	if (!ea_event_cpu_ok(ncpus, ev->cpu)) {
		bad_cpu(ev->cpu, ncpus, cause, n);
		return;
	}
	if (ev->ts < last_ts) {
		snprintf(cause, n,
			 "timestamp %llu ns goes backwards (previous %llu ns)",
			 (unsigned long long)ev->ts,
			 (unsigned long long)last_ts);
		return;
	}
	switch (ev->type) {
	case EA_EV_FREQ:
		if (!ea_event_cpu_ok(ncpus, ev->freq.cpu))
			bad_cpu(ev->freq.cpu, ncpus, cause, n);
		else if (ev->freq.freq_khz == 0 ||
			 ev->freq.freq_khz > EA_MAX_FREQ_KHZ)
			snprintf(
				cause, n,
				"cpu_frequency state=%u kHz is not a plausible "
				"frequency",
				ev->freq.freq_khz);
		break;
	case EA_EV_IDLE:
		if (!ea_event_cpu_ok(ncpus, ev->idle.cpu))
			bad_cpu(ev->idle.cpu, ncpus, cause, n);
		else if (ev->idle.state != EA_IDLE_EXIT &&
			 (ev->idle.state < 0 ||
			  ev->idle.state > EA_MAX_IDLE_STATE))
			snprintf(cause, n,
				 "cpu_idle state=%d is not an idle state index "
				 "(max %d)",
				 ev->idle.state, EA_MAX_IDLE_STATE);
		break;
	case EA_EV_WAKEUP:
	case EA_EV_WAKING:
	case EA_EV_WAKEUP_NEW:
		bad_cpu(ev->wake.target_cpu, ncpus, cause, n);
		break;
	case EA_EV_MIGRATE:
		if (!ea_event_cpu_ok(ncpus, ev->migrate.orig_cpu))
			bad_cpu(ev->migrate.orig_cpu, ncpus, cause, n);
		else
			bad_cpu(ev->migrate.dest_cpu, ncpus, cause, n);
		break;
	case EA_EV_HOTPLUG:
		bad_cpu(ev->hotplug.cpu, ncpus, cause, n);
		break;
	case EA_EV_SWITCH:
		snprintf(cause, n,
			 "sched_switch with negative pid (prev_pid=%d "
			 "next_pid=%d)",
			 ev->sw.prev_pid, ev->sw.next_pid);
		break;
	default:
		break;
	}
}
