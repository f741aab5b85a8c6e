/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Per-CPU and per-task state reconstructed from the event stream.
 *
 * The state stage consumes events in time order and tells its consumers
 * (statistics, the energy accountant, PELT) every change of a CPU's state:
 * "CPU c held OLD during [since, now) and now enters NEW". Changes are
 * delivered in non-decreasing `now` order across all CPUs, so a consumer that
 * needs several CPUs at once (a cluster) can integrate them incrementally.
 *
 * Memory does not grow with the trace: a bounded look-ahead window of events
 * (EA_LOOKAHEAD) is kept to infer each CPU's state before its first event and
 * to resynchronise a CPU whose switch-in was lost (see SPEC "Inputs"); a CPU
 * whose first record comes later is asked of the input (cfg.first_event).
 *
 * Inference rules (documented in docs/inference.md):
 *  - a CPU with cpu_idle events is idle between cpu_idle enter and exit;
 *    a CPU without them is idle while it runs pid 0, in cfg.swapper_idle_state;
 *  - before a CPU's first event its state is what that event implies;
 *    after its last event the state holds until the trace's end; both
 *    stretches are counted as inferred; where the first event does not
 *    prove it, the time is unknown (EA_INF_UNKNOWN);
 *  - a CPU whose frequency was never reported has freq_khz 0 (unknown): the
 *    accountant substitutes its assumed OPP;
 *  - cpu_frequency for one CPU applies to its whole frequency domain when a
 *    domain map is given;
 *  - a task switched in without a wakeup is woken at its switch-in;
 *  - after lost events a CPU keeps its last state, flagged unknown, until a
 *    record proves it;
 *  - a task seen switched in or woken for another CPU while the scanner
 *    believes it runs on c has left c: c runs an unknown task (pid -1,
 *    unknown time) from there to the next record on c;
 *  - the machine is suspended from suspend_resume machine_suspend begin to
 *    its end: every CPU is EA_CPU_SUSPENDED meanwhile;
 *  - a CPU is offline (EA_CPU_OFFLINE) from the first cpuhp event of its
 *    take-down recorded on another CPU after one recorded on itself, to
 *    the first cpuhp event of its bring-up recorded on itself (Wattson's
 *    rule, docs/inference.md "Suspend and CPU hotplug");
 *  - an event on CPU c whose current task (common_pid, or sched_switch's
 *    prev_pid) is not the task c was seen running is a contradiction: a
 *    switch to that task is inserted at its latest wakeup on c after the
 *    previous switch, else at that event, and counted.
 */
#ifndef EATRACE_STATE_H
#define EATRACE_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eatrace/error.h"
#include "eatrace/event.h"

#define EA_LOOKAHEAD 32768	/* events held back for look-ahead inference */
#define EA_IDLE_NONE (-1)

enum ea_cpu_mode {
	EA_CPU_BUSY = 0,
	EA_CPU_IDLE = 1,
	/* The machine is suspended (suspend_resume machine_suspend begin to
	 * end): every CPU, whatever it was doing, priced at the model's
	 * suspend power; pid 0, no frequency, no idle state. */
	EA_CPU_SUSPENDED = 2,
	/* Taken offline by CPU hotplug (cpuhp events), or absent from the
	 * whole trace with cfg.absent_offline: priced at its cluster's
	 * offline power; pid 0, no frequency, no idle state. */
	EA_CPU_OFFLINE = 3,
};

/* Why a stretch of CPU time is inferred rather than recorded (bit mask). */
enum ea_inferred {
	EA_INF_START = 1 << 0,	/* before the CPU's first event */
	EA_INF_SWAPPER = 1 << 1,	/* idle taken from pid 0 time: no cpu_idle */
	EA_INF_LOST = 1 << 2,	/* after lost events, until an event fixes it */
	EA_INF_RESYNC = 1 << 3,	/* after a contradiction, until the next switch */
	/*
	 * Unknown time: what the CPU did is not known, only priced by a rule
	 * (docs/inference.md "Unknown time"): before a first record that
	 * does not prove the state before it, an idle state before a first
	 * cpu_idle exit, after lost events until a record proves the state,
	 * from the last sign of a task whose switch-out was lost to the next
	 * evidence. Stats and report count it apart from busy and idle.
	 */
	EA_INF_UNKNOWN = 1 << 4,
};

