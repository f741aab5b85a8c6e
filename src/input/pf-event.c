// SPDX-License-Identifier: GPL-2.0-only
/*
 * An FtraceEvent's payload (sched_switch, the wakeups, sched_migrate_task,
 * cpu_frequency, cpu_idle, suspend_resume, cpuhp_*, print) into an
 * ea_event (pf-events.h; fields as ftrace_event.proto and its includes
 * number them). Events eatrace's model has no place for are skipped.
 */
#include <string.h>

#include "input/pf-events.h"
#include "input/reader.h"

/*
 * A string field's bytes into comm (EA_COMM_LEN, NUL-terminated, cut),
 * as pb_str() but inline: comms are short.
 */
static inline void comm_copy(char *comm, const uint8_t *p, size_t len,
			     const uint8_t *end)
{
	size_t i;

	if (len > EA_COMM_LEN - 1)
		len = EA_COMM_LEN - 1;
	if (end - p >= EA_COMM_LEN) {
		/* whole: two word moves (bytes past len are inside the
		 * message, and cut by the NUL) */
		memcpy(comm, p, EA_COMM_LEN);
		comm[len] = '\0';
		return;
	}
	/* the len bytes only (those after stay as they were), in two
	 * overlapping moves from 4 bytes: a loop costs 4 instructions a byte */
	if (len >= 8) {
		uint64_t head, tail;

		memcpy(&head, p, 8);
		memcpy(&tail, p + len - 8, 8);
		memcpy(comm, &head, 8);
		memcpy(comm + len - 8, &tail, 8);
	} else if (len >= 4) {
		uint32_t head, tail;

		memcpy(&head, p, 4);
		memcpy(&tail, p + len - 4, 4);
		memcpy(comm, &head, 4);
		memcpy(comm + len - 4, &tail, 4);
	} else {
		for (i = 0; i < len; i++)
			comm[i] = (char)p[i];
	}
	comm[len] = '\0';
}

/*
 * comm 1, pid 2, prio 3, target 5 (sched_wakeup*, sched_migrate_task's
 * comm, pid, prio, dest_cpu). One-byte tags of varints and short strings
 * are read without pb_next(): these are most of a trace's fields.
 */
static int task_fields(struct pb_buf b, char *comm, int32_t *pid, int32_t *prio,
		       int32_t *target)
{
	struct pb_field f = {0};
	uint64_t v;
	int rc;

	/*
	 * The fields in the order serialisers write them (comm, pid, prio,
	 * success, target_cpu), each as the loop below would take it, one
	 * test each; the loop then takes whatever follows.
	 */
	if (b.end - b.p >= 2 && b.p[0] == 0x0a && b.p[1] < 0x80 &&
	    b.p[1] <= b.end - b.p - 2) {
		comm_copy(comm, b.p + 2, b.p[1], b.end);
		b.p += 2 + b.p[1];
	}
	if (b.p < b.end && *b.p == 0x10) {
		b.p++;
		if (pb_varint(&b, &v) != PB_OK)
			return PB_ERR;
		*pid = pb_i32(v);
	}
	if (b.p < b.end && *b.p == 0x18) {
		b.p++;
		if (pb_varint(&b, &v) != PB_OK)
			return PB_ERR;
		*prio = pb_i32(v);
	}
	if (b.p < b.end && *b.p == 0x20) {	/* success: not used */
		b.p++;
		if (pb_varint(&b, &v) != PB_OK)
			return PB_ERR;
	}
	if (b.p < b.end && *b.p == 0x28) {
		b.p++;
		if (pb_varint(&b, &v) != PB_OK)
			return PB_ERR;
		*target = pb_i32(v);
	}
	while (b.p < b.end) {
		uint8_t t = *b.p;

		if (t == 0x0a && b.end - b.p >= 2 && b.p[1] < 0x80 &&
		    b.p[1] <= b.end - b.p - 2) {
			comm_copy(comm, b.p + 2, b.p[1], b.end);
			b.p += 2 + b.p[1];
			continue;
		}
		if (t >= 0x08 && t < 0x80 && !(t & 7)) {
			b.p++;
			if (pb_varint(&b, &v) != PB_OK)
				return PB_ERR;
			f.num = t >> 3;
			f.wire = PB_VARINT;
			f.v = v;
		} else {
			rc = pb_next(&b, &f);
			if (rc != PB_OK)
				return rc;
		}
		switch (f.num) {
		case 1:
			if (f.wire == PB_LEN)
				pb_str(&f.sub, comm, EA_COMM_LEN);
			break;
		case 2:
			*pid = pb_i32(f.v);
			break;
		case 3:
			*prio = pb_i32(f.v);
			break;
		case 5:
			*target = pb_i32(f.v);
			break;
		default:
			break;
		}
	}
	return PB_END;
}

