/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The energy accountant: prices the state stage's CPU timeline with a model
 * (SPEC "Energy model"), incrementally, as changes arrive.
 *
 * Exactness: powers are quantised to 1e-9 power_unit and times are integer
 * nanoseconds, so every piece of energy is an exact integer in 1e-18
 * power_unit x s (ea_energy_t). Each piece is added to the total and to
 * every breakdown (CPU, cluster, P-state, C-state, task, time window), so each
 * breakdown sums to the total exactly. Cluster energy shared between CPUs or
 * tasks is split in integers, remainders to the lowest CPU ids.
 *
 * Attribution rule (per task): a running task pays its CPU's busy core
 * energy and an equal share of its cluster's busy energy with the other busy
 * CPUs of the cluster; the first task to run on a CPU after it leaves idle
 * pays that wakeup (core, and cluster if the cluster was idle); a CPU that
 * goes back to idle without running a task charges it to the idle task. Idle energy, core and cluster, goes to the
 * idle task (pid 0, "[idle]"); busy time with no known task to pid -1;
 * suspended energy to "[suspended]" (pid -2), offline energy to
 * "[offline]" (pid -3).
 */
#ifndef EATRACE_ENERGY_H
#define EATRACE_ENERGY_H

#include <stdbool.h>
#include <stdint.h>

#include "eatrace/filter.h"
#include "eatrace/model.h"
#include "eatrace/state.h"

typedef __int128 ea_energy_t;		/* 1e-18 power_unit x s */
#define EA_ENERGY_PER_UNIT 1000000000000000000LL	/* per power_unit x s */
#define EA_POWER_QUANTUM 1000000000LL	/* power quantised to 1/this */
#define EA_MAX_WINDOWS (1 << 20)	/* --interval windows over one trace */

struct ea_energy {
	ea_energy_t core_busy, cluster_busy;
	ea_energy_t core_idle, cluster_idle;
	ea_energy_t core_wakeup, cluster_wakeup;
	/* the model's suspend_power while the system is suspended (shared
	 * equally by the CPUs), its CPUs' offline_power while offline */
	ea_energy_t suspended, offline;
};

struct ea_pstate_acct {
	uint64_t ns;		/* time at this cap state */
	ea_energy_t energy;
};

struct ea_cstate_acct {
	uint64_t ns;
	uint64_t entries;	/* entries (CPU) / cluster-idle entries */
	uint64_t wakeups;	/* exits that cost wakeup energy */
	ea_energy_t energy;	/* idle power + wakeups of this state */
};

struct ea_cpu_acct {
	struct ea_energy e;
	/* busy + idle + unknown + suspended + offline = the window
	 * (unknown: EA_INF_UNKNOWN) */
	uint64_t busy_ns, idle_ns, inferred_ns;
	uint64_t suspended_ns, offline_ns;	/* EA_CPU_SUSPENDED, _OFFLINE */
	uint64_t unknown_ns, unknown_idle_ns;	/* ... of which priced idle */
	ea_energy_t unknown_energy;	/* core and cluster share of it */
	uint64_t wakeups;		/* idle exits in the window */
	uint64_t assumed_freq_ns;	/* busy with no frequency reported */
	uint64_t unmodelled_freq_ns;	/* busy at a frequency the model lacks */
	uint64_t idle_clamped_ns;	/* idle in a state the model lacks */
	/* the energy of those three, core and cluster share, as
	 * unknown_energy: what rests on each assumption (the notes) */
	ea_energy_t assumed_freq_energy, unmodelled_freq_energy;
	ea_energy_t idle_clamped_energy;
	uint64_t work;		/* busy ns x capacity at the OPP (1024 = the
				   biggest CPU at its top OPP for 1 ns) */
	struct ea_pstate_acct *pstates;	/* per cap state of its cluster */
	struct ea_cstate_acct *cstates;	/* per idle state of its cluster */
	/* private: wakeup energy not yet charged to a task (the CPU left
	 * idle into the idle task; the next task to run pays) */
	ea_energy_t pending_core_wakeup, pending_cluster_wakeup;
	int32_t last_pid;	/* tasks[last_task - 1] is its last payer */
	int32_t last_task;	/* 0: none yet */
	/* private, cfg.task_only: the wakeup pending above, priced once its
	 * payer is known (C-states of the CPU's and of the cluster's exit,
	 * -1: no cluster wakeup; when) */
	int pending_k, pending_kc;
	uint64_t pending_ts;
	/* private, cfg.task_only: whether sel_pid, named sel_comm, is
	 * selected (sel_known: once asked) */
	bool sel_known, sel_yes;
	int32_t sel_pid;
	char sel_comm[EA_COMM_LEN];
	uint32_t near_freq;	/* near_cap is its nearest cap index ... */
	int near_cap;		/* ... (near_freq 0: none yet) */
	uint32_t exact_freq;	/* exact_cap: ea_model_cap_index() of it ... */
	int exact_cap;		/* ... (exact_freq 0: none yet) */
	struct ea_cpu_state st;	/* its state now, as the state stage said */
};