struct ea_cpu_state {
	uint8_t mode;		/* enum ea_cpu_mode */
	uint8_t inferred;	/* enum ea_inferred bits */
	int16_t idle_state;	/* cpuidle index when idle */
	int32_t pid;		/* task running when busy (0: idle task outside
				   cpuidle, -1: unknown) */
	uint32_t freq_khz;	/* 0: never reported */
};

/* A PELT signal (kernel struct sched_avg, util part only). */
struct ea_pelt {
	uint64_t last_ns;	/* time of the last update */
	uint64_t util_sum;	/* running contributions x capacity */
	uint32_t period_contrib;	/* us of the current period summed */
	uint32_t util_avg;	/* 0..1024 */
	bool started;
};

enum ea_task_run {
	EA_TASK_UNKNOWN,	/* not seen since the trace started */
	EA_TASK_SLEEPING,
	EA_TASK_RUNNABLE,	/* woken or preempted, waiting for a CPU */
	EA_TASK_RUNNING,
	EA_TASK_DEAD,
};

struct ea_task {
	int32_t pid;
	char comm[EA_COMM_LEN];
	uint8_t run;		/* enum ea_task_run */
	int32_t cpu;		/* last CPU it ran on, -1 if none */
	uint64_t since;		/* ns: when `run` was entered */
	uint64_t woken_at;	/* ns: last wakeup (waking, wakeup or inferred) */
	int32_t woken_cpu;	/* target CPU of that wakeup, -1 unknown */
	/* Totals within the window: */
	uint64_t runtime_ns;	/* busy time its CPUs were charged to it */
	uint64_t wait_ns;	/* runnable but not running */
	uint64_t activations;	/* sleep -> run cycles */
	uint64_t wakeups;	/* wakeups recorded (sched_waking/wakeup/new) */
	uint64_t wakeups_inferred;	/* switch-ins without a recorded wakeup */
	uint64_t migrations;	/* switch-ins on another CPU than the last */
	uint64_t preemptions;
	int32_t prio;		/* last seen; < 100 is RT */
	struct ea_pelt pelt;	/* reconstructed util (state/pelt.c) */
	int32_t pelt_cpu;	/* CPU whose util holds the task's, -1 none */
	int32_t fork_parent;	/* task current where it first appeared, when
				   its pid was the highest yet (0: none) */
	bool pelt_new;		/* sched_wakeup_new: a new task */
	bool pelt_seeded;	/* its first switch-in has been seen */
	void *user;		/* for consumers (e.g. the accountant) */
};

struct ea_state;

struct ea_state_ops {
	/*
	 * CPU `cpu` held *old during [since, now) and enters *new at now.
	 * new == NULL: the trace ended at now (final close of every CPU).
	 * The times are NOT clipped to the window; use ea_state_clip().
	 * ea_state_cpu(s, cpu) still returns *old during the call.
	 */
	void (*cpu_change)(void *ctx, const struct ea_state *s, int cpu,
			   uint64_t since, uint64_t now,
			   const struct ea_cpu_state *old,
			   const struct ea_cpu_state *new);
	/*
	 * Optional, for the bulk of most traces: a task switch on a busy
	 * CPU, the change cpu_change() would get with *old busy with nothing
	 * inferred (mode EA_CPU_BUSY, inferred 0) and *new the same but for
	 * its task, pid. It does what cpu_change(ctx, s, cpu, since, now,
	 * old, new) would; ea_state_cpu(s, cpu) is still *old during the
	 * call. NULL: cpu_change() gets these changes too.
	 */
	void (*task_switch)(void *ctx, const struct ea_state *s, int cpu,
			    uint64_t since, uint64_t now, int32_t pid);
	/* Every event as it is applied (after look-ahead), for consumers that
	 * want wakeups, migrations, kernel util ... May be NULL. */
	void (*event)(void *ctx, const struct ea_state *s,
		      const struct ea_event *ev);
	/* The event types event() is for, as bits (1u << type); 0: all. */
	uint32_t event_types;
};

