/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The checks every reader's events get (event-check.c): CPU ids in range,
 * timestamps never going backwards, values that are physically possible.
 * input.c applies them to each event ea_input_next() returns; a reader
 * that decodes on a thread of its own (dat-read.c) may apply them there
 * instead, off the thread that runs the pipeline, and say so
 * (ea_reader_ops.checked): the same checks, in the same order, with the
 * same messages.
 */
#ifndef EATRACE_INPUT_EVENT_CHECK_H
#define EATRACE_INPUT_EVENT_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eatrace/event.h"

#define EA_MAX_FREQ_KHZ 100000000u /* 100 GHz: anything above is corrupt */
#define EA_MAX_IDLE_STATE 63

/* A CPU id of a trace with ncpus CPUs (<= 0: unknown, EA_MAX_CPUS). */
static inline bool ea_event_cpu_ok(int ncpus, long long cpu)
{
	if (cpu < 0 || cpu >= EA_MAX_CPUS)
		return false;
	return ncpus <= 0 || cpu < ncpus;
}

/* Whether ev passes the checks after an event at last_ts (inline: every
 * event takes it). */
static inline bool ea_event_ok(const struct ea_event *ev, int ncpus,
			       uint64_t last_ts)
{
	if (!ea_event_cpu_ok(ncpus, ev->cpu) || ev->ts < last_ts)
		return false;
	switch (ev->type) {
	case EA_EV_FREQ:
		return ea_event_cpu_ok(ncpus, ev->freq.cpu) &&
		       ev->freq.freq_khz != 0 &&
		       ev->freq.freq_khz <= EA_MAX_FREQ_KHZ;
	case EA_EV_IDLE:
		return ea_event_cpu_ok(ncpus, ev->idle.cpu) &&
		       (ev->idle.state == EA_IDLE_EXIT ||
			(ev->idle.state >= 0 &&
			 ev->idle.state <= EA_MAX_IDLE_STATE));
	case EA_EV_WAKEUP:
	case EA_EV_WAKING:
	case EA_EV_WAKEUP_NEW:
		return ev->wake.target_cpu == -1 ||
		       ea_event_cpu_ok(ncpus, ev->wake.target_cpu);
	case EA_EV_MIGRATE:
		return ea_event_cpu_ok(ncpus, ev->migrate.orig_cpu) &&
		       ea_event_cpu_ok(ncpus, ev->migrate.dest_cpu);
	case EA_EV_HOTPLUG:
		return ea_event_cpu_ok(ncpus, ev->hotplug.cpu);
	case EA_EV_SWITCH:
		return ev->sw.prev_pid >= 0 && ev->sw.next_pid >= 0;
	default:
		return true;
	}
}

/*
 * Why ev fails the checks (the first that fails, as ea_event_ok() tests
 * them) into cause (n bytes): "timestamp N ns goes backwards (...)".
 * Only for an event ea_event_ok() refused.
 */
void ea_event_cause(const struct ea_event *ev, int ncpus, uint64_t last_ts,
		    char *cause, size_t n);

#endif