struct ea_cluster_acct {
	struct ea_energy e;
	uint64_t busy_ns, idle_ns;
	uint64_t wakeups;
	struct ea_pstate_acct *pstates;
	struct ea_cstate_acct *cstates;
	/* private */
	uint64_t last_ns;
	/* private: what integrating the cluster reads of its CPUs' states,
	 * valid (agg_ok) until one changes in any of it */
	bool agg_ok;
	int nbusy, npresent, cap, idle;
	int assumed_cap;	/* private: the cap index of an unknown frequency */
	int who[64];	/* the sharers: first 64 busy CPUs, or present if none */
};

struct ea_task_acct {
	int32_t pid;
	char comm[EA_COMM_LEN];
	struct ea_energy e;
	/* runtime_ns: the busy time charged to it, the intervals its busy
	 * energy covers (for [idle], its time busy outside cpuidle states;
	 * [unknown], busy time with no known task) */
	uint64_t runtime_ns, wakeups;	/* wakeups: from the state at the end */
};

struct ea_acct_config {
	/* Frequency charged while a CPU's frequency is unknown (the state at
	 * or above it); 0: the highest OPP of its cluster. */
	uint32_t assumed_khz;
	uint64_t interval_ns;	/* 0: no time-window breakdown */
	bool zero_wakeups;	/* price wakeups at 0 (comparisons) */
	/* No per-task figures (ntasks stays 0): for callers that read only
	 * the CPU, cluster and window breakdowns, which stay the same. */
	bool no_tasks;
	/*
	 * Only some CPUs' share (NULL: every CPU): cpu_only[cpu] for cpu <
	 * ncpu_only. Every CPU is still priced (cluster energy is shared
	 * among a cluster's busy CPUs, cpus[] has every CPU's figures), but
	 * energy reaches the total, the clusters, the tasks and the windows
	 * only as the selected CPUs' pieces (each of their own energy, and
	 * their integer shares of their clusters' and of suspend power), so
	 * the total is exactly the sum of the selected CPUs' energies and
	 * every breakdown still adds up to it. Times and counts of clusters
	 * stay the cluster's own; the unknown, suspended and offline figures
	 * are the selected CPUs'.
	 */
	const bool *cpu_only;
	int ncpu_only;
	/*
	 * Only some tasks' share (NULL: every task; eatrace/filter.h, its
	 * CPU list unused: cpu_only is the CPU filter). Every CPU is still
	 * priced, and each piece of energy still goes to the task the
	 * attribution rule above charges, but it reaches the figures (CPUs,
	 * clusters, P- and C-states, tasks, windows, the total) only when
	 * that task is selected: by its pid, or by its name at the time of
	 * the charge (pseudo-tasks by their names, "[idle]" ...). So the
	 * total is exactly the sum of the selected tasks' energies, and
	 * every breakdown still adds up to it. Times and counts (busy,
	 * idle, residencies, wakeups) stay the CPUs' and clusters' own.
	 * With cpu_only too, a piece counts when both select it. The
	 * selectors that selected a task are marked (matched).
	 */
	struct ea_filter *task_only;
};

struct ea_acct {
	const struct ea_model *model;
	struct ea_acct_config cfg;
	struct ea_energy total;	/* set by ea_acct_done() */
	uint64_t unknown_ns;		/* sum over CPUs, by ea_acct_done() */
	ea_energy_t unknown_energy;	/* ... */
	int unknown_idle_state;		/* the state's cfg.unknown_idle_state */
	uint64_t suspended_ns;	/* the system suspended, by ea_acct_done() */
	uint64_t offline_ns;	/* CPUs offline, summed over CPUs, ditto */
	int ncpus;		/* model CPUs */
	struct ea_cpu_acct *cpus;
	struct ea_cluster_acct *clusters;
	struct ea_task_acct *tasks;	/* pid order of first charge */
	size_t ntasks, task_cap;
	struct ea_acct_slot {
		int32_t pid;
		int32_t idx;	/* tasks[idx - 1]; 0: empty slot */
	} *task_slots;		/* open-addressing hash by pid */
	size_t task_nslots;
	/* private: tasks[] index + 1 of the pids 0 <= pid < 1 << 22 by pid,
	 * in pages (src/energy/acct-tasks.h) */
	int32_t **task_pages;
	struct ea_energy *windows;	/* interval_ns buckets from win start */
	size_t nwindows;
	uint64_t win_start, win_end;
	uint64_t idle_clamped;	/* idle time in a state the model lacks */
	int trace_ncpus;
	char error[256];	/* first error met inside a callback */
	/* private: ea_state_clip_bounds(), CPUs whose cpus[].st is known */
	uint64_t clip_start, clip_end;
	int st_known;
	/* private: no CPU or task filter and no time windows (the fast path
	 * of a task switch applies) */
	bool plain;
	/* private: quantised prices, frequency domain map */
	void *prices;
	int *domains;
	/* private: the state stage during a change (cfg.task_only's names) */
	const struct ea_state *cur_state;
	/* private: the fast path's deferred figures, per CPU and cluster
	 * (src/energy/acct-lazy.h) */
	struct ea_lazy_cpu *lz_cpu;
	struct ea_lazy_cluster *lz_cl;
	int lz_ndefer;	/* clusters deferring (src/energy/acct-defer.h) */
};