struct ea_state_config {
	uint64_t win_start, win_end;	/* ns, absolute trace time; 0,0 = all */
	bool win_relative;		/* window given relative to trace start */
	int swapper_idle_state;		/* idle state for pid-0 time, default 0 */
	/* Idle state priced for idle time whose state is unknown (before a
	 * CPU's first cpu_idle exit, a CPU with no record): default 0. */
	int unknown_idle_state;
	/*
	 * The first event of a CPU the look-ahead did not see, wherever it
	 * is in the trace (ea_input_first_event()): 1 with *ev, 0 none,
	 * -1 error (then treated as none). NULL: such a CPU's state before
	 * its first event is unknown.
	 */
	int (*first_event)(void *ctx, int cpu, struct ea_event *ev,
			   bool *lost_before);
	void *first_ctx;
	int ncpus;			/* -1: from the trace */
	/* Frequency domains: domain[cpu] = id, CPUs sharing an id share
	 * frequency. NULL: every CPU alone. */
	const int *freq_domain;
	int nfreq_domain;
	/* CPU capacity at each frequency for PELT invariance; NULL: scale by
	 * freq / highest freq seen on that CPU (1024 when unknown). A pure
	 * function of (cpu, freq_khz): the state stage remembers its last
	 * answer per CPU. */
	uint32_t (*capacity)(void *cap_ctx, int cpu, uint32_t freq_khz);
	void *cap_ctx;
	/*
	 * Events held back once the state has started: 0 (or more than
	 * EA_LOOKAHEAD) means EA_LOOKAHEAD. The start (every CPU's state
	 * before its first event) is always inferred over the first
	 * EA_LOOKAHEAD events, whatever this is; after it, the look-ahead
	 * only matters when the input contradicts itself (an event whose
	 * current task is not the one its CPU was switched to): a synthetic
	 * switch is never placed before the oldest event still held back,
	 * and a CPU the state meets after the start is initialised from what
	 * the scanner has seen by then. A caller whose events are consistent
	 * and whose CPUs are all known at the start (a simulator with
	 * cfg.ncpus set) can set 1: the results are the same, without the
	 * ring's copies.
	 */
	unsigned lookahead;
	/*
	 * The caller reads no utilisation from the state: no PELT signals
	 * (ea_pelt, ea_state_cpu_util*() give 0) nor util statistics. The
	 * CPU states, tasks and everything else are the same.
	 */
	bool no_util;
	/*
	 * For ea_run() (include/eatrace/pipeline.h): no_util unless the
	 * input may hold the kernel's own util (sched_load_cfs_rq events in
	 * its formats). For a caller whose only use of the reconstructed
	 * util is checking it against the kernel's (a report's notes): PELT
	 * costs about 8 % of a report's instructions.
	 */
	bool util_if_kernel_util;
	/*
	 * With no_util, the caller reads no tasks either: none is kept
	 * (ea_state_ntasks() gives 0) and counts.wakeups_inferred stays 0.
	 * The CPU states and the other counts are the same. Ignored without
	 * no_util.
	 */
	bool no_tasks;
	/* A CPU with no event at all in the whole trace is offline
	 * (EA_CPU_OFFLINE) rather than unknown idle (--absent-offline). */
	bool absent_offline;
};

/* Counters of everything the state stage inferred or corrected. */
struct ea_state_counts {
	uint64_t events;		/* events applied */
	uint64_t by_type[EA_EV_NR];
	uint64_t resyncs;		/* contradictions resynchronised */
	uint64_t resync_from_wakeup;	/* ...placed at the task's wakeup */
	uint64_t resync_after_prev;	/* ...moved later, past the previous
					   task's last record there */
	uint64_t resync_proven;		/* ...whose time is proven the
					   task's: busy, not unknown */
	uint64_t prev_from_waking;	/* switches whose prev a reader
					   derived as the idle task (compact
					   _sched) but which slept: the task
					   woken onto the CPU ran */
	uint64_t prev_from_scanner;	/* ... whose derived prev was not the
					   task a record had shown running */
	uint64_t curr_from_record;	/* a record changed a CPU's current
					   task (after lost events, an
					   unknown task) */
	uint64_t records_overruled;	/* a record named another current
					   task than a resync had placed, or
					   a reader had derived it: ignored */
	uint64_t lost_events;		/* sum of lost counts (0: unknown) */
	uint64_t lost_markers;		/* lost-events records */
	uint64_t wakeups_inferred;	/* switch-ins with no wakeup */
	uint64_t start_guessed;		/* CPUs with no event at all: their
					   state is unknown throughout */
	uint64_t start_far;		/* CPUs whose first event came after
					   the look-ahead (read ahead for) */
	uint64_t tasks_left;		/* a task shown to have left a CPU
					   whose switch-out was lost */
	uint64_t unknown_unplaced_ns;	/* time from tasks' last records to
					   the proof their switch-out was
					   lost, past the start: priced as
					   theirs, not counted unknown */
	uint64_t idle_exit_unmatched;	/* cpu_idle exit while not idle */
	uint64_t idle_enter_nested;	/* cpu_idle enter while already idle */
	uint64_t freq_propagated;	/* domain CPUs set by another's event */
	uint64_t suspends;		/* machine_suspend begins */
	uint64_t suspend_unmatched;	/* a begin while suspended, an end
					   while not */
	uint64_t cpus_offlined;		/* CPUs taken offline (cpuhp) */
	uint64_t cpus_onlined;		/* CPUs brought back online */
	uint64_t absent_offline;	/* CPUs with no event priced offline
					   (cfg.absent_offline) */
};

