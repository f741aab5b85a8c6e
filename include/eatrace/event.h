/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The normalised event: what every trace reader produces, whatever the file
 * format. Only the events eatrace uses are represented; readers skip the rest.
 *
 * Times are nanoseconds on the trace's own clock. Text traces with
 * microsecond timestamps are scaled exactly (x1000), no floating point.
 */
#ifndef EATRACE_EVENT_H
#define EATRACE_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EA_COMM_LEN 16	/* TASK_COMM_LEN, including the NUL */
#define EA_MAX_CPUS 4096	/* larger CPU ids are refused as corrupt */
#define EA_IDLE_EXIT (-1)	/* cpu_idle state=4294967295 (PWR_EVENT_EXIT) */

enum ea_event_type {
	EA_EV_SWITCH,		/* sched_switch */
	EA_EV_WAKEUP,		/* sched_wakeup */
	EA_EV_WAKING,		/* sched_waking */
	EA_EV_WAKEUP_NEW,	/* sched_wakeup_new */
	EA_EV_MIGRATE,		/* sched_migrate_task */
	EA_EV_FREQ,		/* cpu_frequency */
	EA_EV_IDLE,		/* cpu_idle */
	EA_EV_LOST,		/* ring buffer overrun: events lost on ev.cpu */
	EA_EV_UTIL_CFS,		/* sched_load_cfs_rq (root rq only): kernel util */
	EA_EV_UTIL_SE,		/* sched_load_se (tasks only): kernel task util */
	EA_EV_MARKER,		/* trace_marker print: eatrace metadata lines */
	EA_EV_SUSPEND,		/* suspend_resume machine_suspend begin/end */
	EA_EV_HOTPLUG,		/* cpuhp_enter, cpuhp_multi_enter, cpuhp_exit */
	EA_EV_NR
};

/*
 * How a task left the CPU in sched_switch, decoded from the numeric
 * prev_state with the trace's own bit meanings (they changed in 4.8 and
 * 4.14): still runnable (preempted, "R"/"R+") or blocked (anything else).
 */
enum ea_prev_state {
	EA_PREV_RUNNABLE = 0,
	EA_PREV_BLOCKED = 1,
	EA_PREV_DEAD = 2,	/* X/x/Z: the task exited */
};

/* Not in the trace: inserted by the state stage to resynchronise a CPU. */
#define EA_EVF_SYNTH 0x1
/* Synthetic, with EA_EVF_SYNTH: the CPU's state is unknown from this event
 * until a record proves it (a lost switch-out; see docs/inference.md). */
#define EA_EVF_UNKNOWN 0x2
/*
 * Set by a reader: the record does not name its current task, the reader
 * derived it from the CPU's previous switch (cur_pid, and a switch's prev
 * task: Perfetto's compact_sched). Where a switch-in was lost the
 * derivation is wrong; the state stage weighs such records accordingly
 * (docs/inference.md "Contradictions").
 */
#define EA_EVF_DERIVED 0x4

struct ea_event {
	uint64_t ts;		/* ns */
	int32_t cpu;		/* CPU whose buffer holds the record */
	int32_t cur_pid;	/* common_pid: task current on cpu (-1 unknown) */
	uint8_t type;		/* enum ea_event_type */
	uint8_t flags;		/* EA_EVF_*: set by the state stage; readers
				   set EA_EVF_DERIVED only */
	union {
		struct {
			int32_t prev_pid, next_pid;
			int32_t prev_prio, next_prio;
			uint8_t prev_state;	/* enum ea_prev_state */
			char prev_comm[EA_COMM_LEN];
			char next_comm[EA_COMM_LEN];
		} sw;
		struct {		/* WAKEUP, WAKING, WAKEUP_NEW */
			int32_t pid;
			int32_t prio;
			int32_t target_cpu;	/* -1 when absent (old kernels) */
			char comm[EA_COMM_LEN];
		} wake;
		struct {
			int32_t pid;
			int32_t orig_cpu, dest_cpu;
			char comm[EA_COMM_LEN];
		} migrate;
		struct {
			uint32_t freq_khz;
			int32_t cpu;	/* cpu_id field: may differ from ev.cpu */
		} freq;
		struct {
			int32_t state;	/* cpuidle index, EA_IDLE_EXIT on exit */
			int32_t cpu;	/* cpu_id field */
		} idle;
		struct {
			uint64_t count;	/* 0 when the amount is unknown */
		} lost;
		struct {		/* UTIL_CFS (pid -1) and UTIL_SE */
			int32_t cpu;
			int32_t pid;
			uint32_t util;
		} util;
		struct {
			char text[64];	/* truncated marker text */
		} marker;
		/*
		 * suspend_resume: readers keep only the kernel's
		 * "machine_suspend" action (the window in which the machine
		 * is suspended, kernel/power/suspend.c suspend_enter()),
		 * ea_suspend_action_keep().
		 */
		struct {
			int32_t val;	/* the suspend state (3: mem) */
			uint8_t begin;	/* 1: begin, 0: end */
		} suspend;
		/* cpuhp_enter/_multi_enter (enter 1) and cpuhp_exit (enter 0):
		 * one step of CPU cpu's hotplug state machine, recorded on
		 * ev.cpu (the CPU itself, or the one that drives it). */
		struct {
			int32_t cpu;	/* the CPU brought up or taken down */
			int32_t target;	/* enter: target state; exit: -1 */
			int32_t step;	/* the step's state (idx) */
			uint8_t enter;
		} hotplug;
	};
};

const char *ea_event_type_name(enum ea_event_type type);
/* Whether a suspend_resume action (n bytes) is the one readers keep. */
bool ea_suspend_action_keep(const char *action, size_t n);

#endif