int ea_acct_init(struct ea_acct *a, const struct ea_model *model,
		 const struct ea_acct_config *cfg, struct ea_err *err);
void ea_acct_free(struct ea_acct *a);
extern const struct ea_state_ops ea_acct_ops;
/*
 * ea_acct_ops without its task_switch op: every change through
 * cpu_change(), so the per-CPU and per-cluster figures are live after each
 * change. For a caller whose other consumer reads them during the run (a
 * timeline given as a consumer of its own, ea_timeline_ops): ea_acct_ops
 * defers a steady stretch's energies until its end (acct-defer.h), or
 * until ea_acct_sync().
 */
extern const struct ea_state_ops ea_acct_live_ops;
/*
 * The per-CPU and per-cluster figures (struct ea_energy of cpus[] and
 * clusters[]) made what ea_acct_live_ops would have made them by now: the
 * energies ea_acct_ops' task switches deferred added (acct-defer.h). For
 * a caller that reads them during a run between changes
 * (src/output/timeline-acct.c); any change after goes on as before.
 */
void ea_acct_sync(struct ea_acct *a);
/* ea_acct_ops.task_switch (ctx: the struct ea_acct), for a consumer that
 * calls it directly (src/stats/with-acct.c). */
void ea_acct_task_switch(void *ctx, const struct ea_state *s, int cpu,
			 uint64_t since, uint64_t now, int32_t pid);
/* Whether cpu's energy reaches the totals (cfg.cpu_only; true without). */
bool ea_acct_cpu_selected(const struct ea_acct *a, int cpu);
/* Whether a CPU of cluster ci is selected (cfg.cpu_only; true without). */
bool ea_acct_cluster_selected(const struct ea_acct *a, int ci);
/* After ea_state_finish(): task figures, window bounds. 0 or -1 + err. */
int ea_acct_done(struct ea_acct *a, const struct ea_state *s,
		 struct ea_err *err);

/* State configuration the model implies: frequency domains, capacities. */
void ea_acct_state_config(const struct ea_acct *a, struct ea_state_config *cfg);

/* After ea_acct_done(): its tasks by energy, most first (ties: lower pid
 * first), a malloc()ed array of ntasks pointers the caller frees; NULL
 * out of memory (src/energy/tasks-by-energy.c). */
const struct ea_task_acct **ea_acct_tasks_by_energy(const struct ea_acct *a);

ea_energy_t ea_energy_total(const struct ea_energy *e);
ea_energy_t ea_energy_busy(const struct ea_energy *e);
ea_energy_t ea_energy_idle(const struct ea_energy *e);
ea_energy_t ea_energy_wakeup(const struct ea_energy *e);
/* Pseudo-tasks that pay suspended and offline energy (with [idle], pid 0,
 * and [unknown], pid -1). */
#define EA_PID_SUSPENDED (-2)
#define EA_PID_OFFLINE (-3)
void ea_energy_add(struct ea_energy *dst, const struct ea_energy *src);
/* Exact decimal in power_unit x s, trailing zeros trimmed; buf >= 64. */
const char *ea_energy_fmt(char *buf, ea_energy_t e);
double ea_energy_to_double(ea_energy_t e);

/*
 * Whether the topology the trace states (ea_input_info.topo_*, idlestat's
 * header) groups CPUs as the model's clusters do: 1 yes, 0 no, -1 it states
 * none; msg (n bytes) says it in words for the notes.
 */
struct ea_input_info;
int ea_topology_check(const struct ea_model *m, const struct ea_input_info *info,
		      char *msg, size_t n);

#endif