int ea_state_new(struct ea_state **s, const struct ea_state_config *cfg,
		 const struct ea_state_ops *ops, void *ctx);
/* Feed events in time order. Returns 0 or -1 with err. */
int ea_state_feed(struct ea_state *s, const struct ea_event *ev,
		  struct ea_err *err);
/* End of trace: drain the look-ahead, close every CPU at the last event. */
int ea_state_finish(struct ea_state *s, struct ea_err *err);
void ea_state_free(struct ea_state *s);

int ea_state_ncpus(const struct ea_state *s);
const struct ea_cpu_state *ea_state_cpu(const struct ea_state *s, int cpu);
/* Whether CPU cpu reports cpu_idle (else idle is inferred from pid 0). */
bool ea_state_cpu_has_cpuidle(const struct ea_state *s, int cpu);
uint64_t ea_state_cpu_first_ts(const struct ea_state *s, int cpu);
uint64_t ea_state_cpu_last_ts(const struct ea_state *s, int cpu);
/* First and last event of the whole trace (ns). */
uint64_t ea_state_first_ts(const struct ea_state *s);
uint64_t ea_state_last_ts(const struct ea_state *s);
/* Analysis window, absolute ns, resolved once the first event is known. */
void ea_state_window(const struct ea_state *s, uint64_t *start, uint64_t *end);
/* Clip [*t0, *t1) to the window; returns the remaining length in ns. */
uint64_t ea_state_clip(const struct ea_state *s, uint64_t *t0, uint64_t *t1);
/* The bounds ea_state_clip() and ea_state_in_window() use (end UINT64_MAX
 * for an open window): fixed from the first change on, so a consumer can
 * keep them and clip inline. */
void ea_state_clip_bounds(const struct ea_state *s, uint64_t *start,
			  uint64_t *end);
/* Clip [*t0, *t1) to [start, end) (bounds from ea_state_clip_bounds());
 * returns the remaining length in ns. */
static inline uint64_t ea_clip_to(uint64_t start, uint64_t end, uint64_t *t0,
				  uint64_t *t1)
{
	if (*t0 < start)
		*t0 = start;
	if (*t1 > end)
		*t1 = end;
	return *t1 > *t0 ? *t1 - *t0 : 0;
}

bool ea_state_in_window(const struct ea_state *s, uint64_t t);
const struct ea_state_counts *ea_state_counts(const struct ea_state *s);
/* The configuration the state runs with. */
const struct ea_state_config *ea_state_config(const struct ea_state *s);

/* Tasks seen, in pid order of first appearance; NULL past the end. */
struct ea_task *ea_state_task_at(const struct ea_state *s, size_t i);
size_t ea_state_ntasks(const struct ea_state *s);
struct ea_task *ea_state_task(const struct ea_state *s, int32_t pid);

/* Per-CPU reconstructed PELT util (state/pelt.c): now, and its
 * time-weighted mean and maximum within the window. */
uint32_t ea_state_cpu_util(const struct ea_state *s, int cpu);
/* Reconstructed util of cpu at time now (>= its last change). */
uint32_t ea_state_cpu_util_at(const struct ea_state *s, int cpu, uint64_t now);
void ea_state_cpu_util_stats(const struct ea_state *s, int cpu, double *mean,
			     uint32_t *max);

#endif