int pf_event_payload(uint32_t num, struct pb_buf b, struct ea_event *ev)
{
	struct pb_field f = {0};
	int rc = PB_END;

	/* a malformed payload is an error, whatever was read before it */
	switch (num) {
	case FE_SWITCH:
		ev->type = EA_EV_SWITCH;
		memset(&ev->sw, 0, sizeof(ev->sw));
		while ((rc = pb_next(&b, &f)) == PB_OK) {
			switch (f.num) {
			case 1:
				if (f.wire == PB_LEN)
					pb_str(&f.sub, ev->sw.prev_comm,
					       EA_COMM_LEN);
				break;
			case 2:
				ev->sw.prev_pid = pb_i32(f.v);
				break;
			case 3:
				ev->sw.prev_prio = pb_i32(f.v);
				break;
			case 4:
				ev->sw.prev_state = pf_prev_state(f.v);
				break;
			case 5:
				if (f.wire == PB_LEN)
					pb_str(&f.sub, ev->sw.next_comm,
					       EA_COMM_LEN);
				break;
			case 6:
				ev->sw.next_pid = pb_i32(f.v);
				break;
			case 7:
				ev->sw.next_prio = pb_i32(f.v);
				break;
			default:
				break;
			}
		}
		return rc == PB_ERR ? -1 : 1;
	case FE_WAKEUP:
	case FE_WAKING:
	case FE_WAKEUP_NEW:
		ev->type = num == FE_WAKEUP   ? EA_EV_WAKEUP
			   : num == FE_WAKING ? EA_EV_WAKING
					      : EA_EV_WAKEUP_NEW;
		ev->wake.comm[0] = '\0';
		ev->wake.pid = 0;
		ev->wake.prio = -1;
		ev->wake.target_cpu = -1;
		rc = task_fields(b, ev->wake.comm, &ev->wake.pid,
				 &ev->wake.prio, &ev->wake.target_cpu);
		return rc == PB_ERR ? -1 : 1;
	case FE_MIGRATE: {
		int32_t prio = -1, orig = 0;

		ev->type = EA_EV_MIGRATE;
		ev->migrate.comm[0] = '\0';
		ev->migrate.pid = 0;
		ev->migrate.dest_cpu = 0;
		/* comm 1, pid 2, prio 3, orig_cpu 4, dest_cpu 5 */
		if (task_fields(b, ev->migrate.comm, &ev->migrate.pid, &prio,
				&ev->migrate.dest_cpu) == PB_ERR)
			return -1;
		while (pb_next(&b, &f) == PB_OK)
			if (f.num == 4)
				orig = pb_i32(f.v);
		ev->migrate.orig_cpu = orig;
		return 1;
	}
	case FE_FREQ:
	case FE_IDLE: {
		uint32_t state = 0;
		int32_t cpu = 0;

		while ((rc = pb_next(&b, &f)) == PB_OK) {
			if (f.num == 1)
				state = (uint32_t)f.v;
			else if (f.num == 2)
				cpu = pb_i32(f.v);
		}
		if (rc == PB_ERR)
			return -1;
		if (num == FE_FREQ) {
			ev->type = EA_EV_FREQ;
			ev->freq.freq_khz = state;
			ev->freq.cpu = cpu;
		} else {
			ev->type = EA_EV_IDLE;
			/* 4294967295 (PWR_EVENT_EXIT) becomes EA_IDLE_EXIT */
			ev->idle.state = (int32_t)state;
			ev->idle.cpu = cpu;
		}
		return 1;
	}
	case FE_SUSPEND: {
		/* action 1, val 2, start 3 (power.proto) */
		bool keep = false;

		ev->suspend.val = 0;
		ev->suspend.begin = 0;
		while ((rc = pb_next(&b, &f)) == PB_OK) {
			if (f.num == 1 && f.wire == PB_LEN)
				keep = ea_suspend_action_keep(
					(const char *)f.sub.p,
					(size_t)(f.sub.end - f.sub.p));
			else if (f.num == 2)
				ev->suspend.val = pb_i32(f.v);
			else if (f.num == 3)
				ev->suspend.begin = f.v != 0;
		}
		if (rc == PB_ERR)
			return -1;
		ev->type = EA_EV_SUSPEND;
		return keep;
	}
	case FE_CPUHP_ENTER:
	case FE_CPUHP_MULTI_ENTER:
	case FE_CPUHP_EXIT:
		/* cpu 1 and idx (the step) 2 or 3, target 4 (cpuhp.proto) */
		ev->type = EA_EV_HOTPLUG;
		ev->hotplug.cpu = 0;
		ev->hotplug.step = 0;
		ev->hotplug.enter = num != FE_CPUHP_EXIT;
		ev->hotplug.target = -1;
		while ((rc = pb_next(&b, &f)) == PB_OK) {
			if (f.num == 1)
				ev->hotplug.cpu = pb_i32(f.v);
			else if (f.num == (num == FE_CPUHP_EXIT ? 2u : 3u))
				ev->hotplug.step = pb_i32(f.v);
			else if (f.num == 4 && num != FE_CPUHP_EXIT)
				ev->hotplug.target = pb_i32(f.v);
		}
		return rc == PB_ERR ? -1 : 1;
	case FE_PRINT: {
		char *t = ev->marker.text;

		t[0] = '\0';
		while ((rc = pb_next(&b, &f)) == PB_OK)
			if (f.num == 2 && f.wire == PB_LEN)
				pb_str(&f.sub, t, sizeof(ev->marker.text));
		if (rc == PB_ERR)
			return -1;
		if (!ea_marker_keep(t))
			return 0;
		ev->type = EA_EV_MARKER;
		return 1;
	}
	default:
		return 0;
	}
}
